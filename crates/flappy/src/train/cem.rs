//! Neuroevolution: arcade-core's noisy cross-entropy method over all the
//! network's weights.
//!
//! A candidate's fitness is its mean pipes over a few training episodes
//! (the same episodes for every candidate of a generation, so they are
//! ranked on equal terms), plus a small bonus for frames survived that ranks
//! candidates which have not cleared any pipe yet. Episodes are capped; once
//! the best candidate reaches the cap it doubles, so early generations are
//! cheap and later ones still tell good policies from perfect ones.

use super::{ConfigError, Learner, TrainConfig};
use crate::env::Env;
use crate::episode::{play_env, train_seed};
use crate::mlp::{Mlp, param_count};
use crate::policy::Greedy;
use arcade_core::Rng;
use arcade_core::optim::{Cem, CemConfig};
use arcade_core::progress::Progress;
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// CEM settings.
#[derive(Clone, Debug, Serialize)]
pub struct CemSettings {
    /// Candidates per generation.
    pub population: usize,
    /// Share of the population kept as elites.
    pub elite_fraction: f64,
    /// Training episodes per candidate.
    pub episodes: usize,
    /// Initial standard deviation of every weight around a small random network.
    pub initial_std: f64,
    /// Variance added to every weight after each refit (constant: the
    /// fitness is noisy, and a floor keeps the search from freezing).
    pub noise: f64,
    /// Pipe cap of the first generations' episodes.
    pub start_cap: u64,
    /// Largest pipe cap of training episodes.
    pub max_cap: u64,
}

impl Default for CemSettings {
    fn default() -> Self {
        CemSettings {
            population: 32,
            elite_fraction: 0.125,
            episodes: 4,
            initial_std: 0.5,
            noise: 0.001,
            start_cap: 50,
            max_cap: 1_000,
        }
    }
}

/// Frames of flight worth one pipe in the fitness bonus (a pipe passes
/// every 36 frames; the bonus is 1% of that).
const FRAME_BONUS: f64 = 0.01 / 36.0;

/// Most numbers CEM keeps for one generation's candidates (population ×
/// weights): 512 MB.
const MAX_NUMBERS: usize = 1 << 26;

/// Checks that a generation of `s` with networks of `params` weights fits
/// in memory, and that neither of its counts is a mistyped huge number
/// (a generation runs to its end whatever the clock says).
fn check_scale(s: &CemSettings, params: usize) -> Result<(), ConfigError> {
    use super::MAX_GAMES;
    if s.population > MAX_GAMES {
        return Err(ConfigError(format!(
            "CEM keeps at most {MAX_GAMES} candidates a generation, got a population of {}",
            s.population
        )));
    }
    if s.episodes > MAX_GAMES {
        return Err(ConfigError(format!(
            "CEM plays at most {MAX_GAMES} episodes per candidate, got {}",
            s.episodes
        )));
    }
    if s.population.saturating_mul(params) > MAX_NUMBERS {
        return Err(ConfigError(format!(
            "CEM keeps at most {MAX_NUMBERS} numbers a generation (population x weights), got {} x {params}",
            s.population
        )));
    }
    Ok(())
}

pub(super) struct CemLearner {
    cem: Cem,
    sizes: Vec<usize>,
    settings: CemSettings,
    cap: u64,
    extreme_gaps: f64,
}

impl CemLearner {
    pub(super) fn new(config: &TrainConfig) -> Result<CemLearner, ConfigError> {
        let s = &config.cem;
        if s.episodes == 0 || s.start_cap == 0 {
            return Err(ConfigError(
                "CEM needs at least one episode per candidate and a cap of at least one pipe"
                    .into(),
            ));
        }
        check_scale(s, param_count(&config.sizes))?;
        let mut rng = Rng::new(derive(config.seed, 1));
        let start = Mlp::random(&config.sizes, 0.1, &mut rng);
        debug_assert_eq!(start.params().len(), param_count(&config.sizes));
        let mut cem_config = CemConfig::new(
            start.params().iter().map(|&p| f64::from(p)).collect(),
            derive(config.seed, 2),
        );
        cem_config.population = s.population;
        cem_config.elite_fraction = s.elite_fraction;
        cem_config.initial_std = s.initial_std;
        cem_config.noise_start = s.noise;
        cem_config.noise_decay = 0.0;
        cem_config.noise_min = s.noise;
        cem_config
            .validate()
            .map_err(|e| ConfigError(e.to_string()))?;
        Ok(CemLearner {
            cem: Cem::new(cem_config),
            sizes: config.sizes.clone(),
            settings: s.clone(),
            cap: s.start_cap.min(s.max_cap),
            extreme_gaps: config.extreme_gaps,
        })
    }
}

fn derive(seed: u64, stream: u64) -> u64 {
    arcade_core::derive_seed(seed, 0x6365_6D00 + stream)
}

fn to_mlp(sizes: &[usize], x: &[f64]) -> Mlp {
    Mlp::from_params(sizes, x.iter().map(|&v| v as f32).collect())
}

impl Learner for CemLearner {
    fn step(&mut self) -> (f64, f64, u64, u64) {
        let frames = AtomicU64::new(0);
        let pipes_means = Mutex::new(Vec::new());
        let (cap, episodes, sizes) = (self.cap, self.settings.episodes, &self.sizes);
        let extreme = self.extreme_gaps;
        let fitness = |x: &[f64], seed: u64| {
            let mlp = to_mlp(sizes, x);
            let mut policy = Greedy::new(&mlp);
            let (mut pipes, mut flown) = (0u64, 0u64);
            for i in 0..episodes {
                let env = Env::with_extremes(train_seed(seed, i as u64), Some(cap), extreme);
                let o = play_env(&mut policy, env, |_| {});
                pipes += o.pipes;
                flown += o.frames;
            }
            frames.fetch_add(flown, Ordering::Relaxed);
            let mean = pipes as f64 / episodes as f64;
            pipes_means.lock().expect("not poisoned").push(mean);
            mean + FRAME_BONUS * flown as f64 / episodes as f64
        };
        let generation = self.cem.step(&fitness, &Progress::hidden());
        let mut means = pipes_means.into_inner().expect("not poisoned");
        means.sort_by(f64::total_cmp);
        let mean = means.iter().sum::<f64>() / means.len() as f64;
        let best = means.last().copied().unwrap_or(0.0);
        if generation.best >= cap as f64 {
            self.cap = (cap * 2).min(self.settings.max_cap);
        }
        (mean, best, frames.into_inner(), cap)
    }

    fn policy(&self) -> Mlp {
        to_mlp(&self.sizes, self.cem.mean())
    }
}
