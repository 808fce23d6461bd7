//! Exhaustive search of every starting position with a given piece set, for
//! the positions with the longest optimal solutions.
//!
//! Mushrooms never move and foxes never leave their line, so positions split
//! into independent *components*: a mushroom layout plus the line of each fox.
//! Mushroom layouts are taken up to the 8 symmetries of the board (each one
//! stands for its whole orbit in the counts), and each component is solved
//! at once by a [`Retrograde`] search from its goal states.

use crate::geometry::{ALL, Symmetry};
use crate::index::subsets;
use crate::position::{Axis, Position};
use crate::retrograde::{Retrograde, fox_placements, position_count};
use crate::rules::{Layout, Track};
use arcade_core::progress::Progress;
use rayon::prelude::*;
use thiserror::Error;

/// How many pieces of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceSet {
    pub rabbits: usize,
    pub foxes: usize,
    pub mushrooms: usize,
}

/// Most rabbits, foxes and mushrooms a piece set may hold.
pub const MAX_RABBITS: usize = 4;
pub const MAX_FOXES: usize = 3;
pub const MAX_MUSHROOMS: usize = 12;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum PieceSetError {
    #[error("rabbits must be 1 to {MAX_RABBITS}, not {0}")]
    Rabbits(usize),
    #[error("foxes must be 0 to {MAX_FOXES}, not {0}")]
    Foxes(usize),
    #[error("mushrooms must be 0 to {MAX_MUSHROOMS}, not {0}")]
    Mushrooms(usize),
}

impl PieceSet {
    /// Checks the counts against what the search can hold (up to 4 rabbits
    /// and 3 foxes: 809,600 dense state indices per component).
    pub fn validate(self) -> Result<PieceSet, PieceSetError> {
        if !(1..=MAX_RABBITS).contains(&self.rabbits) {
            return Err(PieceSetError::Rabbits(self.rabbits));
        }
        if self.foxes > MAX_FOXES {
            return Err(PieceSetError::Foxes(self.foxes));
        }
        if self.mushrooms > MAX_MUSHROOMS {
            return Err(PieceSetError::Mushrooms(self.mushrooms));
        }
        Ok(self)
    }

    /// The piece set of a position.
    pub fn of(p: &Position) -> PieceSet {
        PieceSet {
            rabbits: p.rabbits().count_ones() as usize,
            foxes: p.foxes().len(),
            mushrooms: p.mushrooms().count_ones() as usize,
        }
    }
}

/// A mushroom layout standing for its symmetry orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MushroomLayout {
    /// The smallest mask among the images.
    pub mask: u32,
    /// How many distinct layouts the orbit holds (1, 2, 4 or 8).
    pub orbit: u64,
}

/// Every layout of `m` mushrooms up to symmetry, in increasing mask order.
pub fn mushroom_layouts(m: usize) -> Vec<MushroomLayout> {
    subsets(ALL, m)
        .filter_map(|mask| {
            let mut images: Vec<u32> = Symmetry::ALL.iter().map(|s| s.mask(mask)).collect();
            images.sort_unstable();
            images.dedup();
            (images[0] == mask).then_some(MushroomLayout {
                mask,
                orbit: images.len() as u64,
            })
        })
        .collect()
}

/// Every multiset of `f` fox lines (5 rows, 5 columns), at most two foxes on
/// a line (a line of 5 cells holds two foxes of 2).
pub fn track_sets(f: usize) -> Vec<Vec<Track>> {
    let tracks: Vec<Track> = [Axis::Horizontal, Axis::Vertical]
        .into_iter()
        .flat_map(|axis| (0..5).map(move |line| Track { axis, line }))
        .collect();
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn extend(
        tracks: &[Track],
        from: usize,
        f: usize,
        current: &mut Vec<Track>,
        out: &mut Vec<Vec<Track>>,
    ) {
        if current.len() == f {
            out.push(current.clone());
            return;
        }
        for i in from..tracks.len() {
            if current.iter().filter(|&&t| t == tracks[i]).count() < 2 {
                current.push(tracks[i]);
                extend(tracks, i, f, current, out);
                current.pop();
            }
        }
    }
    extend(&tracks, 0, f, &mut current, &mut out);
    out
}

/// A position with its optimal move count, in canonical (symmetry-reduced)
/// form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    pub moves: u32,
    pub position: Position,
}

