//! Optimal solution length of every state of one layout at once: one
//! breadth-first search from all goal states together. Moves are reversible
//! (a rabbit jumps back over the same cells, a fox slides back), so the
//! distance from the nearest goal is the minimum number of moves to solve.

use crate::geometry::HOLES;
use crate::index::{StateIndex, binomial, subsets};
use crate::rules::{Layout, State};

/// A placement of all the foxes of a layout: their offsets packed as in
/// [`State::foxes`], and the cells they cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoxPlacement {
    pub offsets: u32,
    pub cells: u32,
}

/// Every placement of the layout's foxes off the mushrooms and off each
/// other. Foxes on the same line are interchangeable and cannot pass each
/// other, so each placement is listed once, with the lower-numbered fox first
/// on the line.
pub fn fox_placements(layout: &Layout) -> Vec<FoxPlacement> {
    let tracks = layout.tracks();
    let mut out = Vec::new();
    for offsets in 0..1u32 << (2 * tracks.len()) {
        let s = State {
            rabbits: 0,
            foxes: offsets,
        };
        let mut cells = 0;
        let mut ok = true;
        for i in 0..tracks.len() {
            let mask = layout.fox(s, i).mask();
            let same_line_out_of_order =
                (0..i).any(|j| tracks[j] == tracks[i] && s.offset(j) > s.offset(i));
            if mask & (cells | layout.mushrooms()) != 0 || same_line_out_of_order {
                ok = false;
                break;
            }
            cells |= mask;
        }
        if ok {
            out.push(FoxPlacement { offsets, cells });
        }
    }
    out
}

/// Number of positions of a layout with `rabbits` rabbits: each fox
/// placement leaves the same number of free cells for them.
pub fn position_count(layout: &Layout, placements: usize, rabbits: usize) -> u64 {
    let used = layout.mushrooms().count_ones() as usize + 2 * layout.tracks().len();
    placements as u64 * binomial(25 - used, rabbits)
}

/// Reusable buffers of the search, for many layouts with the same number of
/// rabbits and foxes.
pub struct Retrograde {
    rabbits: usize,
    index: StateIndex,
    seen: Vec<u64>,
    order: Vec<State>,
    levels: Vec<usize>,
}

impl Retrograde {
    pub fn new(rabbits: usize, foxes: usize) -> Retrograde {
        let index = StateIndex::new(rabbits, foxes);
        Retrograde {
            rabbits,
            index,
            seen: vec![0; index.len().div_ceil(64)],
            order: Vec::new(),
            levels: Vec::new(),
        }
    }

    /// Marks a state; `true` when it was new.
    #[inline]
    fn mark(seen: &mut [u64], index: StateIndex, s: State) -> bool {
        let i = index.of(s);
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let new = seen[word] & bit == 0;
        seen[word] |= bit;
        new
    }

    /// Searches from every goal state of `layout` (fox placements from
    /// [`fox_placements`]); afterwards [`level`](Retrograde::level)`(d)` holds
    /// the states whose optimal solution takes `d` moves.
    pub fn run(&mut self, layout: &Layout, placements: &[FoxPlacement]) {
        for &s in &self.order {
            let i = self.index.of(s);
            self.seen[i / 64] = 0;
        }
        self.order.clear();
        self.levels.clear();
        let open = HOLES & !layout.mushrooms();
        for p in placements {
            for rabbits in subsets(open & !p.cells, self.rabbits) {
                let s = State {
                    rabbits,
                    foxes: p.offsets,
                };
                if Self::mark(&mut self.seen, self.index, s) {
                    self.order.push(s);
                }
            }
        }
        let (seen, index, order) = (&mut self.seen, self.index, &mut self.order);
        let mut start = 0;
        while start < order.len() {
            self.levels.push(start);
            let end = order.len();
            for k in start..end {
                layout.for_each_move(order[k], |_, next| {
                    if Self::mark(seen, index, next) {
                        order.push(next);
                    }
                });
            }
            start = end;
        }
        self.levels.push(order.len());
    }

    /// Number of distinct distances found (the largest is `levels() - 1`).
    pub fn levels(&self) -> usize {
        self.levels.len() - 1
    }

    /// The states `d` moves from the nearest goal.
    pub fn level(&self, d: usize) -> &[State] {
        &self.order[self.levels[d]..self.levels[d + 1]]
    }

    /// Every state that can reach a goal, nearest first.
    pub fn reached(&self) -> &[State] {
        &self.order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{bit, cell};
    use crate::parse::parse_code;
    use crate::position::Axis;
    use crate::rules::Track;
    use crate::solve::solve;

    #[test]
    fn foxes_on_one_line_are_placed_once_each() {
        let track = Track {
            axis: Axis::Horizontal,
            line: 1,
        };
        let layout = Layout::new(0, &[track, track]);
        // Offsets (0,2), (0,3), (1,3).
        assert_eq!(fox_placements(&layout).len(), 3);
        let mushroom = Layout::new(bit(cell(2, 1)), &[track]);
        // Offsets 0 and 3 avoid the mushroom at column 2.
        assert_eq!(fox_placements(&mushroom).len(), 2);
    }

    #[test]
    fn distances_match_the_forward_solver() {
        let p = parse_code("C00B11G13M221444FW31E43").unwrap();
        let (layout, start) = Layout::split(&p);
        let placements = fox_placements(&layout);
        let mut r = Retrograde::new(3, 2);
        r.run(&layout, &placements);
        let d = (0..r.levels())
            .find(|&d| r.level(d).contains(&start))
            .unwrap();
        assert_eq!(d, 55);
        // Every tenth reached state: its level is its optimal move count.
        for d in 0..r.levels() {
            for s in r.level(d).iter().step_by(10) {
                let n = solve(&layout.position(*s)).solution.unwrap().len();
                assert_eq!(n, d);
            }
        }
        // Reuse: a second run gives the same levels.
        let sizes: Vec<usize> = (0..r.levels()).map(|d| r.level(d).len()).collect();
        r.run(&layout, &placements);
        let again: Vec<usize> = (0..r.levels()).map(|d| r.level(d).len()).collect();
        assert_eq!(sizes, again);
    }
}
