//! Proximal policy optimisation (PPO, Schulman et al. 2017) with a learned
//! value baseline and generalised advantage estimation (GAE, Schulman et al.
//! 2016): the default policy-gradient method.
//!
//! REINFORCE's batch-mean baseline cannot tell a frame just before a crash
//! from one in a safe stretch of the same long game, and each batch is used
//! for one step only. Here a small critic network estimates the value of
//! every state, and a frame's advantage is its discounted return (a horizon
//! of about three pipes at γ = 0.99) minus that value: what the frame's
//! action changed, not how good the whole game was (GAE's λ can blend in
//! shorter, bootstrapped estimates; see [`PpoSettings::lambda`]). The
//! clipped objective lets each batch be reused for several epochs of
//! minibatch steps without the policy moving too far from the one that
//! played it.
//!
//! Games persist across updates: each update plays a fixed number of frames
//! in each of [`PpoSettings::games`] games, continuing where the previous
//! update stopped, so an update costs the same whether the bird crashes in
//! the first pipe or survives for thousands, and states deep into long games
//! are trained on without replaying their start. A game cut by the pipe cap
//! or by the end of the update is bootstrapped with the critic's value.
//!
//! Everything is reproducible: each game has its own seeds, the minibatch
//! order comes from one generator, and gradients are summed over fixed
//! chunks in order, so an update is the same whatever the number of threads.

use super::adam::Adam;
use super::game::{Game, pipes_summary};
use super::reinforce::sigmoid;
use super::{ConfigError, Learner, TrainConfig, mean_gradient};
use crate::env::Status;
use crate::mlp::Mlp;
use crate::obs::normalized;
use arcade_core::{Rng, derive_seed};
use rayon::prelude::*;
use serde::Serialize;

/// PPO settings.
#[derive(Clone, Debug, Serialize)]
pub struct PpoSettings {
    /// Games played side by side.
    pub games: usize,
    /// Frames each game plays per update.
    pub steps: usize,
    /// Passes over each update's frames.
    pub epochs: usize,
    /// Frames per gradient step.
    pub minibatch: usize,
    /// Adam step size (actor and critic).
    pub learning_rate: f64,
    /// Discount per frame.
    pub gamma: f64,
    /// GAE's λ: 0 is the one-step advantage, 1 the full discounted return
    /// minus the critic's value. 1 by default: the critic is a rough guess
    /// near crashes (a pixel decides them), and bootstrapping on it biases
    /// the advantages (measured in `docs/results/flappy.md`).
    pub lambda: f64,
    /// Clip range ε of the probability ratio.
    pub clip: f64,
    /// Weight of the entropy bonus.
    pub entropy: f64,
    /// Hidden units of the critic (one hidden layer).
    pub critic_hidden: usize,
    /// Pipe cap of training games (a capped game is bootstrapped, not a crash).
    pub max_cap: u64,
}

impl Default for PpoSettings {
    fn default() -> Self {
        PpoSettings {
            games: 16,
            steps: 512,
            epochs: 4,
            minibatch: 2048,
            learning_rate: 2e-3,
            gamma: 0.99,
            lambda: 1.0,
            clip: 0.2,
            entropy: 0.001,
            critic_hidden: 32,
            max_cap: 10_000,
        }
    }
}

/// Rewards are divided by this before learning, so values are of order one
/// (a pipe is +0.6, a crash −4.5).
const REWARD_SCALE: f32 = 100.0;

/// Initial bias of the flap logit (as in [`super::reinforce`]): π(flap) ≈ 1/13,
/// about the rate at which random flapping keeps the bird aloft.
const INITIAL_FLAP_BIAS: f32 = -2.5;

/// Frames per gradient chunk: the unit of parallel work, fixed so sums do
/// not depend on the number of threads.
const CHUNK: usize = 256;

/// How a frame ended its game.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    /// The game goes on to the next frame.
    Continue,
    /// Crashed: nothing follows.
    Crash,
    /// Stopped by the pipe cap; the critic's value of the state it reached.
    Cut(f32),
}

