//! A position: where the rabbits, foxes and mushrooms are. Printing in the
//! board and challenge-code formats, symmetry images and a canonical form.

use crate::geometry::{ALL, Cell, SIZE, Symmetry, bit, cell, cells, xy};
use serde::Serialize;
use std::fmt;
use thiserror::Error;

/// Which way a fox lies (and slides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    Horizontal,
    Vertical,
}

/// A fox: two cells on row `line` (horizontal) or column `line` (vertical),
/// starting `offset` cells from the left or top edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fox {
    pub axis: Axis,
    pub line: u8,
    pub offset: u8,
}

/// Largest offset of a fox: it covers `offset` and `offset + 1`.
pub const MAX_FOX_OFFSET: u8 = SIZE - 2;

impl Fox {
    /// The cell `i` steps along the fox's line (`i` may be out of range only
    /// when the caller checked it).
    #[inline]
    pub fn cell_at(axis: Axis, line: u8, i: u8) -> Cell {
        match axis {
            Axis::Horizontal => cell(i, line),
            Axis::Vertical => cell(line, i),
        }
    }

    /// Its two cells, top or left first.
    pub fn cells(self) -> [Cell; 2] {
        [
            Fox::cell_at(self.axis, self.line, self.offset),
            Fox::cell_at(self.axis, self.line, self.offset + 1),
        ]
    }

    pub fn mask(self) -> u32 {
        let [a, b] = self.cells();
        bit(a) | bit(b)
    }

    /// The fox covering two adjacent cells, if they are adjacent.
    pub fn from_cells(a: Cell, b: Cell) -> Option<Fox> {
        let (a, b) = (a.min(b), a.max(b));
        let ((ax, ay), (bx, by)) = (xy(a), xy(b));
        if ay == by && bx == ax + 1 {
            Some(Fox {
                axis: Axis::Horizontal,
                line: ay,
                offset: ax,
            })
        } else if ax == bx && by == ay + 1 {
            Some(Fox {
                axis: Axis::Vertical,
                line: ax,
                offset: ay,
            })
        } else {
            None
        }
    }

    fn valid(self) -> bool {
        self.line < SIZE && self.offset <= MAX_FOX_OFFSET
    }
}

/// Why a set of pieces is not a position.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    #[error("pieces overlap at ({x},{y})")]
    Overlap { x: u8, y: u8 },
    #[error("a piece leaves the board")]
    OffBoard,
    #[error("there is no rabbit")]
    NoRabbit,
}

/// A position. Rabbits are interchangeable (a set of cells); foxes are kept
/// in reading order of their first cell, so equal positions compare equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rabbits: u32,
    mushrooms: u32,
    foxes: Vec<Fox>,
}

impl Position {
    /// Checks that the pieces fit on the board without overlapping and that
    /// there is at least one rabbit.
    pub fn new(
        rabbits: u32,
        mushrooms: u32,
        mut foxes: Vec<Fox>,
    ) -> Result<Position, PositionError> {
        if rabbits == 0 {
            return Err(PositionError::NoRabbit);
        }
        let mut taken = rabbits & ALL;
        let mut add = |mask: u32| {
            let clash = taken & mask;
            if clash != 0 {
                let (x, y) = xy(clash.trailing_zeros() as Cell);
                return Err(PositionError::Overlap { x, y });
            }
            taken |= mask;
            Ok(())
        };
        if rabbits & !ALL != 0 || mushrooms & !ALL != 0 {
            return Err(PositionError::OffBoard);
        }
        add(mushrooms)?;
        for fox in &foxes {
            if !fox.valid() {
                return Err(PositionError::OffBoard);
            }
            add(fox.mask())?;
        }
        foxes.sort_by_key(|f| f.cells()[0]);
        Ok(Position {
            rabbits,
            mushrooms,
            foxes,
        })
    }

    pub fn rabbits(&self) -> u32 {
        self.rabbits
    }

    pub fn mushrooms(&self) -> u32 {
        self.mushrooms
    }

    pub fn foxes(&self) -> &[Fox] {
        &self.foxes
    }

    /// Every rabbit sits in a hole.
    pub fn is_solved(&self) -> bool {
        self.rabbits & !crate::geometry::HOLES == 0
    }

    /// Cells of the horizontal foxes and of the vertical ones.
    fn fox_masks(&self) -> (u32, u32) {
        self.foxes.iter().fold((0, 0), |(h, v), f| match f.axis {
            Axis::Horizontal => (h | f.mask(), v),
            Axis::Vertical => (h, v | f.mask()),
        })
    }

    /// A 100-bit key that determines the position (a row of horizontal fox
    /// cells pairs up only one way), used to order and deduplicate.
    pub fn key(&self) -> u128 {
        let (h, v) = self.fox_masks();
        u128::from(self.mushrooms)
            | u128::from(self.rabbits) << 25
            | u128::from(h) << 50
            | u128::from(v) << 75
    }

