//! Reading positions: the board format (five lines of `.RFX`, with `H` and
//! `V` for the cells of a horizontal or vertical fox where `F` cells would
//! pair up more than one way) and the challenge-code format
//! (`C31B42G34M302203FE11`; a fourth rabbit, beyond the official game, is `W`).
//!
//! Errors name where the problem is: line and column (from 1) in a board,
//! the character position (from 1) in a code.

use crate::geometry::{CELLS, Cell, SIZE, bit, cell, xy};
use crate::position::{Fox, Position, PositionError};
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    #[error("expected 5 lines, found {found}")]
    LineCount { found: usize },
    #[error("line {line}: expected 5 cells, found {found}")]
    LineLength { line: usize, found: usize },
    #[error(
        "line {line}, column {column}: unknown character {found:?} (expected '.', 'R', 'F', 'H', 'V' or 'X')"
    )]
    UnknownChar {
        line: usize,
        column: usize,
        found: char,
    },
    #[error(
        "line {line}, column {column}: fox cell without a partner (a fox is two adjacent F cells)"
    )]
    UnpairedFox { line: usize, column: usize },
    #[error(
        "line {line}, column {column}: H cell without an H to its right (a horizontal fox is two H cells side by side)"
    )]
    UnpairedAcross { line: usize, column: usize },
    #[error(
        "line {line}, column {column}: V cell without a V below it (a vertical fox is two V cells one above the other)"
    )]
    UnpairedDown { line: usize, column: usize },
    #[error(
        "line {line}, column {column}: fox cells pair up in more than one way \
         (write a horizontal fox's cells as H and a vertical one's as V)"
    )]
    AmbiguousFoxes { line: usize, column: usize },
    #[error("position {position}: {message}")]
    Code { position: usize, message: String },
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// Parses the board format. Trailing blank lines and trailing spaces are
/// ignored; `\r\n` line ends are accepted.
pub fn parse_board(text: &str) -> Result<Position, ParseError> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.len() != SIZE as usize {
        return Err(ParseError::LineCount { found: lines.len() });
    }
    let (mut rabbits, mut mushrooms, mut fox_cells) = (0u32, 0u32, 0u32);
    let (mut across, mut down) = (0u32, 0u32);
    for (y, line) in lines.iter().enumerate() {
        let found = line.chars().count();
        if found != SIZE as usize {
            return Err(ParseError::LineLength { line: y + 1, found });
        }
        for (x, ch) in line.chars().enumerate() {
            let b = bit(cell(x as u8, y as u8));
            match ch {
                '.' => {}
                'R' => rabbits |= b,
                'X' => mushrooms |= b,
                'F' => fox_cells |= b,
                'H' => across |= b,
                'V' => down |= b,
                _ => {
                    return Err(ParseError::UnknownChar {
                        line: y + 1,
                        column: x + 1,
                        found: ch,
                    });
                }
            }
        }
    }
    let mut foxes = pair_along(across, 1)?;
    foxes.extend(pair_along(down, SIZE)?);
    foxes.extend(pair_foxes(fox_cells)?);
    Ok(Position::new(rabbits, mushrooms, foxes)?)
}

/// Pairs cells of foxes that all lie one way (`step` 1: across, SIZE:
/// down): in reading order, each cell with the next one along.
fn pair_along(mut cells: u32, step: Cell) -> Result<Vec<Fox>, ParseError> {
    let mut foxes = Vec::new();
    while cells != 0 {
        let c = cells.trailing_zeros() as Cell;
        let (x, y) = xy(c);
        let room = if step == 1 {
            x + 1 < SIZE
        } else {
            y + 1 < SIZE
        };
        if !room || cells & bit(c + step) == 0 {
            let (line, column) = (y as usize + 1, x as usize + 1);
            return Err(match step {
                1 => ParseError::UnpairedAcross { line, column },
                _ => ParseError::UnpairedDown { line, column },
            });
        }
        foxes.push(Fox::from_cells(c, c + step).expect("neighbours"));
        cells &= !(bit(c) | bit(c + step));
    }
    Ok(foxes)
}

/// Whether the fox cells `cells` pair up more than one way as plain `F`s.
pub(crate) fn foxes_ambiguous(cells: u32) -> bool {
    matches!(pair_foxes(cells), Err(ParseError::AmbiguousFoxes { .. }))
}

