//! Noisy cross-entropy method (CEM) with a diagonal Gaussian.
//!
//! Method: I. Szita and A. Lőrincz, "Learning Tetris Using the Noisy
//! Cross-Entropy Method", Neural Computation 18(12):2936–2941, 2006. Each
//! generation samples candidates from N(μ, diag σ²), keeps the best fraction
//! (the elites) and refits μ and σ² to them. Plain CEM shrinks σ too fast on
//! noisy problems and stalls early, so the paper adds extra variance
//! Z_t = max(5 − t/10, 0) after each refit; the defaults here are the paper's
//! (100 samples, 10 elites, σ₀² = 100, that decreasing noise).

use super::{ConfigError, Fitness, Generation, evaluate, exact, record};
use crate::progress::Progress;
use crate::rng::{Rng, derive_seed};
use serde::{Deserialize, Serialize};

/// Settings of a [`Cem`] run. The dimension is `initial_mean.len()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CemConfig {
    /// Starting mean μ₀.
    #[serde(with = "exact::vec")]
    pub initial_mean: Vec<f64>,
    /// Starting standard deviation σ₀, the same in every dimension
    /// (default 10, i.e. the paper's σ₀² = 100).
    #[serde(with = "exact")]
    pub initial_std: f64,
    /// Samples per generation (default 100).
    pub population: usize,
    /// Fraction of each generation kept as elites (default 0.1); rounded,
    /// and at least one sample.
    #[serde(with = "exact")]
    pub elite_fraction: f64,
    /// Variance added after generation 0 (default 5). On a noisy fitness it
    /// keeps the search from collapsing onto lucky samples; a deterministic
    /// fitness converges faster with a small value (e.g. 0.01, no decay).
    #[serde(with = "exact")]
    pub noise_start: f64,
    /// Decrease of the added variance per generation (default 0.1).
    #[serde(with = "exact")]
    pub noise_decay: f64,
    /// Floor of the added variance (default 0).
    #[serde(with = "exact")]
    pub noise_min: f64,
    /// Master seed: sampling stream and per-generation evaluation seeds.
    pub seed: u64,
}

impl CemConfig {
    /// The paper's settings around `initial_mean`.
    pub fn new(initial_mean: Vec<f64>, seed: u64) -> Self {
        CemConfig {
            initial_mean,
            initial_std: 10.0,
            population: 100,
            elite_fraction: 0.1,
            noise_start: 5.0,
            noise_decay: 0.1,
            noise_min: 0.0,
            seed,
        }
    }

    /// Checks that the settings describe a runnable search.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fail = |msg: String| Err(ConfigError(msg));
        if self.initial_mean.is_empty() {
            return fail("CEM needs at least one dimension (initial mean is empty)".into());
        }
        if let Some(v) = self.initial_mean.iter().find(|v| !v.is_finite()) {
            return fail(format!("CEM initial mean must be finite, got {v}"));
        }
        if !(self.initial_std.is_finite() && self.initial_std >= 0.0) {
            return fail(format!(
                "CEM initial std must be finite and >= 0, got {}",
                self.initial_std
            ));
        }
        super::check_population_size("CEM", self.population, super::Method::Cem.min_population())?;
        if !(self.elite_fraction > 0.0 && self.elite_fraction <= 1.0) {
            return fail(format!(
                "CEM elite fraction must be in (0, 1], got {}",
                self.elite_fraction
            ));
        }
        for (name, v) in [
            ("noise start", self.noise_start),
            ("noise decay", self.noise_decay),
            ("noise min", self.noise_min),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return fail(format!("CEM {name} must be finite and >= 0, got {v}"));
            }
        }
        Ok(())
    }

    /// Number of elites per generation: `round(elite_fraction · population)`,
    /// at least 1.
    pub fn elites(&self) -> usize {
        ((self.elite_fraction * self.population as f64).round() as usize).clamp(1, self.population)
    }

    /// Variance added after generation `g`: `max(noise_start − noise_decay·g, noise_min)`.
    pub fn noise(&self, g: usize) -> f64 {
        (self.noise_start - self.noise_decay * g as f64).max(self.noise_min)
    }
}

/// A noisy-CEM search in progress: configuration plus the whole state, so a
/// serialised `Cem` resumes exactly where it stopped.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cem {
    config: CemConfig,
    #[serde(with = "exact::vec")]
    mean: Vec<f64>,
    #[serde(with = "exact::vec")]
    std: Vec<f64>,
    rng: Rng,
    generation: usize,
    #[serde(with = "exact::vec")]
    best_x: Vec<f64>,
    #[serde(with = "exact")]
    best_f: f64,
}

