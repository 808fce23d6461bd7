//! The reference replay: plays a record cell by cell on a plain grid, exactly
//! as the challenge's game code describes, without the bitboard engine. The
//! solver's records are checked against it, so the two implementations keep
//! each other honest.

use super::record::Record;
use super::{HEIGHT, MULTIPLIER, PIECES, WIDTH, sequence, spawn_rotation};
use crate::movegen::Op;
use crate::piece::Piece;
use crate::rules::Rules;
use serde::{Deserialize, Serialize};

/// Why a replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The 10,000th piece was placed.
    PieceLimit,
    /// A placement left a cell in every row.
    TopOut,
    /// A piece could not appear at its spawn position.
    SpawnBlocked,
    /// The record ran out first.
    RecordEnd,
}

impl End {
    pub fn as_str(self) -> &'static str {
        match self {
            End::PieceLimit => "piece_limit",
            End::TopOut => "top_out",
            End::SpawnBlocked => "spawn_blocked",
            End::RecordEnd => "record_end",
        }
    }

    /// Why the game ended, in words.
    pub fn describe(self) -> &'static str {
        match self {
            End::PieceLimit => "every piece was placed",
            End::TopOut => "the field filled every row",
            End::SpawnBlocked => "a piece could not appear",
            End::RecordEnd => "the record ran out of moves",
        }
    }
}

/// What a replay produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    pub score: u64,
    /// Pieces placed (including an unscored last one).
    pub pieces: usize,
    pub end: End,
    /// Clears of 1, 2, 3 and 4 rows (scored ones: the rows of a piece that
    /// ends the game are never cleared).
    pub clears: [u64; 4],
    /// Pieces in the record that were never placed: a blocked one and those
    /// after it, or those after the piece that ended the game.
    #[serde(rename = "unplayed_pieces")]
    pub unplayed: usize,
}

impl std::fmt::Display for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = self.clears;
        writeln!(
            f,
            "score {}  pieces {}  ended: {}  clears 1/2/3/4: {} {} {} {}",
            self.score,
            self.pieces,
            self.end.as_str(),
            c[0],
            c[1],
            c[2],
            c[3]
        )?;
        match self.unplayed {
            0 => {}
            1 => writeln!(
                f,
                "(1 piece of the record was not placed: the game ended first)"
            )?,
            n => writeln!(
                f,
                "({n} pieces of the record were not placed: the game ended first)"
            )?,
        }
        Ok(())
    }
}

/// The field, `cells[y][x]` with `y = 0` the top row as in the game.
pub type Grid = [[bool; WIDTH]; HEIGHT];

/// One placed piece, for observers (the terminal view).
pub struct Frame<'a> {
    pub grid: &'a Grid,
    pub piece: Piece,
    /// Cells the piece was written to (before any row cleared).
    pub cells: &'a [(i32, i32)],
    pub index: usize,
    pub score: u64,
    pub lines: u32,
}

/// Cell offsets of `piece` in `state`, `y` down as in the game.
fn cells(rules: &Rules, piece: Piece, state: usize) -> [(i32, i32); 4] {
    rules
        .shape(piece, state)
        .cells
        .map(|(dx, dy)| (i32::from(dx), -i32::from(dy)))
}

fn legal(grid: &Grid, offsets: &[(i32, i32); 4], x: i32, y: i32) -> bool {
    offsets.iter().all(|&(dx, dy)| {
        let (cx, cy) = (x + dx, y + dy);
        (0..WIDTH as i32).contains(&cx)
            && cy < HEIGHT as i32
            && (cy < 0 || !grid[cy as usize][cx as usize])
    })
}

