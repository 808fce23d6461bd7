//! The 2021 Tencent Geek Challenge Tetris ("鹅罗斯方块"): a fixed sequence of
//! 10,000 pieces, a 10×20 field, and a score that rewards clearing several
//! rows at once while the field is full.
//!
//! Rules, from the game's published source (the issue tracker quotes them):
//! - pieces come from `v ← (v·27073 + 17713) mod 32749`, `v₀ = 12358`, one step
//!   per piece, type from `v mod 29` (0–1 I, 2–4 L, 5–7 J, 8–11 T, 12–16 O,
//!   17–22 S, 23–28 Z), spawn rotation state = piece index mod 4;
//! - a piece locks wherever its operations end; cells above the field vanish;
//! - after writing the piece: if all 20 rows hold a cell the game ends and the
//!   placement scores nothing; the 10,000th piece ends the game and scores
//!   nothing; otherwise the score grows by (filled cells) × {0, 1, 3, 6, 10}[rows
//!   completed], then full rows are removed.
//!
//! [`Rules::geek`] holds the shapes and movement rules; this module adds the
//! sequence and scoring ([`lock`]), records ([`record`]), a reference replay
//! ([`replay`]), the optimizer ([`search`]) and the joining of records where
//! they meet on a field ([`splice`]).

pub mod record;
pub mod replay;
pub mod search;
mod select;
pub mod solve;
pub mod splice;
pub mod tune;
pub mod value;

use crate::board::Board;
use crate::movegen::Placement;
use crate::piece::Piece;
use crate::rules::Rules;

/// Pieces in the challenge's sequence; the last one ends the game unscored.
pub const PIECES: usize = 10_000;
pub const WIDTH: usize = 10;
pub const HEIGHT: usize = 20;
/// Points per filled cell by number of rows completed.
pub const MULTIPLIER: [u64; 5] = [0, 1, 3, 6, 10];

/// The challenge's piece sequence (its first `n` pieces).
pub fn sequence(n: usize) -> Vec<Piece> {
    const BY_REMAINDER: &[u8; 29] = b"IILLLJJJTTTTOOOOOSSSSSSZZZZZZ";
    let mut v: u64 = 12358;
    (0..n)
        .map(|_| {
            v = (v * 27073 + 17713) % 32749;
            Piece::from_letter(BY_REMAINDER[(v % 29) as usize] as char)
                .expect("table letters are pieces")
        })
        .collect()
}

/// The rotation state piece number `index` (0-based) spawns in.
#[inline]
pub fn spawn_rotation(index: usize) -> usize {
    index % 4
}

/// An empty challenge field.
pub fn empty_board() -> Board {
    Board::new(WIDTH, HEIGHT).expect("10x20 is a valid board")
}

/// What locking one piece did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locked {
    /// The field after the lock and the row clears.
    pub board: Board,
    /// Points this lock scores (0 when it ends the game).
    pub points: u64,
    /// Rows completed.
    pub lines: u32,
    /// Every row held a cell after writing the piece: the game is over.
    pub topped_out: bool,
}

/// Locks `piece` at `p` on `board` by the challenge's rules. `last` says this
/// is the final piece of the sequence (it scores nothing).
#[inline]
pub fn lock(rules: &Rules, board: &Board, piece: Piece, p: Placement, last: bool) -> Locked {
    let mut shape = *rules.shape(piece, p.rotation as usize);
    let row = p.row as usize;
    // Cells above the field vanish before anything is counted.
    for i in 0..shape.height as usize {
        if row + i >= HEIGHT {
            shape.rows[i] = 0;
        }
    }
    let mut written = *board;
    let mut cells = 0u64;
    let mut filled_rows = 0usize;
    for i in 0..shape.height as usize {
        if row + i < HEIGHT {
            written.set_row(row + i, written.row(row + i) | shape.rows[i] << p.col);
        }
    }
    for y in 0..HEIGHT {
        let r = written.row(y);
        cells += u64::from(r.count_ones());
        filled_rows += usize::from(r != 0);
    }
    let mut after = *board;
    let lock = after.lock(&shape, p.col as usize, row);
    let topped_out = filled_rows == HEIGHT;
    let points = if topped_out || last {
        0
    } else {
        cells * MULTIPLIER[lock.lines as usize]
    };
    Locked {
        board: after,
        points,
        lines: lock.lines,
        topped_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_starts_as_the_published_record_implies() {
        // The first moves of the published record (N,R1,D19 / N,C1,L1,D18)
        // fit a Z then an I; the generator's first outputs, by hand:
        // v1 = (12358·27073 + 17713) mod 32749, and so on.
        let s: String = sequence(12).iter().map(|p| p.letter()).collect();
        assert_eq!(s, "ZIOSLZSIZJSS");
        let all = sequence(PIECES);
        assert_eq!(all.len(), PIECES);
        // Frequencies follow the 29 remainders: I 2/29 … S, Z 6/29 each.
        let count = |p| all.iter().filter(|&&q| q == p).count() as f64 / PIECES as f64;
        assert!((count(Piece::I) - 2.0 / 29.0).abs() < 0.01);
        assert!((count(Piece::Z) - 6.0 / 29.0).abs() < 0.015);
    }

    #[test]
    fn scoring_counts_cells_before_clearing() {
        let rules = Rules::geek();
        // Rows 0-3 full except column 9; a vertical I there completes four.
        let mut b = empty_board();
        for y in 0..4 {
            for x in 0..9 {
                b.set(x, y);
            }
        }
        b.set(0, 4);
        let p = Placement {
            rotation: 0,
            col: 9,
            row: 0,
        };
        let locked = lock(&rules, &b, Piece::I, p, false);
        assert_eq!(locked.lines, 4);
        assert_eq!(locked.points, (36 + 1 + 4) * 10);
        assert!(!locked.topped_out);
        assert_eq!(locked.board.row(0), 1); // the lone cell fell to the floor
        assert_eq!(lock(&rules, &b, Piece::I, p, true).points, 0);
    }

    #[test]
    fn a_lock_that_leaves_every_row_occupied_tops_out() {
        let rules = Rules::geek();
        let mut b = empty_board();
        for y in 0..18 {
            b.set(0, y);
        }
        // An O on the top two rows, right side: all 20 rows now hold a cell.
        let p = Placement {
            rotation: 0,
            col: 5,
            row: 18,
        };
        let locked = lock(&rules, &b, Piece::O, p, false);
        assert!(locked.topped_out);
        assert_eq!(locked.points, 0);
    }

    #[test]
    fn cells_above_the_field_vanish() {
        let rules = Rules::geek();
        let b = empty_board();
        // Vertical I with its box bottom on row 18: rows 20 and 21 vanish.
        let p = Placement {
            rotation: 0,
            col: 4,
            row: 18,
        };
        let locked = lock(&rules, &b, Piece::I, p, false);
        let cells: u32 = locked.board.rows().iter().map(|r| r.count_ones()).sum();
        assert_eq!(cells, 2);
    }
}
