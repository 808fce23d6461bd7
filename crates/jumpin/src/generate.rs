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
use crate::hardest::{PieceSet, mushroom_layouts, track_sets};
use crate::position::Position;
use crate::retrograde::{Retrograde, fox_placements};
use crate::rules::{Layout, State};
use arcade_core::progress::Progress;
use arcade_core::{Rng, derive_seed};
use rayon::prelude::*;
use thiserror::Error;

/// Components searched in parallel between checks for a hit. Results do not
/// depend on it (nor on the thread count), only the time to the first hit.
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
/// longest possible below). The same seed gives the same puzzle.
pub fn generate(
    pieces: PieceSet,
    target: u32,
    seed: u64,
    progress: &Progress,
) -> Result<Generated, GenerateError> {
    if target == 0 {
        return Err(GenerateError::ZeroMoves);
    }
    let tracks = track_sets(pieces.foxes);
    let layouts = mushroom_layouts(pieces.mushrooms);
    let total = layouts.len() * tracks.len();
    if total > MAX_COMPONENTS {
        return Err(GenerateError::TooManyComponents(total));
    }
    // Component k is layout k / tracks, fox lines k % tracks: an index of 4
    // bytes instead of a (mask, slice) pair of 24. Shuffling indices gives
    // the same order as shuffling the pairs did.
    let mut components: Vec<u32> = (0..total as u32).collect();
    let mut rng = Rng::new(seed);
    rng.shuffle(&mut components);
    let component = |k: u32| {
        let k = k as usize;
        (
            layouts[k / tracks.len()].mask,
            tracks[k % tracks.len()].as_slice(),
        )
    };
    progress.reset(components.len() as u64, "components");
    let mut best: Option<Pick> = None;
    let mut searched = 0;
    for (chunk_index, chunk) in components.chunks(CHUNK).enumerate() {
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
                    let (mushrooms, tracks) = component(k);
                    let order = chunk_index * CHUNK + i;
                    let pick = pick_in(
                        search,
                        &Layout::new(mushrooms, tracks),
                        target,
                        derive_seed(seed, order as u64),
                    );
                    progress.inc(1);
                    pick.map(|(moves, position)| Pick { moves, position })
                },
            )
            .collect();
        searched += chunk.len();
        for pick in picks.into_iter().flatten() {
            if best.as_ref().is_none_or(|b| pick.moves > b.moves) {
                best = Some(pick);
            }
        }
        if best.as_ref().is_some_and(|b| b.moves == target) {
            break;
        }
    }
    let pick = best.ok_or(GenerateError::NothingSolvable)?;
    let symmetry = Symmetry::ALL[rng.index(Symmetry::ALL.len())];
    Ok(Generated {
        position: pick.position.transformed(symmetry),
        moves: pick.moves,
        exact: pick.moves == target,
        components_searched: searched,
    })
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