impl Cem {
    /// Starts a search at `config.initial_mean`.
    ///
    /// # Panics
    /// If `config.validate()` fails.
    pub fn new(config: CemConfig) -> Cem {
        if let Err(e) = config.validate() {
            panic!("{e}");
        }
        let dim = config.initial_mean.len();
        Cem {
            mean: config.initial_mean.clone(),
            std: vec![config.initial_std; dim],
            rng: Rng::new(config.seed),
            generation: 0,
            best_x: config.initial_mean.clone(),
            best_f: f64::NEG_INFINITY,
            config,
        }
    }

    /// Runs one generation: sample, evaluate in parallel with this
    /// generation's seed, refit μ and σ to the elites, add the noise.
    pub fn step(&mut self, fitness: &Fitness, progress: &Progress) -> Generation {
        let g = self.generation;
        // Draw everything first, sequentially, so the samples do not depend
        // on how rayon schedules the evaluations.
        let candidates: Vec<Vec<f64>> = (0..self.config.population)
            .map(|_| {
                self.mean
                    .iter()
                    .zip(&self.std)
                    .map(|(&m, &s)| m + s * self.rng.normal())
                    .collect()
            })
            .collect();
        let scores = evaluate(
            &candidates,
            derive_seed(self.config.seed, g as u64),
            fitness,
            progress,
        );
        let report = record(g, &candidates, &scores, &mut self.best_x, &mut self.best_f);

        // Highest scores first; the sort is stable, so ties keep sample order.
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let elites = &order[..self.config.elites()];
        let k = elites.len() as f64;
        let noise = self.config.noise(g);
        for (j, (mean, std)) in self.mean.iter_mut().zip(&mut self.std).enumerate() {
            let m = elites.iter().map(|&i| candidates[i][j]).sum::<f64>() / k;
            let var = elites
                .iter()
                .map(|&i| (candidates[i][j] - m).powi(2))
                .sum::<f64>()
                / k;
            *mean = m;
            *std = (var + noise).sqrt();
        }
        self.generation += 1;
        report
    }

    /// Current mean μ: the recommended solution (less flattered by lucky
    /// evaluations than the best single sample).
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// Current per-dimension standard deviation σ.
    pub fn std(&self) -> &[f64] {
        &self.std
    }

    /// Best single evaluation so far, `(candidate, fitness)`; the initial
    /// mean with `-inf` before the first generation.
    pub fn best(&self) -> (&[f64], f64) {
        (&self.best_x, self.best_f)
    }

    pub fn generations_done(&self) -> usize {
        self.generation
    }

    pub fn dimension(&self) -> usize {
        self.config.initial_mean.len()
    }

    /// Checks a loaded state (see `Validate for Optimizer`).
    pub(super) fn check_state(&self) -> Result<(), String> {
        self.config.validate().map_err(|e| e.0)?;
        let dim = self.dimension();
        super::check_vector("mean", &self.mean, dim)?;
        super::check_vector("std", &self.std, dim)?;
        if let Some(j) = self.std.iter().position(|&s| s < 0.0) {
            return Err(format!("std[{j}] is {}, expected >= 0", self.std[j]));
        }
        super::check_best(&self.best_x, self.best_f, dim)
    }

    pub fn evaluations_per_generation(&self) -> usize {
        self.config.population
    }

