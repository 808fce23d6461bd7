//! Tuning the board value for the challenge. The sequence is fixed and known,
//! so the fitness of a weight vector is simply the score a narrow beam search
//! reaches with it over a prefix of the sequence: deterministic, and aimed at
//! exactly the problem being solved.
//!
//! Candidates are multipliers of a base weight set (weight i = xᵢ · |baseᵢ|),
//! so one step size suits features whose weights differ by orders of
//! magnitude.
//!
//! A search's score jumps by thousands of points from one beam width to the
//! next, so the fitness can be the mean over several widths: a weight vector
//! then wins by playing well, not by one lucky width.

use super::search::{Search, SearchConfig};
use super::value::{COUNT, GeekWeights};
use crate::movegen::MoveMode;
use crate::rules::Rules;
use arcade_core::optim::{Generation, Method, Run, Setup, Start};
use arcade_core::progress::Progress;
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};

/// Most beam widths one candidate is scored at.
pub const MAX_WIDTHS: usize = 16;

/// How candidates are scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeekTuneSetup {
    /// The beam widths of the searches; the fitness is their mean score.
    /// Checkpoints written before there could be several read `beam: N`.
    #[serde(alias = "beam", deserialize_with = "one_or_many")]
    pub beams: Vec<usize>,
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

    /// The search at width `beam` with the weights `weights`.
    fn config(&self, beam: usize, weights: GeekWeights) -> SearchConfig {
        SearchConfig {
            beam,
            mode: self.mode,
            float: self.float,
            pieces: self.pieces,
            weights,
            reserve: self.reserve,
        }
    }

    /// The mean score of beam searches with these weights, one per width.
    pub fn fitness(&self, rules: &Rules, x: &[f64]) -> f64 {
        let weights = self.weights(x);
        let total: u64 = self
            .beams
            .iter()
            .map(|&beam| {
                let mut search = Search::new(self.config(beam, weights.clone()));
                search
                    .run(rules, &Progress::hidden(), 0, |_| Ok(()))
                    .expect("no checkpoint, nothing to fail");
                search.best_score()
            })
            .sum();
        total as f64 / self.beams.len() as f64
    }
}

/// One beam width (`"beam": 20`, as checkpoints had it) or several.
pub fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<usize>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Widths {
        One(usize),
        Many(Vec<usize>),
    }
    let widths = Widths::deserialize(d)
        .map_err(|_| serde::de::Error::custom("expected a beam width or a list of beam widths"))?;
    Ok(match widths {
        Widths::One(beam) => vec![beam],
        Widths::Many(beams) => beams,
    })
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
        if !(1..=MAX_WIDTHS).contains(&self.beams.len()) {
            return Err(format!(
                "expected 1 to {MAX_WIDTHS} beam widths, found {}",
                self.beams.len()
            ));
        }
        self.beams
            .iter()
            .try_for_each(|&beam| self.config(beam, self.base.clone()).check())
    }
}

/// What a finished (or resumed and finished) tuning session reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    /// The weights file written.
    pub out: String,
    pub generations: usize,
    pub seconds: f64,
    /// The best weights' score: the mean of searches at `beams` over the
    /// first `pieces`.
    pub score: f64,
    pub pieces: usize,
    pub beams: Vec<usize>,
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
            beams: run.setup.beams.clone(),
            weights,
        }
    }
}

impl std::fmt::Display for TuneReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let weights = serde_json::to_string_pretty(&self.weights).map_err(|_| std::fmt::Error)?;
        writeln!(
            f,
            "wrote {} after {} ({:.1} s this session): score {:.0} on the first {} pieces at {}",
            self.out,
            counted(self.generations, "generation"),
            self.seconds,
            self.score,
            self.pieces,
            widths(&self.beams)
        )?;
        writeln!(f, "{weights}")
    }
}

/// How reports name the widths: "beam 20", or "the mean of beams 200, 250, 300".
pub fn widths(beams: &[usize]) -> String {
    match beams {
        [beam] => format!("beam {beam}"),
        _ => {
            let list: Vec<String> = beams.iter().map(|b| b.to_string()).collect();
            format!("the mean of beams {}", list.join(", "))
        }
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
            beams: vec![4],
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

    #[test]
    fn several_widths_score_the_mean_and_old_setups_still_load() {
        let one = |beam| GeekTuneSetup {
            beams: vec![beam],
            pieces: 200,
            mode: MoveMode::Drop,
            float: false,
            base: GeekWeights::builtin(),
            reserve: 2,
        };
        let rules = Rules::geek();
        let x = one(3).start();
        let scores: Vec<f64> = [3, 5, 8].map(|b| one(b).fitness(&rules, &x)).into();
        let several = GeekTuneSetup {
            beams: vec![3, 5, 8],
            ..one(3)
        };
        let mean = scores.iter().sum::<f64>() / 3.0;
        assert_eq!(several.fitness(&rules, &x), mean);
        assert!(
            scores[0] != scores[1] || scores[1] != scores[2],
            "{scores:?}"
        );

        let mut old = serde_json::to_value(one(7)).unwrap();
        let map = old.as_object_mut().unwrap();
        map.remove("beams");
        map.insert("beam".into(), 7.into());
        let loaded: GeekTuneSetup = serde_json::from_value(old.clone()).unwrap();
        assert_eq!(loaded, one(7));
        old["beam"] = "x".into();
        let error = serde_json::from_value::<GeekTuneSetup>(old).unwrap_err();
        assert!(
            error.to_string().contains("a list of beam widths"),
            "{error}"
        );

        let none = GeekTuneSetup {
            beams: vec![],
            ..one(3)
        };
        assert!(none.check().unwrap_err().contains("beam widths"));
        let too_many = GeekTuneSetup {
            beams: vec![2; MAX_WIDTHS + 1],
            ..one(3)
        };
        assert!(too_many.check().is_err());
        assert!(several.check().is_ok());
    }
}