/// Positions counted over every placement (symmetric images counted apart).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Legal starting positions.
    pub positions: u64,
    /// Positions by optimal move count: `histogram[d]` need `d` moves.
    pub histogram: Vec<u64>,
}

impl Counts {
    /// Positions already solved (every rabbit in a hole).
    pub fn solved(&self) -> u64 {
        self.histogram.first().copied().unwrap_or(0)
    }

    /// Positions that need at least one move and can be solved.
    pub fn solvable(&self) -> u64 {
        self.histogram.iter().skip(1).sum()
    }

    /// Positions with no solution.
    pub fn unsolvable(&self) -> u64 {
        self.positions - self.histogram.iter().sum::<u64>()
    }

    fn add(&mut self, other: &Counts, weight: u64) {
        self.positions += other.positions * weight;
        if self.histogram.len() < other.histogram.len() {
            self.histogram.resize(other.histogram.len(), 0);
        }
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b * weight;
        }
    }
}

/// The outcome of [`hardest`].
#[derive(Clone, Debug)]
pub struct HardestReport {
    pub pieces: PieceSet,
    /// The `top` positions with the longest optimal solutions, longest first
    /// (ties in canonical order), each once up to symmetry.
    pub hardest: Vec<Ranked>,
    pub counts: Counts,
    /// Mushroom layouts searched (one per symmetry orbit).
    pub layouts: usize,
    /// Components searched (mushroom layout × fox lines).
    pub components: usize,
    /// States reached by the searches (the work done).
    pub states_reached: u64,
    /// Threads of the rayon pool that ran the search.
    pub threads: usize,
}

impl HardestReport {
    /// The longest optimal solution, if any position needs a move and is
    /// solvable (from the counts: the `top` list may be empty).
    pub fn max_moves(&self) -> Option<u32> {
        let longest = self.counts.histogram.iter().rposition(|&n| n > 0)?;
        (longest > 0).then_some(longest as u32)
    }
}

/// What some mushroom layouts contribute: one layout's from
/// [`search_layout`], or running totals that many are folded into.
#[derive(Default)]
struct Tally {
    counts: Counts,
    top: Vec<Ranked>,
    components: usize,
    states_reached: u64,
}

impl Tally {
    /// Adds `other` (its counts `weight` times: a layout's orbit size) and
    /// keeps the `top` best of both lists. The top list is the first `top`
    /// distinct positions of a total order (moves, then canonical key), and
    /// the rest are sums, so the totals do not depend on the order in which
    /// tallies are added, nor on how they are grouped.
    fn absorb(&mut self, other: Tally, weight: u64, top: usize) {
        self.counts.add(&other.counts, weight);
        self.components += other.components;
        self.states_reached += other.states_reached;
        merge_top(&mut self.top, other.top, top);
    }
}

/// Searches every position with the piece set; `top` hardest are kept.
/// Runs on the current rayon pool; `progress` counts mushroom layouts.
///
/// Each layout's tally is folded into running totals as soon as it is made
/// (the top list pruned to `top` after every merge), so memory does not grow
/// with the number of layouts: a thread holds one search and a few tallies
/// of at most `top` positions each. The report is the same whatever the
/// thread count (see `Tally::absorb`).
pub fn hardest(pieces: PieceSet, top: usize, progress: &Progress) -> HardestReport {
    let layouts = mushroom_layouts(pieces.mushrooms);
    let tracks = track_sets(pieces.foxes);
    progress.reset(layouts.len() as u64, "layouts");
    let total = layouts
        .par_iter()
        .with_max_len(1)
        .fold(Tally::default, |mut acc, m| {
            acc.absorb(search_layout(pieces, m.mask, &tracks, top), m.orbit, top);
            progress.inc(1);
            acc
        })
        .reduce(Tally::default, |mut a, b| {
            a.absorb(b, 1, top);
            a
        });
    HardestReport {
        pieces,
        hardest: total.top,
        counts: total.counts,
        layouts: layouts.len(),
        components: total.components,
        states_reached: total.states_reached,
        threads: rayon::current_num_threads(),
    }
}