    pub fn config(&self) -> &CemConfig {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::super::Optimizer;
    use super::super::testing::*;
    use super::*;
    use std::sync::Mutex;

    fn far_start() -> Vec<f64> {
        vec![3.0, -4.0, 5.0, 3.5, -4.5]
    }

    fn make(seed: u64) -> Optimizer {
        let mut config = CemConfig::new(far_start(), seed);
        config.population = 40;
        Optimizer::Cem(Cem::new(config))
    }

    fn run_cem(config: CemConfig, fitness: &Fitness, generations: usize) -> Cem {
        let mut cem = Cem::new(config);
        for _ in 0..generations {
            cem.step(fitness, &Progress::hidden());
        }
        cem
    }

    #[test]
    fn maximizes_negative_sphere_with_paper_defaults() {
        let start = far_start();
        assert!(sphere(&start) > 50.0);
        let cem = run_cem(CemConfig::new(start, 1), &|x, _| -sphere(x), 80);
        assert!(cem.best().1 > -1e-6, "best {}", cem.best().1);
        assert!(sphere(cem.mean()) < 1e-6, "mean {:?}", cem.mean());
        assert!(cem.std().iter().all(|&s| s < 1e-3), "std {:?}", cem.std());
    }

    #[test]
    fn solves_rosenbrock_with_small_noise() {
        // Deterministic fitness: a small constant added variance keeps the
        // search moving along the curved valley (with none it stalls, with
        // the paper's noise it wanders too much to finish in time).
        let start = vec![-3.0, 4.0];
        assert!(rosenbrock(&start) > 1000.0);
        let mut config = CemConfig::new(start, 2);
        config.initial_std = 2.0;
        config.noise_start = 0.01;
        config.noise_decay = 0.0;
        let cem = run_cem(config, &|x, _| -rosenbrock(x), 150);
        assert!(-cem.best().1 < 1e-3, "best {}", cem.best().1);
        let dist = cem
            .mean()
            .iter()
            .map(|v| (v - 1.0).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(dist < 0.3, "mean {:?}", cem.mean());
    }

    #[test]
    fn converges_under_noisy_fitness() {
        // Each evaluation seed moves the optimum a little (shared by the
        // generation, like a shared set of games) and every evaluation adds
        // its own noise on top.
        let noisy = |x: &[f64], seed: u64| {
            let mut game = Rng::new(seed);
            let shifted: f64 = x.iter().map(|v| (v - 0.1 * game.normal()).powi(2)).sum();
            let own = x
                .iter()
                .fold(seed, |h, v| crate::rng::splitmix64(h ^ v.to_bits()));
            -shifted + 0.5 * Rng::new(own).normal()
        };
        let start = far_start();
        for seed in 0..3 {
            let cem = run_cem(CemConfig::new(start.clone(), seed), &noisy, 100);
            let dist = sphere(cem.mean()).sqrt();
            assert!(
                dist < 0.5,
                "seed {seed}: |mean| = {dist}, mean {:?}",
                cem.mean()
            );
        }
    }

    #[test]
    fn update_is_elite_mean_and_variance_plus_noise() {
        let mut config = CemConfig::new(vec![1.0, -2.0, 0.5], 4);
        config.population = 20;
        config.elite_fraction = 0.25;
        let mut cem = Cem::new(config);
        let seen = Mutex::new(Vec::new());
        let mut best_ever = f64::NEG_INFINITY;
        let fitness = |x: &[f64], _: u64| {
            let f = -sphere(x);
            seen.lock().unwrap().push((x.to_vec(), f));
            f
        };
        for g in 0..3 {
            seen.lock().unwrap().clear();
            cem.step(&fitness, &Progress::hidden());
            // Recompute naively from what the fitness saw.
            let mut seen = seen.lock().unwrap().clone();
            assert_eq!(seen.len(), 20);
            seen.sort_by(|a, b| b.1.total_cmp(&a.1));
            let elites = &seen[..5];
            for j in 0..3 {
                let mean = elites.iter().map(|e| e.0[j]).sum::<f64>() / 5.0;
                let var = elites.iter().map(|e| (e.0[j] - mean).powi(2)).sum::<f64>() / 5.0;
                let noise = (5.0 - 0.1 * g as f64).max(0.0);
                assert!((cem.mean()[j] - mean).abs() < 1e-12);
                assert!((cem.std()[j] - (var + noise).sqrt()).abs() < 1e-12);
            }
            if seen[0].1 > best_ever {
                best_ever = seen[0].1;
                assert_eq!(cem.best().0, &seen[0].0[..]);
            }
            assert_eq!(cem.best().1, best_ever);
        }
    }

    #[test]
    fn elite_count_and_noise_schedule() {
        let mut c = CemConfig::new(vec![0.0], 0);
        assert_eq!(c.elites(), 10);
        c.population = 5;
        assert_eq!(c.elites(), 1);
        c.elite_fraction = 1.0;
        assert_eq!(c.elites(), 5);
        assert_eq!(c.noise(0), 5.0);
        assert!((c.noise(20) - 3.0).abs() < 1e-12);
        assert_eq!(c.noise(60), 0.0);
        c.population = 0;
        assert!(c.validate().is_err());
        assert!(CemConfig::new(vec![], 0).validate().is_err());
    }

    #[test]
    fn same_seed_same_run_whatever_the_threads() {
        check_determinism(make, 6);
    }

    #[test]
    fn checkpoint_resume_is_exact() {
        check_resume(make, 4, 5);
    }

    #[test]
    fn one_evaluation_seed_per_generation() {
        check_generation_seeds(make, 4);
    }
}
