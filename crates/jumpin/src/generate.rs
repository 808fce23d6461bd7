//! New puzzles with a chosen optimal solution length.
//!
//! The components of the exhaustive search (a mushroom layout and the lines
//! of the foxes) are visited in an order shuffled by the seed; the first one
//! holding a position exactly N moves from solved gives the puzzle, picked at
//! random in that level and turned by a random symmetry. When no component
//! reaches N the whole piece set has been searched, so the longest position
//! found is the longest possible below N.

/// Most moves a generated puzzle may be asked for: far beyond the hardest
/// puzzle of any piece set (the search then returns the longest it has).
pub const MAX_MOVES: u32 = 1000;

use crate::geometry::Symmetry;
use crate::hardest::{MushroomLayout, PieceSet, mushroom_layouts, track_sets};
use crate::position::Position;
use crate::retrograde::{Retrograde, fox_placements};
use crate::rules::{Layout, State, Track};
use arcade_core::progress::Progress;
use arcade_core::{Rng, derive_seed};
use rayon::prelude::*;
use thiserror::Error;

/// Most components searched in parallel between checks for a hit. The
/// first chunks are smaller (1, 2, 4, …), since the first component usually
/// holds the length asked. Results do not depend on the chunks (nor on the
/// thread count), only the time to the first hit.
const CHUNK: usize = 32;

/// Most components (mushroom layout × fox lines) one run may search: their
/// shuffled list takes 4 bytes each, so this bounds it at 128 MB (3 foxes
/// and 12 mushrooms would need 136 million, and took 5.3 GB).
pub const MAX_COMPONENTS: usize = 1 << 25;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum GenerateError {
    #[error("moves must be at least 1")]
    ZeroMoves,
    #[error(
        "this piece set has {0} components (mushroom layouts × fox lines) to search; generate searches at most {MAX_COMPONENTS}: use fewer foxes or mushrooms"
    )]
    TooManyComponents(usize),
    #[error(
        "no position with this piece set needs a move: each is solved already or cannot be solved"
    )]
    NothingSolvable,
    #[error("stopped after searching {0} components")]
    Stopped(usize),
}

/// A generated puzzle.
#[derive(Clone, Debug)]
pub struct Generated {
    pub position: Position,
    /// Its optimal solution length.
    pub moves: u32,
    /// `false` when no position needs exactly the requested number of moves
    /// and this is one of the longest below it.
    pub exact: bool,
    /// Components searched before stopping.
    pub components_searched: usize,
}

/// A candidate position at `moves` from solved.
struct Pick {
    moves: u32,
    position: Position,
}

/// Generates a puzzle whose optimal solution is `target` moves (or the
/// longest possible below). The same seed gives the same puzzle. Searches
/// components in chunks of 1, 2, 4, … up to [`CHUNK`] on all threads.
pub fn generate(
    pieces: PieceSet,
    target: u32,
    seed: u64,
    progress: &Progress,
) -> Result<Generated, GenerateError> {
    let order = Order::new(pieces, target, seed)?;
    progress.reset(order.components.len() as u64, "components");
    let mut best: Option<Pick> = None;
    let mut searched = 0;
    let mut start = 0;
    while start < order.components.len() {
        let end = order.components.len().min(start + (start + 1).min(CHUNK));
        let chunk = &order.components[start..end];
        // A caller that gave up (the web arena's time bound) frees the cores.
        if progress.is_cancelled() {
            return Err(GenerateError::Stopped(searched));
        }
        let picks: Vec<Option<Pick>> = chunk
            .par_iter()
            .enumerate()
            .map_init(
                || Retrograde::new(pieces.rabbits, pieces.foxes),
                |search, (i, &k)| {
                    let pick = order.pick(search, k, start + i);
                    progress.inc(1);
                    pick
                },
            )
            .collect();
        searched += chunk.len();
        picks
            .into_iter()
            .flatten()
            .for_each(|p| keep_longer(&mut best, p));
        if best.as_ref().is_some_and(|b| b.moves == target) {
            break;
        }
        start = end;
    }
    order.finish(best, searched)
}

/// [`generate`]'s puzzle, searched one component at a time on the calling
/// thread: for a caller that makes many puzzles at once on all threads (a
/// vector environment's resets), where `generate`'s parallel chunks would
/// compete with one another.
pub fn generate_serial(
    pieces: PieceSet,
    target: u32,
    seed: u64,
) -> Result<Generated, GenerateError> {
    let order = Order::new(pieces, target, seed)?;
    let mut search = Retrograde::new(pieces.rabbits, pieces.foxes);
    let mut best: Option<Pick> = None;
    let mut searched = 0;
    for (i, &k) in order.components.iter().enumerate() {
        searched += 1;
        if let Some(pick) = order.pick(&mut search, k, i) {
            keep_longer(&mut best, pick);
        }
        if best.as_ref().is_some_and(|b| b.moves == target) {
            break;
        }
    }
    order.finish(best, searched)
}

/// Keeps `pick` if it is longer than the best so far: of equal lengths the
/// first in the search order stays.
fn keep_longer(best: &mut Option<Pick>, pick: Pick) {
    if best.as_ref().is_none_or(|b| pick.moves > b.moves) {
        *best = Some(pick);
    }
}

/// A search of one seed: the piece set's components in the seed's order.
struct Order {
    target: u32,
    seed: u64,
    tracks: Vec<Vec<Track>>,
    layouts: Vec<MushroomLayout>,
    /// Component k is layout k / tracks, fox lines k % tracks: an index of
    /// 4 bytes instead of a (mask, slice) pair of 24. Shuffling indices
    /// gives the same order as shuffling the pairs did.
    components: Vec<u32>,
    /// The seed's generator after the shuffle (it then draws the symmetry).
    rng: Rng,
}

