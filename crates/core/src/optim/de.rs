//! Differential evolution, the classic DE/rand/1/bin scheme.
//!
//! Method: R. Storn and K. Price, "Differential Evolution – A Simple and
//! Efficient Heuristic for Global Optimization over Continuous Spaces",
//! Journal of Global Optimization 11:341–359, 1997. Each target vector x_i
//! gets a trial: a mutant x_r1 + F·(x_r2 − x_r3) from three other random
//! members, crossed with x_i coordinate by coordinate (probability CR, and
//! always at one random index so the trial differs from x_i); the trial
//! replaces x_i if it scores at least as well. Step sizes come from the
//! population's own spread, so DE needs no step-size setting.
//!
//! Selection is synchronous (all trials of a generation are built from the
//! same population), which is what lets them be evaluated in parallel. A
//! member's score is kept from the generation that produced it and is not
//! re-evaluated, so under a noisy fitness a lucky score can linger; compare
//! finalists on fresh seeds before trusting them.

use super::{ConfigError, Fitness, Generation, check_box, evaluate, exact, record};
use crate::progress::Progress;
use crate::rng::{Rng, derive_seed};
use serde::{Deserialize, Serialize};

/// Settings of a [`De`] run. The dimension is `init_low.len()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeConfig {
    /// Lower corner of the box the initial population is drawn from
    /// (uniformly). The search itself is not confined to the box.
    #[serde(with = "exact::vec")]
    pub init_low: Vec<f64>,
    /// Upper corner of that box.
    #[serde(with = "exact::vec")]
    pub init_high: Vec<f64>,
    /// Population size NP (default max(10·dim, 8), Storn and Price's rule of
    /// thumb); at least 4, since a trial needs three members besides its target.
    pub population: usize,
    /// Differential weight F (default 0.8). Storn and Price suggest starting
    /// at 0.5 and raising F if the population converges prematurely; on
    /// Rosenbrock with NP = 10·dim, F = 0.5 stalled in the valley for 3 to
    /// 10 of 10 seeds depending on the start, F = 0.8 solved every one.
    #[serde(with = "exact")]
    pub f: f64,
    /// Crossover probability CR (default 0.9: good for coupled parameters
    /// such as evaluator weights; 0.1 suits separable problems).
    #[serde(with = "exact")]
    pub cr: f64,
    /// Master seed: sampling stream and per-generation evaluation seeds.
    pub seed: u64,
}

impl DeConfig {
    /// Default settings, population drawn from the box `[init_low, init_high]`.
    pub fn new(init_low: Vec<f64>, init_high: Vec<f64>, seed: u64) -> Self {
        DeConfig {
            population: (10 * init_low.len()).max(8),
            init_low,
            init_high,
            f: 0.8,
            cr: 0.9,
            seed,
        }
    }

    /// Checks that the settings describe a runnable search.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fail = |msg: String| Err(ConfigError(msg));
        check_box("DE", &self.init_low, &self.init_high)?;
        super::check_population_size("DE", self.population, super::Method::De.min_population())?;
        if !(self.f.is_finite() && self.f >= 0.0) {
            return fail(format!(
                "DE differential weight F must be finite and >= 0, got {}",
                self.f
            ));
        }
        if !(0.0..=1.0).contains(&self.cr) {
            return fail(format!(
                "DE crossover probability CR must be in [0, 1], got {}",
                self.cr
            ));
        }
        Ok(())
    }
}

/// A DE search in progress: configuration plus the whole state, so a
/// serialised `De` resumes exactly where it stopped.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct De {
    config: DeConfig,
    #[serde(with = "exact::vecs")]
    population: Vec<Vec<f64>>,
    /// Score of each member; empty until generation 0 has evaluated them.
    #[serde(with = "exact::vec")]
    scores: Vec<f64>,
    rng: Rng,
    generation: usize,
    #[serde(with = "exact::vec")]
    best_x: Vec<f64>,
    #[serde(with = "exact")]
    best_f: f64,
}

impl De {
    /// Draws the initial population (evaluated by the first [`De::step`]).
    ///
    /// # Panics
    /// If `config.validate()` fails.
    pub fn new(config: DeConfig) -> De {
        if let Err(e) = config.validate() {
            panic!("{e}");
        }
        let mut rng = Rng::new(config.seed);
        let population: Vec<Vec<f64>> = (0..config.population)
            .map(|_| {
                config
                    .init_low
                    .iter()
                    .zip(&config.init_high)
                    .map(|(&lo, &hi)| rng.uniform(lo, hi))
                    .collect()
            })
            .collect();
        De {
            best_x: population[0].clone(),
            best_f: f64::NEG_INFINITY,
            population,
            scores: Vec::new(),
            rng,
            generation: 0,
            config,
        }
    }

