//! Shortest solutions by breadth-first search over compact states.
//!
//! Every move costs one, so BFS finds a minimum. States are marked in a flat
//! bitset indexed by [`StateIndex`] when that fits (it does for every official
//! challenge: 2,300 rabbit sets × 16 fox offsets), and in a hash set otherwise.

use crate::geometry::{HOLES, xy};
use crate::index::StateIndex;
use crate::position::Position;
use crate::rules::{Layout, Move, State};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Largest dense index (in states) the solver allocates a bitset for.
const DENSE_LIMIT: usize = 1 << 26;

/// What kind of piece moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    Rabbit,
    Fox,
}

/// A move for people: the piece and its cell before and after as
/// `[column, row]`; a fox is named by its top or left cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub piece: Piece,
    pub from: [u8; 2],
    pub to: [u8; 2],
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The moves of a shortest solution, or `None` when there is none.
    pub solution: Option<Vec<Move>>,
    /// Distinct states reached (the start included).
    pub states_explored: usize,
}

/// Finds a shortest solution of `start`.
pub fn solve(start: &Position) -> Outcome {
    let (layout, state) = Layout::split(start);
    let index = StateIndex::new(start.rabbits().count_ones() as usize, start.foxes().len());
    if index.len() <= DENSE_LIMIT {
        bfs(&layout, state, &mut DenseSeen::new(index))
    } else {
        bfs(&layout, state, &mut HashSeen::default())
    }
}

/// The same search with the hash-set marks (to check the dense path).
pub fn solve_hashed(start: &Position) -> Outcome {
    let (layout, state) = Layout::split(start);
    bfs(&layout, state, &mut HashSeen::default())
}

/// Describes the moves of a solution of `start` and the position after each.
pub fn replay(start: &Position, moves: &[Move]) -> Option<Vec<(Step, Position)>> {
    let (layout, mut s) = Layout::split(start);
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let step = describe(&layout, s, m);
        s = layout.apply(s, m)?;
        out.push((step, layout.position(s)));
    }
    Some(out)
}

/// The [`Step`] of a move made in state `s`.
pub fn describe(layout: &Layout, s: State, m: Move) -> Step {
    let at = |c| {
        let (x, y) = xy(c);
        [x, y]
    };
    match m {
        Move::Rabbit { from, to } => Step {
            piece: Piece::Rabbit,
            from: at(from),
            to: at(to),
        },
        Move::Fox { fox, to, .. } => {
            let before = layout.fox(s, fox as usize);
            let mut after = before;
            after.offset = to;
            Step {
                piece: Piece::Fox,
                from: at(before.cells()[0]),
                to: at(after.cells()[0]),
            }
        }
    }
}

/// Marks of visited states.
trait Seen {
    /// Marks `s`; `true` when it was not marked before.
    fn insert(&mut self, s: State) -> bool;
}

struct DenseSeen {
    index: StateIndex,
    bits: Vec<u64>,
}

impl DenseSeen {
    fn new(index: StateIndex) -> DenseSeen {
        DenseSeen {
            index,
            bits: vec![0; index.len().div_ceil(64)],
        }
    }
}

impl Seen for DenseSeen {
    #[inline]
    fn insert(&mut self, s: State) -> bool {
        let i = self.index.of(s);
        let (word, mask) = (i / 64, 1u64 << (i % 64));
        let new = self.bits[word] & mask == 0;
        self.bits[word] |= mask;
        new
    }
}

#[derive(Default)]
struct HashSeen(HashSet<u64, BuildHasherDefault<MixHasher>>);

impl Seen for HashSeen {
    fn insert(&mut self, s: State) -> bool {
        self.0.insert(s.key())
    }
}

/// A hasher for one `u64` key: a SplitMix64 finaliser, no per-byte work.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        arcade_core::splitmix64(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Breadth-first search from `start` to the first goal state. The queue keeps
/// each state's parent and the move that reached it, to read the path back.
fn bfs(layout: &Layout, start: State, seen: &mut impl Seen) -> Outcome {
    seen.insert(start);
    if start.is_goal() {
        return Outcome {
            solution: Some(Vec::new()),
            states_explored: 1,
        };
    }
    let open_holes = (HOLES & !layout.mushrooms()).count_ones();
    if start.rabbits.count_ones() > open_holes {
        return Outcome {
            solution: None,
            states_explored: 1,
        };
    }
    let mut queue: Vec<(State, u32, Move)> =
        vec![(start, u32::MAX, Move::Rabbit { from: 0, to: 0 })];
    let mut head = 0;
    let mut goal = None;
    while head < queue.len() && goal.is_none() {
        let (s, _, _) = queue[head];
        layout.for_each_move(s, |m, next| {
            if seen.insert(next) {
                queue.push((next, head as u32, m));
                if next.is_goal() && goal.is_none() {
                    goal = Some(queue.len() - 1);
                }
            }
        });
        head += 1;
    }
    let solution = goal.map(|mut at| {
        let mut moves = Vec::new();
        while queue[at].1 != u32::MAX {
            moves.push(queue[at].2);
            at = queue[at].1 as usize;
        }
        moves.reverse();
        moves
    });
    Outcome {
        solution,
        states_explored: queue.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_board, parse_code};

    #[test]
    fn a_solved_position_needs_no_moves() {
        let p = parse_board("R....\n.....\n..X..\n.....\n....R\n").unwrap();
        assert_eq!(solve(&p).solution, Some(vec![]));
    }

    #[test]
    fn one_jump_into_a_hole() {
        // The rabbit at (2,0) jumps left over the mushroom into the corner hole.
        let p = parse_board(".XR..\n.....\n.....\n.....\n.....\n").unwrap();
        let out = solve(&p);
        let moves = out.solution.unwrap();
        assert_eq!(moves, vec![Move::Rabbit { from: 2, to: 0 }]);
        let steps = replay(&p, &moves).unwrap();
        assert_eq!(
            steps[0].0,
            Step {
                piece: Piece::Rabbit,
                from: [2, 0],
                to: [0, 0]
            }
        );
        assert!(steps[0].1.is_solved());
    }

    #[test]
    fn a_lone_rabbit_with_nothing_to_jump_is_stuck() {
        let p = parse_board(".....\n.R...\n.....\n.....\n.....\n").unwrap();
        let out = solve(&p);
        assert_eq!(out.solution, None);
        assert_eq!(out.states_explored, 1);
    }

    #[test]
    fn more_rabbits_than_open_holes_is_unsolvable_at_once() {
        let p = parse_code("C11B13G31M000444").unwrap();
        assert_eq!(solve(&p).solution, None);
    }

    #[test]
    fn dense_and_hashed_marks_agree() {
        let p = parse_code("C00B11G13M221444FW31E43").unwrap();
        let a = solve(&p);
        let b = solve_hashed(&p);
        assert_eq!(a.solution.as_ref().map(Vec::len), Some(55));
        assert_eq!(a.solution, b.solution);
        assert_eq!(a.states_explored, b.states_explored);
    }
}
