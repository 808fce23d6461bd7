//! Medians of numbers read from text: one number per line, or one column of
//! delimited lines (CSV). Streams: memory is one line plus the window,
//! whatever the input length. Used by `arcade median` (a file or a pipe) and
//! by callers that hold the text (a pasted column) alike.

use crate::RollingMedian;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

/// Longest line read: a line without a break this long is an error (so a
/// stream with no line breaks cannot fill memory).
pub const MAX_LINE_BYTES: usize = 16 << 20;
pub use arcade_core::input::{QUOTE_CHARS, quote};

/// Where the numbers are on each line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadOptions {
    /// 1-based column of delimited lines; `None`: the whole line.
    pub column: Option<usize>,
    /// Column separator.
    pub delimiter: char,
    /// Skip the first line (a CSV header).
    pub header: bool,
    /// Skip lines that are not numbers instead of failing.
    pub skip_bad: bool,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            column: None,
            delimiter: ',',
            header: false,
            skip_bad: false,
        }
    }
}

/// What a run read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamSummary {
    pub window: usize,
    pub lines: u64,
    /// Numbers read (NaN included).
    pub values: u64,
    /// Lines skipped as not numbers (`skip_bad`).
    pub skipped: u64,
    pub medians: u64,
}

impl StreamSummary {
    /// Notes worth telling a user (skipped lines, too few values), one per line.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        match self.skipped {
            0 => {}
            1 => notes.push("skipped 1 line that was not a number".into()),
            n => notes.push(format!("skipped {n} lines that were not numbers")),
        }
        if self.medians == 0 {
            notes.push(format!(
                "{} values, fewer than the window ({}): no medians",
                self.values, self.window
            ));
        }
        notes
    }
}

/// Why medians could not be computed. Quoted input is cut to
/// [`QUOTE_CHARS`] characters.
#[derive(Debug, thiserror::Error)]
pub enum MedianError {
    #[error("window must be from 1 to {}, got {window}", crate::MAX_WINDOW)]
    Window { window: usize },
    #[error("min_count must be from 1 to the window ({window}), got {min_count}")]
    MinCount { min_count: usize, window: usize },
    #[error(
        "{name}: cannot read line {line}: {}",
        arcade_core::text::io_reason(source)
    )]
    Read {
        name: String,
        line: u64,
        #[source]
        source: io::Error,
    },
    #[error("{name}: line {line}: {why}")]
    BadLine {
        name: String,
        line: u64,
        why: String,
    },
    #[error("{name}: line {line} is longer than {}", arcade_core::text::bytes(MAX_LINE_BYTES as u64))]
    LongLine { name: String, line: u64 },
    #[error(
        "{name}: line {line}: the window holds {held} values and grows to hold up to {window}, \
         but only {:.1} GB of memory is free: use a smaller --window",
        *.free as f64 / 1e9
    )]
    WindowMemory {
        name: String,
        line: u64,
        held: u64,
        window: usize,
        free: u64,
    },
    #[error(
        "the delimiter must be one ASCII character other than a quote or a line break, got {delimiter:?}"
    )]
    Delimiter { delimiter: char },
    #[error("writing the medians: {0}")]
    Write(#[source] io::Error),
}

impl MedianError {
    /// Whether the input (or the settings) is at fault, not the output.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, MedianError::Write(_))
    }
}

/// Why a line holds no number. Borrowed and allocation-free, so skipping a
/// bad line costs nothing; the message is built only for an error.
enum Bad<'l> {
    /// No column `.0`: the line has `.1` fields.
    NoColumn(usize, usize),
    /// Column `.0` is longer than [`MAX_FIELD_BYTES`].
    LongField(usize),
    NotNumber(&'l str),
    /// A number beyond the largest `f64` (1e400), which reads as infinity.
    OutOfRange(&'l str),
    /// An odd number of quotes: a quoted field not closed on its line.
    OpenQuote,
}

impl Bad<'_> {
    fn describe(&self) -> String {
        match self {
            Bad::NoColumn(n, fields) => format!("no column {n} (the line has {fields})"),
            Bad::LongField(n) => {
                format!("column {n} is longer than {MAX_FIELD_BYTES} bytes: not a number")
            }
            Bad::NotNumber(text) => format!("expected a number, found {}", quote(text)),
            Bad::OpenQuote => {
                "a quote is not closed on this line (a quoted field cannot span lines)".into()
            }
            Bad::OutOfRange(text) => format!(
                "{} is beyond the largest number, about 1.8e308",
                quote(text)
            ),
        }
    }
}

