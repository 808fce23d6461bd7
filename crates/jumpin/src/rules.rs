//! The moves, on a compact state: a rabbit jumps in a straight line over one
//! or more occupied cells to the first empty one; a fox slides one cell along
//! its own line. Both kinds are reversible, so the state graph is undirected.

use crate::geometry::{Cell, HOLES, RAYS, bit, cells};
use crate::position::{Axis, Fox, MAX_FOX_OFFSET, Position};

/// What never moves: the mushrooms and the line each fox lives on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    mushrooms: u32,
    tracks: Vec<Track>,
}

/// The line a fox lives on: row `line` (horizontal) or column `line`
/// (vertical).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Track {
    pub axis: Axis,
    pub line: u8,
}

impl Track {
    /// The `i`-th cell of the line (0..5).
    #[inline]
    fn cell(self, i: u8) -> Cell {
        Fox::cell_at(self.axis, self.line, i)
    }

    /// The fox's cells at an offset.
    #[inline]
    fn mask(self, offset: u8) -> u32 {
        bit(self.cell(offset)) | bit(self.cell(offset + 1))
    }
}

/// The moving part of a position: the rabbit cells and two bits of offset
/// per fox (fox `i` in bits `2i..2i+2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub rabbits: u32,
    pub foxes: u32,
}

impl State {
    /// The offset of fox `i`.
    #[inline]
    pub fn offset(self, i: usize) -> u8 {
        ((self.foxes >> (2 * i)) & 3) as u8
    }

    /// Every rabbit sits in a hole.
    #[inline]
    pub fn is_goal(self) -> bool {
        self.rabbits & !HOLES == 0
    }

    /// The state as one integer (25 rabbit bits, then the fox offsets).
    #[inline]
    pub fn key(self) -> u64 {
        u64::from(self.rabbits) | u64::from(self.foxes) << 25
    }
}

/// One move. A fox move names the fox (its index in the layout) and its
/// offsets before and after; each fox move is a single cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Rabbit { from: Cell, to: Cell },
    Fox { fox: u8, from: u8, to: u8 },
}

impl Layout {
    /// A layout from mushroom cells and fox lines (in fox index order).
    pub fn new(mushrooms: u32, tracks: &[Track]) -> Layout {
        assert!(tracks.len() <= 16, "two bits per fox in a u32");
        Layout {
            mushrooms,
            tracks: tracks.to_vec(),
        }
    }

    /// Splits a position into what never moves and what does.
    pub fn split(p: &Position) -> (Layout, State) {
        let tracks: Vec<Track> = p
            .foxes()
            .iter()
            .map(|f| Track {
                axis: f.axis,
                line: f.line,
            })
            .collect();
        let foxes = p
            .foxes()
            .iter()
            .enumerate()
            .fold(0, |acc, (i, f)| acc | u32::from(f.offset) << (2 * i));
        (
            Layout::new(p.mushrooms(), &tracks),
            State {
                rabbits: p.rabbits(),
                foxes,
            },
        )
    }

    pub fn mushrooms(&self) -> u32 {
        self.mushrooms
    }

    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// The fox of index `i` in a state.
    pub fn fox(&self, s: State, i: usize) -> Fox {
        let t = self.tracks[i];
        Fox {
            axis: t.axis,
            line: t.line,
            offset: s.offset(i),
        }
    }

    /// Reassembles a full position.
    pub fn position(&self, s: State) -> Position {
        let foxes = (0..self.tracks.len()).map(|i| self.fox(s, i)).collect();
        Position::new(s.rabbits, self.mushrooms, foxes).expect("states hold valid positions")
    }

    /// Cells covered by foxes.
    #[inline]
    pub fn fox_cells(&self, s: State) -> u32 {
        self.tracks
            .iter()
            .enumerate()
            .fold(0, |m, (i, t)| m | t.mask(s.offset(i)))
    }