    /// The image under a symmetry of the board.
    pub fn transformed(&self, s: Symmetry) -> Position {
        let foxes = self
            .foxes
            .iter()
            .map(|f| {
                let [a, b] = f.cells();
                Fox::from_cells(s.cell(a), s.cell(b)).expect("symmetries keep cells adjacent")
            })
            .collect();
        Position::new(s.mask(self.rabbits), s.mask(self.mushrooms), foxes)
            .expect("a symmetry image of a position is a position")
    }

    /// The symmetry image with the smallest [`key`](Position::key): equal for
    /// positions that are rotations or reflections of each other.
    pub fn canonical(&self) -> Position {
        Symmetry::ALL
            .iter()
            .map(|&s| self.transformed(s))
            .min_by_key(Position::key)
            .expect("eight symmetries")
    }

    /// The character of a cell in the board format: fox cells are `F`, or
    /// `H` and `V` (across, down) when `F`s would pair up more than one way.
    fn char_at(&self, c: Cell, (across, down): (u32, u32), spelled: bool) -> char {
        if self.rabbits & bit(c) != 0 {
            'R'
        } else if self.mushrooms & bit(c) != 0 {
            'X'
        } else if (across | down) & bit(c) != 0 {
            match (spelled, across & bit(c) != 0) {
                (false, _) => 'F',
                (true, true) => 'H',
                (true, false) => 'V',
            }
        } else {
            '.'
        }
    }

    /// The challenge code (`C31B42G34M302203FE11`), or `None` when there are
    /// more than four rabbits (the official code names C, B and G; arcade
    /// adds W for a fourth). Rabbits get their letters in reading order;
    /// foxes face east or south.
    pub fn to_code(&self) -> Option<String> {
        const LETTERS: [char; 4] = ['C', 'B', 'G', 'W'];
        let rabbits: Vec<Cell> = cells(self.rabbits).collect();
        if rabbits.len() > LETTERS.len() {
            return None;
        }
        let pair = |c: Cell| {
            let (x, y) = xy(c);
            format!("{x}{y}")
        };
        let mut code = String::new();
        for (letter, &c) in LETTERS.iter().zip(&rabbits) {
            code.push(*letter);
            code += &pair(c);
        }
        if self.mushrooms != 0 {
            code.push('M');
            for c in cells(self.mushrooms) {
                code += &pair(c);
            }
        }
        if !self.foxes.is_empty() {
            code.push('F');
            for f in &self.foxes {
                let [_, head] = f.cells();
                code.push(match f.axis {
                    Axis::Horizontal => 'E',
                    Axis::Vertical => 'S',
                });
                code += &pair(head);
            }
        }
        Some(code)
    }
}

/// The board format: five lines of `.`, `R`, `F` (or `H` and `V`), `X`.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, v) = self.fox_masks();
        let spelled = crate::parse::foxes_ambiguous(h | v);
        for y in 0..SIZE {
            let row: String = (0..SIZE)
                .map(|x| self.char_at(cell(x, y), (h, v), spelled))
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Position {
        // Challenge 60: C31B42G34M302203FE11.
        Position::new(
            bit(cell(3, 1)) | bit(cell(4, 2)) | bit(cell(3, 4)),
            bit(cell(3, 0)) | bit(cell(2, 2)) | bit(cell(0, 3)),
            vec![Fox {
                axis: Axis::Horizontal,
                line: 1,
                offset: 0,
            }],
        )
        .unwrap()
    }

    #[test]
    fn prints_the_board_and_the_code() {
        let p = sample();
        assert_eq!(p.to_string(), "...X.\nFF.R.\n..X.R\nX....\n...R.\n");
        assert_eq!(p.to_code().unwrap(), "C31B42G34M302203FE11");
    }

    #[test]
    fn rejects_overlaps_and_foxes_off_the_board() {
        let fox = Fox {
            axis: Axis::Vertical,
            line: 3,
            offset: 0,
        };
        assert_eq!(
            Position::new(bit(cell(3, 1)), 0, vec![fox]),
            Err(PositionError::Overlap { x: 3, y: 1 })
        );
        let off = Fox {
            axis: Axis::Horizontal,
            line: 0,
            offset: 4,
        };
        assert_eq!(Position::new(1, 0, vec![off]), Err(PositionError::OffBoard));
        assert_eq!(Position::new(0, 1, vec![]), Err(PositionError::NoRabbit));
    }

    #[test]
    fn canonical_form_is_shared_by_all_images() {
        let p = sample();
        let c = p.canonical();
        for s in Symmetry::ALL {
            let image = p.transformed(s);
            assert_eq!(image.canonical(), c);
            assert_eq!(image.foxes().len(), 1);
            assert_eq!(image.rabbits().count_ones(), 3);
        }
    }
}
