//! Training a network policy: neuroevolution with arcade-core's noisy CEM
//! ([`cem`]), policy gradient: PPO with a learned value baseline
//! ([`ppo`], the default) or REINFORCE with a batch baseline ([`reinforce`]),
//! or imitation of the exact viability oracle ([`imitate`]).
//!
//! All methods share the loop around them: a time or iteration budget, and
//! a validation every [`TrainConfig::validation_every`] steps (and after
//! the last of an iteration budget): the current policy plays greedily on fixed
//! validation episodes (training-side seeds of their own, never evaluation
//! seeds) and is reported as [`Event::Improved`] when it beats the best so
//! far, so the caller can checkpoint it. When a policy clears every
//! validation episode up to the validation cap, the cap grows ten-fold (up to
//! [`TrainConfig::validation_max_cap`]); a perfect score at the largest cap
//! (confirmed on [`TrainConfig::validation_confirm`] more episodes) ends
//! training early.

mod adam;
pub mod cem;
mod game;
pub mod imitate;
pub mod ppo;
pub mod reinforce;

use crate::episode::train_seed;
use crate::mlp::Mlp;
use crate::policy::Greedy;
use arcade_core::derive_seed;
use arcade_core::progress::Progress;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::Range;
use std::time::Instant;

/// Training method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Noisy cross-entropy method over the network weights.
    Cem,
    /// Policy gradient: PPO with a learned value baseline and GAE.
    Pg,
    /// REINFORCE with a batch baseline (the simpler policy gradient).
    Reinforce,
    /// DAgger: imitation of the exact viability oracle.
    Imitate,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Cem => "cem",
            Method::Pg => "pg",
            Method::Reinforce => "reinforce",
            Method::Imitate => "imitate",
        }
    }
}

/// Everything a training run depends on.
#[derive(Clone, Debug, Serialize)]
pub struct TrainConfig {
    pub method: Method,
    /// Master seed: initial weights, training episodes, validation episodes.
    pub seed: u64,
    /// Layer sizes, input (5 or 7) first, output (2) last.
    pub sizes: Vec<usize>,
    /// Wall-clock budget in seconds.
    pub seconds: f64,
    /// Stop after this many generations (CEM) or updates (PG) instead of
    /// by the clock, for reproducible runs.
    pub iterations: Option<usize>,
    /// Chance that a training episode's gap sits at an end of its range
    /// ([`crate::Env::with_extremes`]): the hardest climbs and drops, rare in
    /// the real game, come up often enough to be learnt. Validation and
    /// evaluation always use the real game.
    pub extreme_gaps: f64,
    /// Validation episodes per check.
    pub validation_episodes: usize,
    /// Iterations between checks: PPO's updates are cheap next to a
    /// validation of a good policy (16 games of up to 1,000 pipes, about
    /// 576,000 frames), so checking each one would spend most of the budget
    /// validating rather than learning.
    pub validation_every: usize,
    /// Starting pipe cap of a validation episode.
    pub validation_cap: u64,
    /// Largest validation cap.
    pub validation_max_cap: u64,
    /// Further episodes a policy must also clear before a perfect score at
    /// the largest cap counts as perfect (0: none). Validation games that
    /// all reach the cap only bound the crash rate by about one over the
    /// pipes played, so a policy meant never to crash is confirmed on more.
    pub validation_confirm: usize,
    pub cem: cem::CemSettings,
    pub ppo: ppo::PpoSettings,
    pub reinforce: reinforce::ReinforceSettings,
    pub imitate: imitate::ImitateSettings,
}