/// Longest column read from a delimited line; a number is far shorter.
const MAX_FIELD_BYTES: usize = 4096;

/// Reads the number on each line: the whole line, or one column of it
/// split as RFC 4180 splits a CSV line (a quoted field may hold the
/// delimiter, `"Smith, John"`, and doubled quotes), by `csv-core`.
struct Picker {
    column: Option<usize>,
    reader: csv_core::Reader,
    field: Vec<u8>,
}

impl Picker {
    fn new(options: &ReadOptions) -> Result<Picker, MedianError> {
        let d = options.delimiter;
        if !d.is_ascii() || matches!(d, '"' | '\n' | '\r') {
            return Err(MedianError::Delimiter { delimiter: d });
        }
        Ok(Picker {
            column: options.column,
            // Lines come one at a time without their break, so a carriage
            // return inside one is text, not the end of a record.
            reader: csv_core::ReaderBuilder::new()
                .delimiter(d as u8)
                .terminator(csv_core::Terminator::Any(b'\n'))
                .build(),
            field: vec![0; MAX_FIELD_BYTES],
        })
    }

    /// The number on `line`.
    fn pick<'a>(&'a mut self, line: &'a str) -> Result<f64, Bad<'a>> {
        let text = match self.column {
            None => line,
            Some(n) => self.nth_field(line, n)?,
        };
        let text = text.trim();
        // A quoted whole line, or a field quoted after a space.
        let text = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(text);
        let x = text.parse::<f64>().map_err(|_| Bad::NotNumber(text))?;
        if x.is_infinite() && !text.to_ascii_lowercase().contains("inf") {
            return Err(Bad::OutOfRange(text));
        }
        Ok(x)
    }

    /// Field `n` (1-based) of `line`, unquoted.
    fn nth_field<'a>(&'a mut self, line: &str, n: usize) -> Result<&'a str, Bad<'a>> {
        use csv_core::ReadFieldResult;
        let line = line.trim_end_matches(['\n', '\r']);
        // Quotes pair up on a well-formed line (a doubled one inside a
        // field too); the reader would take an open one to the line's end.
        if line.bytes().filter(|&b| b == b'"').count() % 2 == 1 {
            return Err(Bad::OpenQuote);
        }
        self.reader.reset();
        let mut input = line.as_bytes();
        let (mut fields, mut len) = (0, 0);
        loop {
            // Fields before the one wanted are read into the same buffer
            // and dropped. An empty input tells the reader the line ended.
            let (result, read, wrote) = self.reader.read_field(input, &mut self.field[len..]);
            input = &input[read..];
            len += wrote;
            match result {
                ReadFieldResult::InputEmpty => {}
                ReadFieldResult::OutputFull if fields + 1 == n => return Err(Bad::LongField(n)),
                ReadFieldResult::OutputFull => len = 0,
                ReadFieldResult::Field { record_end } => {
                    fields += 1;
                    if fields == n {
                        // Quotes are ASCII, so the rest of valid UTF-8 is too.
                        return Ok(std::str::from_utf8(&self.field[..len])
                            .expect("a field of a UTF-8 line"));
                    }
                    len = 0;
                    if record_end {
                        return Err(Bad::NoColumn(n, fields));
                    }
                }
                ReadFieldResult::End => return Err(Bad::NoColumn(n, fields)),
            }
        }
    }
}

