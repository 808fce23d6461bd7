//! REINFORCE (Williams 1992) with a batch baseline, and Adam: the simpler
//! policy gradient, kept for comparison with [`super::ppo`].
//!
//! Each update plays a batch of episodes with the stochastic policy
//! π(flap | s) = softmax(logits)₁, computes the discounted return Gₜ of every
//! frame, and subtracts the batch mean and divides by the batch standard
//! deviation (the baseline; it also keeps the step size independent of the
//! reward scale). The gradient of Σ Aₜ log π(aₜ | sₜ), plus a small entropy
//! bonus that keeps the policy from turning deterministic too early, is
//! averaged over the batch's frames and followed with Adam (Kingma & Ba 2015).
//!
//! Episodes run in parallel; their gradients are summed in episode order, so
//! an update is the same whatever the number of threads.

use super::adam::Adam;
use super::{ConfigError, Learner, TrainConfig};
use crate::env::Env;
use crate::episode::train_seed;
use crate::mlp::Mlp;
use crate::obs::normalized;
use arcade_core::Rng;
use rayon::prelude::*;
use serde::Serialize;

/// Policy-gradient settings.
#[derive(Clone, Debug, Serialize)]
pub struct ReinforceSettings {
    /// Episodes per update.
    pub batch: usize,
    /// Adam step size.
    pub learning_rate: f64,
    /// Discount per frame (0.99: a horizon of about 100 frames, three pipes).
    pub gamma: f64,
    /// Weight of the entropy bonus.
    pub entropy: f64,
    /// Pipe cap of the first updates' episodes.
    pub start_cap: u64,
    /// Largest pipe cap of training episodes.
    pub max_cap: u64,
}

impl Default for ReinforceSettings {
    fn default() -> Self {
        ReinforceSettings {
            batch: 16,
            learning_rate: 3e-3,
            gamma: 0.99,
            entropy: 0.01,
            start_cap: 50,
            max_cap: 1_000,
        }
    }
}

/// Initial bias of the flap logit: π(flap) ≈ 1/13 at the start, roughly
/// the rate at which random flapping keeps the bird aloft (a flap lifts it
/// for about 19 frames), so early episodes reach the first pipes.
const INITIAL_FLAP_BIAS: f32 = -2.5;

pub(super) struct ReinforceLearner {
    mlp: Mlp,
    settings: ReinforceSettings,
    seed: u64,
    updates: u64,
    cap: u64,
    extreme_gaps: f64,
    adam: Adam,
}

/// One sampled episode.
struct Trajectory {
    /// Observations, `inputs` numbers per frame.
    obs: Vec<f32>,
    flaps: Vec<bool>,
    rewards: Vec<f64>,
    pipes: u64,
}

impl ReinforceLearner {
    pub(super) fn new(config: &TrainConfig) -> Result<ReinforceLearner, ConfigError> {
        let s = &config.reinforce;
        if s.batch < 2 {
            return Err(ConfigError(
                "policy gradient needs a batch of at least 2 episodes".into(),
            ));
        }
        super::check_rollout("policy gradient", s.batch, 1)?;
        if !(s.learning_rate > 0.0 && (0.0..=1.0).contains(&s.gamma) && s.entropy >= 0.0) {
            return Err(ConfigError(
                "policy gradient needs a positive learning rate, gamma in [0, 1] and a non-negative entropy weight".into(),
            ));
        }
        if s.start_cap == 0 {
            return Err(ConfigError(
                "the training cap must be at least one pipe".into(),
            ));
        }
        let mut rng = Rng::new(arcade_core::derive_seed(config.seed, 0x7067_0001));
        let mut mlp = Mlp::random(&config.sizes, 0.1, &mut rng);
        let n = mlp.params().len();
        mlp.params_mut()[n - 1] = INITIAL_FLAP_BIAS;
        Ok(ReinforceLearner {
            mlp,
            settings: s.clone(),
            seed: arcade_core::derive_seed(config.seed, 0x7067_0002),
            updates: 0,
            cap: s.start_cap.min(s.max_cap),
            extreme_gaps: config.extreme_gaps,
            adam: Adam::new(n),
        })
    }

    /// Plays one episode, sampling actions.
    fn sample(&self, seed: u64) -> Trajectory {
        let inputs = self.mlp.inputs();
        let mut rng = Rng::new(seed ^ 0x5EED_AC75);
        let mut scratch = self.mlp.scratch();
        let mut env = Env::with_extremes(seed, Some(self.cap), self.extreme_gaps);
        let mut t = Trajectory {
            obs: Vec::new(),
            flaps: Vec::new(),
            rewards: Vec::new(),
            pipes: 0,
        };
        while !env.is_over() {
            let o = normalized(&env);
            let logits = self.mlp.forward(&o[..inputs], &mut scratch);
            let p_flap = sigmoid(logits[1] - logits[0]);
            let flap = rng.unit() < f64::from(p_flap);
            t.obs.extend_from_slice(&o[..inputs]);
            t.flaps.push(flap);
            t.rewards.push(env.step(flap).reward);
        }
        t.pipes = env.pipes();
        t
    }

