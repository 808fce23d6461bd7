//! Operation records: `N` starts a piece, then `Lk`, `Rk`, `Dk`, `Ck` repeat
//! left, right, down or rotate k ≥ 1 times; tokens are comma-separated; a
//! piece has between 1 and 100 operations, except that the last may have none
//! (the game then locks it where it appears). Example: `N,R1,D19,N,C1,L1,D18`.

use crate::movegen::Op;
use std::fmt;
use thiserror::Error;

/// The published second-place record of the 2021 contest (external track),
/// which the official replay scores 1,378,178 (`data/geek-tetris/`).
pub const PUBLISHED_1378178: &str = include_str!("../../../../data/geek-tetris/record-1378178.txt");

/// arcade's own best record, 1,428,236 (`crates/tetris/records/`, made by
/// `arcade geek solve` and `arcade geek splice`; the commands are in
/// `docs/results/geek.md`).
pub const ARCADE_BEST: &str = include_str!("../../records/geek-1428236.txt");

/// Most operations one piece may have.
pub const MAX_OPS_PER_PIECE: u32 = 100;

/// A parsed record: for every piece, its runs of operations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub pieces: Vec<Vec<(Op, u32)>>,
}

/// A record that breaks the format, located by 1-based token number.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("token {index} ({token:?}): {rule}")]
pub struct RecordError {
    pub index: usize,
    pub token: String,
    pub rule: String,
}

/// A token as shown in an error: at most 40 characters, then "…" (a
/// 10 MB token must not become a 10 MB error line).
fn shorten(token: &str) -> String {
    match token.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &token[..cut]),
        None => token.to_string(),
    }
}

fn op_letter(op: Op) -> char {
    match op {
        Op::Left => 'L',
        Op::Right => 'R',
        Op::Down => 'D',
        Op::Clockwise => 'C',
        Op::CounterClockwise => unreachable!("the challenge has no counter-clockwise turn"),
    }
}

/// A record file that cannot be used: unreadable, too big, not text, or
/// breaking the format.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error(transparent)]
    Input(#[from] arcade_core::input::InputError),
    /// The message names the problem itself (not as a source), so an error
    /// chain prints it once.
    #[error("{path}: {problem}")]
    Format { path: String, problem: RecordError },
}

/// An operation token (`L`, `R`, `D` or `C` and a count of at least 1), or
/// the rule it breaks.
fn parse_op(token: &str) -> Result<(Op, u32), String> {
    let mut chars = token.chars();
    let op = match chars.next() {
        Some('L') => Op::Left,
        Some('R') => Op::Right,
        Some('D') => Op::Down,
        Some('C') => Op::Clockwise,
        _ => return Err("expected N, or L, R, D or C followed by a count".into()),
    };
    let digits = chars.as_str();
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match digits.parse::<u32>() {
        Ok(k) if whole && k >= 1 => Ok((op, k)),
        // Too many digits for a u32 is still a count: say what is wrong with it.
        _ if whole && !digits.trim_start_matches('0').is_empty() => Err(format!(
            "the count is too large (a piece has at most {MAX_OPS_PER_PIECE} operations)"
        )),
        _ => Err("the count after the letter must be a whole number ≥ 1".into()),
    }
}

impl Record {
    /// Reads and parses a record file (`-`: standard input), bounded by
    /// [`arcade_core::input::MAX_INPUT_BYTES`].
    pub fn load(path: &std::path::Path) -> Result<Record, LoadError> {
        use arcade_core::input::{MAX_INPUT_BYTES, display_name, read_text};
        let text = read_text(path, MAX_INPUT_BYTES)?;
        Record::parse(&text).map_err(|problem| LoadError::Format {
            path: display_name(path),
            problem,
        })
    }