/// Where medians go: a writer (one per line, flushed whenever the input
/// pauses) or a vector.
pub trait Sink {
    fn median(&mut self, m: f64) -> io::Result<()>;
    /// The input has nothing buffered: the next read may block.
    fn idle(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink for Vec<f64> {
    fn median(&mut self, m: f64) -> io::Result<()> {
        self.push(m);
        Ok(())
    }
}

/// Writes each median on its own line.
pub struct Lines<W: Write>(pub W);

impl<W: Write> Sink for Lines<W> {
    fn median(&mut self, m: f64) -> io::Result<()> {
        writeln!(self.0, "{}", Number(m))
    }
    fn idle(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// A median as text: shortest digits that read back to the same number,
/// in exponent form when plain digits would run long (`1e300`, not 301
/// digits).
pub struct Number(pub f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        let size = x.abs();
        if size == 0.0 || !size.is_finite() || (1e-5..1e16).contains(&size) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

/// Bytes the rolling median holds per value while its window fills (a
/// slot, a heap entry, and the copies a growing vector makes).
const BYTES_PER_HELD: u64 = 48;

/// While a big window fills: at every doubling from 2^22 values held, the
/// free memory (`Some`) when it cannot hold the next doubling, so a window
/// that outgrows the machine is an error rather than a failed allocation.
fn window_room_short(held: u64, window: usize) -> Option<u64> {
    if held < 1 << 22 || !held.is_power_of_two() || held >= window as u64 {
        return None;
    }
    let next = (2 * held).min(window as u64) * BYTES_PER_HELD;
    arcade_core::memory::available().filter(|&free| free < next)
}

/// Reads numbers from `reader` (`name` labels errors) and sends the median
/// of every full window of `window` values to `sink`; `on_values(n)` is
/// called every 65,536 values (for a progress counter).
pub fn stream_medians<R: Read>(
    reader: &mut BufReader<R>,
    name: &str,
    window: usize,
    options: &ReadOptions,
    sink: &mut impl Sink,
    mut on_values: impl FnMut(u64),
) -> Result<StreamSummary, MedianError> {
    check_window(window)?;
    let mut picker = Picker::new(options)?;
    let mut header_left = options.header;
    let mut median = RollingMedian::new(window);
    let mut summary = StreamSummary {
        window,
        ..StreamSummary::default()
    };
    let mut bytes = Vec::new();
    loop {
        if reader.buffer().is_empty() {
            sink.idle().map_err(MedianError::Write)?;
        }
        let line_no = summary.lines + 1;
        if !read_line(reader, &mut bytes, name, line_no)? {
            break;
        }
        summary.lines = line_no;
        let x = match value_of(&bytes, line_no, &mut header_left, &mut picker) {
            Ok(Some(x)) => x,
            Ok(None) => continue,
            Err(_) if options.skip_bad => {
                summary.skipped += 1;
                continue;
            }
            Err(why) => {
                return Err(MedianError::BadLine {
                    name: name.to_string(),
                    line: line_no,
                    why,
                });
            }
        };
        summary.values += 1;
        if summary.values.is_multiple_of(65_536) {
            on_values(summary.values);
        }
        if let Some(free) = window_room_short(summary.values, window) {
            return Err(MedianError::WindowMemory {
                name: name.to_string(),
                line: line_no,
                held: summary.values,
                window,
                free,
            });
        }
        if let Some(m) = median.push(x) {
            summary.medians += 1;
            sink.median(m).map_err(MedianError::Write)?;
        }
    }
    sink.idle().map_err(MedianError::Write)?;
    Ok(summary)
}

/// Reads line `line_no` into `bytes`, refusing one longer than
/// `MAX_LINE_BYTES` before it fills memory; `false` at the end.
fn read_line<R: Read>(
    reader: &mut BufReader<R>,
    bytes: &mut Vec<u8>,
    name: &str,
    line_no: u64,
) -> Result<bool, MedianError> {
    bytes.clear();
    let read = reader
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', bytes)
        .map_err(|source| MedianError::Read {
            name: name.to_string(),
            line: line_no,
            source,
        })?;
    // The limit is on the line, not its newline.
    if bytes.len() - usize::from(bytes.last() == Some(&b'\n')) > MAX_LINE_BYTES {
        return Err(MedianError::LongLine {
            name: name.to_string(),
            line: line_no,
        });
    }
    Ok(read > 0)
}

/// The value on a line, `None` for a line that holds none (blank, or the
/// header while `header_left`), or why the line is bad.
fn value_of(
    bytes: &[u8],
    line_no: u64,
    header_left: &mut bool,
    picker: &mut Picker,
) -> Result<Option<f64>, String> {
    let line = match std::str::from_utf8(bytes) {
        Ok(line) => line,
        Err(_) if std::mem::take(header_left) => return Ok(None),
        Err(e) => {
            return Err(format!(
                "not UTF-8 text (invalid byte at column {})",
                e.valid_up_to() + 1
            ));
        }
    };
    // What spreadsheets and editors add: a byte-order mark before the
    // first line, blank lines (often one at the end). Neither is a value.
    let line = if line_no == 1 {
        line.strip_prefix('\u{feff}').unwrap_or(line)
    } else {
        line
    };
    // The header is the first line with something on it.
    if line.trim().is_empty() || std::mem::take(header_left) {
        return Ok(None);
    }
    picker.pick(line).map(Some).map_err(|bad| bad.describe())
}

/// The medians of every full window of the numbers in `text` (a pasted
/// column or a CSV), with what was read.
pub fn medians_of_text(
    text: &str,
    window: usize,
    options: &ReadOptions,
) -> Result<(Vec<f64>, StreamSummary), MedianError> {
    let mut medians = Vec::new();
    let mut reader = BufReader::new(text.as_bytes());
    let summary = stream_medians(&mut reader, "input", window, options, &mut medians, |_| {})?;
    Ok((medians, summary))
}

fn check_window(window: usize) -> Result<(), MedianError> {
    if window == 0 || window > crate::MAX_WINDOW {
        return Err(MedianError::Window { window });
    }
    Ok(())
}

/// `bottleneck.move_median(data, window, min_count)`: one output per input;
/// output `i` is the median of the numbers among `data[i + 1 - window ..= i]`
/// (the window is shorter at the start), or NaN when fewer than `min_count`
/// of them are numbers (not NaN).
pub fn move_median(data: &[f64], window: usize, min_count: usize) -> Result<Vec<f64>, MedianError> {
    check_window(window)?;
    if min_count == 0 || min_count > window {
        return Err(MedianError::MinCount { min_count, window });
    }
    let mut median = RollingMedian::new(window);
    let mut numbers = 0usize;
    Ok(data
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            numbers += usize::from(!x.is_nan());
            if i >= window && !data[i - window].is_nan() {
                numbers -= 1;
            }
            median.push(x);
            if numbers >= min_count {
                median.median()
            } else {
                f64::NAN
            }
        })
        .collect())
}

impl fmt::Display for StreamSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} lines, {} values, {} skipped, {} medians (window {})",
            self.lines, self.values, self.skipped, self.medians, self.window
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::median_of;
    use proptest::prelude::*;

    #[test]
    fn a_huge_token_is_quoted_cut() {
        let token = "x".repeat(10 << 20);
        let text = format!("1\n{token}\n");
        let e = medians_of_text(&text, 1, &ReadOptions::default()).unwrap_err();
        let message = e.to_string();
        assert!(message.len() < 200, "{} bytes", message.len());
        assert!(
            message.contains("line 2") && message.contains("… (10485760 bytes)"),
            "{message}"
        );
        let short = medians_of_text("1\nthree\n", 1, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(short.ends_with("found \"three\""), "{short}");
    }

    #[test]
    fn skipping_counts_lines_and_columns_and_headers_work() {
        let options = ReadOptions {
            column: Some(2),
            delimiter: ';',
            header: true,
            skip_bad: true,
        };
        let (m, s) = medians_of_text("a;b\n1;10\n2\n3;x\n4;\"30\"\n", 2, &options).unwrap();
        assert_eq!(m, [20.0]);
        assert_eq!((s.lines, s.values, s.skipped, s.medians), (5, 2, 2, 1));
        let e = medians_of_text("1\n2\n", 0, &ReadOptions::default()).unwrap_err();
        assert!(matches!(e, MedianError::Window { window: 0 }));
    }

    #[test]
    fn a_byte_order_mark_and_blank_lines_are_not_values() {
        let clean = medians_of_text("1\n5\n3\n", 2, &ReadOptions::default()).unwrap();
        let saved = medians_of_text("\u{feff}1\r\n\n5\n \n3\r\n\r\n", 2, &ReadOptions::default());
        let (m, s) = saved.unwrap();
        assert_eq!(m, clean.0);
        assert_eq!((s.lines, s.values, s.skipped), (6, 3, 0));
        // Only the first line's mark: one further on is not a number.
        let e = medians_of_text("1\n\u{feff}2\n", 1, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
    }

    #[test]
    fn long_lines_and_non_utf8_are_errors() {
        let text = "7".repeat(MAX_LINE_BYTES + 5);
        let e = medians_of_text(&text, 1, &ReadOptions::default()).unwrap_err();
        assert!(matches!(e, MedianError::LongLine { line: 1, .. }), "{e}");
        // A line of exactly the limit passes, with its newline or without.
        let longest = format!("1{}", " ".repeat(MAX_LINE_BYTES - 1));
        for text in [format!("{longest}\n2\n"), format!("2\n{longest}")] {
            let out = medians_of_text(&text, 1, &ReadOptions::default()).unwrap();
            assert_eq!(out.0.len(), 2);
        }
        let e = medians_of_text(&format!("{longest} \n"), 1, &ReadOptions::default());
        assert!(matches!(e, Err(MedianError::LongLine { line: 1, .. })));
        let mut reader = BufReader::new(&b"1\n\xff\n"[..]);
        let e = stream_medians(
            &mut reader,
            "f",
            1,
            &ReadOptions::default(),
            &mut Vec::new(),
            |_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("f: line 2: not UTF-8"), "{e}");
    }

    /// What spreadsheets write: a quoted field holding the delimiter or a
    /// doubled quote is one column (the column after it was read before).
    #[test]
    fn quoted_fields_keep_their_delimiters() {
        let options = |column| ReadOptions {
            column: Some(column),
            header: true,
            ..ReadOptions::default()
        };
        let text = "name,a,b\n\"Smith, John\",3,4\n\"Doe \"\"J\"\"\",5,\"6\"\n";
        assert_eq!(medians_of_text(text, 1, &options(2)).unwrap().0, [3.0, 5.0]);
        assert_eq!(medians_of_text(text, 1, &options(3)).unwrap().0, [4.0, 6.0]);
        let e = medians_of_text(text, 1, &options(4))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("line 2: no column 4 (the line has 3)"), "{e}");
        let e = medians_of_text(text, 1, &options(1))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("found \"Smith, John\""), "{e}");
    }

    proptest! {
        /// Against an encoder: fields quoted as a CSV writer quotes them
        /// read back as they were, column by column, and one column more
        /// is missing.
        #[test]
        fn fields_read_back_as_written(
            fields in prop::collection::vec("[0-9a ;\"]{0,6}", 1..6),
            semicolon in any::<bool>(),
        ) {
            let delimiter = if semicolon { ';' } else { ' ' };
            let line = fields
                .iter()
                .map(|f| {
                    if f.contains([delimiter, '"']) {
                        format!("\"{}\"", f.replace('"', "\"\""))
                    } else {
                        f.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(&delimiter.to_string());
            // An empty line is no record (the reader skips blank lines).
            prop_assume!(!line.is_empty());
            let options = ReadOptions { column: Some(1), delimiter, ..ReadOptions::default() };
            let mut picker = Picker::new(&options).unwrap();
            for (n, field) in fields.iter().enumerate() {
                let got = picker.nth_field(&format!("{line}\r\n"), n + 1).ok().map(str::to_string);
                prop_assert_eq!(got.as_deref(), Some(field.as_str()), "{:?} column {}", line, n + 1);
            }
            let beyond = picker.nth_field(&line, fields.len() + 1).err().map(|b| b.describe());
            let expected = format!("no column {} (the line has {})", fields.len() + 1, fields.len());
            prop_assert_eq!(beyond, Some(expected));
        }
    }

    #[test]
    fn headers_bytes_and_huge_numbers() {
        let header = ReadOptions {
            header: true,
            ..ReadOptions::default()
        };
        // The header is the first line with something on it.
        let (m, _) = medians_of_text("\n \nvalue\n1\n", 1, &header).unwrap();
        assert_eq!(m, [1.0]);
        // Lines that are not UTF-8 are skipped with --skip-bad (a header
        // in another encoding is skipped as the header).
        let skip = ReadOptions {
            skip_bad: true,
            ..ReadOptions::default()
        };
        let mut reader = BufReader::new(&b"1\n\xb0C\n2\n"[..]);
        let mut medians = Vec::new();
        let s = stream_medians(&mut reader, "f", 1, &skip, &mut medians, |_| {}).unwrap();
        assert_eq!((medians, s.skipped), (vec![1.0, 2.0], 1));
        let mut reader = BufReader::new(&b"\xb0C\n2\n"[..]);
        let mut medians = Vec::new();
        stream_medians(&mut reader, "f", 1, &header, &mut medians, |_| {}).unwrap();
        assert_eq!(medians, [2.0]);
        // A number past f64 is an error; infinity written out is a value.
        let e = medians_of_text("1e400\n", 1, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("beyond the largest number"), "{e}");
        let (m, _) = medians_of_text("-Infinity\ninf\n", 1, &ReadOptions::default()).unwrap();
        assert_eq!(m, [f64::NEG_INFINITY, f64::INFINITY]);
        let bad = ReadOptions {
            delimiter: '"',
            ..ReadOptions::default()
        };
        assert!(matches!(
            medians_of_text("1\n", 1, &bad),
            Err(MedianError::Delimiter { .. })
        ));
    }

    #[test]
    fn numbers_print_short_and_read_back() {
        for (x, text) in [
            (1e300, "1e300"),
            (5e-324, "5e-324"),
            (0.5, "0.5"),
            (-123456789.25, "-123456789.25"),
            (1e16, "1e16"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            let shown = Number(x).to_string();
            assert_eq!(shown, text);
            let back: f64 = shown.parse().unwrap();
            assert!(back == x || (x.is_nan() && back.is_nan()), "{x}");
        }
    }

    #[test]
    fn move_median_matches_bottleneck_examples() {
        // bottleneck.move_median([1, 2, 3, 4], window=2) and min_count=1.
        let m = move_median(&[1.0, 2.0, 3.0, 4.0], 2, 2).unwrap();
        assert!(m[0].is_nan() && m[1..] == [1.5, 2.5, 3.5]);
        let m = move_median(&[1.0, 2.0, 3.0, 4.0], 2, 1).unwrap();
        assert_eq!(m, [1.0, 1.5, 2.5, 3.5]);
        assert!(move_median(&[1.0], 2, 3).is_err());
        assert!(move_median(&[1.0], 0, 1).is_err());
    }

    proptest! {
        /// Against the sort-each-window reference, NaNs included.
        #[test]
        fn move_median_matches_the_naive_one(
            data in prop::collection::vec(prop_oneof![4 => (-20i32..20).prop_map(f64::from), 1 => Just(f64::NAN)], 0..60),
            window in 1usize..12,
            min_count in 1usize..12,
        ) {
            prop_assume!(min_count <= window);
            let got = move_median(&data, window, min_count).unwrap();
            for (i, g) in got.iter().enumerate() {
                let w = &data[(i + 1).saturating_sub(window)..=i];
                let numbers = w.iter().filter(|x| !x.is_nan()).count();
                let want = if numbers >= min_count { median_of(w) } else { f64::NAN };
                prop_assert!(*g == want || (g.is_nan() && want.is_nan()), "i={} got {} want {}", i, g, want);
            }
        }
    }
}