/// Splits fox cells into foxes (dominoes); there must be exactly one way.
fn pair_foxes(fox_cells: u32) -> Result<Vec<Fox>, ParseError> {
    let mut search = Pairing::default();
    let mut chosen = Vec::new();
    search.run(fox_cells, &mut chosen);
    let at = |c: Cell| {
        let (x, y) = xy(c);
        (y as usize + 1, x as usize + 1)
    };
    if let Some(c) = search.ambiguous_at {
        let (line, column) = at(c);
        return Err(ParseError::AmbiguousFoxes { line, column });
    }
    match search.found {
        Some(foxes) => Ok(foxes),
        None => {
            let (line, column) = at(search.stuck_at);
            Err(ParseError::UnpairedFox { line, column })
        }
    }
}

/// Backtracking over domino tilings of the fox cells: the first unpaired cell
/// in reading order pairs with its right or lower neighbour.
#[derive(Default)]
struct Pairing {
    found: Option<Vec<Fox>>,
    ambiguous_at: Option<Cell>,
    /// The furthest cell (reading order) that could not be paired.
    stuck_at: Cell,
}

impl Pairing {
    /// Number of tilings of `rest` (stopping at 2).
    fn run(&mut self, rest: u32, chosen: &mut Vec<Fox>) -> u32 {
        if rest == 0 {
            self.found.get_or_insert_with(|| chosen.clone());
            return 1;
        }
        let c = rest.trailing_zeros() as Cell;
        let (x, y) = xy(c);
        let partners = [
            (x + 1 < SIZE).then(|| c + 1),
            (y + 1 < SIZE).then(|| c + SIZE),
        ];
        let mut total = 0;
        let mut succeeded = 0;
        for p in partners.into_iter().flatten() {
            if rest & bit(p) == 0 {
                continue;
            }
            chosen.push(Fox::from_cells(c, p).expect("neighbours"));
            let n = self.run(rest & !bit(c) & !bit(p), chosen);
            chosen.pop();
            total += n;
            succeeded += u32::from(n > 0);
            if self.ambiguous_at.is_some() {
                return 2;
            }
        }
        if succeeded == 2 {
            self.ambiguous_at = Some(c);
        }
        if total == 0 {
            self.stuck_at = self.stuck_at.max(c);
        }
        total.min(2)
    }
}

/// Parses a challenge code: `C`, `B`, `G` (and `W`) each followed by a rabbit's `xy`;
/// `M` followed by mushroom `xy` pairs; `F` followed by `{N|S|E|W}xy`
/// entries, the head of a fox and the way it faces (the tail is behind).
pub fn parse_code(code: &str) -> Result<Position, ParseError> {
    let mut reader = CodeReader {
        chars: code.trim().chars().collect(),
        at: 0,
        taken: 0,
    };
    if reader.chars.is_empty() {
        return Err(reader.error(0, "the code is empty"));
    }
    let (mut rabbits, mut mushrooms, mut foxes) = (0u32, 0u32, Vec::new());
    let mut colours_seen = String::new();
    while let Some(letter) = reader.peek() {
        let start = reader.at;
        reader.at += 1;
        match letter {
            'C' | 'B' | 'G' | 'W' => {
                if colours_seen.contains(letter) {
                    return Err(reader.error(start, &format!("rabbit {letter} appears twice")));
                }
                colours_seen.push(letter);
                let c = reader.cell("a rabbit")?;
                reader.claim(start, c, "rabbit")?;
                rabbits |= bit(c);
            }
            'M' => {
                let mut any = false;
                while reader.peek().is_some_and(|ch| ch.is_ascii_digit()) {
                    let here = reader.at;
                    let c = reader.cell("a mushroom")?;
                    reader.claim(here, c, "mushroom")?;
                    mushrooms |= bit(c);
                    any = true;
                }
                if !any {
                    return Err(reader.expected("mushroom coordinates after 'M'"));
                }
            }
            'F' => {
                let mut any = false;
                while let Some(facing @ ('N' | 'S' | 'E' | 'W')) = reader.peek() {
                    let here = reader.at;
                    reader.at += 1;
                    let head = reader.cell("a fox head")?;
                    let fox = fox_from_head(head, facing).ok_or_else(|| {
                        let (x, y) = xy(head);
                        reader.error(
                            here,
                            &format!(
                                "fox {facing}{x}{y} leaves the board (its tail is behind the head)"
                            ),
                        )
                    })?;
                    for c in fox.cells() {
                        reader.claim(here, c, "fox")?;
                    }
                    foxes.push(fox);
                    any = true;
                }
                if !any {
                    return Err(reader.expected("a fox (N, S, E or W and its head's xy) after 'F'"));
                }
            }
            other => {
                return Err(reader.error(
                    start,
                    &format!("unexpected {other:?} (expected C, B, G, W, M or F)"),
                ));
            }
        }
    }
    Ok(Position::new(rabbits, mushrooms, foxes)?)
}