    /// Parses and validates a record.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut record = Record::default();
        let mut piece_ops = 0u32;
        let mut piece_start = 0usize;
        // A byte-order mark is what some Windows editors put first.
        let text = text.trim_start_matches('\u{feff}');
        let text = text.trim();
        if text.is_empty() {
            return Err(RecordError {
                index: 1,
                token: String::new(),
                rule: "the record is empty".into(),
            });
        }
        let tokens: Vec<&str> = text.split(',').map(str::trim).collect();
        let err = |index: usize, token: &str, rule: String| RecordError {
            index: index + 1,
            token: shorten(token),
            rule,
        };
        for (i, &token) in tokens.iter().enumerate() {
            // A record written one token or one piece a line would otherwise
            // fail on a token such as "D19\nN" with a rule that misleads.
            if token.contains(char::is_whitespace) {
                return Err(err(
                    i,
                    token,
                    "tokens are separated by commas, not by spaces or line breaks".into(),
                ));
            }
            if token.is_empty() {
                // As the official validator does, even for one comma at the
                // end: a record it refuses must not pass here.
                return Err(err(
                    i,
                    token,
                    "an empty token (two commas in a row, or a comma at the end)".into(),
                ));
            }
            if token == "N" {
                if !record.pieces.is_empty() && piece_ops == 0 {
                    return Err(err(
                        piece_start,
                        "N",
                        "a piece needs at least one operation".into(),
                    ));
                }
                record.pieces.push(Vec::new());
                piece_ops = 0;
                piece_start = i;
                continue;
            }
            if record.pieces.is_empty() {
                return Err(err(i, token, "the record must start with N".into()));
            }
            let (op, count) = parse_op(token).map_err(|rule| err(i, token, rule))?;
            piece_ops = piece_ops.saturating_add(count);
            if piece_ops > MAX_OPS_PER_PIECE {
                return Err(err(
                    i,
                    token,
                    format!(
                        "piece {} has more than {MAX_OPS_PER_PIECE} operations",
                        record.pieces.len()
                    ),
                ));
            }
            record
                .pieces
                .last_mut()
                .expect("a piece was started")
                .push((op, count));
        }
        // A last piece without operations is allowed after another piece:
        // the official game writes its `N` before it tries the spawn, so a
        // game that ended by a blocked spawn ends that way; if the spawn is
        // free, the piece locks where it appeared.
        if piece_ops == 0 && record.pieces.len() == 1 {
            return Err(err(
                piece_start,
                "N",
                "a piece needs at least one operation".into(),
            ));
        }
        Ok(record)
    }

    /// Appends a piece from single operations, merging repeats into runs.
    /// Panics on an empty or too long list: callers produce valid pieces.
    pub fn push_piece(&mut self, ops: &[Op]) {
        assert!(
            !ops.is_empty() && ops.len() as u32 <= MAX_OPS_PER_PIECE,
            "a piece needs 1 to 100 operations, got {}",
            ops.len()
        );
        let mut runs: Vec<(Op, u32)> = Vec::new();
        for &op in ops {
            match runs.last_mut() {
                Some((last, n)) if *last == op => *n += 1,
                _ => runs.push((op, 1)),
            }
        }
        self.pieces.push(runs);
    }

    /// The operations of piece `i`, one by one.
    pub fn ops(&self, i: usize) -> impl Iterator<Item = Op> + '_ {
        self.pieces[i]
            .iter()
            .flat_map(|&(op, n)| std::iter::repeat_n(op, n as usize))
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for piece in &self.pieces {
            write!(f, "{}N", if first { "" } else { "," })?;
            first = false;
            for &(op, n) in piece {
                write!(f, ",{}{n}", op_letter(op))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_example_and_prints_it_back() {
        let text = "N,R1,D19,N,C1,L1,D18";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.pieces.len(), 2);
        assert_eq!(
            r.pieces[1],
            vec![(Op::Clockwise, 1), (Op::Left, 1), (Op::Down, 18)]
        );
        assert_eq!(r.to_string(), text);
        assert_eq!(r.ops(0).count(), 20);
        // Saved by an editor that puts a byte-order mark first: the same record.
        assert_eq!(Record::parse(&format!("\u{feff}{text}\n")).unwrap(), r);
    }

    #[test]
    fn format_errors_name_the_token_and_the_rule() {
        let e = Record::parse("R1,N,D3").unwrap_err();
        assert_eq!(
            (e.index, e.rule.as_str()),
            (1, "the record must start with N")
        );
        let e = Record::parse("N,D3,N,N,D1").unwrap_err();
        assert_eq!(
            (e.index, e.rule.as_str()),
            (3, "a piece needs at least one operation")
        );
        let e = Record::parse("N,D0").unwrap_err();
        assert_eq!(e.index, 2);
        assert!(e.rule.contains("≥ 1"));
        let e = Record::parse("N,X3").unwrap_err();
        assert!(e.rule.starts_with("expected N"));
        let e = Record::parse("N,D60,L41").unwrap_err();
        assert_eq!(e.index, 3);
        assert!(e.rule.contains("more than 100"));
        assert_eq!(
            Record::parse(" \n").unwrap_err().rule,
            "the record is empty"
        );
        let e = Record::parse("N").unwrap_err();
        assert_eq!(
            (e.index, e.rule.as_str()),
            (1, "a piece needs at least one operation")
        );
        // A bare last N is how the official game ends a record whose next
        // spawn was blocked: accepted, and written back the same way.
        let bare = Record::parse("N,D2,N").unwrap();
        assert_eq!((bare.pieces.len(), bare.ops(1).count()), (2, 0));
        assert_eq!(bare.to_string(), "N,D2,N");
        assert!(Record::parse("N,D+3").is_err());
        assert!(Record::parse("N,D100").is_ok());
        assert!(Record::parse(" N , D1 \n").is_ok());
        // The official validator refuses empty tokens, a trailing comma too.
        for text in ["N,D1,\n", "N,D1,,N,D1", ",N,D1"] {
            let e = Record::parse(text).unwrap_err();
            assert!(e.rule.starts_with("an empty token"), "{text:?}: {e}");
        }
        let e = Record::parse("N,L99999999999999999999").unwrap_err();
        assert_eq!(
            e.rule,
            "the count is too large (a piece has at most 100 operations)"
        );
        let e = Record::parse("N,R1,D19\nN,C1,D18").unwrap_err();
        assert_eq!(e.index, 3);
        assert_eq!(e.token, "D19\nN");
        assert!(e.rule.starts_with("tokens are separated by commas"));
        let e = Record::parse("N\nR1\nD19").unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e.rule.starts_with("tokens are separated by commas"));
    }

    #[test]
    fn push_piece_merges_runs() {
        let mut r = Record::default();
        r.push_piece(&[
            Op::Clockwise,
            Op::Left,
            Op::Left,
            Op::Down,
            Op::Down,
            Op::Down,
        ]);
        assert_eq!(r.to_string(), "N,C1,L2,D3");
    }
}
