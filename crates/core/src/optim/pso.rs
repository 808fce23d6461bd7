//! Particle swarm optimisation, global-best topology with constriction.
//!
//! Method: J. Kennedy and R. Eberhart, "Particle Swarm Optimization", Proc.
//! IEEE ICNN 1995; constants from M. Clerc and J. Kennedy, "The Particle
//! Swarm — Explosion, Stability, and Convergence in a Multidimensional Complex
//! Space", IEEE Trans. Evolutionary Computation 6(1):58–73, 2002. Each
//! particle moves with velocity
//! v ← χ·v + c₁·r₁·(p − x) + c₂·r₂·(g − x), x ← x + v,
//! where p is its own best position, g the swarm's, and r₁, r₂ are fresh
//! uniform numbers per dimension. Constriction χ = 0.7298 with
//! c₁ = c₂ = 1.49618 (= χ·2.05) makes the swarm converge without the
//! velocity blow-up of the original update; clamping |v| is a cheap extra
//! guard for the first generations.
//!
//! Updates are synchronous (bests are refreshed once per generation, after
//! all particles moved), so a generation's evaluations can run in parallel.
//! Best scores are kept from the generation that found them and are not
//! re-evaluated, so under a noisy fitness a lucky best can linger.

use super::{ConfigError, Fitness, Generation, check_box, evaluate, exact, record};
use crate::progress::Progress;
use crate::rng::{Rng, derive_seed};
use serde::{Deserialize, Serialize};

/// Settings of a [`Pso`] run. The dimension is `init_low.len()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PsoConfig {
    /// Lower corner of the box initial positions are drawn from (uniformly).
    /// Particles may leave the box; it only sets the starting region and the
    /// velocity scale.
    #[serde(with = "exact::vec")]
    pub init_low: Vec<f64>,
    /// Upper corner of that box.
    #[serde(with = "exact::vec")]
    pub init_high: Vec<f64>,
    /// Swarm size (default 30).
    pub population: usize,
    /// Inertia, the constriction factor χ (default 0.7298).
    #[serde(with = "exact")]
    pub inertia: f64,
    /// Pull towards the particle's own best (default 1.49618).
    #[serde(with = "exact")]
    pub cognitive: f64,
    /// Pull towards the swarm's best (default 1.49618).
    #[serde(with = "exact")]
    pub social: f64,
    /// Velocity limit as a fraction of the init box width, per dimension:
    /// |v_j| ≤ v_max·(high_j − low_j) (default 0.5; `None` for no limit).
    pub v_max: Option<f64>,
    /// Master seed: sampling stream and per-generation evaluation seeds.
    pub seed: u64,
}

impl PsoConfig {
    /// Default settings, swarm started in the box `[init_low, init_high]`.
    pub fn new(init_low: Vec<f64>, init_high: Vec<f64>, seed: u64) -> Self {
        PsoConfig {
            init_low,
            init_high,
            population: 30,
            inertia: 0.7298,
            cognitive: 1.49618,
            social: 1.49618,
            v_max: Some(0.5),
            seed,
        }
    }

    /// Checks that the settings describe a runnable search.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fail = |msg: String| Err(ConfigError(msg));
        check_box("PSO", &self.init_low, &self.init_high)?;
        super::check_population_size("PSO", self.population, super::Method::Pso.min_population())?;
        for (name, v) in [
            ("inertia", self.inertia),
            ("cognitive weight", self.cognitive),
            ("social weight", self.social),
        ] {
            if !v.is_finite() {
                return fail(format!("PSO {name} must be finite, got {v}"));
            }
        }
        if let Some(v) = self.v_max
            && !(v.is_finite() && v > 0.0)
        {
            return fail(format!("PSO v_max must be finite and > 0, got {v}"));
        }
        Ok(())
    }
}