/// The fox whose head is `head`, facing `facing`; its tail is the cell behind.
fn fox_from_head(head: Cell, facing: char) -> Option<Fox> {
    let (x, y) = (xy(head).0 as i8, xy(head).1 as i8);
    let (tx, ty) = match facing {
        'N' => (x, y + 1),
        'S' => (x, y - 1),
        'E' => (x - 1, y),
        _ => (x + 1, y),
    };
    let on_board = |v: i8| (0..SIZE as i8).contains(&v);
    if !(on_board(tx) && on_board(ty)) {
        return None;
    }
    Fox::from_cells(head, cell(tx as u8, ty as u8))
}

struct CodeReader {
    chars: Vec<char>,
    at: usize,
    /// Cells already used, to report overlaps where they happen.
    taken: u32,
}

impl CodeReader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn error(&self, index: usize, message: &str) -> ParseError {
        ParseError::Code {
            position: index + 1,
            message: message.to_string(),
        }
    }

    fn expected(&self, what: &str) -> ParseError {
        let found = match self.peek() {
            Some(ch) => format!("{ch:?}"),
            None => "the end of the code".to_string(),
        };
        self.error(self.at, &format!("expected {what}, found {found}"))
    }

    /// Reads an `xy` pair of digits 0-4.
    fn cell(&mut self, what: &str) -> Result<Cell, ParseError> {
        let mut xy = [0u8; 2];
        for (i, axis) in ["column", "row"].iter().enumerate() {
            match self.peek() {
                Some(d @ '0'..='4') => xy[i] = d as u8 - b'0',
                Some(d @ '5'..='9') => {
                    return Err(self.error(
                        self.at,
                        &format!("{axis} {d} of {what} is off the board (expected 0-4)"),
                    ));
                }
                _ => return Err(self.expected(&format!("the {axis} (0-4) of {what}"))),
            }
            self.at += 1;
        }
        debug_assert!(cell(xy[0], xy[1]) < CELLS);
        Ok(cell(xy[0], xy[1]))
    }

    /// Marks a cell as used by the piece that starts at `index`.
    fn claim(&mut self, index: usize, c: Cell, piece: &str) -> Result<(), ParseError> {
        if self.taken & bit(c) != 0 {
            let (x, y) = xy(c);
            return Err(self.error(index, &format!("{piece} overlaps another piece at {x}{y}")));
        }
        self.taken |= bit(c);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHALLENGE_60: &str = "...X.\nFF.R.\n..X.R\nX....\n...R.\n";

    #[test]
    fn board_and_code_agree_on_challenge_60() {
        let a = parse_board(CHALLENGE_60).unwrap();
        let b = parse_code("C31B42G34M302203FE11").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), CHALLENGE_60);
    }

    #[test]
    fn heads_face_the_named_way() {
        // S31: head (3,1) faces south, tail (3,0); N13: head (1,3), tail (1,4).
        let p = parse_code("C00FS31N13W22").unwrap();
        assert_eq!(p.to_string(), "R..F.\n...F.\n..FF.\n.F...\n.F...\n");
    }

    #[test]
    fn board_errors_name_line_and_column() {
        let err = |t: &str| parse_board(t).unwrap_err().to_string();
        assert_eq!(err("....\n"), "expected 5 lines, found 1");
        assert_eq!(
            err("R....\n......\n.....\n.....\n.....\n"),
            "line 2: expected 5 cells, found 6"
        );
        assert!(
            err("R....\n.....\n..?..\n.....\n.....\n").starts_with("line 3, column 3: unknown")
        );
        assert!(
            err("R....\n.....\n.F...\n.....\n.....\n")
                .starts_with("line 3, column 2: fox cell without")
        );
        assert!(
            err("R.FFF\n.....\n.....\n.....\n.....\n")
                .starts_with("line 1, column 5: fox cell without")
        );
        assert!(
            err("R....\n.FF..\n.FF..\n.....\n.....\n")
                .starts_with("line 2, column 2: fox cells pair up in more than one way")
        );
        assert_eq!(
            err(".....\n.....\n.....\n.....\n.....\n"),
            "there is no rabbit"
        );
    }

    #[test]
    fn h_and_v_say_which_way_side_by_side_foxes_lie() {
        let across = parse_board("R....\n.HH..\n.HH..\n.....\n.....\n").unwrap();
        let down = parse_board("R....\n.VV..\n.VV..\n.....\n.....\n").unwrap();
        assert_ne!(across, down);
        assert_eq!(across.to_string(), "R....\n.HH..\n.HH..\n.....\n.....\n");
        assert_eq!(down.to_string(), "R....\n.VV..\n.VV..\n.....\n.....\n");
        // Boards that pair one way keep writing F.
        let plain = parse_board("FFFFR\n.....\nF....\nF....\n.....\n").unwrap();
        assert_eq!(plain.to_string(), "FFFFR\n.....\nF....\nF....\n.....\n");
        assert!(matches!(
            parse_board("R....\n.H...\n.H...\n.....\n.....\n"),
            Err(ParseError::UnpairedAcross { line: 2, column: 2 })
        ));
        let e = parse_board("HV...\nHV...\n.R...\n.....\n.....\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: H cell without an H to its right (a horizontal fox is two H cells side by side)"
        );
        assert!(matches!(
            parse_board("R....\n.VV..\n.....\n.....\n.....\n"),
            Err(ParseError::UnpairedDown { line: 2, column: 2 })
        ));
    }

    /// Every position reads back from its board and from its code, four
    /// rabbits included (their code once was None, and boards with two foxes
    /// side by side did not read back).
    #[test]
    fn random_positions_read_back_from_board_and_code() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u32| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % u64::from(n)) as u32
        };
        let (mut checked, mut spelled, mut four) = (0, 0, 0);
        while checked < 20_000 {
            let mut used = 0u32;
            let mut foxes = Vec::new();
            for _ in 0..next(4) {
                let c = next(CELLS as u32) as Cell;
                let other = if next(2) == 0 { c + 1 } else { c + SIZE };
                match Fox::from_cells(c, other) {
                    Some(f) if used & f.mask() == 0 => {
                        used |= f.mask();
                        foxes.push(f);
                    }
                    _ => {}
                }
            }
            let (rabbit_count, mushroom_count) = (1 + next(4), next(4));
            let mut place = |count: u32| {
                let mut mask = 0u32;
                for _ in 0..count {
                    let b = bit(next(CELLS as u32) as Cell);
                    if used & b == 0 {
                        used |= b;
                        mask |= b;
                    }
                }
                mask
            };
            let (rabbits, mushrooms) = (place(rabbit_count), place(mushroom_count));
            let Ok(p) = Position::new(rabbits, mushrooms, foxes) else {
                continue;
            };
            let board = p.to_string();
            assert_eq!(parse_board(&board).as_ref(), Ok(&p), "{board}");
            let code = p.to_code().expect("at most four rabbits");
            assert_eq!(parse_code(&code).as_ref(), Ok(&p), "{code}");
            checked += 1;
            spelled += usize::from(board.contains('H') || board.contains('V'));
            four += usize::from(rabbits.count_ones() == 4);
        }
        // The cases the fixes are for were really met.
        assert!(
            spelled > 100 && four > 100,
            "{spelled} spelled, {four} with four rabbits"
        );
    }

    #[test]
    fn unambiguous_runs_pair_up() {
        // Four in a row pair one way; an L of three plus one pairs one way.
        let p = parse_board("FFFF.\n.R...\n.....\nFF...\nF....\n");
        assert!(matches!(
            p,
            Err(ParseError::UnpairedFox { line: 5, column: 1 })
        ));
        let p = parse_board("FFFFR\n.....\nF....\nF....\n.....\n").unwrap();
        assert_eq!(p.foxes().len(), 3);
    }

    #[test]
    fn code_errors_name_the_position() {
        let err = |t: &str| parse_code(t).unwrap_err().to_string();
        assert_eq!(
            err("C3"),
            "position 3: expected the row (0-4) of a rabbit, found the end of the code"
        );
        assert_eq!(
            err("C31Q"),
            "position 4: unexpected 'Q' (expected C, B, G, W, M or F)"
        );
        assert_eq!(
            err("C31M3"),
            "position 6: expected the row (0-4) of a mushroom, found the end of the code"
        );
        assert_eq!(
            err("C31M31"),
            "position 5: mushroom overlaps another piece at 31"
        );
        assert_eq!(
            err("C31FE01"),
            "position 5: fox E01 leaves the board (its tail is behind the head)"
        );
        assert_eq!(
            err("C71"),
            "position 2: column 7 of a rabbit is off the board (expected 0-4)"
        );
        assert_eq!(err("C31C00"), "position 4: rabbit C appears twice");
        assert_eq!(
            err("C31F"),
            "position 5: expected a fox (N, S, E or W and its head's xy) after 'F', found the end of the code"
        );
        assert_eq!(err("M00"), "there is no rabbit");
        assert_eq!(err(""), "position 1: the code is empty");
    }
}