/// The frames one game played in one update.
#[derive(Debug, Default)]
struct Segment {
    obs: Vec<f32>,
    flaps: Vec<bool>,
    /// Probability the playing policy gave to the action taken.
    p_taken: Vec<f32>,
    values: Vec<f32>,
    rewards: Vec<f32>,
    ends: Vec<End>,
    /// Critic's value of the state after the last frame (if it continues).
    last_value: f32,
    /// Pipes of the episodes that ended in this segment.
    finished: Vec<u64>,
}

/// All frames of an update, flat, with their advantages and value targets.
struct Batch {
    inputs: usize,
    obs: Vec<f32>,
    flaps: Vec<bool>,
    p_taken: Vec<f32>,
    advantages: Vec<f32>,
    targets: Vec<f32>,
}

pub(super) struct PpoLearner {
    actor: Mlp,
    critic: Mlp,
    actor_adam: Adam,
    critic_adam: Adam,
    games: Vec<Game>,
    settings: PpoSettings,
    extreme_gaps: f64,
    shuffle: Rng,
}

impl PpoLearner {
    pub(super) fn new(config: &TrainConfig) -> Result<PpoLearner, ConfigError> {
        let s = &config.ppo;
        if s.games == 0 || s.steps == 0 || s.epochs == 0 || s.minibatch == 0 {
            return Err(ConfigError(
                "PPO needs at least one game, step, epoch and frame per minibatch".into(),
            ));
        }
        super::check_rollout("PPO", s.games, s.steps)?;
        if !(s.learning_rate > 0.0
            && (0.0..=1.0).contains(&s.gamma)
            && (0.0..=1.0).contains(&s.lambda)
            && s.clip > 0.0
            && s.entropy >= 0.0)
        {
            return Err(ConfigError(
                "PPO needs a positive learning rate and clip range, gamma and lambda in [0, 1] and a non-negative entropy weight".into(),
            ));
        }
        if s.critic_hidden == 0 || s.max_cap == 0 {
            return Err(ConfigError(
                "PPO needs a critic with at least one hidden unit and a cap of at least one pipe"
                    .into(),
            ));
        }
        let mut rng = Rng::new(derive(config.seed, 1));
        let mut actor = Mlp::random(&config.sizes, 0.1, &mut rng);
        let n = actor.params().len();
        actor.params_mut()[n - 1] = INITIAL_FLAP_BIAS;
        let critic = Mlp::random(&[config.sizes[0], s.critic_hidden, 1], 0.1, &mut rng);
        let games = (0..s.games)
            .map(|i| {
                Game::new(
                    derive_seed(derive(config.seed, 2), i as u64),
                    s.max_cap,
                    config.extreme_gaps,
                )
            })
            .collect();
        Ok(PpoLearner {
            actor_adam: Adam::new(n),
            critic_adam: Adam::new(critic.params().len()),
            actor,
            critic,
            games,
            settings: s.clone(),
            extreme_gaps: config.extreme_gaps,
            shuffle: Rng::new(derive(config.seed, 3)),
        })
    }

    /// Every game plays its frames for this update, in parallel.
    fn play(&mut self) -> Vec<Segment> {
        let (actor, critic) = (&self.actor, &self.critic);
        let (steps, cap, extreme) = (
            self.settings.steps,
            self.settings.max_cap,
            self.extreme_gaps,
        );
        self.games
            .par_iter_mut()
            .with_max_len(1)
            .map(|g| play_segment(g, actor, critic, steps, cap, extreme))
            .collect()
    }

    /// Several epochs of minibatch steps on the clipped objective and the
    /// critic's squared error.
    fn learn(&mut self, batch: &Batch) {
        let s = &self.settings;
        let n = batch.flaps.len();
        let mut order: Vec<usize> = (0..n).collect();
        for _ in 0..s.epochs {
            self.shuffle.shuffle(&mut order);
            for mb in order.chunks(s.minibatch) {
                let parts: Vec<(Vec<f32>, Vec<f32>)> = mb
                    .par_chunks(CHUNK)
                    .with_max_len(1)
                    .map(|idx| {
                        chunk_gradient(
                            &self.actor,
                            &self.critic,
                            batch,
                            idx,
                            s.clip as f32,
                            s.entropy as f32,
                        )
                    })
                    .collect();
                let ga = mean_gradient(parts.iter().map(|p| &p.0[..]), mb.len());
                let gc = mean_gradient(parts.iter().map(|p| &p.1[..]), mb.len());
                let lr = s.learning_rate;
                self.actor_adam.ascend(self.actor.params_mut(), &ga, lr);
                self.critic_adam.ascend(self.critic.params_mut(), &gc, lr);
            }
        }
    }
}

