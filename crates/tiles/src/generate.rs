//! Levels that are solvable by construction.
//!
//! First a removal order is drawn: a random legal order of taking the tiles
//! off the board (each step a uniformly random free tile). Then types are
//! dealt along that order while simulating the tray, so that playing the
//! order back is a win: each step either starts a new triple or adds to one
//! already in the tray, never leaving the tray full without a triple to
//! finish.
//!
//! The difficulty `d` in [0, 1] is the chance of starting a new triple
//! whenever the tray has room; otherwise a tile goes to the newest
//! unfinished triple. At 0 each triple is three consecutive clicks of the
//! intended order and the tray never holds more than 2 tiles. As `d` grows
//! the tray on the intended path fills up and, because the newest triple is
//! finished first, the oldest ones wait: their first tile is near the top
//! and their mates are buried much deeper. A player must then keep tiles in
//! the tray for a long time, which is what defeats greedy play
//! (`arcade tiles bench --generator construct --difficulty D` measures it).

use crate::check::replay;
use crate::layout::{Classic, LayoutError, assemble};
use crate::level::{Level, MAX_CAPACITY, MIN_CAPACITY};
use arcade_core::Rng;
use serde::Serialize;

/// A constructed level and the click sequence it was built around.
#[derive(Clone, Debug)]
pub struct Generated {
    pub level: Level,
    /// The intended winning clicks.
    pub intended: Vec<usize>,
    /// Most tiles in the tray along the intended clicks.
    pub peak_tray: usize,
    /// Mean tiles in the tray after each intended click.
    pub mean_tray: f64,
}

/// Why a level could not be generated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("difficulty must be between 0 and 1, got {}", arcade_core::text::number(*.0))]
    Difficulty(f64),
    #[error(
        "tray capacity must be from {MIN_CAPACITY} (for a triple to vanish) to {MAX_CAPACITY}, got {0}"
    )]
    Capacity(usize),
    #[error("de-swap {name} {value} is out of range ({} to {})", range.start(), range.end())]
    DeSetting {
        name: &'static str,
        value: usize,
        range: std::ops::RangeInclusive<usize>,
    },
}

/// Summary of the tray along a click sequence, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrayProfile {
    pub peak: usize,
    pub mean: f64,
}

/// Builds a solvable level of the classic layout.
pub fn construct(
    shape: &Classic,
    capacity: usize,
    difficulty: f64,
    seed: u64,
) -> Result<Generated, GenerateError> {
    if !(0.0..=1.0).contains(&difficulty) {
        return Err(GenerateError::Difficulty(difficulty));
    }
    // Both ends: a capacity past the level's limit panicked below.
    crate::generated::check_capacity(capacity)?;
    let mut rng = Rng::new(seed);
    let places = shape.place(&mut rng)?;
    let blank = assemble(&places, &vec![0; places.len()])
        .with_capacity(capacity)
        .expect("capacity checked");
    let order = removal_order(&blank, &mut rng);
    let mut triples: Vec<u32> = (1..=shape.types as u32)
        .flat_map(|k| std::iter::repeat_n(k, shape.groups))
        .collect();
    rng.shuffle(&mut triples);
    let mut kinds = vec![0; blank.len()];
    deal_along(
        &order,
        &mut triples,
        capacity,
        difficulty,
        &mut rng,
        &mut kinds,
    );
    let level = blank.with_kinds(&kinds);
    debug_assert!(replay(&level, &order).won(), "construction must win");
    let profile = tray_profile(&level, &order);
    Ok(Generated {
        level,
        intended: order,
        peak_tray: profile.peak,
        mean_tray: profile.mean,
    })
}

/// A uniformly random free tile at each step, until the board is empty.
fn removal_order(level: &Level, rng: &mut Rng) -> Vec<usize> {
    let mut blockers: Vec<usize> = (0..level.len())
        .map(|i| level.covered_by(i).len())
        .collect();
    let mut free: Vec<usize> = (0..level.len()).filter(|&i| blockers[i] == 0).collect();
    let mut order = Vec::with_capacity(level.len());
    while !free.is_empty() {
        let t = free.swap_remove(rng.index(free.len()));
        order.push(t);
        for &b in level.covers(t) {
            let b = b as usize;
            blockers[b] -= 1;
            if blockers[b] == 0 {
                free.push(b);
            }
        }
    }
    order
}