/// Replays `record`, calling `observe` after every placed piece.
pub fn replay(record: &Record, mut observe: impl FnMut(&Frame)) -> Replay {
    let rules = Rules::geek();
    let pieces = sequence(PIECES);
    let mut grid: Grid = [[false; WIDTH]; HEIGHT];
    let mut out = Replay {
        score: 0,
        pieces: 0,
        end: End::RecordEnd,
        clears: [0; 4],
        unplayed: 0,
    };
    for (index, &piece) in pieces.iter().enumerate().take(record.pieces.len()) {
        let mut state = spawn_rotation(index);
        let (mut x, mut y) = (4, 0);
        if !legal(&grid, &cells(&rules, piece, state), x, y) {
            out.end = End::SpawnBlocked;
            break;
        }
        for op in record.ops(index) {
            let (s, nx, ny) = match op {
                Op::Left => (state, x - 1, y),
                Op::Right => (state, x + 1, y),
                Op::Down => (state, x, y + 1),
                Op::Clockwise | Op::CounterClockwise => ((state + 1) % 4, x, y),
            };
            if legal(&grid, &cells(&rules, piece, s), nx, ny) {
                (state, x, y) = (s, nx, ny);
            }
        }
        let placed: Vec<(i32, i32)> = cells(&rules, piece, state)
            .iter()
            .map(|&(dx, dy)| (x + dx, y + dy))
            .filter(|&(_, cy)| cy >= 0)
            .collect();
        for &(cx, cy) in &placed {
            grid[cy as usize][cx as usize] = true;
        }
        out.pieces += 1;
        let filled: u64 = grid.iter().flatten().map(|&c| u64::from(c)).sum();
        let full: Vec<usize> = (0..HEIGHT)
            .filter(|&r| grid[r].iter().all(|&c| c))
            .collect();
        let every_row_used = grid.iter().all(|row| row.iter().any(|&c| c));
        let lines = full.len() as u32;
        // The game ends before the rows of a piece that tops out, or of the
        // last piece, are cleared: they score nothing and are no clear.
        let ends = if every_row_used {
            Some(End::TopOut)
        } else if index + 1 == PIECES {
            Some(End::PieceLimit)
        } else {
            out.score += filled * MULTIPLIER[lines as usize];
            if lines > 0 {
                out.clears[lines as usize - 1] += 1;
            }
            None
        };
        observe(&Frame {
            grid: &grid,
            piece,
            cells: &placed,
            index,
            score: out.score,
            lines,
        });
        if let Some(end) = ends {
            out.end = end;
            break;
        }
        // Remove full rows; the rows above fall.
        let kept: Vec<[bool; WIDTH]> = grid
            .iter()
            .filter(|row| !row.iter().all(|&c| c))
            .copied()
            .collect();
        let mut next: Grid = [[false; WIDTH]; HEIGHT];
        next[HEIGHT - kept.len()..].copy_from_slice(&kept);
        grid = next;
    }
    out.unplayed = record.pieces.len() - out.pieces;
    if out.end == End::RecordEnd {
        out.unplayed = 0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_pieces_of_the_example() {
        // Z right one and to the floor, then I turned upright in column 3.
        let r = replay(&Record::parse("N,R1,D19,N,C1,L1,D18").unwrap(), |_| {});
        assert_eq!(r.pieces, 2);
        assert_eq!(r.end, End::RecordEnd);
        assert_eq!(r.score, 0);
    }

    #[test]
    fn a_bare_last_n_locks_at_the_spawn_or_ends_the_game_there() {
        // A free spawn: the piece locks where it appeared, in the top rows.
        let mut top = Vec::new();
        let r = replay(&Record::parse("N,D19,N").unwrap(), |f| {
            top = f.cells.to_vec();
        });
        assert_eq!((r.pieces, r.end), (2, End::RecordEnd));
        assert!(top.iter().all(|&(_, y)| y <= 2), "{top:?}");
        // A piece only turned locks in the air at the spawn, so the next
        // cannot appear: written as a bare N, as the official game writes
        // it, or with operations, the game ends there.
        let bare = replay(&Record::parse("N,C1,N").unwrap(), |_| {});
        let with_ops = replay(&Record::parse("N,C1,N,D5").unwrap(), |_| {});
        assert_eq!((bare.pieces, bare.end), (1, End::SpawnBlocked));
        assert_eq!(bare, with_ops);
    }

    #[test]
    fn a_piece_left_at_the_spawn_on_a_full_column_blocks_the_next_spawn() {
        // Every piece locks immediately with one ignored-or-not op; the
        // column under the spawn fills up until a spawn is blocked or the
        // field tops out.
        let mut text = String::new();
        for _ in 0..200 {
            text.push_str("N,D19,");
        }
        text.pop();
        let r = replay(&Record::parse(&text).unwrap(), |_| {});
        assert!(matches!(r.end, End::TopOut | End::SpawnBlocked), "{r:?}");
        assert!(r.pieces < 200);
    }
}