fn derive(seed: u64, stream: u64) -> u64 {
    derive_seed(seed, 0x7070_6F00 + stream)
}

/// Plays `steps` frames of game `g` with the stochastic actor.
fn play_segment(
    g: &mut Game,
    actor: &Mlp,
    critic: &Mlp,
    steps: usize,
    cap: u64,
    extreme: f64,
) -> Segment {
    let inputs = actor.inputs();
    let (mut sa, mut sc) = (actor.scratch(), critic.scratch());
    let mut seg = Segment::default();
    for _ in 0..steps {
        let o = normalized(&g.env);
        let x = &o[..inputs];
        let logits = actor.forward(x, &mut sa);
        let p_flap = sigmoid(logits[1] - logits[0]);
        let flap = g.rng.unit() < f64::from(p_flap);
        seg.obs.extend_from_slice(x);
        seg.flaps.push(flap);
        seg.p_taken.push(if flap { p_flap } else { 1.0 - p_flap });
        seg.values.push(critic.forward(x, &mut sc)[0]);
        let step = g.env.step(flap);
        seg.rewards.push(step.reward as f32 / REWARD_SCALE);
        let end = match step.status {
            Status::Running => End::Continue,
            Status::Crashed => End::Crash,
            Status::Truncated => {
                let o = normalized(&g.env);
                End::Cut(critic.forward(&o[..inputs], &mut sc)[0])
            }
        };
        seg.ends.push(end);
        if end != End::Continue {
            seg.finished.push(g.env.pipes());
            g.restart(cap, extreme);
        }
    }
    let o = normalized(&g.env);
    seg.last_value = critic.forward(&o[..inputs], &mut sc)[0];
    seg
}

/// GAE advantages and value targets (advantage + value) of one segment.
fn advantages(seg: &Segment, gamma: f32, lambda: f32) -> (Vec<f32>, Vec<f32>) {
    let n = seg.rewards.len();
    let (mut adv, mut targets) = (vec![0.0; n], vec![0.0; n]);
    let mut gae = 0.0f32;
    let mut next_value = seg.last_value;
    for t in (0..n).rev() {
        let following = match seg.ends[t] {
            End::Continue => next_value,
            End::Crash => {
                gae = 0.0;
                0.0
            }
            End::Cut(v) => {
                gae = 0.0;
                v
            }
        };
        let delta = seg.rewards[t] + gamma * following - seg.values[t];
        gae = delta + gamma * lambda * gae;
        adv[t] = gae;
        targets[t] = gae + seg.values[t];
        next_value = seg.values[t];
    }
    (adv, targets)
}

/// The segments as one batch, advantages normalised to mean 0 and standard
/// deviation 1 (keeps the step size independent of the reward scale).
fn flatten(segments: &[Segment], inputs: usize, gamma: f32, lambda: f32) -> Batch {
    let mut b = Batch {
        inputs,
        obs: Vec::new(),
        flaps: Vec::new(),
        p_taken: Vec::new(),
        advantages: Vec::new(),
        targets: Vec::new(),
    };
    for seg in segments {
        let (adv, targets) = advantages(seg, gamma, lambda);
        b.obs.extend_from_slice(&seg.obs);
        b.flaps.extend_from_slice(&seg.flaps);
        b.p_taken.extend_from_slice(&seg.p_taken);
        b.advantages.extend(adv);
        b.targets.extend(targets);
    }
    let n = b.advantages.len() as f64;
    let mean = b.advantages.iter().map(|&a| f64::from(a)).sum::<f64>() / n;
    let var = b
        .advantages
        .iter()
        .map(|&a| (f64::from(a) - mean).powi(2))
        .sum::<f64>()
        / n;
    let scale = 1.0 / (var.sqrt() + 1e-8);
    for a in &mut b.advantages {
        *a = ((f64::from(*a) - mean) * scale) as f32;
    }
    b
}