    /// Runs one generation. Generation 0 evaluates the initial population;
    /// each later one evaluates one trial per member (in parallel, with this
    /// generation's seed) and keeps the trials that score at least as well.
    pub fn step(&mut self, fitness: &Fitness, progress: &Progress) -> Generation {
        let g = self.generation;
        let seed = derive_seed(self.config.seed, g as u64);
        let report = if self.scores.is_empty() {
            let scores = evaluate(&self.population, seed, fitness, progress);
            let report = record(
                g,
                &self.population,
                &scores,
                &mut self.best_x,
                &mut self.best_f,
            );
            self.scores = scores;
            report
        } else {
            let trials: Vec<Vec<f64>> = (0..self.population.len()).map(|i| self.trial(i)).collect();
            let scores = evaluate(&trials, seed, fitness, progress);
            let report = record(g, &trials, &scores, &mut self.best_x, &mut self.best_f);
            for (i, (trial, score)) in trials.into_iter().zip(scores).enumerate() {
                if score >= self.scores[i] {
                    self.population[i] = trial;
                    self.scores[i] = score;
                }
            }
            report
        };
        self.generation += 1;
        report
    }

    /// DE/rand/1/bin trial for target `i`.
    fn trial(&mut self, i: usize) -> Vec<f64> {
        let np = self.population.len();
        let rng = &mut self.rng;
        let mut pick = |taken: &[usize]| loop {
            let r = rng.index(np);
            if !taken.contains(&r) {
                return r;
            }
        };
        let r1 = pick(&[i]);
        let r2 = pick(&[i, r1]);
        let r3 = pick(&[i, r1, r2]);
        let (x, a, b, c) = (
            &self.population[i],
            &self.population[r1],
            &self.population[r2],
            &self.population[r3],
        );
        let j_rand = self.rng.index(x.len());
        (0..x.len())
            .map(|j| {
                // Draw for every coordinate, so the stream does not depend on j_rand.
                let cross = self.rng.unit() < self.config.cr;
                if cross || j == j_rand {
                    a[j] + self.config.f * (b[j] - c[j])
                } else {
                    x[j]
                }
            })
            .collect()
    }

    /// Best single evaluation so far, `(candidate, fitness)`; the first
    /// member with `-inf` before the first generation.
    pub fn best(&self) -> (&[f64], f64) {
        (&self.best_x, self.best_f)
    }

    /// The current population.
    pub fn population(&self) -> &[Vec<f64>] {
        &self.population
    }

