//! `arcade median`: numbers, one per line or in a column of delimited
//! lines, and the rolling median over them.
//! Input: byte 0 picks the window (1 to 40), byte 1 the reader's options
//! (column, delimiter, header, --skip-bad), byte 2 `min_count`; the rest is
//! the text.
//! Properties: the library's reader (`medians_of_text`, what the command
//! runs) fails exactly where a reference reader finds a bad line, reads the
//! same numbers (±inf and NaN included), and prints for every full window
//! the naive sorted-window median; `move_median` (bottleneck's rule) gives
//! one output per number, the naive median of the numbers in the window
//! when at least `min_count` of them are not NaN, else NaN.
#![no_main]

use arcade_fuzz::median::{Field, lines, naive_median};
use arcade_fuzz::same_float;
use arcade_signal::{ReadOptions, medians_of_text, move_median};
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 || data.len() > MAX_INPUT {
        return;
    }
    let window = 1 + usize::from(data[0]) % 40;
    let opts = data[1];
    let min_count = 1 + usize::from(data[2]) % window;
    let field = Field {
        column: (opts & 1 == 1).then(|| 1 + usize::from(opts >> 1) % 3),
        delimiter: [',', ';', '\t'][usize::from(opts >> 3) % 3],
    };
    let options = ReadOptions {
        column: field.column,
        delimiter: field.delimiter,
        header: opts & 0x20 != 0,
        skip_bad: opts & 0x40 != 0,
    };
    let Some(text) = arcade_fuzz::text(&data[3..]) else {
        return;
    };
    let (values, bad_line) = reference_read(text, &field, &options);
    let read = medians_of_text(text, window, &options);
    let (medians, summary) = match (read, bad_line) {
        (Err(e), Some(_)) => {
            assert!(e.is_bad_input(), "a bad line is the input's fault: {e}");
            return;
        }
        (Err(e), None) => panic!("reader failed where the reference did not: {e}"),
        (Ok(_), Some(line)) => panic!("reader accepted bad line {line}"),
        (Ok(ok), None) => ok,
    };
    assert_eq!(summary.values, values.len() as u64, "numbers read");
    assert_eq!(medians.len(), values.len().saturating_sub(window - 1));
    for (i, &m) in medians.iter().enumerate() {
        let naive = naive_median(&values[i..i + window]);
        assert!(same_float(m, naive), "window {i}: {m} vs naive {naive}");
    }
    let moving = move_median(&values, window, min_count).expect("valid window and min_count");
    assert_eq!(moving.len(), values.len(), "one output per number");
    for (i, &m) in moving.iter().enumerate() {
        let span = &values[(i + 1).saturating_sub(window)..=i];
        let numbers = span.iter().filter(|x| !x.is_nan()).count();
        let naive = if numbers >= min_count {
            naive_median(span)
        } else {
            f64::NAN
        };
        assert!(same_float(m, naive), "move_median at {i}: {m} vs {naive}");
    }
});

/// The numbers the reference reader takes from `text`, and the first bad
/// line (1-based) when bad lines are not skipped.
fn reference_read(text: &str, field: &Field, options: &ReadOptions) -> (Vec<f64>, Option<usize>) {
    let mut values = Vec::new();
    let mut header = options.header;
    for (i, line) in lines(text).enumerate() {
        // A spreadsheet's byte-order mark before the first line, and blank
        // lines, are no values and no errors; the header is the first line
        // with something on it.
        let line = if i == 0 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        if line.trim().is_empty() {
            continue;
        }
        if std::mem::take(&mut header) {
            continue;
        }
        match field.number(line) {
            Ok(x) => values.push(x),
            Err(_) if options.skip_bad => {}
            Err(_) => return (values, Some(i + 1)),
        }
    }
    (values, None)
}