impl TrainConfig {
    /// Default settings for `method`: a 7→16→2 network (the five published
    /// numbers plus the next gap, one hidden layer), which trained faster
    /// than the published 5→16→64→16→2 in our runs; imitation, which aims at
    /// never crashing, uses 7→64→64→2 and validates on 64 games.
    pub fn new(method: Method, seed: u64) -> TrainConfig {
        let imitate = method == Method::Imitate;
        TrainConfig {
            method,
            seed,
            sizes: if imitate {
                vec![7, 64, 64, 2]
            } else {
                vec![7, 16, 2]
            },
            seconds: 300.0,
            iterations: None,
            extreme_gaps: 0.25,
            validation_episodes: if imitate { 64 } else { 16 },
            validation_every: match method {
                Method::Pg => 5,
                Method::Imitate => 100,
                Method::Cem | Method::Reinforce => 1,
            },
            validation_cap: 1_000,
            validation_max_cap: 10_000,
            validation_confirm: if imitate { 192 } else { 0 },
            cem: cem::CemSettings::default(),
            ppo: ppo::PpoSettings::default(),
            reinforce: reinforce::ReinforceSettings::default(),
            imitate: imitate::ImitateSettings::default(),
        }
    }
}

/// One generation or update.
#[derive(Clone, Debug, Serialize)]
pub struct IterationReport {
    /// 1-based generation (CEM) or update (PG) number.
    pub iteration: usize,
    /// Mean pipes of this iteration's training episodes.
    pub mean_pipes: f64,
    /// Best candidate's mean pipes (CEM) or best episode (PG) this iteration.
    pub best_pipes: f64,
    /// Pipe cap of the training episodes.
    pub train_cap: u64,
    /// Mean pipes of the current policy on the validation episodes (at the
    /// last check, if this iteration had none).
    pub validation: f64,
    /// Whether this iteration was validated.
    pub validated: bool,
    /// Cap of those validation episodes.
    pub validation_cap: u64,
    /// Best validation score so far (at the current cap).
    pub best_validation: f64,
    /// Frames played so far, training and validation.
    pub frames: u64,
    pub seconds: f64,
}

/// What the caller hears about during training.
pub enum Event<'a> {
    Iteration(&'a IterationReport),
    /// A new best policy (by validation score).
    Improved {
        mlp: &'a Mlp,
        report: &'a IterationReport,
    },
}

/// How a run ended.
#[derive(Clone, Debug, Serialize)]
pub struct TrainSummary {
    pub iterations: usize,
    pub best_validation: f64,
    pub validation_cap: u64,
    /// Every validation episode reached the largest cap.
    pub solved: bool,
    pub frames: u64,
    pub seconds: f64,
}

/// The best policy found and how the run went.
pub struct Trained {
    pub best: Mlp,
    pub summary: TrainSummary,
}

/// Errors in the settings (reported as bad input).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// Most games a gradient method plays side by side (or episodes in a batch).
pub const MAX_GAMES: usize = 1 << 16;

/// Most frames one update holds (games × steps): with [`MAX_GAMES`], a bound
/// on memory, so that a mistyped count is an error, not a failed allocation.
pub const MAX_FRAMES: usize = 1 << 24;

/// Most weights a policy network may have (the shipped ones have under
/// 5,000), so that a mistyped layer size is an error, not a failed allocation.
pub const MAX_PARAMS: usize = 1 << 20;

/// Checks that the network of `sizes` has at most [`MAX_PARAMS`] weights.
fn check_params(sizes: &[usize]) -> Result<(), ConfigError> {
    // Saturating: layer sizes come from the user and may be huge.
    let params = sizes.windows(2).fold(0usize, |n, w| {
        n.saturating_add(w[0].saturating_add(1).saturating_mul(w[1]))
    });
    if params > MAX_PARAMS {
        let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
        return Err(ConfigError(format!(
            "a network of sizes {} has {params} weights; at most {MAX_PARAMS} are allowed \
             (use smaller hidden layers)",
            sizes.join(",")
        )));
    }
    Ok(())
}

/// Checks a method's games and the frames of one update against
/// [`MAX_GAMES`] and [`MAX_FRAMES`].
pub(crate) fn check_rollout(method: &str, games: usize, steps: usize) -> Result<(), ConfigError> {
    if games > MAX_GAMES {
        return Err(ConfigError(format!(
            "{method} plays at most {MAX_GAMES} games at once, got {games}"
        )));
    }
    let frames = games.saturating_mul(steps);
    if frames > MAX_FRAMES {
        return Err(ConfigError(format!(
            "{method} holds at most {MAX_FRAMES} frames an update (games x steps), got {games} x {steps}"
        )));
    }
    Ok(())
}