/// Gradients over the frames `idx` of the clipped surrogate plus the entropy
/// bonus (actor), and of −½(V − target)² (critic), both to be ascended.
fn chunk_gradient(
    actor: &Mlp,
    critic: &Mlp,
    b: &Batch,
    idx: &[usize],
    clip: f32,
    beta: f32,
) -> (Vec<f32>, Vec<f32>) {
    let (mut sa, mut sc) = (actor.scratch(), critic.scratch());
    let mut ga = vec![0.0f32; actor.params().len()];
    let mut gc = vec![0.0f32; critic.params().len()];
    for &k in idx {
        let x = &b.obs[k * b.inputs..(k + 1) * b.inputs];
        let logits = actor.forward(x, &mut sa);
        let d = frame_logit_gradient(
            logits[1] - logits[0],
            b.flaps[k],
            b.p_taken[k],
            b.advantages[k],
            clip,
            beta,
        );
        actor.backward(&d, &mut sa, &mut ga);
        let v = critic.forward(x, &mut sc)[0];
        critic.backward(&[b.targets[k] - v], &mut sc, &mut gc);
    }
    (ga, gc)
}

/// ∂/∂(logit₀, logit₁) of min(r·A, clip(r, 1 − ε, 1 + ε)·A) + β·H(π), where
/// r = π(a)/π_old(a) and π(flap) = σ(`z` = logit₁ − logit₀).
///
/// Where the clipped term is the smaller one the objective is flat in r, so
/// only the entropy pulls.
#[inline]
fn frame_logit_gradient(
    z: f32,
    flap: bool,
    p_old: f32,
    adv: f32,
    clip: f32,
    beta: f32,
) -> [f32; 2] {
    let p1 = sigmoid(z);
    let p = [1.0 - p1, p1];
    let taken = usize::from(flap);
    let ratio = p[taken] / p_old;
    let clipped = (adv > 0.0 && ratio > 1.0 + clip) || (adv < 0.0 && ratio < 1.0 - clip);
    let g_ratio = if clipped { 0.0 } else { adv * ratio };
    let entropy: f32 = -p.iter().map(|&q| q * q.max(1e-12).ln()).sum::<f32>();
    let mut d = [0.0f32; 2];
    for (j, dj) in d.iter_mut().enumerate() {
        let onehot = if j == taken { 1.0 } else { 0.0 };
        // ∂r/∂zⱼ = r (1[j = a] − pⱼ);  ∂H/∂zⱼ = −pⱼ (log pⱼ + H).
        *dj = g_ratio * (onehot - p[j]) - beta * p[j] * (p[j].max(1e-12).ln() + entropy);
    }
    d
}

impl Learner for PpoLearner {
    fn step(&mut self) -> (f64, f64, u64, u64) {
        let segments = self.play();
        let s = &self.settings;
        let batch = flatten(
            &segments,
            self.actor.inputs(),
            s.gamma as f32,
            s.lambda as f32,
        );
        self.learn(&batch);
        let finished: Vec<u64> = segments
            .iter()
            .flat_map(|s| s.finished.iter().copied())
            .collect();
        let (mean, best) = pipes_summary(&finished, &self.games);
        (mean, best, batch.flaps.len() as u64, self.settings.max_cap)
    }

