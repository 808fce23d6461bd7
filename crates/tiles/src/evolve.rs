//! The published approach to making levels a player can clear, for
//! comparison with [`crate::generate`]: start from a random deal and let
//! differential evolution choose pairs of tiles whose types to swap, until
//! the greedy player clears the level.
//!
//! A candidate is a vector of `2 × swaps` reals; coordinates `2s` and
//! `2s + 1` (floored, modulo the tile count) name the two tiles of swap `s`,
//! applied in order to the random deal. Its fitness is the share of tiles the
//! greedy player takes before losing (1 when it wins). The optimizer is
//! arcade-core's DE/rand/1/bin.

use crate::greedy::play_greedy;
use crate::layout::{Classic, LayoutError};
use crate::level::Level;
use arcade_core::derive_seed;
use arcade_core::optim::{De, DeConfig};
use arcade_core::progress::Progress;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

/// Settings of the DE search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvolveConfig {
    /// Swaps per candidate.
    pub swaps: usize,
    /// DE population.
    pub population: usize,
    /// Generations before giving up.
    pub generations: usize,
    /// Wall-clock time before giving up.
    pub time: Option<Duration>,
}

impl Default for EvolveConfig {
    fn default() -> EvolveConfig {
        EvolveConfig {
            swaps: 20,
            population: 40,
            generations: 100,
            time: Some(Duration::from_secs(30)),
        }
    }
}

/// Generations DE may run: at least one; the top keeps a run finite.
pub const GENERATIONS: RangeInclusive<usize> = 1..=1_000_000;
/// Candidates per generation: DE mixes four; the top bounds memory.
pub const POPULATION: RangeInclusive<usize> = 4..=100_000;
/// Swaps per candidate.
pub const SWAPS: RangeInclusive<usize> = 1..=100_000;

impl EvolveConfig {
    /// Checks each setting against its range ([`GENERATIONS`],
    /// [`POPULATION`], [`SWAPS`]).
    pub fn validate(&self) -> Result<(), crate::generate::GenerateError> {
        for (name, value, range) in [
            ("generations", self.generations, GENERATIONS),
            ("population", self.population, POPULATION),
            ("swaps", self.swaps, SWAPS),
        ] {
            if !range.contains(&value) {
                return Err(crate::generate::GenerateError::DeSetting { name, value, range });
            }
        }
        Ok(())
    }
}

/// The best level found.
#[derive(Clone, Debug)]
pub struct Evolved {
    pub level: Level,
    /// True when greedy clears `level`.
    pub won: bool,
    /// Share of tiles greedy takes on `level`.
    pub best_share: f64,
    pub generations: usize,
    pub evaluations: u64,
}

/// Runs DE swaps on the random deal of `shape` with `seed`.
pub fn evolve(
    shape: &Classic,
    capacity: usize,
    config: &EvolveConfig,
    seed: u64,
) -> Result<Evolved, LayoutError> {
    let start = Instant::now();
    let base = shape.random_level(seed).map(|l| {
        l.with_capacity(capacity)
            .expect("capacity checked by caller")
    })?;
    let deal: Vec<u32> = base.tiles().iter().map(|t| t.kind).collect();
    let n = deal.len();
    let apply = |x: &[f64]| -> Level {
        let mut kinds = deal.clone();
        for pair in x.chunks_exact(2) {
            kinds.swap(wrap(pair[0], n), wrap(pair[1], n));
        }
        base.with_kinds(&kinds)
    };
    let fitness = |x: &[f64], _seed: u64| -> f64 {
        let p = play_greedy(&apply(x));
        p.taken as f64 / n as f64
    };
    let dim = 2 * config.swaps.max(1);
    let mut de_config = DeConfig::new(vec![0.0; dim], vec![n as f64; dim], derive_seed(seed, 1));
    de_config.population = config.population.max(4);
    let mut de = De::new(de_config);
    let mut generations = 0;
    let mut evaluations = 0;
    while generations < config.generations.max(1) {
        de.step(&fitness, &Progress::hidden());
        generations += 1;
        evaluations += de.evaluations_per_generation() as u64;
        if de.best().1 >= 1.0 || config.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    let (best, share) = de.best();
    Ok(Evolved {
        level: apply(best),
        won: share >= 1.0,
        best_share: share,
        generations,
        evaluations,
    })
}

/// A real coordinate as a tile index.
fn wrap(v: f64, n: usize) -> usize {
    (v.floor() as i64).rem_euclid(n as i64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_covers_every_index() {
        assert_eq!(wrap(0.2, 5), 0);
        assert_eq!(wrap(4.99, 5), 4);
        assert_eq!(wrap(5.0, 5), 0);
        assert_eq!(wrap(-0.5, 5), 4);
        assert_eq!(wrap(1e12, 7), (1e12 as i64 % 7) as usize);
    }

    #[test]
    fn swaps_keep_the_tile_counts_and_greedy_confirms_success() {
        let shape = Classic {
            layers: 8,
            types: 6,
            groups: 4,
        };
        let config = EvolveConfig {
            generations: 30,
            ..EvolveConfig::default()
        };
        let e = evolve(&shape, 7, &config, 3).unwrap();
        assert_eq!(e.level.kind_counts(), vec![12; 6]);
        assert_eq!(e.won, play_greedy(&e.level).won);
        assert!(e.evaluations >= 40);
        let again = evolve(&shape, 7, &config, 3).unwrap();
        assert_eq!(again.level.tiles(), e.level.tiles(), "reproducible");
    }
}
