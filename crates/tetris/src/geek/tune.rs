//! Tuning the board value for the challenge. The sequence is fixed and known,
//! so the fitness of a weight vector is simply the score a narrow beam search
//! reaches with it over a prefix of the sequence: deterministic, and aimed at
//! exactly the problem being solved.
//!
//! Candidates are multipliers of a base weight set (weight i = xᵢ · |baseᵢ|),
//! so one step size suits features whose weights differ by orders of
//! magnitude.

use super::search::{Search, SearchConfig};
use super::value::{COUNT, GeekWeights};
use crate::movegen::MoveMode;
use crate::rules::Rules;
use crate::tune::{Method, Start, new_optimizer};
use arcade_core::checkpoint::{self, CheckpointError};
use arcade_core::optim::{ConfigError, Generation, Optimizer};
use arcade_core::progress::Progress;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How candidates are scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeekTuneSetup {
    pub beam: usize,
    pub pieces: usize,
    pub mode: MoveMode,
    pub float: bool,
    /// The weights candidates scale.
    pub base: GeekWeights,
    /// Low fields kept beyond the beam (see `SearchConfig::reserve`).
    #[serde(default)]
    pub reserve: usize,
}

impl GeekTuneSetup {
    fn scale(&self, i: usize) -> f64 {
        self.base.values[i].abs().max(1.0)
    }

    /// The weights candidate `x` stands for.
    pub fn weights(&self, x: &[f64]) -> GeekWeights {
        let mut w = self.base.clone();
        for (i, v) in w.values.iter_mut().enumerate() {
            *v = x[i] * self.scale(i);
        }
        w
    }

    /// The candidate standing for the base weights.
    pub fn start(&self) -> Vec<f64> {
        (0..self.base.values.len())
            .map(|i| self.base.values[i] / self.scale(i))
            .collect()
    }

    /// The score of a beam search with these weights.
    pub fn fitness(&self, rules: &Rules, x: &[f64]) -> f64 {
        let mut search = Search::new(SearchConfig {
            beam: self.beam,
            mode: self.mode,
            float: self.float,
            pieces: self.pieces,
            weights: self.weights(x),
            reserve: self.reserve,
        });
        search
            .run(rules, &Progress::hidden(), 0, |_| Ok(()))
            .expect("no checkpoint, nothing to fail");
        search.best_score() as f64
    }
}

/// A tuning run, resumable.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GeekTune {
    pub setup: GeekTuneSetup,
    pub method: Method,
    pub generations: usize,
    pub optimizer: Optimizer,
    pub history: Vec<Generation>,
}

impl GeekTune {
    pub fn new(
        setup: GeekTuneSetup,
        method: Method,
        spread: f64,
        population: Option<usize>,
        seed: u64,
        generations: usize,
    ) -> Result<GeekTune, ConfigError> {
        let start = Start {
            method,
            init: setup.start(),
            spread,
            population,
            // Added variance a quarter of the initial one, fading out.
            noise: Some((spread * spread / 4.0, generations)),
            seed,
        };
        Ok(GeekTune {
            optimizer: new_optimizer(&start)?,
            setup,
            method,
            generations,
            history: Vec::new(),
        })
    }

    pub fn is_done(&self) -> bool {
        self.history.len() >= self.generations
    }

    /// One generation on the current rayon pool.
    pub fn step(&mut self, rules: &Rules, progress: &Progress) -> Generation {
        let setup = self.setup.clone();
        let fitness = move |x: &[f64], _seed: u64| setup.fitness(rules, x);
        let g = self.optimizer.step(&fitness, progress);
        self.history.push(g.clone());
        g
    }

    /// The best weights evaluated so far (the fitness is deterministic, so
    /// the best evaluation is the one to keep).
    pub fn best(&self) -> (GeekWeights, f64) {
        let (x, f) = self.optimizer.best();
        (self.setup.weights(x), f)
    }

    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        checkpoint::save(self, path)
    }

    pub fn load(path: &Path) -> Result<GeekTune, CheckpointError> {
        checkpoint::load(path)
    }
}

impl GeekTuneSetup {
    /// Checks that the setup describes runnable searches.
    pub fn check(&self) -> Result<(), String> {
        SearchConfig {
            beam: self.beam,
            mode: self.mode,
            float: self.float,
            pieces: self.pieces,
            weights: self.base.clone(),
            reserve: self.reserve,
        }
        .check()
    }
}

/// A loaded run is checked in full: a runnable setup, an optimizer state
/// that validates, of the method named and of one dimension per weight, and
/// a history as long as the generations the optimizer ran.
impl arcade_core::checkpoint::Validate for GeekTune {
    fn validate(&self) -> Result<(), String> {
        self.setup.check().map_err(|e| format!("setup: {e}"))?;
        crate::tune::check_run(&self.optimizer, self.method, COUNT, &self.history)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_map_to_weights_and_better_weights_score_higher() {
        let setup = GeekTuneSetup {
            beam: 4,
            pieces: 300,
            mode: MoveMode::Drop,
            float: false,
            base: GeekWeights::builtin(),
            reserve: 2,
        };
        assert_eq!(setup.weights(&setup.start()), setup.base);
        let rules = Rules::geek();
        let good = setup.fitness(&rules, &setup.start());
        let flipped: Vec<f64> = setup.start().iter().map(|x| -x).collect();
        assert!(good > setup.fitness(&rules, &flipped));
        assert_eq!(good, setup.fitness(&rules, &setup.start()));
    }
}
