//! Imitation of the exact oracle with DAgger (Ross, Gordon & Bagnell 2011):
//! the network plays, the [`crate::viability`] analysis says which action
//! was better in every state it reached, and the network learns to agree.
//!
//! Reinforcement learning sees a crash only after the fact, and at a rate
//! of about one per 10,000 pipes for a good policy, so the last rare
//! mistakes get almost no signal. Here every frame has an exact answer: the
//! depth of the state each action leads to (how many pixels closer the
//! walls could be and the bird still never crash). A frame where both
//! actions lead to equally deep states teaches nothing and is skipped;
//! otherwise the network is taught the deeper action by weighted logistic
//! regression, most strongly where the other action is shallow or doomed.
//!
//! Playing its own policy (with a little random exploration) rather than
//! the oracle's makes the network learn the states its own mistakes lead
//! to, the point of DAgger. Every labelled frame goes into a large replay
//! buffer, and each update takes minibatch steps on samples from all of it.
//!
//! Reproducible: each game has its own seeds, the buffer fills in game
//! order, sampling comes from one generator, and gradients are summed over
//! fixed chunks in order.

use super::adam::Adam;
use super::game::{Game, pipes_summary};
use super::reinforce::sigmoid;
use super::{ConfigError, Learner, TrainConfig, mean_gradient};
use crate::mlp::Mlp;
use crate::obs::normalized;
use crate::viability::{Depths, Judge};
use arcade_core::{Rng, derive_seed};
use rayon::prelude::*;
use serde::Serialize;

/// Imitation settings.
#[derive(Clone, Debug, Serialize)]
pub struct ImitateSettings {
    /// Games played side by side.
    pub games: usize,
    /// Frames each game plays per update.
    pub steps: usize,
    /// Chance of a random action on a frame, so the network also sees the
    /// states just off its own path.
    pub explore: f64,
    /// Labelled frames kept (the oldest are replaced).
    pub buffer: usize,
    /// Gradient steps per update.
    pub batches: usize,
    /// Samples per gradient step.
    pub minibatch: usize,
    /// Adam step size.
    pub learning_rate: f64,
    /// Pipe cap of training games.
    pub max_cap: u64,
}

impl Default for ImitateSettings {
    fn default() -> Self {
        ImitateSettings {
            games: 16,
            steps: 512,
            explore: 0.02,
            buffer: 2_000_000,
            batches: 8,
            minibatch: 1024,
            learning_rate: 1e-3,
            max_cap: 10_000,
        }
    }
}

/// Samples per gradient chunk: the unit of parallel work, fixed so sums do
/// not depend on the number of threads.
const CHUNK: usize = 256;

/// Most samples the buffer keeps (about a gigabyte).
pub(super) const MAX_BUFFER: usize = 1 << 25;

/// Labelled frames, in a ring once full.
struct Buffer {
    inputs: usize,
    capacity: usize,
    obs: Vec<f32>,
    flap: Vec<bool>,
    weight: Vec<f32>,
    /// Next slot to overwrite once full.
    next: usize,
}

impl Buffer {
    fn len(&self) -> usize {
        self.flap.len()
    }

    fn push(&mut self, obs: &[f32], flap: bool, weight: f32) {
        if self.len() < self.capacity {
            self.obs.extend_from_slice(obs);
            self.flap.push(flap);
            self.weight.push(weight);
        } else {
            let k = self.next;
            self.obs[k * self.inputs..(k + 1) * self.inputs].copy_from_slice(obs);
            self.flap[k] = flap;
            self.weight[k] = weight;
            self.next = (k + 1) % self.capacity;
        }
    }
}

/// What one game played in one update.
#[derive(Default)]
struct Collected {
    obs: Vec<f32>,
    flap: Vec<bool>,
    weight: Vec<f32>,
    /// Pipes of the episodes that ended.
    finished: Vec<u64>,
}

/// How much a frame matters: fully when the worse action is doomed or at
/// depth 0, less the deeper the worse action still is.
fn weight(worse_depth: i32) -> f32 {
    1.0 / (1 + worse_depth.max(0)) as f32
}

pub(super) struct ImitateLearner {
    mlp: Mlp,
    adam: Adam,
    depths: &'static Depths,
    games: Vec<Game>,
    buffer: Buffer,
    settings: ImitateSettings,
    extreme_gaps: f64,
    sampler: Rng,
}

impl ImitateLearner {
    pub(super) fn new(config: &TrainConfig) -> Result<ImitateLearner, ConfigError> {
        let s = &config.imitate;
        if s.games == 0 || s.steps == 0 || s.batches == 0 || s.minibatch == 0 || s.buffer == 0 {
            return Err(ConfigError(
                "imitation needs at least one game, step, batch, sample per batch and buffer slot"
                    .into(),
            ));
        }
        super::check_rollout("imitation", s.games, s.steps)?;
        if s.buffer > MAX_BUFFER {
            return Err(ConfigError(format!(
                "imitation keeps at most {MAX_BUFFER} samples, got a buffer of {}",
                s.buffer
            )));
        }
        if !(s.learning_rate > 0.0 && (0.0..=1.0).contains(&s.explore) && s.max_cap > 0) {
            return Err(ConfigError(
                "imitation needs a positive learning rate and cap, and an exploration chance in [0, 1]"
                    .into(),
            ));
        }
        let mut rng = Rng::new(derive(config.seed, 1));
        let mlp = Mlp::random(&config.sizes, 0.1, &mut rng);
        let games = (0..s.games)
            .map(|i| {
                Game::new(
                    derive_seed(derive(config.seed, 2), i as u64),
                    s.max_cap,
                    config.extreme_gaps,
                )
            })
            .collect();
        let inputs = config.sizes[0];
        Ok(ImitateLearner {
            adam: Adam::new(mlp.params().len()),
            mlp,
            depths: Depths::shared(),
            games,
            buffer: Buffer {
                inputs,
                capacity: s.buffer,
                obs: Vec::new(),
                flap: Vec::new(),
                weight: Vec::new(),
                next: 0,
            },
            settings: s.clone(),
            extreme_gaps: config.extreme_gaps,
            sampler: Rng::new(derive(config.seed, 3)),
        })
    }

