//! The playfield as a bitboard: one `u16` per row, bit `x` for column `x`,
//! row 0 at the bottom.

use crate::rules::Shape;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

pub const MIN_WIDTH: usize = 4;
pub const MAX_WIDTH: usize = 16;
pub const MIN_HEIGHT: usize = 4;
pub const MAX_HEIGHT: usize = 32;
/// Rows kept above the visible field, where pieces spawn and turn.
pub const SPAWN_ROWS: usize = 4;
/// Row storage: visible rows, spawn rows, and slack so a piece pivoted at the
/// top of the spawn area still indexes inside the array.
pub const ROWS: usize = MAX_HEIGHT + SPAWN_ROWS + 4;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    #[error("board width {0} is out of range (expected {MIN_WIDTH} to {MAX_WIDTH})")]
    Width(usize),
    #[error("board height {0} is out of range (expected {MIN_HEIGHT} to {MAX_HEIGHT})")]
    Height(usize),
    #[error("board text: {0}")]
    Text(String),
}

/// What locking a piece did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lock {
    /// Rows cleared.
    pub lines: u32,
    /// Cells of the locked piece that vanished with those rows.
    pub piece_cells_cleared: u32,
}

impl Lock {
    /// Dellacherie's "eroded piece cells": rows cleared × piece cells cleared.
    #[inline]
    pub fn eroded_cells(&self) -> u32 {
        self.lines * self.piece_cells_cleared
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "BoardRepr", try_from = "BoardRepr")]
pub struct Board {
    rows: [u16; ROWS],
    width: u8,
    height: u8,
}

