//! Episode seeds of the vector environments: episode `e` of sub-environment
//! `i` plays the game of `derive_seed(derive_seed(seed, i), e)`, so a given
//! sub-environment replays the same episodes whatever `num_envs` is.

use arcade_core::rng::derive_seed;
use pyo3::prelude::*;

/// The engine seed of episode `episode` of sub-environment `env` of a vector
/// environment reset with `master`: a single environment reset with it plays
/// the same game.
#[pyfunction]
pub(crate) fn episode_seed(master: u64, env: u64, episode: u64) -> u64 {
    derive_seed(derive_seed(master, env), episode)
}