    /// Minibatch steps on samples drawn uniformly from the buffer.
    fn learn(&mut self) {
        let s = &self.settings;
        let n = self.buffer.len();
        if n == 0 {
            return;
        }
        for _ in 0..s.batches {
            let idx: Vec<usize> = (0..s.minibatch)
                .map(|_| self.sampler.below(n as u64) as usize)
                .collect();
            let parts: Vec<Vec<f32>> = idx
                .par_chunks(CHUNK)
                .with_max_len(1)
                .map(|c| chunk_gradient(&self.mlp, &self.buffer, c))
                .collect();
            let grad = mean_gradient(parts.iter().map(|p| &p[..]), idx.len());
            self.adam
                .ascend(self.mlp.params_mut(), &grad, s.learning_rate);
        }
    }
}

fn derive(seed: u64, stream: u64) -> u64 {
    derive_seed(seed, 0x0069_6D69_7400 + stream)
}

/// Plays `steps` frames of game `g` with the network (and random
/// exploration), labelling every frame where the actions' depths differ.
fn collect(
    g: &mut Game,
    mlp: &Mlp,
    depths: &Depths,
    s: &ImitateSettings,
    extreme: f64,
) -> Collected {
    let inputs = mlp.inputs();
    let mut scratch = mlp.scratch();
    let mut judge = Judge::new(depths);
    let mut out = Collected::default();
    for _ in 0..s.steps {
        let o = normalized(&g.env);
        let x = &o[..inputs];
        let [stay, flap] = judge.action_depths(&g.env);
        if stay != flap {
            out.obs.extend_from_slice(x);
            out.flap.push(flap > stay);
            out.weight.push(weight(stay.min(flap)));
        }
        let logits = mlp.forward(x, &mut scratch);
        let mut act = logits[1] > logits[0];
        if g.rng.unit() < s.explore {
            act = g.rng.next_u64() & 1 == 1;
        }
        if g.env.step(act).status != crate::env::Status::Running {
            out.finished.push(g.env.pipes());
            g.restart(s.max_cap, extreme);
        }
    }
    out
}

/// Gradient of the weighted log-likelihood of the labels of samples `idx`.
fn chunk_gradient(mlp: &Mlp, b: &Buffer, idx: &[usize]) -> Vec<f32> {
    let mut scratch = mlp.scratch();
    let mut grad = vec![0.0f32; mlp.params().len()];
    for &k in idx {
        let x = &b.obs[k * b.inputs..(k + 1) * b.inputs];
        let logits = mlp.forward(x, &mut scratch);
        let p = sigmoid(logits[1] - logits[0]);
        let target = if b.flap[k] { 1.0 } else { 0.0 };
        let d = b.weight[k] * (target - p);
        mlp.backward(&[-d, d], &mut scratch, &mut grad);
    }
    grad
}

impl Learner for ImitateLearner {
    fn step(&mut self) -> (f64, f64, u64, u64) {
        let (mlp, depths, s, extreme) = (&self.mlp, self.depths, &self.settings, self.extreme_gaps);
        let collected: Vec<Collected> = self
            .games
            .par_iter_mut()
            .with_max_len(1)
            .map(|g| collect(g, mlp, depths, s, extreme))
            .collect();
        for c in &collected {
            for (k, (&flap, &w)) in c.flap.iter().zip(&c.weight).enumerate() {
                let inputs = self.buffer.inputs;
                self.buffer
                    .push(&c.obs[k * inputs..(k + 1) * inputs], flap, w);
            }
        }
        self.learn();
        let finished: Vec<u64> = collected.iter().flat_map(|c| c.finished.clone()).collect();
        let (mean, best) = pipes_summary(&finished, &self.games);
        let s = &self.settings;
        let frames = (s.games * s.steps) as u64;
        (mean, best, frames, s.max_cap)
    }

    fn policy(&self) -> Mlp {
        self.mlp.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_falls_with_the_worse_depth() {
        assert_eq!(weight(-1), 1.0);
        assert_eq!(weight(0), 1.0);
        assert_eq!(weight(1), 0.5);
        assert!(weight(13) < weight(12));
    }

    /// The buffer keeps the newest `capacity` samples once full.
    #[test]
    fn buffer_replaces_the_oldest() {
        let mut b = Buffer {
            inputs: 1,
            capacity: 3,
            obs: Vec::new(),
            flap: Vec::new(),
            weight: Vec::new(),
            next: 0,
        };
        for i in 0..5 {
            b.push(&[i as f32], i % 2 == 0, 1.0);
        }
        assert_eq!(b.len(), 3);
        let mut kept = b.obs.clone();
        kept.sort_by(f32::total_cmp);
        assert_eq!(kept, vec![2.0, 3.0, 4.0]);
    }
}
