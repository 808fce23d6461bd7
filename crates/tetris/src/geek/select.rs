//! Choosing the fields a beam keeps from all the children of one piece.
//!
//! A beam of 524,288 fields has some 15 million children; on one thread,
//! choosing among them takes a third of the wall time
//! (`docs/results/geek.md`). So every pass here runs on the threads' own
//! lists of children: a rank floor read from a sample cuts each list to the
//! few that can make the beam before anything is moved, and equal fields
//! are merged in shards by hash. The order is total (equal ranks are broken
//! by the field, then by how it was reached), so what is kept never depends
//! on how the children were split among threads.

use crate::board::Board;
use crate::movegen::Placement;
use rayon::prelude::*;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};
use std::cmp::Ordering;
use std::hash::BuildHasher;

/// A child before selection.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub rank: f64,
    pub score: u64,
    pub board: Board,
    /// Filled cells of `board`.
    pub cells: u32,
    pub parent: u32,
    pub placement: Placement,
}

/// Best rank first; equal ranks (common between different fields) by the
/// field, then by parent and placement, so that no two children tie.
pub(super) fn by_rank(a: &Candidate, b: &Candidate) -> Ordering {
    b.rank
        .total_cmp(&a.rank)
        .then_with(|| a.board.rows().cmp(b.board.rows()))
        .then_with(|| (a.parent, a.placement).cmp(&(b.parent, b.placement)))
}

/// Fewest filled cells first, then [`by_rank`].
fn by_safety(a: &Candidate, b: &Candidate) -> Ordering {
    a.cells.cmp(&b.cells).then_with(|| by_rank(a, b))
}

/// Ranks sampled to place the rank floor: enough that the floor keeps only a
/// few percent more children than it must.
const RANK_SAMPLES: usize = 1 << 16;

/// Buffers kept from piece to piece.
#[derive(Default)]
pub(super) struct Selector {
    /// Where each kept field first appears, one map per hash shard.
    shards: Vec<FxHashMap<Board, u32>>,
    /// The shard of each sorted child looked at.
    shard_ids: Vec<u32>,
    repeated: Vec<bool>,
    /// Index (in the sorted children) of the last field kept.
    last_kept: Option<u32>,
    spare: Vec<Candidate>,
}

impl Selector {
    /// Fills `out` with the best `beam` distinct fields of all `parts`, best
    /// first, then up to `reserve` more distinct fields: those with the
    /// fewest filled cells.
    pub(super) fn select(
        &mut self,
        parts: &[Vec<Candidate>],
        out: &mut Vec<Candidate>,
        beam: usize,
        reserve: usize,
    ) {
        self.select_with(parts, out, beam, reserve, RANK_SAMPLES);
    }

    fn select_with(
        &mut self,
        parts: &[Vec<Candidate>],
        out: &mut Vec<Candidate>,
        beam: usize,
        reserve: usize,
        samples: usize,
    ) {
        let total: usize = parts.iter().map(Vec::len).sum();
        if reserve > 0 {
            // Room for duplicates and for fields the beam also takes.
            let n = (4 * reserve).min(total);
            let most = fewest_cells_floor(parts, n);
            best_of(parts, n, |c| c.cells <= most, by_safety, &mut self.spare);
        }
        // Twice the beam leaves room for the duplicates merged below.
        let keep = (2 * beam).min(total);
        best_by_rank(parts, keep, total, samples, out);
        let kept = self.first_distinct(out, beam);
        out.truncate(kept);
        if reserve > 0 {
            self.add_reserve(out, reserve);
        }
    }