impl Order {
    fn new(pieces: PieceSet, target: u32, seed: u64) -> Result<Order, GenerateError> {
        if target == 0 {
            return Err(GenerateError::ZeroMoves);
        }
        let tracks = track_sets(pieces.foxes);
        let layouts = mushroom_layouts(pieces.mushrooms);
        let total = layouts.len() * tracks.len();
        if total > MAX_COMPONENTS {
            return Err(GenerateError::TooManyComponents(total));
        }
        let mut components: Vec<u32> = (0..total as u32).collect();
        let mut rng = Rng::new(seed);
        rng.shuffle(&mut components);
        Ok(Order {
            target,
            seed,
            tracks,
            layouts,
            components,
            rng,
        })
    }

    /// Component `k`, the `order`-th searched: a random position at the
    /// target's distance, or at its largest below.
    fn pick(&self, search: &mut Retrograde, k: u32, order: usize) -> Option<Pick> {
        let k = k as usize;
        let mushrooms = self.layouts[k / self.tracks.len()].mask;
        let tracks = self.tracks[k % self.tracks.len()].as_slice();
        let seed = derive_seed(self.seed, order as u64);
        let (moves, position) =
            pick_in(search, &Layout::new(mushrooms, tracks), self.target, seed)?;
        Some(Pick { moves, position })
    }

    /// The puzzle of the best pick, turned by the seed's symmetry.
    fn finish(mut self, best: Option<Pick>, searched: usize) -> Result<Generated, GenerateError> {
        let pick = best.ok_or(GenerateError::NothingSolvable)?;
        let symmetry = Symmetry::ALL[self.rng.index(Symmetry::ALL.len())];
        Ok(Generated {
            position: pick.position.transformed(symmetry),
            moves: pick.moves,
            exact: pick.moves == self.target,
            components_searched: searched,
        })
    }
}

/// A random position of one component at `target` moves from solved, or at
/// its largest distance below `target`; `None` if nothing needs a move.
fn pick_in(
    search: &mut Retrograde,
    layout: &Layout,
    target: u32,
    seed: u64,
) -> Option<(u32, Position)> {
    let placements = fox_placements(layout);
    if placements.is_empty() {
        return None;
    }
    search.run(layout, &placements);
    let levels = search.levels() as u32;
    let d = target.min(levels.checked_sub(1)?);
    if d == 0 {
        return None;
    }
    let level: &[State] = search.level(d as usize);
    let s = level[Rng::new(seed).index(level.len())];
    Some((d, layout.position(s)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;

    const SMALL: PieceSet = PieceSet {
        rabbits: 2,
        foxes: 1,
        mushrooms: 1,
    };

    #[test]
    fn generates_the_requested_length_reproducibly() {
        let a = generate(SMALL, 6, 7, &Progress::hidden()).unwrap();
        assert!(a.exact);
        assert_eq!(a.moves, 6);
        assert_eq!(solve(&a.position).solution.unwrap().len(), 6);
        assert_eq!(crate::hardest::PieceSet::of(&a.position), SMALL);
        let b = generate(SMALL, 6, 7, &Progress::hidden()).unwrap();
        assert_eq!(a.position, b.position);
        let c = generate(SMALL, 6, 8, &Progress::hidden()).unwrap();
        assert_ne!(a.position, c.position);
    }

    #[test]
    fn the_serial_search_gives_the_chunked_searchs_puzzle() {
        let default = PieceSet {
            rabbits: 3,
            foxes: 2,
            mushrooms: 3,
        };
        let (mut exact, mut longest) = (0, 0);
        let cases = (0..40).flat_map(|seed| [1, 3, 6, 9, 1000].map(|t| (SMALL, t, seed)));
        for (pieces, target, seed) in cases.chain((0..6).map(|seed| (default, 10, seed))) {
            let chunked = generate(pieces, target, seed, &Progress::hidden()).unwrap();
            let serial = generate_serial(pieces, target, seed).unwrap();
            assert_eq!(
                serial.position, chunked.position,
                "{pieces:?} {target} {seed}"
            );
            assert_eq!((serial.moves, serial.exact), (chunked.moves, chunked.exact));
            assert!(serial.components_searched <= chunked.components_searched);
            if serial.exact {
                exact += 1;
            } else {
                longest += 1;
            }
        }
        // Both kinds of answer were compared: an exact hit, and the longest
        // below a target no component reaches.
        assert!(
            exact >= 100 && longest >= 40,
            "{exact} exact, {longest} longest"
        );
    }

    #[test]
    fn a_cancelled_progress_stops_the_search() {
        let progress = Progress::hidden();
        progress.cancel();
        assert_eq!(
            generate(SMALL, 1000, 1, &progress).unwrap_err(),
            GenerateError::Stopped(0)
        );
    }

    #[test]
    fn too_long_a_request_gives_the_longest_possible() {
        let longest = crate::hardest::hardest(SMALL, 1, &Progress::hidden())
            .max_moves()
            .unwrap();
        let g = generate(SMALL, 1000, 1, &Progress::hidden()).unwrap();
        assert!(!g.exact);
        assert_eq!(g.moves, longest);
        assert_eq!(solve(&g.position).solution.unwrap().len() as u32, longest);
        assert_eq!(
            generate(SMALL, 0, 1, &Progress::hidden()).unwrap_err(),
            GenerateError::ZeroMoves
        );
    }

    #[test]
    fn the_thread_count_does_not_change_the_puzzle() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| generate(SMALL, 9, 3, &Progress::hidden()).unwrap().position)
        };
        assert_eq!(run(1), run(3));
    }
}
