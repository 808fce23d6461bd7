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
use arcade_core::optim::{Generation, Method, Run, Setup, Start};
use arcade_core::progress::Progress;
use serde::{Deserialize, Serialize};

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

/// A tuning run of the board value, resumable.
pub type GeekTune = Run<GeekTuneSetup>;

/// How a run starts: candidates around the base weights, and CEM's added
/// variance a quarter of the initial one, fading out over the run.
pub fn start(
    setup: &GeekTuneSetup,
    method: Method,
    spread: f64,
    population: Option<usize>,
    seed: u64,
    generations: usize,
) -> Start {
    Start {
        method,
        init: setup.start(),
        spread,
        population,
        noise: Some((spread * spread / 4.0, generations)),
        seed,
    }
}

/// One generation of `run` on the current rayon pool.
pub fn step(run: &mut GeekTune, rules: &Rules, progress: &Progress) -> Generation {
    run.step(|setup, x, _seed| setup.fitness(rules, x), progress)
}

/// The best weights evaluated so far (the fitness is deterministic, so the
/// best evaluation is the one to keep) and their score.
pub fn best(run: &GeekTune) -> (GeekWeights, f64) {
    let (x, f) = run.optimizer.best();
    (run.setup.weights(x), f)
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

/// What a finished (or resumed and finished) tuning session reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    /// The weights file written.
    pub out: String,
    pub generations: usize,
    pub seconds: f64,
    /// The best weights' score: a search at `beam` over the first `pieces`.
    pub score: f64,
    pub pieces: usize,
    pub beam: usize,
    pub weights: GeekWeights,
}

impl TuneReport {
    pub fn new(run: &GeekTune, out: &str, seconds: f64) -> TuneReport {
        let (weights, score) = best(run);
        TuneReport {
            out: out.to_string(),
            generations: run.history.len(),
            seconds,
            score,
            pieces: run.setup.pieces,
            beam: run.setup.beam,
            weights,
        }
    }
}

impl std::fmt::Display for TuneReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let weights = serde_json::to_string_pretty(&self.weights).map_err(|_| std::fmt::Error)?;
        writeln!(
            f,
            "wrote {} after {} generations ({:.1} s this session): score {:.0} on the first {} pieces at beam {}",
            self.out, self.generations, self.seconds, self.score, self.pieces, self.beam
        )?;
        writeln!(f, "{weights}")
    }
}

impl Setup for GeekTuneSetup {
    fn check(&self) -> Result<(), String> {
        GeekTuneSetup::check(self)
    }
    fn dimension(&self) -> usize {
        COUNT
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
