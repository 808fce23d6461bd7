//! `arcade median`: numbers, one per line or in a column of delimited
//! lines, and the rolling median over them.
//! Input: byte 0 picks the window (1 to 40), byte 1 the reader's options
//! (column, delimiter, header, --skip-bad); the rest is the text.
//! Property: (numbers may be ±inf, as in bottleneck, or NaN) the streaming medians
//! (`RollingMedian`, what the command prints) and the batch medians
//! (`rolling_median`) both equal a naive sorted-window median of the numbers
//! read, window by window.
#![no_main]

use arcade_fuzz::median::{Field, lines, naive_median};
use arcade_fuzz::same_float;
use arcade_signal::{RollingMedian, rolling_median};
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 || data.len() > MAX_INPUT {
        return;
    }
    let window = 1 + usize::from(data[0]) % 40;
    let opts = data[1];
    let field = Field {
        column: (opts & 1 == 1).then(|| 1 + usize::from(opts >> 1) % 3),
        delimiter: [',', ';', '\t'][usize::from(opts >> 3) % 3],
    };
    let (header, skip_bad) = (opts & 0x20 != 0, opts & 0x40 != 0);
    let Some(text) = arcade_fuzz::text(&data[2..]) else {
        return;
    };
    let mut values = Vec::new();
    let mut streaming = RollingMedian::new(window);
    let mut printed = Vec::new();
    for (i, line) in lines(text).enumerate() {
        if header && i == 0 {
            continue;
        }
        let x = match field.number(line) {
            Ok(x) => x,
            Err(_) if skip_bad => continue,
            Err(_) => break, // the command stops here with an error
        };
        values.push(x);
        if let Some(m) = streaming.push(x) {
            let naive = naive_median(&values[values.len() - window..]);
            assert!(
                same_float(m, naive),
                "window ending at value {}: {m} vs naive {naive}",
                values.len()
            );
            printed.push(m);
        }
    }
    let batch = rolling_median(&values, window);
    assert_eq!(batch.len(), printed.len(), "one median per full window");
    for (i, (&b, &s)) in batch.iter().zip(&printed).enumerate() {
        assert!(same_float(b, s), "window {i}: batch {b} vs streaming {s}");
    }
});