    /// Calls `f(move, next_state)` for every legal move, rabbits (in cell
    /// order, directions up, down, left, right) before foxes.
    #[inline]
    pub fn for_each_move(&self, s: State, mut f: impl FnMut(Move, State)) {
        let occupied = self.mushrooms | s.rabbits | self.fox_cells(s);
        for from in cells(s.rabbits) {
            for ray in &RAYS[from as usize] {
                if let Some(to) = landing(ray.cells, ray.len, occupied) {
                    let next = State {
                        rabbits: s.rabbits ^ bit(from) ^ bit(to),
                        ..s
                    };
                    f(Move::Rabbit { from, to }, next);
                }
            }
        }
        for (i, t) in self.tracks.iter().enumerate() {
            let o = s.offset(i);
            let shift = 2 * i;
            if o > 0 && occupied & bit(t.cell(o - 1)) == 0 {
                let next = State {
                    foxes: s.foxes - (1 << shift),
                    ..s
                };
                f(
                    Move::Fox {
                        fox: i as u8,
                        from: o,
                        to: o - 1,
                    },
                    next,
                );
            }
            if o < MAX_FOX_OFFSET && occupied & bit(t.cell(o + 2)) == 0 {
                let next = State {
                    foxes: s.foxes + (1 << shift),
                    ..s
                };
                f(
                    Move::Fox {
                        fox: i as u8,
                        from: o,
                        to: o + 1,
                    },
                    next,
                );
            }
        }
    }

    /// The state after a move, or `None` when the move is not legal here.
    pub fn apply(&self, s: State, m: Move) -> Option<State> {
        let mut out = None;
        self.for_each_move(s, |legal, next| {
            if legal == m {
                out = Some(next);
            }
        });
        out
    }
}

/// Where a rabbit lands jumping along a ray: past at least one occupied cell,
/// on the first empty one; `None` when the first cell is empty or the run of
/// occupied cells reaches the edge.
#[inline]
fn landing(ray: [Cell; 4], len: u8, occupied: u32) -> Option<Cell> {
    if len == 0 || occupied & bit(ray[0]) == 0 {
        return None;
    }
    ray[1..len as usize]
        .iter()
        .copied()
        .find(|&c| occupied & bit(c) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_board;

    fn moves_of(board: &str) -> Vec<String> {
        let p = parse_board(board).unwrap();
        let (layout, s) = Layout::split(&p);
        let mut out = Vec::new();
        layout.for_each_move(s, |m, next| {
            let after = layout.position(next);
            out.push(format!("{m:?}\n{after}"));
        });
        out
    }

    #[test]
    fn a_rabbit_jumps_over_a_run_and_never_steps() {
        // The rabbit at (0,0) can jump right over X and F F to (4,0); down is
        // an empty neighbour, so no move there.
        let out = moves_of("RXFF.\n.....\n.....\n.....\n.....\n");
        let rabbit: Vec<&String> = out.iter().filter(|m| m.starts_with("Rabbit")).collect();
        assert_eq!(rabbit.len(), 1);
        assert!(rabbit[0].ends_with(".XFFR\n.....\n.....\n.....\n.....\n"));
    }

    #[test]
    fn a_rabbit_cannot_jump_off_the_board() {
        let out = moves_of("RXXXX\n.....\n.....\n.....\n.....\n");
        assert!(out.iter().all(|m| !m.starts_with("Rabbit")));
    }

    #[test]
    fn a_fox_slides_one_cell_each_way_into_empty_cells() {
        let out = moves_of(".FF.R\n.....\n.....\n.....\n.....\n");
        let fox: Vec<&String> = out.iter().filter(|m| m.starts_with("Fox")).collect();
        assert_eq!(fox.len(), 2);
        assert!(fox[0].ends_with("FF..R\n.....\n.....\n.....\n.....\n"));
        assert!(fox[1].ends_with("..FFR\n.....\n.....\n.....\n.....\n"));
    }

    #[test]
    fn every_move_is_undone_by_another_move() {
        let p = parse_board("...X.\nFF.R.\n..X.R\nX....\n...R.\n").unwrap();
        let (layout, s) = Layout::split(&p);
        layout.for_each_move(s, |_, next| {
            let mut back = false;
            layout.for_each_move(next, |_, again| back |= again == s);
            assert!(back);
        });
    }
}