/// Searches every set of fox lines over one mushroom layout.
fn search_layout(pieces: PieceSet, mushrooms: u32, track_sets: &[Vec<Track>], top: usize) -> Tally {
    let mut search = Retrograde::new(pieces.rabbits, pieces.foxes);
    let mut tally = Tally::default();
    for tracks in track_sets {
        let layout = Layout::new(mushrooms, tracks);
        let placements = fox_placements(&layout);
        if placements.is_empty() {
            continue;
        }
        search.run(&layout, &placements);
        tally.components += 1;
        tally.states_reached += search.reached().len() as u64;
        let levels = search.levels();
        let component = Counts {
            positions: position_count(&layout, placements.len(), pieces.rabbits),
            histogram: (0..levels).map(|d| search.level(d).len() as u64).collect(),
        };
        tally.counts.add(&component, 1);
        let candidates = farthest(&search, &layout, top, &tally.top);
        merge_top(&mut tally.top, candidates, top);
    }
    tally
}

/// The states of the last levels that could enter a top list whose current
/// entries are `current`: whole levels, from the farthest down, until there
/// are enough to fill the list even after removing symmetric duplicates.
fn farthest(search: &Retrograde, layout: &Layout, top: usize, current: &[Ranked]) -> Vec<Ranked> {
    let floor = if current.len() >= top {
        current.last().map_or(0, |r| r.moves as usize)
    } else {
        0
    };
    let mut out = Vec::new();
    for d in (floor..search.levels()).rev() {
        if out.len() >= top * Symmetry::ALL.len() || top == 0 {
            break;
        }
        out.extend(search.level(d).iter().map(|&s| Ranked {
            moves: d as u32,
            position: layout.position(s).canonical(),
        }));
    }
    out
}