impl Board {
    /// An empty board; width 4..=16, height 4..=32.
    pub fn new(width: usize, height: usize) -> Result<Board, BoardError> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
            return Err(BoardError::Width(width));
        }
        if !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height) {
            return Err(BoardError::Height(height));
        }
        Ok(Board {
            rows: [0; ROWS],
            width: width as u8,
            height: height as u8,
        })
    }

    /// Parses rows drawn top to bottom with `#` (or `X`) for filled and `.`
    /// for empty cells; the drawing sits on the floor of a `width × height`
    /// board. Used by tests and examples.
    pub fn from_text(width: usize, height: usize, text: &str) -> Result<Board, BoardError> {
        let mut board = Board::new(width, height)?;
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if lines.len() > height {
            return Err(BoardError::Text(format!(
                "{} rows drawn, board has {height}",
                lines.len()
            )));
        }
        for (i, line) in lines.iter().rev().enumerate() {
            if line.chars().count() != width {
                return Err(BoardError::Text(format!(
                    "row {line:?} is not {width} cells wide"
                )));
            }
            for (x, c) in line.chars().enumerate() {
                match c {
                    '#' | 'X' => board.set(x, i),
                    '.' => {}
                    _ => {
                        return Err(BoardError::Text(format!(
                            "unexpected {c:?} in row {line:?}"
                        )));
                    }
                }
            }
        }
        Ok(board)
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The mask of a full row.
    #[inline]
    pub fn full_row(&self) -> u16 {
        (((1u32) << self.width) - 1) as u16
    }

    /// All stored rows, bottom first (visible rows, then spawn rows).
    #[inline]
    pub fn rows(&self) -> &[u16; ROWS] {
        &self.rows
    }

    #[inline]
    pub fn row(&self, y: usize) -> u16 {
        self.rows[y]
    }

    /// Whether `(x, y)` is blocked: walls and floor count as filled, the sky
    /// above the stored rows as empty.
    #[inline]
    pub fn filled(&self, x: i32, y: i32) -> bool {
        if x < 0 || x >= self.width as i32 || y < 0 {
            return true;
        }
        y < ROWS as i32 && self.rows[y as usize] >> x & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        self.rows[y] |= 1 << x;
    }

    /// Replaces row `y` (bits beyond the width are dropped).
    #[inline]
    pub fn set_row(&mut self, y: usize, bits: u16) {
        self.rows[y] = bits & self.full_row();
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// One more than the highest non-empty row (0 for an empty board).
    #[inline]
    pub fn stack_height(&self) -> usize {
        self.rows.iter().rposition(|&r| r != 0).map_or(0, |y| y + 1)
    }

    /// Height of every column (one more than its highest filled cell).
    pub fn column_heights(&self) -> [u8; MAX_WIDTH] {
        let mut heights = [0u8; MAX_WIDTH];
        let mut seen = 0u16;
        let full = self.full_row();
        for y in (0..self.stack_height()).rev() {
            // Every column's top found: the rest of the stack changes nothing.
            if seen == full {
                break;
            }
            let mut fresh = self.rows[y] & !seen;
            seen |= fresh;
            while fresh != 0 {
                heights[fresh.trailing_zeros() as usize] = y as u8 + 1;
                fresh &= fresh - 1;
            }
        }
        heights
    }

    /// Whether `shape` with its bounding box at `(col, row)` lies inside the
    /// walls and floor and overlaps nothing.
    #[inline]
    pub fn fits(&self, shape: &Shape, col: i32, row: i32) -> bool {
        if col < 0 || row < 0 || col + shape.width as i32 > self.width as i32 {
            return false;
        }
        let (col, row) = (col as u32, row as usize);
        (0..shape.height as usize)
            .all(|i| row + i >= ROWS || self.rows[row + i] & (shape.rows[i] << col) == 0)
    }

    /// The row where `shape` comes to rest when hard-dropped from above in
    /// column `col`, given the column heights.
    #[inline]
    pub fn drop_row(shape: &Shape, col: usize, heights: &[u8; MAX_WIDTH]) -> usize {
        let mut row = 0i32;
        for c in 0..shape.width as usize {
            row = row.max(i32::from(heights[col + c]) - i32::from(shape.bottom[c]));
        }
        row as usize
    }

    /// Writes `shape` at `(col, row)` (which must fit) and clears full rows.
    #[inline]
    pub fn lock(&mut self, shape: &Shape, col: usize, row: usize) -> Lock {
        let full = self.full_row();
        let mut lock = Lock::default();
        for i in 0..shape.height as usize {
            self.rows[row + i] |= shape.rows[i] << col;
            if self.rows[row + i] == full {
                lock.lines += 1;
                lock.piece_cells_cleared += shape.rows[i].count_ones();
            }
        }
        if lock.lines > 0 {
            self.clear_full_rows_from(row);
        }
        lock
    }

    /// Removes the full rows among the four starting at `from` (the only
    /// rows a lock can fill); everything above falls down.
    fn clear_full_rows_from(&mut self, from: usize) {
        let full = self.full_row();
        let end = (from + 4).min(ROWS);
        let mut write = from;
        for read in from..end {
            if self.rows[read] != full {
                self.rows[write] = self.rows[read];
                write += 1;
            }
        }
        self.rows.copy_within(end.., write);
        let cleared = end - write;
        self.rows[ROWS - cleared..].fill(0);
    }
}

/// The serialised form of a board: its size and its visible rows, bottom first.
#[derive(Serialize, Deserialize)]
struct BoardRepr {
    width: usize,
    height: usize,
    rows: Vec<u16>,
}

impl From<Board> for BoardRepr {
    fn from(b: Board) -> Self {
        BoardRepr {
            width: b.width(),
            height: b.height(),
            rows: b.rows[..b.height()].to_vec(),
        }
    }
}

impl TryFrom<BoardRepr> for Board {
    type Error = BoardError;
    fn try_from(r: BoardRepr) -> Result<Self, Self::Error> {
        let mut b = Board::new(r.width, r.height)?;
        if r.rows.len() != r.height {
            return Err(BoardError::Text(format!(
                "{} rows for a board {} high",
                r.rows.len(),
                r.height
            )));
        }
        for (y, &bits) in r.rows.iter().enumerate() {
            if bits & !b.full_row() != 0 {
                return Err(BoardError::Text(format!(
                    "row {y} has cells beyond the width"
                )));
            }
            b.rows[y] = bits;
        }
        Ok(b)
    }
}

impl fmt::Display for Board {
    /// Visible rows, top first, `#` filled and `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.height()).rev() {
            for x in 0..self.width() {
                let c = if self.rows[y] >> x & 1 == 1 { '#' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.height)?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::rules::Rules;
    use proptest::prelude::*;

    #[test]
    fn sizes_are_checked() {
        assert_eq!(Board::new(3, 20), Err(BoardError::Width(3)));
        assert_eq!(Board::new(17, 20), Err(BoardError::Width(17)));
        assert_eq!(Board::new(10, 33), Err(BoardError::Height(33)));
        assert!(Board::new(16, 32).is_ok());
    }

    #[test]
    fn text_round_trip_and_heights() {
        let text = "....\n.#..\n##.#\n";
        let b = Board::from_text(4, 5, text).unwrap();
        assert_eq!(b.to_string(), format!("....\n....\n{text}"));
        assert_eq!(&b.column_heights()[..4], &[1, 2, 0, 1]);
        assert_eq!(b.stack_height(), 2);
    }

    #[test]
    fn locking_an_i_clears_a_line_and_counts_eroded_cells() {
        let rules = Rules::classic();
        let mut b = Board::from_text(4, 6, "....\n.###\n").unwrap();
        let vertical_i = rules.shape(Piece::I, 1);
        let heights = b.column_heights();
        let row = Board::drop_row(vertical_i, 0, &heights);
        assert_eq!(row, 0);
        let lock = b.lock(vertical_i, 0, row);
        assert_eq!(
            lock,
            Lock {
                lines: 1,
                piece_cells_cleared: 1
            }
        );
        assert_eq!(lock.eroded_cells(), 1);
        assert_eq!(b.to_string(), "....\n....\n....\n#...\n#...\n#...\n");
    }

    /// Naive line clear on a grid, for the property test below.
    fn naive_clear(rows: &[u16], full: u16) -> Vec<u16> {
        let mut kept: Vec<u16> = rows.iter().copied().filter(|&r| r != full).collect();
        kept.resize(rows.len(), 0);
        kept
    }

    proptest! {
        /// Column heights (against a column scan), drop rows and locks.
        #[test]
        fn lock_matches_naive_place_and_clear(
            width in 4usize..=16,
            seed_rows in prop::collection::vec(any::<u16>(), 0..12),
            piece in 0usize..7, rot in 0usize..4, col_frac in 0.0f64..1.0,
        ) {
            let rules = Rules::classic();
            let mut b = Board::new(width, 20).unwrap();
            let full = b.full_row();
            for (y, r) in seed_rows.iter().enumerate() {
                // Keep a hole in every seeded row so nothing starts full.
                let r = r & full & !(1 << (y % width));
                for x in 0..width {
                    if r >> x & 1 == 1 { b.set(x, y); }
                }
            }
            for (x, &h) in b.column_heights().iter().enumerate() {
                let naive = if x < width {
                    (0..ROWS).rev().find(|&y| b.filled(x as i32, y as i32)).map_or(0, |y| y + 1)
                } else {
                    0
                };
                prop_assert_eq!(usize::from(h), naive, "column {}", x);
            }
            let shape = rules.shape(Piece::from_index(piece), rot);
            let col = ((width - shape.width as usize) as f64 * col_frac) as usize;
            let row = Board::drop_row(shape, col, &b.column_heights());
            prop_assert!(b.fits(shape, col as i32, row as i32));
            prop_assert!(row == 0 || !b.fits(shape, col as i32, row as i32 - 1));
            let mut naive: Vec<u16> = b.rows().to_vec();
            for (x, y) in shape.cells_at(col as i32, row as i32) {
                naive[y as usize] |= 1 << x;
            }
            let lines = naive.iter().filter(|&&r| r == full).count() as u32;
            let naive = naive_clear(&naive, full);
            let lock = b.lock(shape, col, row);
            prop_assert_eq!(lock.lines, lines);
            prop_assert_eq!(b.rows().to_vec(), naive);
        }
    }
}
