//! What a player sees: hidden cells, revealed numbers and known mines, plus the
//! total mine count. The solver and the analyser work on this alone.
//!
//! Text format (the `analyze` file): `#` starts a comment, blank lines are
//! skipped; the first line is `<width> <height> <mines>` (mines on the whole
//! board, known ones included), then `height` rows of `width` characters:
//! `.` hidden, `0`–`8` a revealed number, `*` a known mine.

use crate::grid::{Grid, MAX_SIDE};
use arcade_core::input::quote;

/// Largest position file read: a 1000×1000 board (the largest grid) takes
/// about 1 MB, so 16 MiB leaves room for comments and still bounds memory.
pub const MAX_POSITION_BYTES: u64 = 16 << 20;
use std::fmt::Write as _;
use thiserror::Error;

/// One cell as the player knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Hidden,
    /// Revealed, showing this many adjacent mines.
    Number(u8),
    /// Known (flagged) mine.
    Mine,
}

impl Cell {
    pub fn to_char(self) -> char {
        match self {
            Cell::Hidden => '.',
            Cell::Number(n) => char::from(b'0' + n),
            Cell::Mine => '*',
        }
    }
}

/// A malformed position file: the 1-based line and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// A player's view of a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    grid: Grid,
    mines: usize,
    cells: Vec<Cell>,
}

impl Position {
    /// Everything hidden.
    pub fn new(grid: Grid, mines: usize) -> Position {
        Position {
            grid,
            mines,
            cells: vec![Cell::Hidden; grid.len()],
        }
    }

    #[inline]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Mines on the whole board, known ones included.
    #[inline]
    pub fn mines(&self) -> usize {
        self.mines
    }

    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        self.cells[i]
    }

    #[inline]
    pub fn set(&mut self, i: usize, cell: Cell) {
        self.cells[i] = cell;
    }

    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    #[inline]
    pub fn is_hidden(&self, i: usize) -> bool {
        self.cells[i] == Cell::Hidden
    }

    /// Whether cell `i` is next to a revealed number (on the frontier, if
    /// hidden).
    pub fn borders_number(&self, i: usize) -> bool {
        self.grid
            .neighbours(i)
            .any(|n| matches!(self.cells[n], Cell::Number(_)))
    }

    /// Known mines on the board.
    pub fn known_mines(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Mine).count()
    }

    /// Hidden cells on the board.
    pub fn hidden(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Hidden).count()
    }

    /// Parses the text format described in the module docs.
    pub fn parse(text: &str) -> Result<Position, ParseError> {
        // A byte-order mark is what some Windows editors put first.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty());
        let (hline, header) = lines.next().ok_or_else(|| ParseError {
            line: 1,
            message: "empty file: expected `<width> <height> <mines>`".into(),
        })?;
        let (grid, mines) = parse_header(header).map_err(|message| ParseError {
            line: hline,
            message,
        })?;
        let mut pos = Position::new(grid, mines);
        let mut last = hline;
        for y in 0..grid.height() {
            let (line, row) = lines.next().ok_or_else(|| ParseError {
                line: last + 1,
                message: format!("expected {} rows of the board, found {y}", grid.height()),
            })?;
            last = line;
            let cells =
                parse_row(row, y, grid.width()).map_err(|message| ParseError { line, message })?;
            for (x, cell) in cells.into_iter().enumerate() {
                pos.set(grid.index(x, y), cell);
            }
        }
        if let Some((line, extra)) = lines.next() {
            return Err(ParseError {
                line,
                message: format!(
                    "unexpected text after the {} board rows: {}",
                    grid.height(),
                    quote(extra)
                ),
            });
        }
        let known = pos.known_mines();
        if known > mines {
            return Err(ParseError {
                line: hline,
                message: format!("the board shows {known} known mines but the header says {mines}"),
            });
        }
        Ok(pos)
    }

    /// The text format: header line then the rows.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} {} {}",
            self.grid.width(),
            self.grid.height(),
            self.mines
        );
        for y in 0..self.grid.height() {
            for x in 0..self.grid.width() {
                s.push(self.cells[self.grid.index(x, y)].to_char());
            }
            s.push('\n');
        }
        s
    }
}