    /// Moves the first occurrence of each field in `sorted` to its front,
    /// in order, up to `n` of them; returns how many. The fields are looked
    /// up in parallel shards, a slice at a time, until `n` are found.
    fn first_distinct(&mut self, sorted: &mut [Candidate], n: usize) -> usize {
        let shards = rayon::current_num_threads().max(1);
        self.shards.resize_with(shards, FxHashMap::default);
        self.shards.iter_mut().for_each(FxHashMap::clear);
        self.shard_ids.clear();
        self.repeated.clear();
        self.repeated.resize(sorted.len(), false);
        let (mut start, mut distinct) = (0, 0);
        while distinct < n && start < sorted.len() {
            // Every field in this slice may be new: ask for what is missing.
            let end = (start + n - distinct).min(sorted.len());
            self.shard_ids.par_extend(
                sorted[start..end]
                    .par_iter()
                    .map(|c| shard_of(&c.board, shards) as u32),
            );
            let ids = &self.shard_ids;
            let repeats: Vec<Vec<u32>> = self
                .shards
                .par_iter_mut()
                .enumerate()
                .map(|(shard, seen)| {
                    let mut repeats = Vec::new();
                    for i in start..end {
                        if ids[i] as usize == shard {
                            let first = *seen.entry(sorted[i].board).or_insert(i as u32);
                            if first != i as u32 {
                                repeats.push(i as u32);
                            }
                        }
                    }
                    repeats
                })
                .collect();
            for i in repeats.into_iter().flatten() {
                self.repeated[i as usize] = true;
            }
            distinct += (start..end).filter(|&i| !self.repeated[i]).count();
            start = end;
        }
        let mut kept = 0;
        self.last_kept = None;
        for i in 0..start {
            if kept == n {
                break;
            }
            if !self.repeated[i] {
                sorted[kept] = sorted[i];
                kept += 1;
                self.last_kept = Some(i as u32);
            }
        }
        kept
    }

    /// Appends to `out` (the beam) up to `reserve` fields of the spare list
    /// that are neither in the beam nor repeated.
    fn add_reserve(&mut self, out: &mut Vec<Candidate>, reserve: usize) {
        let mut taken = FxHashSet::default();
        let mut extra = 0;
        for c in &self.spare {
            if extra == reserve {
                break;
            }
            if !self.in_beam(&c.board) && taken.insert(c.board) {
                out.push(*c);
                extra += 1;
            }
        }
    }

    /// Whether [`Self::first_distinct`] kept `board`.
    fn in_beam(&self, board: &Board) -> bool {
        let shard = &self.shards[shard_of(board, self.shards.len())];
        shard
            .get(board)
            .is_some_and(|&i| self.last_kept.is_some_and(|last| i <= last))
    }
}

/// The hash shard `board` belongs to, from bits the maps themselves use
/// little (hashbrown takes the low bits for buckets, the top 7 for tags).
fn shard_of(board: &Board, shards: usize) -> usize {
    (FxBuildHasher.hash_one(board) >> 32) as usize % shards
}