    /// Gradient of Σₜ (Aₜ log π(aₜ|sₜ) + β H(π(·|sₜ))) over one episode.
    fn gradient(&self, t: &Trajectory, advantages: &[f64]) -> Vec<f32> {
        let inputs = self.mlp.inputs();
        let beta = self.settings.entropy as f32;
        let mut scratch = self.mlp.scratch();
        let mut grad = vec![0.0f32; self.mlp.params().len()];
        for (k, (&flap, &a)) in t.flaps.iter().zip(advantages).enumerate() {
            let logits = self
                .mlp
                .forward(&t.obs[k * inputs..(k + 1) * inputs], &mut scratch);
            let p1 = sigmoid(logits[1] - logits[0]);
            let p = [1.0 - p1, p1];
            let taken = usize::from(flap);
            let entropy: f32 = -p.iter().map(|&q| q * q.max(1e-12).ln()).sum::<f32>();
            let mut d = [0.0f32; 2];
            for j in 0..2 {
                let onehot = if j == taken { 1.0 } else { 0.0 };
                // ∂ log π(a)/∂zⱼ = 1[j = a] − pⱼ;  ∂H/∂zⱼ = −pⱼ (log pⱼ + H).
                d[j] = a as f32 * (onehot - p[j]) - beta * p[j] * (p[j].max(1e-12).ln() + entropy);
            }
            self.mlp.backward(&d, &mut scratch, &mut grad);
        }
        grad
    }
}

#[inline]
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Discounted returns Gₜ = rₜ + γ Gₜ₊₁ of one episode.
fn returns(rewards: &[f64], gamma: f64) -> Vec<f64> {
    let mut out = vec![0.0; rewards.len()];
    let mut g = 0.0;
    for (o, &r) in out.iter_mut().zip(rewards).rev() {
        g = r + gamma * g;
        *o = g;
    }
    out
}

impl Learner for ReinforceLearner {
    fn step(&mut self) -> (f64, f64, u64, u64) {
        let batch = self.settings.batch;
        let first = self.updates * batch as u64;
        let trajectories: Vec<Trajectory> = (0..batch)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| self.sample(train_seed(self.seed, first + i as u64)))
            .collect();
        let all_returns: Vec<Vec<f64>> = trajectories
            .iter()
            .map(|t| returns(&t.rewards, self.settings.gamma))
            .collect();
        let n: usize = all_returns.iter().map(Vec::len).sum();
        let flat = all_returns.iter().flatten();
        let mean = flat.clone().sum::<f64>() / n as f64;
        let var = flat.map(|g| (g - mean).powi(2)).sum::<f64>() / n as f64;
        let scale = 1.0 / (var.sqrt() + 1e-8);
        let grads: Vec<Vec<f32>> = trajectories
            .par_iter()
            .zip(&all_returns)
            .with_max_len(1)
            .map(|(t, g)| {
                let adv: Vec<f64> = g.iter().map(|&x| (x - mean) * scale).collect();
                self.gradient(t, &adv)
            })
            .collect();
        let mut total = vec![0.0f64; self.mlp.params().len()];
        for g in &grads {
            for (s, &x) in total.iter_mut().zip(g) {
                *s += f64::from(x);
            }
        }
        for s in &mut total {
            *s /= n as f64;
        }
        self.updates += 1;
        self.adam
            .ascend(self.mlp.params_mut(), &total, self.settings.learning_rate);

        let cap = self.cap;
        let pipes: Vec<u64> = trajectories.iter().map(|t| t.pipes).collect();
        if pipes.iter().filter(|&&p| p >= cap).count() * 2 >= batch {
            self.cap = (cap * 2).min(self.settings.max_cap);
        }
        let mean_pipes = pipes.iter().sum::<u64>() as f64 / batch as f64;
        let best = pipes.iter().copied().max().unwrap_or(0) as f64;
        (mean_pipes, best, n as u64, cap)
    }

    fn policy(&self) -> Mlp {
        self.mlp.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_discount_backwards() {
        let g = returns(&[1.0, 0.0, 2.0], 0.5);
        assert_eq!(g, vec![1.0 + 0.5 * (0.0 + 0.5 * 2.0), 1.0, 2.0]);
    }

    /// The entropy-and-log-likelihood gradient of one frame against finite
    /// differences of the same objective, computed from the logits.
    #[test]
    fn frame_gradient_matches_finite_differences() {
        let mut config = TrainConfig::new(super::super::Method::Reinforce, 3);
        config.sizes = vec![5, 6, 2];
        config.reinforce.entropy = 0.3;
        let mut learner = ReinforceLearner::new(&config).unwrap();
        let mut rng = Rng::new(8);
        for p in learner.mlp.params_mut() {
            *p = rng.uniform(-0.8, 0.8) as f32;
        }
        let obs = vec![0.4f32, 0.2, 0.4, 0.45, -0.3];
        let t = Trajectory {
            obs: obs.clone(),
            flaps: vec![true],
            rewards: vec![0.0],
            pipes: 0,
        };
        let a = 0.7;
        let grad = learner.gradient(&t, &[a]);
        let objective = |mlp: &Mlp| -> f64 {
            let mut s = mlp.scratch();
            let l = mlp.forward(&obs, &mut s);
            let z = f64::from(l[1] - l[0]);
            let p1 = 1.0 / (1.0 + (-z).exp());
            let h = -(p1 * p1.ln() + (1.0 - p1) * (1.0 - p1).ln());
            a * p1.ln() + 0.3 * h
        };
        let h = 1e-2f32;
        for (k, &analytic) in grad.iter().enumerate() {
            let mut plus = learner.mlp.clone();
            plus.params_mut()[k] += h;
            let mut minus = learner.mlp.clone();
            minus.params_mut()[k] -= h;
            let numeric = (objective(&plus) - objective(&minus)) / (2.0 * f64::from(h));
            assert!(
                (f64::from(analytic) - numeric).abs() < 2e-3 + 2e-2 * numeric.abs(),
                "param {k}: {analytic} vs {numeric}"
            );
        }
    }
}