/// A method's state between iterations.
trait Learner: Send {
    /// Runs one generation or update on the current rayon pool; returns
    /// (mean pipes, best pipes, frames played, training cap).
    fn step(&mut self) -> (f64, f64, u64, u64);
    /// The policy to validate and keep.
    fn policy(&self) -> Mlp;
}

/// Trains a policy with `config`, calling `on_event` after every iteration.
pub fn train(
    config: &TrainConfig,
    progress: &Progress,
    on_event: impl FnMut(Event),
) -> Result<Trained, ConfigError> {
    Ok(Training::new(config)?.run(progress, on_event))
}

/// A training run whose settings were checked and whose method is set up,
/// so that a caller can report bad settings before it announces the run.
pub struct Training<'a> {
    config: &'a TrainConfig,
    learner: Box<dyn Learner>,
}

impl<'a> Training<'a> {
    /// Checks `config` and sets up its method.
    pub fn new(config: &'a TrainConfig) -> Result<Training<'a>, ConfigError> {
        crate::file::check_sizes(&config.sizes).map_err(ConfigError)?;
        check_params(&config.sizes)?;
        if !(0.0..=1.0).contains(&config.extreme_gaps) {
            return Err(ConfigError(format!(
                "the share of extreme gaps must be in [0, 1], got {}",
                config.extreme_gaps
            )));
        }
        if config.iterations == Some(0) {
            return Err(ConfigError("iterations must be at least 1".into()));
        }
        if config.validation_episodes == 0
            || config.validation_cap == 0
            || config.validation_every == 0
        {
            return Err(ConfigError(
            "validation needs at least one episode, a cap of at least one pipe and an interval of at least one iteration".into(),
        ));
        }
        let learner: Box<dyn Learner> = match config.method {
            Method::Cem => Box::new(cem::CemLearner::new(config)?),
            Method::Pg => Box::new(ppo::PpoLearner::new(config)?),
            Method::Reinforce => Box::new(reinforce::ReinforceLearner::new(config)?),
            Method::Imitate => Box::new(imitate::ImitateLearner::new(config)?),
        };
        Ok(Training { config, learner })
    }

    /// Trains until the budget is spent or the policy is perfect, calling
    /// `on_event` after every iteration.
    pub fn run(self, progress: &Progress, mut on_event: impl FnMut(Event)) -> Trained {
        let Training {
            config,
            mut learner,
        } = self;
        let start = Instant::now();
        let validation_master = derive_seed(config.seed, 0x76_616C_6964);
        let mut cap = config.validation_cap.min(config.validation_max_cap);
        let mut best = learner.policy();
        let mut best_score = f64::NEG_INFINITY;
        let mut frames = 0u64;
        let mut iteration = 0;
        let mut solved = false;
        let mut score = f64::NEG_INFINITY;
        loop {
            let out_of_budget = match config.iterations {
                Some(n) => iteration >= n,
                None => start.elapsed().as_secs_f64() >= config.seconds,
            };
            if out_of_budget || solved {
                break;
            }
            iteration += 1;
            let (mean_pipes, best_pipes, train_frames, train_cap) = learner.step();
            frames += train_frames;
            let validated =
                iteration % config.validation_every == 0 || config.iterations == Some(iteration);
            let mut improved = false;
            if validated {
                let policy = learner.policy();
                let f;
                (score, f) = check(&policy, config, validation_master, cap);
                frames += f;
                // A diverged policy (weights no longer numbers) is never
                // kept: no policy file could hold it.
                improved = score > best_score && policy.params().iter().all(|w| w.is_finite());
                if improved {
                    best = policy;
                    best_score = score;
                    // Perfect at this cap: look further before calling it the best.
                    while best_score >= cap as f64 && cap < config.validation_max_cap {
                        cap = (cap * 10).min(config.validation_max_cap);
                        let (s, f) = check(&best, config, validation_master, cap);
                        frames += f;
                        best_score = s;
                        score = s;
                    }
                    solved = best_score >= config.validation_max_cap as f64;
                }
            }
            let report = IterationReport {
                iteration,
                mean_pipes,
                best_pipes,
                train_cap,
                validation: score,
                validated,
                validation_cap: cap,
                best_validation: best_score,
                frames,
                seconds: start.elapsed().as_secs_f64(),
            };
            progress.set_position(iteration as u64);
            if improved {
                on_event(Event::Improved {
                    mlp: &best,
                    report: &report,
                });
            }
            on_event(Event::Iteration(&report));
        }
        Trained {
            best,
            summary: TrainSummary {
                iterations: iteration,
                best_validation: best_score,
                validation_cap: cap,
                solved,
                frames,
                seconds: start.elapsed().as_secs_f64(),
            },
        }
    }
}

/// The sum of per-chunk gradients, added in order (so the result does not
/// depend on how many threads computed the chunks), divided by `samples`.
fn mean_gradient<'a>(parts: impl Iterator<Item = &'a [f32]>, samples: usize) -> Vec<f64> {
    let mut sum: Vec<f64> = Vec::new();
    for part in parts {
        sum.resize(part.len(), 0.0);
        for (s, &x) in sum.iter_mut().zip(part) {
            *s += f64::from(x);
        }
    }
    let inv = 1.0 / samples as f64;
    sum.iter_mut().for_each(|s| *s *= inv);
    sum
}