/// A PSO search in progress: configuration plus the whole state, so a
/// serialised `Pso` resumes exactly where it stopped.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pso {
    config: PsoConfig,
    #[serde(with = "exact::vecs")]
    positions: Vec<Vec<f64>>,
    #[serde(with = "exact::vecs")]
    velocities: Vec<Vec<f64>>,
    /// Each particle's best position and its score; scores empty until
    /// generation 0 has evaluated the initial positions.
    #[serde(with = "exact::vecs")]
    personal_best: Vec<Vec<f64>>,
    #[serde(with = "exact::vec")]
    personal_score: Vec<f64>,
    /// Index of the particle whose personal best is the swarm's best.
    leader: usize,
    rng: Rng,
    generation: usize,
    #[serde(with = "exact::vec")]
    best_x: Vec<f64>,
    #[serde(with = "exact")]
    best_f: f64,
}

impl Pso {
    /// Places the swarm: positions uniform in the init box, velocities
    /// uniform in ±0.1 of the box width per dimension (small, so the first
    /// moves explore around the start instead of flying out of the box).
    ///
    /// # Panics
    /// If `config.validate()` fails.
    pub fn new(config: PsoConfig) -> Pso {
        if let Err(e) = config.validate() {
            panic!("{e}");
        }
        let mut rng = Rng::new(config.seed);
        let n = config.population;
        let bounds = || config.init_low.iter().zip(&config.init_high);
        let positions: Vec<Vec<f64>> = (0..n)
            .map(|_| bounds().map(|(&lo, &hi)| rng.uniform(lo, hi)).collect())
            .collect();
        let velocities: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                bounds()
                    .map(|(&lo, &hi)| {
                        let w = 0.1 * (hi - lo);
                        rng.uniform(-w, w)
                    })
                    .collect()
            })
            .collect();
        Pso {
            best_x: positions[0].clone(),
            best_f: f64::NEG_INFINITY,
            personal_best: positions.clone(),
            personal_score: Vec::new(),
            leader: 0,
            positions,
            velocities,
            rng,
            generation: 0,
            config,
        }
    }

    /// Runs one generation. Generation 0 evaluates the initial positions;
    /// each later one moves every particle, evaluates the new positions (in
    /// parallel, with this generation's seed) and updates the bests.
    pub fn step(&mut self, fitness: &Fitness, progress: &Progress) -> Generation {
        let g = self.generation;
        let seed = derive_seed(self.config.seed, g as u64);
        if !self.personal_score.is_empty() {
            self.fly();
        }
        let scores = evaluate(&self.positions, seed, fitness, progress);
        let report = record(
            g,
            &self.positions,
            &scores,
            &mut self.best_x,
            &mut self.best_f,
        );
        if self.personal_score.is_empty() {
            self.personal_score = scores;
        } else {
            for (i, score) in scores.into_iter().enumerate() {
                // `>=` lets particles drift across plateaus of equal score.
                if score >= self.personal_score[i] {
                    self.personal_best[i].clone_from(&self.positions[i]);
                    self.personal_score[i] = score;
                }
            }
        }
        // Lowest index among equals, so the leader does not depend on order.
        self.leader = (0..self.personal_score.len())
            .reduce(|a, b| {
                if self.personal_score[b] > self.personal_score[a] {
                    b
                } else {
                    a
                }
            })
            .expect("swarm is not empty");
        self.generation += 1;
        report
    }

    /// Velocity and position update of every particle, drawn sequentially.
    fn fly(&mut self) {
        let c = &self.config;
        let leader = &self.personal_best[self.leader];
        for ((x, v), p) in self
            .positions
            .iter_mut()
            .zip(&mut self.velocities)
            .zip(&self.personal_best)
        {
            for j in 0..x.len() {
                let r1 = self.rng.unit();
                let r2 = self.rng.unit();
                let mut vj = c.inertia * v[j]
                    + c.cognitive * r1 * (p[j] - x[j])
                    + c.social * r2 * (leader[j] - x[j]);
                if let Some(frac) = c.v_max {
                    let limit = frac * (c.init_high[j] - c.init_low[j]);
                    vj = vj.clamp(-limit, limit);
                }
                v[j] = vj;
                x[j] += vj;
            }
        }
    }

    /// Best single evaluation so far, `(candidate, fitness)`; the first
    /// particle's position with `-inf` before the first generation.
    pub fn best(&self) -> (&[f64], f64) {
        (&self.best_x, self.best_f)
    }

    /// Current particle positions.
    pub fn positions(&self) -> &[Vec<f64>] {
        &self.positions
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
        super::check_population("positions", &self.positions, size, dim)?;
        super::check_population("velocities", &self.velocities, size, dim)?;
        super::check_population("personal_best", &self.personal_best, size, dim)?;
        super::check_scores("personal_score", &self.personal_score, size)?;
        if self.leader >= size {
            return Err(format!(
                "leader {} is out of range (the swarm has {size} particles)",
                self.leader
            ));
        }
        super::check_best(&self.best_x, self.best_f, dim)
    }

    pub fn evaluations_per_generation(&self) -> usize {
        self.config.population
    }

    pub fn config(&self) -> &PsoConfig {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::super::Optimizer;
    use super::super::testing::*;
    use super::*;

    fn make(seed: u64) -> Optimizer {
        Optimizer::Pso(Pso::new(PsoConfig::new(vec![3.0; 5], vec![5.0; 5], seed)))
    }

    fn run_pso(config: PsoConfig, fitness: &Fitness, generations: usize) -> Pso {
        let mut pso = Pso::new(config);
        for _ in 0..generations {
            pso.step(fitness, &Progress::hidden());
        }
        pso
    }

    #[test]
    fn maximizes_negative_sphere_from_a_far_box() {
        let pso = run_pso(
            PsoConfig::new(vec![3.0; 5], vec![5.0; 5], 1),
            &|x, _| -sphere(x),
            200,
        );
        assert!(pso.best().1 > -1e-6, "best {}", pso.best().1);
    }

    #[test]
    fn solves_rosenbrock() {
        let config = PsoConfig::new(vec![-3.0, 2.0], vec![-2.0, 4.0], 2);
        assert!(rosenbrock(&[-2.0, 2.0]) > 100.0);
        let pso = run_pso(config, &|x, _| -rosenbrock(x), 300);
        assert!(-pso.best().1 < 1e-4, "best {}", pso.best().1);
    }

    #[test]
    fn velocities_stay_clamped_and_personal_bests_are_consistent() {
        let mut config = PsoConfig::new(vec![-1.0, 0.0, 10.0], vec![1.0, 4.0, 10.5], 3);
        config.v_max = Some(0.2);
        let mut pso = Pso::new(config);
        let progress = Progress::hidden();
        // A far-away optimum pulls hard, so the clamp is actually reached.
        let fitness = |x: &[f64], _: u64| -x.iter().map(|v| (v - 100.0).powi(2)).sum::<f64>();
        let mut clamped = false;
        for _ in 0..20 {
            pso.step(&fitness, &progress);
            for v in &pso.velocities {
                for (j, &vj) in v.iter().enumerate() {
                    let limit = 0.2 * (pso.config.init_high[j] - pso.config.init_low[j]);
                    assert!(vj.abs() <= limit + 1e-12, "v {vj} over {limit}");
                    clamped |= vj.abs() == limit;
                }
            }
            for (p, &s) in pso.personal_best.iter().zip(&pso.personal_score) {
                assert_eq!(s, fitness(p, 0));
                assert!(s <= pso.personal_score[pso.leader]);
            }
            assert_eq!(pso.best().1, pso.personal_score[pso.leader]);
        }
        assert!(clamped);
    }

    #[test]
    fn initial_swarm_is_in_the_box_with_small_velocities() {
        let pso = Pso::new(PsoConfig::new(vec![-1.0, 2.0], vec![1.0, 6.0], 4));
        assert_eq!(pso.positions().len(), 30);
        for (x, v) in pso.positions.iter().zip(&pso.velocities) {
            assert!((-1.0..1.0).contains(&x[0]) && (2.0..6.0).contains(&x[1]));
            assert!(v[0].abs() <= 0.2 && v[1].abs() <= 0.4);
        }
        let mut bad = PsoConfig::new(vec![0.0], vec![1.0], 0);
        bad.v_max = Some(0.0);
        assert!(bad.validate().is_err());
        assert!(PsoConfig::new(vec![0.0], vec![-1.0], 0).validate().is_err());
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
