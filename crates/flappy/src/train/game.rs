//! A training game that carries on across updates, restarting on a new
//! training seed when it ends.

use crate::env::Env;
use crate::episode::train_seed;
use arcade_core::{Rng, derive_seed};

/// One training game and the seeds of its episodes.
pub(super) struct Game {
    pub(super) env: Env,
    /// Action sampling.
    pub(super) rng: Rng,
    master: u64,
    episodes: u64,
}

impl Game {
    pub(super) fn new(master: u64, cap: u64, extreme: f64) -> Game {
        Game {
            env: Env::with_extremes(train_seed(master, 0), Some(cap), extreme),
            rng: Rng::new(derive_seed(master, u64::MAX)),
            master,
            episodes: 0,
        }
    }

    pub(super) fn restart(&mut self, cap: u64, extreme: f64) {
        self.episodes += 1;
        self.env = Env::with_extremes(train_seed(self.master, self.episodes), Some(cap), extreme);
    }
}

/// Mean and best pipes for a progress report: the mean over the episodes
/// that `finished`, or, if none did, over the games in progress (a lower
/// bound); the best over both.
pub(super) fn pipes_summary(finished: &[u64], games: &[Game]) -> (f64, f64) {
    let running: Vec<u64> = games.iter().map(|g| g.env.pipes()).collect();
    let best = finished.iter().chain(&running).copied().max().unwrap_or(0);
    let shown = if finished.is_empty() {
        &running
    } else {
        finished
    };
    let mean = shown.iter().sum::<u64>() as f64 / shown.len().max(1) as f64;
    (mean, best as f64)
}