/// Validation score of `mlp` at `cap`: its mean pipes on the validation
/// episodes, or, when those are all perfect at the largest cap, on them and
/// the confirmation episodes; and the frames played.
fn check(mlp: &Mlp, config: &TrainConfig, master: u64, cap: u64) -> (f64, u64) {
    let base = config.validation_episodes;
    let (pipes, frames) = validate(mlp, master, 0..base, cap);
    let perfect = pipes == base as u64 * cap;
    if !(perfect && cap >= config.validation_max_cap && config.validation_confirm > 0) {
        return (pipes as f64 / base as f64, frames);
    }
    let all = base + config.validation_confirm;
    let (more, more_frames) = validate(mlp, master, base..all, cap);
    ((pipes + more) as f64 / all as f64, frames + more_frames)
}

/// Total pipes of `mlp` (greedy) on the validation episodes numbered
/// `episodes`, capped at `cap`, and the frames played.
fn validate(mlp: &Mlp, master: u64, episodes: Range<usize>, cap: u64) -> (u64, u64) {
    let outcomes: Vec<(u64, u64)> = episodes
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            let o = crate::episode::play(
                &mut Greedy::new(mlp),
                train_seed(master, i as u64),
                Some(cap),
                |_| {},
            );
            (o.pipes, o.frames)
        })
        .collect();
    let pipes = outcomes.iter().map(|o| o.0).sum();
    let frames = outcomes.iter().map(|o| o.1).sum();
    (pipes, frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlp::param_count;

    /// A linear network that flaps like the heuristic: when the bird is
    /// less than 36 px (0.703 normalised units) above the gap's bottom.
    fn heuristic_net() -> Mlp {
        let sizes = [7, 2];
        let mut p = vec![0.0; param_count(&sizes)];
        p[3 * 2 + 1] = 1.0; // bird height → flap
        p[2 * 2 + 1] = -1.0; // gap bottom → no flap
        p[7 * 2 + 1] = 0.703; // flap bias
        Mlp::from_params(&sizes, p)
    }

    /// Sizes that would allocate without bound, or train for no iteration,
    /// are refused before anything is built.
    #[test]
    fn absurd_sizes_are_config_errors() {
        let refused = |config: &TrainConfig| Training::new(config).err().map(|e| e.0);
        let mut config = TrainConfig::new(Method::Imitate, 1);
        config.imitate.buffer = imitate::MAX_BUFFER + 1;
        assert_eq!(
            refused(&config).as_deref(),
            Some("imitation keeps at most 33554432 samples, got a buffer of 33554433")
        );
        config.imitate.buffer = 1000;
        config.imitate.games = MAX_GAMES + 1;
        assert_eq!(
            refused(&config).as_deref(),
            Some("imitation plays at most 65536 games at once, got 65537")
        );
        let mut config = TrainConfig::new(Method::Pg, 1);
        config.ppo.games = MAX_GAMES;
        config.ppo.steps = MAX_FRAMES / MAX_GAMES + 1;
        assert!(
            refused(&config)
                .unwrap()
                .contains("at most 16777216 frames")
        );
        config.ppo.steps = usize::MAX; // games × steps saturates, no overflow
        assert!(
            refused(&config)
                .unwrap()
                .contains("at most 16777216 frames")
        );
        let mut config = TrainConfig::new(Method::Reinforce, 1);
        config.reinforce.batch = MAX_GAMES + 1;
        assert!(refused(&config).unwrap().contains("at most 65536 games"));
        let mut config = TrainConfig::new(Method::Cem, 1);
        config.sizes = vec![7, 4096, 4096, 2];
        assert!(
            refused(&config)
                .unwrap()
                .contains("16822274 weights; at most 1048576")
        );
        config.sizes = vec![7, usize::MAX, usize::MAX, 2]; // no overflow
        assert!(refused(&config).unwrap().contains("at most 1048576"));
        config.sizes = vec![7, 1000, 1000, 2];
        assert_eq!(refused(&config), None, "a million weights pass");
        config.cem.population = MAX_GAMES + 1;
        assert!(
            refused(&config)
                .unwrap()
                .contains("at most 65536 candidates")
        );
        config.cem.population = 100;
        assert!(
            refused(&config)
                .unwrap()
                .contains("at most 67108864 numbers")
        );
        let mut config = TrainConfig::new(Method::Cem, 1);
        config.cem.episodes = MAX_GAMES + 1;
        assert!(refused(&config).unwrap().contains("at most 65536 episodes"));
        let mut config = TrainConfig::new(Method::Cem, 1);
        config.iterations = Some(0);
        assert_eq!(
            refused(&config).as_deref(),
            Some("iterations must be at least 1")
        );
        // The defaults of every method pass.
        for method in [Method::Cem, Method::Pg, Method::Reinforce, Method::Imitate] {
            assert_eq!(refused(&TrainConfig::new(method, 1)), None, "{method:?}");
        }
    }

    /// Confirmation episodes are played only when the validation episodes
    /// are all perfect at the largest cap, and then count in the score.
    #[test]
    fn confirmation_only_after_a_perfect_score_at_the_largest_cap() {
        let mlp = heuristic_net();
        let mut config = TrainConfig::new(Method::Imitate, 1);
        config.validation_episodes = 4;
        config.validation_confirm = 4;
        config.validation_max_cap = 1;
        let master = 77;
        let (base, base_frames) = validate(&mlp, master, 0..4, 1);
        let (all, all_frames) = validate(&mlp, master, 0..8, 1);
        assert_eq!(
            base, 4,
            "the heuristic clears the first pipe of these games"
        );
        assert_eq!(
            check(&mlp, &config, master, 1),
            (all as f64 / 8.0, all_frames)
        );
        config.validation_confirm = 0;
        assert_eq!(check(&mlp, &config, master, 1), (1.0, base_frames));
        // Below the largest cap, no confirmation either.
        config.validation_confirm = 4;
        config.validation_max_cap = 10;
        assert_eq!(check(&mlp, &config, master, 1), (1.0, base_frames));
        // Not perfect: the score is the validation episodes' mean alone.
        let never = Mlp::zeros(&[7, 2]);
        let (p, f) = validate(&never, master, 0..4, 10);
        config.validation_max_cap = 10;
        assert_eq!(check(&never, &config, master, 10), (p as f64 / 4.0, f));
    }
}