    /// The stored score of each member (empty before the first generation).
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }

    pub fn generations_done(&self) -> usize {
        self.generation
    }

    pub fn dimension(&self) -> usize {
        self.config.init_low.len()
    }

    /// Checks a loaded state (see `Validate for Optimizer`).
    pub(super) fn check_state(&self) -> Result<(), String> {
        self.config.validate().map_err(|e| e.0)?;
        let (dim, size) = (self.dimension(), self.config.population);
        super::check_population("population", &self.population, size, dim)?;
        super::check_scores("scores", &self.scores, size)?;
        super::check_best(&self.best_x, self.best_f, dim)
    }

    pub fn evaluations_per_generation(&self) -> usize {
        self.config.population
    }

    pub fn config(&self) -> &DeConfig {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::super::Optimizer;
    use super::super::testing::*;
    use super::*;
    use std::sync::Mutex;

    fn make(seed: u64) -> Optimizer {
        Optimizer::De(De::new(DeConfig::new(vec![3.0; 5], vec![5.0; 5], seed)))
    }

    fn run_de(config: DeConfig, fitness: &Fitness, generations: usize) -> De {
        let mut de = De::new(config);
        for _ in 0..generations {
            de.step(fitness, &Progress::hidden());
        }
        de
    }

    #[test]
    fn maximizes_negative_sphere_from_a_far_box() {
        let config = DeConfig::new(vec![3.0; 5], vec![5.0; 5], 1);
        assert_eq!(config.population, 50);
        let de = run_de(config, &|x, _| -sphere(x), 200);
        assert!(de.best().1 > -1e-6, "best {}", de.best().1);
        assert!(
            de.scores().iter().all(|&s| s > -1e-5),
            "whole population converged"
        );
    }

    #[test]
    fn solves_rosenbrock() {
        let config = DeConfig::new(vec![2.0; 4], vec![4.0; 4], 2);
        assert!(rosenbrock(&config.init_low) > 100.0);
        let de = run_de(config, &|x, _| -rosenbrock(x), 400);
        assert!(-de.best().1 < 1e-6, "best {}", de.best().1);
        assert!(
            de.best().0.iter().all(|v| (v - 1.0).abs() < 1e-2),
            "{:?}",
            de.best().0
        );
    }

    #[test]
    fn scores_never_get_worse_and_match_the_members() {
        let mut de = De::new(DeConfig::new(vec![-2.0; 3], vec![2.0; 3], 5));
        let progress = Progress::hidden();
        de.step(&|x, _| -sphere(x), &progress);
        for _ in 0..10 {
            let before = de.scores().to_vec();
            de.step(&|x, _| -sphere(x), &progress);
            assert!(de.scores().iter().zip(&before).all(|(a, b)| a >= b));
            for (x, &s) in de.population().iter().zip(de.scores()) {
                assert_eq!(s, -sphere(x));
            }
            let top = de
                .scores()
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(de.best().1, top);
        }
    }

    /// With CR = 0 binomial crossover takes exactly one mutant coordinate
    /// (the guaranteed j_rand); with CR = 1 and F = 0 a trial is a copy of
    /// another member.
    #[test]
    fn crossover_extremes() {
        for (cr, f) in [(0.0, 0.5), (1.0, 0.0)] {
            let mut config = DeConfig::new(vec![-1.0; 4], vec![1.0; 4], 6);
            config.cr = cr;
            config.f = f;
            let mut de = De::new(config);
            de.step(&|x, _| -sphere(x), &Progress::hidden());
            let before = de.population().to_vec();
            let trials = Mutex::new(Vec::new());
            let fitness = |x: &[f64], _: u64| {
                trials.lock().unwrap().push(x.to_vec());
                -sphere(x)
            };
            de.step(&fitness, &Progress::hidden());
            let trials = trials.into_inner().unwrap();
            assert_eq!(trials.len(), before.len());
            let differing = |a: &[f64], b: &[f64]| a.iter().zip(b).filter(|(p, q)| p != q).count();
            for t in &trials {
                if cr == 0.0 {
                    assert!(before.iter().any(|x| differing(x, t) == 1), "{t:?}");
                } else {
                    assert!(before.iter().any(|x| differing(x, t) == 0), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn nan_and_infinite_scores_rank_last_and_survive_checkpoints() {
        let fitness = |x: &[f64], _: u64| {
            if x[0] > 0.5 {
                f64::NAN
            } else if x[0] > 0.0 {
                f64::NEG_INFINITY
            } else {
                -sphere(x)
            }
        };
        let mut opt = Optimizer::De(De::new(DeConfig::new(vec![-1.0; 2], vec![1.0; 2], 9)));
        let first = run(&mut opt, &fitness, 1);
        assert!(first[0].mean == f64::NEG_INFINITY && first[0].best.is_finite());
        let json = serde_json::to_string(&opt).unwrap();
        let mut back: Optimizer = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let Optimizer::De(de) = &back else {
            panic!("not DE")
        };
        assert!(de.scores().contains(&f64::NEG_INFINITY));
        // The checkpoint carries on exactly like the original.
        assert_eq!(run(&mut back, &fitness, 4), run(&mut opt, &fitness, 4));
        let Optimizer::De(de) = &back else {
            panic!("not DE")
        };
        assert!(de.best().0[0] <= 0.0 && de.best().1.is_finite());
        assert!(
            de.scores().iter().all(|s| s.is_finite()),
            "-inf members get replaced"
        );
    }

    #[test]
    fn rejects_bad_configs() {
        let ok = DeConfig::new(vec![0.0; 2], vec![1.0; 2], 0);
        assert!(ok.validate().is_ok());
        let bad = [
            DeConfig {
                population: 3,
                ..ok.clone()
            },
            DeConfig {
                cr: 1.5,
                ..ok.clone()
            },
            DeConfig {
                f: f64::NAN,
                ..ok.clone()
            },
            DeConfig {
                init_high: vec![1.0],
                ..ok.clone()
            },
            DeConfig {
                init_high: vec![1.0, -1.0],
                ..ok.clone()
            },
            DeConfig::new(vec![], vec![], 0),
        ];
        for c in bad {
            assert!(c.validate().is_err(), "{c:?}");
        }
    }

    #[test]
    fn same_seed_same_run_whatever_the_threads() {
        check_determinism(make, 8);
    }

    #[test]
    fn checkpoint_resume_is_exact() {
        check_resume(make, 4, 6);
        check_resume(make, 0, 3);
        check_resume(make, 1, 3);
    }

    #[test]
    fn one_evaluation_seed_per_generation() {
        check_generation_seeds(make, 4);
    }
}