/// The board and the mine count of a header line `<width> <height> <mines>`.
fn parse_header(header: &str) -> Result<(Grid, usize), String> {
    let fields: Vec<&str> = header.split_whitespace().collect();
    let [w, h, m] = fields[..] else {
        return Err(format!(
            "expected `<width> <height> <mines>`, found {}",
            quote(header)
        ));
    };
    let num = |s: &str, what: &str| {
        s.parse::<usize>().map_err(|e| {
            let why = match e.kind() {
                std::num::IntErrorKind::PosOverflow => "is far too large",
                _ => "is not a non-negative whole number",
            };
            format!("{what} {} {why}", quote(s))
        })
    };
    let (width, height, mines) = (num(w, "width")?, num(h, "height")?, num(m, "mines")?);
    let grid = Grid::new(width, height).map_err(|_| {
        format!("board size {width}x{height} is out of range (each side 1 to {MAX_SIDE})")
    })?;
    if mines > grid.len() {
        return Err(format!(
            "{mines} mines do not fit on a {width}x{height} board"
        ));
    }
    Ok((grid, mines))
}

/// The cells of board row `y`, which must hold `width` of them.
fn parse_row(row: &str, y: usize, width: usize) -> Result<Vec<Cell>, String> {
    let chars: Vec<char> = row.chars().collect();
    if chars.len() != width {
        return Err(format!(
            "board row y = {y} (rows count from 0) has {} characters, expected {width} (`.`, `0`-`8` or `*`)",
            chars.len()
        ));
    }
    chars
        .into_iter()
        .enumerate()
        .map(|(x, ch)| match ch {
            '.' => Ok(Cell::Hidden),
            '*' => Ok(Cell::Mine),
            '0'..='8' => Ok(Cell::Number(ch as u8 - b'0')),
            _ => Err(format!(
                "unexpected {ch:?} at x = {x} (columns count from 0): expected `.` (hidden), `0`-`8` (number) or `*` (mine)"
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A huge bad header or level string is quoted cut, not echoed whole
    /// (found by the Python fuzz target `texts`).
    #[test]
    fn long_bad_tokens_are_quoted_cut() {
        let junk = "\u{7f}".repeat(100_000);
        for message in [
            Position::parse(&junk).unwrap_err().to_string(),
            Position::parse(&format!("{junk} 2 1"))
                .unwrap_err()
                .to_string(),
            junk.parse::<crate::board::Level>().unwrap_err().to_string(),
            junk.parse::<crate::board::Rule>().unwrap_err(),
        ] {
            assert!(
                message.len() < 400,
                "{} bytes: {:.100}",
                message.len(),
                message
            );
            assert!(message.contains("(100000 bytes)"), "{message:.300}");
        }
    }

    #[test]
    fn round_trip_with_comments() {
        let text = "# a comment\n\n4 3 3   # size\n1*..\n11..\n0...\n";
        let p = Position::parse(text).unwrap();
        assert_eq!(p.grid().width(), 4);
        assert_eq!(p.mines(), 3);
        assert_eq!(p.cell(1), Cell::Mine);
        assert_eq!(p.cell(8), Cell::Number(0));
        assert_eq!(Position::parse(&p.to_text()).unwrap(), p);
        // Saved by an editor that puts a byte-order mark first: the same.
        assert_eq!(Position::parse(&format!("\u{feff}{text}")).unwrap(), p);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("", 1, "empty"),
            ("3 3\n...\n", 1, "<width>"),
            (
                "3 x 1\n",
                1,
                "height \"x\" is not a non-negative whole number",
            ),
            (
                "99999999999999999999 1 1\n",
                1,
                "width \"99999999999999999999\" is far too large",
            ),
            ("3 3 10\n", 1, "do not fit"),
            (
                "# c\n3 2 1\n...\n..\n",
                4,
                "board row y = 1 (rows count from 0) has 2",
            ),
            (
                "3 2 1\n...\n.9.\n",
                3,
                "unexpected '9' at x = 1 (columns count from 0)",
            ),
            ("3 2 1\n...\n", 3, "expected 2 rows"),
            ("3 1 1\n...\n...\n", 3, "after"),
            ("3 1 1\n**.\n", 1, "2 known mines"),
            ("0 1 0\n\n", 1, "out of range"),
        ];
        for (text, line, what) in cases {
            let e = Position::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }
}