/// The largest cell count among the `n` emptiest children (a histogram:
/// cell counts are small).
fn fewest_cells_floor(parts: &[Vec<Candidate>], n: usize) -> u32 {
    let histogram = parts
        .par_iter()
        .map(|p| {
            let mut h = [0usize; 257];
            for c in p {
                h[c.cells.min(256) as usize] += 1;
            }
            h
        })
        .reduce(
            || [0usize; 257],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let mut seen = 0;
    for (cells, count) in histogram.iter().enumerate() {
        seen += count;
        if seen >= n {
            return cells as u32;
        }
    }
    u32::MAX
}

/// Fills `out` with the best `n` children by [`by_rank`], best first.
/// Returns how many passes over the children that took, and whether the last
/// one cut at a floor (rather than taking every child).
fn best_by_rank(
    parts: &[Vec<Candidate>],
    n: usize,
    total: usize,
    samples: usize,
    out: &mut Vec<Candidate>,
) -> (usize, bool) {
    if n == 0 {
        out.clear();
        return (0, false);
    }
    let mut sample: Vec<f64> = parts
        .iter()
        .flat_map(|p| p.iter().step_by((total / samples).max(1)))
        .map(|c| c.rank)
        .collect();
    sample.sort_unstable_by(|a, b| b.total_cmp(a));
    // Where the n-th best falls in the sample, and a margin of four standard
    // deviations, doubled while the floor keeps too few.
    let share = n as f64 / total as f64;
    let expected = share * sample.len() as f64;
    let mut margin = 4.0 * (expected * (1.0 - share)).sqrt() + 1.0;
    for passes in 1.. {
        let at = (expected + margin).ceil() as usize;
        let Some(&floor) = sample.get(at) else {
            best_of(parts, n, |_| true, by_rank, out);
            return (passes, false);
        };
        best_of(parts, n, |c| c.rank.total_cmp(&floor).is_ge(), by_rank, out);
        if out.len() == n {
            return (passes, true);
        }
        margin *= 2.0;
    }
    unreachable!("the margin grows until the sample runs out")
}

/// Fills `out` with the best `n` children under `order` among those that
/// pass `admit`, best first.
fn best_of(
    parts: &[Vec<Candidate>],
    n: usize,
    admit: impl Fn(&Candidate) -> bool + Sync,
    order: fn(&Candidate, &Candidate) -> Ordering,
    out: &mut Vec<Candidate>,
) {
    out.clear();
    out.par_extend(
        parts
            .par_iter()
            .flat_map_iter(|p| p.iter().filter(|&c| admit(c)).copied()),
    );
    if n < out.len() {
        out.select_nth_unstable_by(n, order);
        out.truncate(n);
    }
    out.par_sort_unstable_by(order);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geek::empty_board;
    use arcade_core::rng::Rng;

    fn candidate(rank: f64, board: Board, parent: u32) -> Candidate {
        Candidate {
            rank,
            score: rank as u64,
            board,
            cells: board.rows().iter().map(|r| r.count_ones()).sum(),
            parent,
            placement: Placement {
                rotation: 0,
                col: 0,
                row: 0,
            },
        }
    }

    /// A field with `n` filled cells in its bottom row (n < 10).
    fn with_cells(n: usize) -> Board {
        let mut b = empty_board();
        for x in 0..n {
            b.set(x, 0);
        }
        b
    }

    fn select(parts: &[Vec<Candidate>], beam: usize, reserve: usize) -> Vec<Candidate> {
        let mut out = Vec::new();
        Selector::default().select(parts, &mut out, beam, reserve);
        out
    }

    #[test]
    fn select_merges_equal_fields_keeping_the_best_rank() {
        let (a, b) = (with_cells(1), with_cells(0));
        let chosen = vec![
            candidate(1.0, a, 0),
            candidate(5.0, b, 1),
            candidate(3.0, a, 2),
            candidate(4.0, b, 3),
        ];
        let got: Vec<(u32, f64)> = select(&[chosen], 3, 0)
            .iter()
            .map(|c| (c.parent, c.rank))
            .collect();
        assert_eq!(got, vec![(1, 5.0), (2, 3.0)]);
    }

    #[test]
    fn the_reserve_adds_the_lowest_fields_the_beam_left_out() {
        // Ranks favour full fields; the beam of 2 takes the two fullest.
        let mut chosen: Vec<Candidate> = (0..8)
            .map(|n| candidate(n as f64, with_cells(n), n as u32))
            .collect();
        // A duplicate of the emptiest field with a worse rank is merged away.
        chosen.push(candidate(-1.0, with_cells(0), 8));
        let got: Vec<u32> = select(&[chosen], 2, 3).iter().map(|c| c.parent).collect();
        assert_eq!(got, vec![7, 6, 0, 1, 2]);
        // A reserve never repeats a field the beam already holds.
        let few: Vec<Candidate> = (0..3)
            .map(|n| candidate(n as f64, with_cells(n), n as u32))
            .collect();
        let got: Vec<u32> = select(&[few], 2, 4).iter().map(|c| c.parent).collect();
        assert_eq!(got, vec![2, 1, 0]);
    }

    /// The selection by its definition: everything sorted, the first of
    /// every field among the best twice the beam, then the emptiest fields
    /// not yet taken.
    fn reference(parts: &[Vec<Candidate>], beam: usize, reserve: usize) -> Vec<Candidate> {
        let mut all: Vec<Candidate> = parts.concat();
        all.sort_by(by_rank);
        let mut seen = FxHashSet::default();
        let mut out: Vec<Candidate> = all
            .iter()
            .take(2 * beam)
            .filter(|c| seen.insert(c.board))
            .take(beam)
            .copied()
            .collect();
        let beam_fields: FxHashSet<Board> = out.iter().map(|c| c.board).collect();
        all.sort_by(by_safety);
        let mut taken = FxHashSet::default();
        let spare: Vec<Candidate> = all
            .iter()
            .take(4 * reserve)
            .filter(|c| !beam_fields.contains(&c.board) && taken.insert(c.board))
            .take(reserve)
            .copied()
            .collect();
        out.extend(spare);
        out
    }

    fn key(c: &Candidate) -> (u64, u32, [u16; 4]) {
        let r = c.board.rows();
        (c.rank.to_bits(), c.parent, [r[0], r[1], r[2], r[3]])
    }

    #[test]
    fn parallel_selection_matches_the_definition_on_random_children() {
        let mut rng = Rng::new(35);
        let (mut cut, mut floored, mut repeats, mut reserves) = (0, 0, 0, 0);
        for case in 0..400 {
            let fields = 1 + rng.index(39);
            let boards: Vec<Board> = (0..fields)
                .map(|_| {
                    let mut b = empty_board();
                    for y in 0..4 {
                        b.set_row(y, rng.below(1024) as u16);
                    }
                    b
                })
                .collect();
            let parts: Vec<Vec<Candidate>> = (0..1 + rng.below(5) as u32)
                .map(|p| {
                    (0..rng.below(60) as u32)
                        .map(|i| {
                            // Few distinct ranks: ties everywhere.
                            let rank = rng.below(12) as f64;
                            let board = boards[rng.index(fields)];
                            candidate(rank, board, p * 100 + i)
                        })
                        .collect()
                })
                .collect();
            let total: usize = parts.iter().map(Vec::len).sum();
            let beam = 1 + rng.index(29);
            let reserve = if case % 2 == 0 { 0 } else { 1 + rng.index(7) };
            let samples = 1 + rng.index(40);
            let mut out = Vec::new();
            let mut selector = Selector::default();
            selector.select_with(&parts, &mut out, beam, reserve, samples);
            let want = reference(&parts, beam, reserve);
            let got: Vec<_> = out.iter().map(key).collect();
            let wanted: Vec<_> = want.iter().map(key).collect();
            assert_eq!(got, wanted, "case {case}");
            cut += usize::from(2 * beam < total);
            let n = (2 * beam).min(total);
            floored += usize::from(best_by_rank(&parts, n, total, samples, &mut Vec::new()).1);
            repeats += usize::from(selector.repeated.iter().any(|&r| r));
            reserves += usize::from(out.len() > beam);
        }
        // The cases really exercised the cut (and its floor), the merge and
        // the reserve.
        assert!(
            cut > 150 && floored > 100 && repeats > 150 && reserves > 50,
            "cut {cut}, floored {floored}, repeats {repeats}, reserves {reserves}"
        );
    }

    #[test]
    fn a_misleading_sample_lowers_the_floor_until_enough_children_pass() {
        // Every tenth child, the ones sampled, has the top rank.
        let board = with_cells(3);
        let children: Vec<Candidate> = (0..1000u32)
            .map(|i| {
                let rank = if i % 10 == 0 {
                    100.0
                } else {
                    f64::from(i % 50)
                };
                candidate(rank, board, i)
            })
            .collect();
        let mut want = children.clone();
        want.sort_by(by_rank);
        want.truncate(200);
        let mut out = Vec::new();
        let (passes, floored) = best_by_rank(&[children], 200, 1000, 100, &mut out);
        assert!(passes > 1 && !floored, "{passes} {floored}");
        assert_eq!(
            out.iter().map(key).collect::<Vec<_>>(),
            want.iter().map(key).collect::<Vec<_>>()
        );
    }
}