/// Adds candidates to a top list: longest first, ties by canonical key, each
/// position once, at most `top` entries.
fn merge_top(list: &mut Vec<Ranked>, candidates: Vec<Ranked>, top: usize) {
    list.extend(candidates);
    list.sort_by(|a, b| {
        b.moves
            .cmp(&a.moves)
            .then(a.position.key().cmp(&b.position.key()))
    });
    list.dedup_by(|a, b| a.position == b.position);
    list.truncate(top);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::binomial;

    #[test]
    fn mushroom_orbits_cover_every_layout_once() {
        for m in 0..=4 {
            let total: u64 = mushroom_layouts(m).iter().map(|l| l.orbit).sum();
            assert_eq!(total, binomial(25, m));
        }
        // One mushroom: centre, corner, edge-adjacent classes of a 5×5 board.
        assert_eq!(mushroom_layouts(1).len(), 6);
    }

    #[test]
    fn track_sets_are_multisets_of_lines() {
        assert_eq!(track_sets(0), vec![Vec::<Track>::new()]);
        assert_eq!(track_sets(1).len(), 10);
        assert_eq!(track_sets(2).len(), 55);
        // Three foxes: C(12, 3) multisets minus the 10 with one line thrice.
        assert_eq!(track_sets(3).len(), 220 - 10);
    }

    /// Small piece sets, with and without foxes and mushrooms.
    const SMALL_SETS: [PieceSet; 6] = [
        PieceSet {
            rabbits: 1,
            foxes: 0,
            mushrooms: 0,
        },
        PieceSet {
            rabbits: 2,
            foxes: 1,
            mushrooms: 1,
        },
        PieceSet {
            rabbits: 2,
            foxes: 1,
            mushrooms: 2,
        },
        PieceSet {
            rabbits: 3,
            foxes: 1,
            mushrooms: 1,
        },
        PieceSet {
            rabbits: 1,
            foxes: 2,
            mushrooms: 2,
        },
        PieceSet {
            rabbits: 2,
            foxes: 0,
            mushrooms: 3,
        },
    ];

    /// The search as it was before the streaming merge: every layout's
    /// tally collected first, in layout order, then merged one by one.
    fn collect_then_merge(pieces: PieceSet, top: usize) -> HardestReport {
        let layouts = mushroom_layouts(pieces.mushrooms);
        let tracks = track_sets(pieces.foxes);
        let tallies: Vec<(Tally, u64)> = layouts
            .iter()
            .map(|m| (search_layout(pieces, m.mask, &tracks, top), m.orbit))
            .collect();
        let mut report = HardestReport {
            pieces,
            hardest: Vec::new(),
            counts: Counts::default(),
            layouts: layouts.len(),
            components: 0,
            states_reached: 0,
            threads: 1,
        };
        for (t, orbit) in tallies {
            report.counts.add(&t.counts, orbit);
            report.components += t.components;
            report.states_reached += t.states_reached;
            merge_top(&mut report.hardest, t.top, top);
        }
        report
    }

    /// Every field but the thread count.
    fn assert_same(a: &HardestReport, b: &HardestReport) {
        assert_eq!(a.pieces, b.pieces);
        assert_eq!(a.hardest, b.hardest, "{:?}", a.pieces);
        assert_eq!(a.counts, b.counts, "{:?}", a.pieces);
        assert_eq!(a.layouts, b.layouts);
        assert_eq!(a.components, b.components);
        assert_eq!(a.states_reached, b.states_reached);
    }

    fn on_threads(threads: usize, pieces: PieceSet, top: usize) -> HardestReport {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| hardest(pieces, top, &Progress::hidden()))
    }

    #[test]
    fn the_streaming_merge_matches_collect_then_merge_on_any_thread_count() {
        for pieces in SMALL_SETS {
            for top in [0, 1, 5, 40] {
                let reference = collect_then_merge(pieces, top);
                assert!(top == 0 || !reference.hardest.is_empty());
                let one = on_threads(1, pieces, top);
                let three = on_threads(3, pieces, top);
                assert_eq!((one.threads, three.threads), (1, 3));
                assert_same(&one, &reference);
                assert_same(&three, &reference);
            }
        }
    }

    #[test]
    fn tallies_give_the_same_totals_in_any_order_and_grouping() {
        let pieces = SMALL_SETS[2];
        let top = 7;
        let layouts = mushroom_layouts(pieces.mushrooms);
        let tracks = track_sets(pieces.foxes);
        let tally = |i: usize| {
            let m = layouts[i];
            let mut t = Tally::default();
            t.absorb(search_layout(pieces, m.mask, &tracks, top), m.orbit, top);
            t
        };
        let forward = (0..layouts.len()).fold(Tally::default(), |mut acc, i| {
            acc.absorb(tally(i), 1, top);
            acc
        });
        let backward = (0..layouts.len())
            .rev()
            .fold(Tally::default(), |mut acc, i| {
                acc.absorb(tally(i), 1, top);
                acc
            });
        // Odd and even layouts apart, then the two halves together.
        let mut halves = [Tally::default(), Tally::default()];
        for i in 0..layouts.len() {
            halves[i % 2].absorb(tally(i), 1, top);
        }
        let [mut even, odd] = halves;
        even.absorb(odd, 1, top);
        for other in [&backward, &even] {
            assert_eq!(forward.top, other.top);
            assert_eq!(forward.counts, other.counts);
            assert_eq!(forward.components, other.components);
            assert_eq!(forward.states_reached, other.states_reached);
        }
        assert_eq!(forward.top.len(), top);
    }

    #[test]
    fn the_top_list_is_the_best_of_every_position() {
        // Brute force: every state of every component, canonical, sorted
        // by moves (longest first) then key, each position once.
        for pieces in [SMALL_SETS[1], SMALL_SETS[4]] {
            let tracks = track_sets(pieces.foxes);
            let mut all = Vec::new();
            for m in mushroom_layouts(pieces.mushrooms) {
                for t in &tracks {
                    let layout = Layout::new(m.mask, t);
                    let placements = fox_placements(&layout);
                    if placements.is_empty() {
                        continue;
                    }
                    let mut search = Retrograde::new(pieces.rabbits, pieces.foxes);
                    search.run(&layout, &placements);
                    for d in 0..search.levels() {
                        all.extend(search.level(d).iter().map(|&s| Ranked {
                            moves: d as u32,
                            position: layout.position(s).canonical(),
                        }));
                    }
                }
            }
            all.sort_by(|a, b| {
                b.moves
                    .cmp(&a.moves)
                    .then(a.position.key().cmp(&b.position.key()))
            });
            all.dedup_by(|a, b| a.position == b.position);
            for top in [1, 5, 40] {
                let report = on_threads(3, pieces, top);
                assert_eq!(report.hardest, all[..top], "{pieces:?}, top {top}");
            }
        }
    }

    #[test]
    fn piece_sets_outside_the_limits_are_refused() {
        let ok = PieceSet {
            rabbits: 3,
            foxes: 2,
            mushrooms: 3,
        };
        assert_eq!(ok.validate(), Ok(ok));
        assert_eq!(
            PieceSet { rabbits: 0, ..ok }.validate(),
            Err(PieceSetError::Rabbits(0))
        );
        assert_eq!(
            PieceSet { foxes: 4, ..ok }.validate(),
            Err(PieceSetError::Foxes(4))
        );
    }
}