/// Deals triple labels along `order` into `kinds`, keeping the simulated
/// tray legal for a tray of `capacity`. (If a label must be reused while
/// its type is unfinished, the real tray holds fewer tiles than simulated:
/// still legal.)
fn deal_along(
    order: &[usize],
    triples: &mut Vec<u32>,
    capacity: usize,
    difficulty: f64,
    rng: &mut Rng,
    kinds: &mut [u32],
) {
    // Unfinished triples, oldest first: (label, tiles dealt so far).
    let mut open: Vec<(u32, usize)> = Vec::new();
    let mut tray = 0usize;
    for &tile in order {
        let has_pair = open.iter().any(|&(_, c)| c == 2);
        // Starting a triple adds a tile; the tray must keep a free slot, and
        // if that slot would be the last one, a pair must be there to finish.
        let may_open =
            !triples.is_empty() && (tray + 2 < capacity || (tray + 2 == capacity && has_pair));
        let start = open.is_empty() || (may_open && rng.chance(difficulty));
        if start && may_open {
            let label = take_label(triples, &open);
            open.push((label, 1));
            kinds[tile] = label;
            tray += 1;
        } else {
            // Add to the newest triple the tray can take.
            let j = open
                .iter()
                .rposition(|&(_, c)| c == 2 || tray + 2 <= capacity)
                .expect("a pair exists whenever the tray is nearly full");
            kinds[tile] = open[j].0;
            open[j].1 += 1;
            if open[j].1 == 3 {
                open.remove(j);
                tray -= 2;
            } else {
                tray += 1;
            }
        }
    }
    debug_assert!(open.is_empty() && triples.is_empty());
}

/// The next label from the shuffled list, skipping labels with an
/// unfinished triple (two triples of one type in the tray would merge).
fn take_label(triples: &mut Vec<u32>, open: &[(u32, usize)]) -> u32 {
    let j = triples
        .iter()
        .rposition(|k| !open.iter().any(|&(o, _)| o == *k))
        .unwrap_or(triples.len() - 1);
    triples.remove(j)
}

/// The tray along `clicks` on `level` (which must be legal).
pub fn tray_profile(level: &Level, clicks: &[usize]) -> TrayProfile {
    let mut board = crate::board::Board::new(level);
    let (mut peak, mut total) = (0, 0);
    for &c in clicks {
        board.take(c);
        peak = peak.max(board.tray_len());
        total += board.tray_len();
    }
    TrayProfile {
        peak,
        mean: total as f64 / clicks.len().max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Limits, Verdict, solve};
    use proptest::prelude::*;

    #[test]
    fn difficulty_zero_deals_consecutive_triples() {
        let g = construct(&Classic::new(14), 7, 0.0, 1).unwrap();
        assert_eq!(g.peak_tray, 2);
        let kinds: Vec<u32> = g
            .intended
            .iter()
            .map(|&t| g.level.tiles()[t].kind)
            .collect();
        for chunk in kinds.chunks(3) {
            assert!(chunk.iter().all(|&k| k == chunk[0]), "{chunk:?}");
        }
        assert_eq!(g.level.kind_counts(), vec![30; 12]);
    }

    /// A tray past the level's limit is an error (it panicked), as is one
    /// too small for a triple.
    #[test]
    fn capacities_out_of_range_are_errors() {
        for capacity in [0, 2, 65, usize::MAX] {
            assert!(matches!(
                construct(&Classic::new(14), capacity, 0.5, 1),
                Err(GenerateError::Capacity(c)) if c == capacity
            ));
        }
        assert!(construct(&Classic::new(14), 64, 0.5, 1).is_ok());
    }

    #[test]
    fn difficulty_one_fills_the_tray() {
        let g = construct(&Classic::new(26), 7, 1.0, 2).unwrap();
        assert_eq!(g.peak_tray, 6);
        assert!(g.mean_tray > 4.0, "{}", g.mean_tray);
        assert_eq!(tray_profile(&g.level, &g.intended).peak, 6);
    }

    #[test]
    fn bad_settings_are_errors() {
        assert!(construct(&Classic::new(26), 7, 1.5, 0).is_err());
        assert!(construct(&Classic::new(26), 2, 0.5, 0).is_err());
        assert!(construct(&Classic::new(3), 7, 0.5, 0).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        /// Every construction replays to a win (independent check), has the
        /// right tile counts, and the exact solver agrees it is solvable.
        #[test]
        fn constructions_are_solvable(seed in any::<u64>(), d in 0.0f64..=1.0, layers in 12usize..=30, cap in 3usize..=8) {
            let shape = Classic { layers, types: 6, groups: 5 };
            let g = construct(&shape, cap, d, seed).unwrap();
            prop_assert!(replay(&g.level, &g.intended).won());
            prop_assert_eq!(g.level.kind_counts(), vec![15; 6]);
            prop_assert_eq!(g.level.capacity(), cap);
            prop_assert!(g.peak_tray < cap);
            let out = solve(&g.level, &Limits::nodes(200_000));
            prop_assert!(!matches!(out.verdict, Verdict::Unsolvable(_)), "{:?}", out.verdict);
        }
    }
}
