//! Lists of challenges with their known minimum move counts, one per line:
//! `<code> <number> <minimum moves>` (the format of the official list).

use crate::parse::{ParseError, parse_code};
use crate::position::Position;
use thiserror::Error;

/// One challenge of a list.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub number: u32,
    pub code: String,
    pub position: Position,
    pub minimum: u32,
}

#[derive(Debug, Error)]
pub enum ChallengeError {
    #[error("line {line}: expected `<code> <number> <minimum moves>`")]
    Fields { line: usize },
    #[error("line {line}: {field} {found:?} is not a number")]
    Number {
        line: usize,
        field: &'static str,
        found: String,
    },
    #[error("no challenges: every line is blank or a # comment")]
    Empty,
    #[error("line {line}: code {code}: {source}")]
    Code {
        line: usize,
        code: String,
        source: ParseError,
    },
}

/// The 60 official challenges with their official minimum move counts
/// (`data/jumpin/challenges.txt`, embedded so the library needs no files).
pub const OFFICIAL_LIST: &str = include_str!("../../../data/jumpin/challenges.txt");

/// The 60 official challenges, parsed.
pub fn official() -> Vec<Challenge> {
    parse_challenges(OFFICIAL_LIST)
        .expect("the embedded official list parses (a unit test checks it)")
}

/// Parses a list; blank lines and lines starting with `#` are skipped.
pub fn parse_challenges(text: &str) -> Result<Vec<Challenge>, ChallengeError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split_whitespace().collect();
        let [code, number, minimum] = fields[..] else {
            return Err(ChallengeError::Fields { line });
        };
        let num = |field: &'static str, s: &str| {
            s.parse::<u32>().map_err(|_| ChallengeError::Number {
                line,
                field,
                found: s.to_string(),
            })
        };
        let position = parse_code(code).map_err(|source| ChallengeError::Code {
            line,
            code: code.to_string(),
            source,
        })?;
        out.push(Challenge {
            number: num("challenge number", number)?,
            code: code.to_string(),
            position,
            minimum: num("minimum", minimum)?,
        });
    }
    // An empty list would "check" as a success.
    if out.is_empty() {
        return Err(ChallengeError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_without_challenges_is_an_error() {
        for text in ["", "\n\n", "# only a comment\n"] {
            assert!(matches!(parse_challenges(text), Err(ChallengeError::Empty)));
        }
    }

    #[test]
    fn the_embedded_official_list_has_60_challenges_numbered_1_to_60() {
        let list = official();
        assert_eq!(list.len(), 60);
        assert!(
            list.iter()
                .enumerate()
                .all(|(i, c)| c.number as usize == i + 1)
        );
    }

    #[test]
    fn reads_lines_and_names_bad_ones() {
        let list = parse_challenges("# comment\nC32M102031 1 2\n\nC40B20M304132 2 3\n").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!((list[1].number, list[1].minimum), (2, 3));
        let err = |t: &str| parse_challenges(t).unwrap_err().to_string();
        assert_eq!(
            err("C32M102031 1\n"),
            "line 1: expected `<code> <number> <minimum moves>`"
        );
        assert_eq!(
            err("\nC32M102031 1 two\n"),
            "line 2: minimum \"two\" is not a number"
        );
        assert_eq!(
            err("C32M10203 1 2\n"),
            "line 1: code C32M10203: position 10: expected the row (0-4) of a mushroom, found the end of the code"
        );
    }
}