    fn policy(&self) -> Mlp {
        self.actor.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Naive GAE: Σₗ (γλ)ˡ δₜ₊ₗ summed to the end of the frame's own episode.
    fn naive_advantages(seg: &Segment, gamma: f32, lambda: f32) -> Vec<f32> {
        let n = seg.rewards.len();
        let value_after = |t: usize| match seg.ends[t] {
            End::Continue if t + 1 < n => seg.values[t + 1],
            End::Continue => seg.last_value,
            End::Crash => 0.0,
            End::Cut(v) => v,
        };
        (0..n)
            .map(|t| {
                let mut sum = 0.0f64;
                let mut w = 1.0f64;
                for u in t..n {
                    let delta = seg.rewards[u] + gamma * value_after(u) - seg.values[u];
                    sum += w * f64::from(delta);
                    if seg.ends[u] != End::Continue {
                        break;
                    }
                    w *= f64::from(gamma * lambda);
                }
                sum as f32
            })
            .collect()
    }

    fn arb_segment() -> impl Strategy<Value = Segment> {
        prop::collection::vec((-5.0f32..5.0, -3.0f32..3.0, 0u8..10, -3.0f32..3.0), 1..40)
            .prop_flat_map(|frames| {
                (Just(frames), -3.0f32..3.0).prop_map(|(frames, last)| {
                    let mut seg = Segment {
                        last_value: last,
                        ..Segment::default()
                    };
                    for (r, v, e, cut) in frames {
                        seg.rewards.push(r);
                        seg.values.push(v);
                        seg.ends.push(match e {
                            0 => End::Crash,
                            1 => End::Cut(cut),
                            _ => End::Continue,
                        });
                    }
                    seg
                })
            })
    }

    proptest! {
        #[test]
        fn gae_matches_the_naive_sum(seg in arb_segment(), gamma in 0.0f32..1.0, lambda in 0.0f32..1.0) {
            let (adv, targets) = advantages(&seg, gamma, lambda);
            let naive = naive_advantages(&seg, gamma, lambda);
            for t in 0..adv.len() {
                prop_assert!((adv[t] - naive[t]).abs() < 1e-3 * (1.0 + naive[t].abs()), "t {t}: {} vs {}", adv[t], naive[t]);
                prop_assert!((targets[t] - adv[t] - seg.values[t]).abs() < 1e-5);
            }
        }

        /// The logit gradient against central differences of the objective
        /// computed directly from z, away from the clip boundaries.
        #[test]
        fn logit_gradient_matches_finite_differences(
            z0 in -4.0f32..4.0, z in -4.0f32..4.0, flap: bool, adv in -2.0f32..2.0, beta in 0.0f32..0.5,
        ) {
            let clip = 0.2f32;
            let p_old = if flap { sigmoid(z0) } else { 1.0 - sigmoid(z0) };
            let objective = |z: f64| -> f64 {
                let p1 = 1.0 / (1.0 + (-z).exp());
                let p = if flap { p1 } else { 1.0 - p1 };
                let r = p / f64::from(p_old);
                let (lo, hi) = (1.0 - f64::from(clip), 1.0 + f64::from(clip));
                let a = f64::from(adv);
                let h = -(p1 * p1.ln() + (1.0 - p1) * (1.0 - p1).ln());
                (r * a).min(r.clamp(lo, hi) * a) + f64::from(beta) * h
            };
            let ratio = f64::from(if flap { sigmoid(z) } else { 1.0 - sigmoid(z) } / p_old);
            prop_assume!((ratio - 0.8).abs() > 1e-2 && (ratio - 1.2).abs() > 1e-2);
            let d = frame_logit_gradient(z, flap, p_old, adv, clip, beta);
            let h = 1e-4;
            let numeric = (objective(f64::from(z) + h) - objective(f64::from(z) - h)) / (2.0 * h);
            // z = logit₁ − logit₀: the two logit derivatives are equal and opposite.
            prop_assert!((d[0] + d[1]).abs() < 1e-4);
            prop_assert!((f64::from(d[1]) - numeric).abs() < 2e-3 * (1.0 + numeric.abs()), "{} vs {numeric}", d[1]);
        }
    }

    #[test]
    fn clipped_frames_only_feel_the_entropy() {
        // The action became much likelier than before and the advantage is
        // positive: past the clip, no push from the surrogate.
        let d = frame_logit_gradient(3.0, true, 0.5, 1.0, 0.2, 0.0);
        assert_eq!(d, [0.0, 0.0]);
        let d = frame_logit_gradient(3.0, true, 0.5, -1.0, 0.2, 0.0);
        assert!(d[1] < 0.0);
    }

    #[test]
    fn a_crash_stops_the_advantage_from_flowing_back() {
        let seg = Segment {
            rewards: vec![0.0, -4.5, 0.6],
            values: vec![0.0, 0.0, 0.0],
            ends: vec![End::Continue, End::Crash, End::Continue],
            last_value: 10.0,
            ..Segment::default()
        };
        let (adv, _) = advantages(&seg, 0.9, 1.0);
        assert!((adv[2] - (0.6 + 9.0)).abs() < 1e-5);
        assert!((adv[1] + 4.5).abs() < 1e-5);
        assert!((adv[0] - 0.9 * -4.5).abs() < 1e-5);
    }
}
