//! Evaluation: many unseen episodes in parallel, streamed into exact
//! mergeable sums ([`EvalPartial`], one per shard) and summarised with a 95%
//! interval ([`EvalReport`]).

use crate::episode::{Outcome, eval_seed, play};
use crate::file::{self, PolicyFileError};
use crate::mlp::Mlp;
use crate::policy::{Greedy, Heuristic, Oracle};
use crate::viability::Depths;
use arcade_core::progress::{Progress, StepCount};
use arcade_core::runner::fold_episodes;
use arcade_core::stats::{Tally, show_ci95};
use arcade_core::text::{counted, did_you_mean};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;

/// A policy that can be evaluated or watched.
#[derive(Clone, Debug)]
pub enum Agent {
    Heuristic,
    /// Perfect play from the viability kernels.
    Oracle,
    Mlp(Mlp),
}

impl Agent {
    /// `heuristic`, `oracle`, or the path of a policy file; a name that is
    /// no file is a built-in's in other letter case, or a typo of one.
    pub fn resolve(spec: &str) -> Result<Agent, PolicyFileError> {
        let builtin = |name: &str| match name {
            "heuristic" => Some(Agent::Heuristic),
            "oracle" => Some(Agent::Oracle),
            _ => None,
        };
        if let Some(agent) = builtin(spec) {
            return Ok(agent);
        }
        let path = Path::new(spec);
        let path_like = spec.ends_with(".json") || path.components().count() > 1;
        if !path.exists() && !path_like {
            let lower = spec.to_lowercase();
            if let Some(agent) = builtin(&lower) {
                return Ok(agent);
            }
            let hint = did_you_mean(&lower, ["heuristic", "oracle"]);
            return Err(PolicyFileError::Read {
                message: format!("no policy file {spec:?}{hint}"),
            });
        }
        file::load(path).map(Agent::Mlp)
    }

    /// The name `spec` resolved to: a built-in's as it is spelt (`Oracle`
    /// is `oracle`), else `spec`, a file's path.
    pub fn name(&self, spec: &str) -> String {
        match self {
            Agent::Heuristic => "heuristic".into(),
            Agent::Oracle => "oracle".into(),
            Agent::Mlp(_) => spec.into(),
        }
    }

    /// Plays one episode (greedy actions for a network).
    pub fn play(
        &self,
        seed: u64,
        max_pipes: Option<u64>,
        on_frame: impl FnMut(&crate::Env),
    ) -> Outcome {
        match self {
            Agent::Heuristic => play(&mut Heuristic, seed, max_pipes, on_frame),
            Agent::Oracle => play(
                &mut Oracle::new(Depths::shared()),
                seed,
                max_pipes,
                on_frame,
            ),
            Agent::Mlp(mlp) => play(&mut Greedy::new(mlp), seed, max_pipes, on_frame),
        }
    }
}

/// What to evaluate: a policy (`heuristic`, `oracle` or a policy file) on
/// `episodes` evaluation episodes of master seed `seed`, each capped at
/// `max_pipes` pipes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalConfig {
    pub policy: String,
    pub episodes: u64,
    pub seed: u64,
    pub max_pipes: u64,
    /// Report every episode's pipes (when there are at most `arcade_core::stats::TALLY_KEEP`).
    #[serde(default)]
    pub per_episode: bool,
}

/// Why an evaluation cannot start.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("policy: {0}")]
    Policy(#[from] PolicyFileError),
    #[error("{field} must be at least 1")]
    Zero { field: &'static str },
}

impl EvalConfig {
    pub fn check(&self) -> Result<(), EvalError> {
        if self.episodes == 0 {
            return Err(EvalError::Zero { field: "episodes" });
        }
        if self.max_pipes == 0 {
            return Err(EvalError::Zero { field: "max_pipes" });
        }
        Ok(())
    }
}

/// The exactly mergeable results of a range of evaluation episodes (a shard).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalPartial {
    pub pipes: Tally,
    pub crashes: u64,
    pub capped: u64,
    pub frames: u64,
}

impl EvalPartial {
    pub fn new() -> EvalPartial {
        EvalPartial {
            pipes: Tally::new(),
            ..EvalPartial::default()
        }
    }

    fn push(&mut self, o: &Outcome) {
        self.pipes.push(o.pipes);
        self.frames += o.frames;
        if o.crashed() {
            self.crashes += 1;
        } else {
            self.capped += 1;
        }
    }

    /// Appends `other`, the episodes that come after this partial's.
    pub fn merge(&mut self, other: &EvalPartial) {
        self.pipes.merge(&other.pipes);
        self.crashes += other.crashes;
        self.capped += other.capped;
        self.frames += other.frames;
    }
}

/// Plays evaluation episodes `range` (seeds [`eval_seed`]`(seed, i)`,
/// disjoint from every training seed) on the current rayon pool, streaming
/// their results: memory does not grow with the range. The pipes passed
/// are counted on `progress` as they come (a million-pipe episode takes
/// minutes).
pub fn run_range(
    agent: &Agent,
    config: &EvalConfig,
    range: Range<u64>,
    progress: &Progress,
) -> EvalPartial {
    let mut partial = EvalPartial::new();
    let count = StepCount::new(progress, "pipe");
    fold_episodes(
        range,
        config.seed,
        progress,
        |i, _| {
            let mut pipes = 0;
            let outcome = agent.play(eval_seed(config.seed, i), Some(config.max_pipes), |env| {
                if env.pipes() != pipes {
                    pipes = env.pipes();
                    // After Ctrl-C an episode under way runs to its end;
                    // `fold_episodes` starts no more.
                    let _ = count.step(pipes);
                }
            });
            count.end(outcome.pipes);
            outcome
        },
        |_, outcome| partial.push(&outcome),
    );
    partial
}

/// Summary of an evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    pub policy: String,
    pub episodes: u64,
    pub seed: u64,
    /// Pipe cap of every episode.
    pub cap: u64,
    pub mean_pipes: f64,
    /// 95% interval of the mean (Student t); None for a single episode.
    pub ci95: Option<[f64; 2]>,
    /// Median, when at most `arcade_core::stats::TALLY_KEEP` episodes were played.
    pub median_pipes: Option<f64>,
    pub min_pipes: u64,
    pub max_pipes: u64,
    /// Episodes ended by a crash.
    pub crashes: u64,
    /// Episodes stopped by the pipe cap.
    pub capped: u64,
    pub frames: u64,
    pub frames_per_sec: f64,
    pub seconds: f64,
    pub threads: usize,
    /// Pipes of every episode, in seed order (with `per_episode`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipes: Option<Vec<u64>>,
}

impl EvalReport {
    /// The report of `partial`, the results of all of `config`'s episodes.
    pub fn new(
        config: &EvalConfig,
        partial: EvalPartial,
        seconds: f64,
        threads: usize,
    ) -> EvalReport {
        let t = &partial.pipes;
        EvalReport {
            policy: config.policy.clone(),
            episodes: t.n,
            seed: config.seed,
            cap: config.max_pipes,
            mean_pipes: t.mean(),
            ci95: t.ci95().map(|ci| ci.as_array()),
            median_pipes: t.median(),
            min_pipes: t.min.unwrap_or(0),
            max_pipes: t.max.unwrap_or(0),
            crashes: partial.crashes,
            capped: partial.capped,
            frames: partial.frames,
            frames_per_sec: partial.frames as f64 / seconds.max(1e-9),
            seconds,
            threads,
            pipes: if config.per_episode {
                partial.pipes.values
            } else {
                None
            },
        }
    }
}

/// Evaluates `config.policy` (resolved by the caller into `agent`) on the
/// current rayon pool.
pub fn evaluate(agent: &Agent, config: &EvalConfig, progress: &Progress) -> EvalReport {
    let start = Instant::now();
    let partial = run_range(agent, config, 0..config.episodes, progress);
    let threads = rayon::current_num_threads();
    EvalReport::new(config, partial, start.elapsed().as_secs_f64(), threads)
}

impl fmt::Display for EvalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} (seed {}, cap {})",
            self.policy,
            counted(self.episodes, "episode"),
            self.seed,
            counted(self.cap, "pipe")
        )?;
        let median = self
            .median_pipes
            .map_or("n/a".to_string(), |m| format!("{m:.1}"));
        writeln!(
            f,
            "  pipes   mean {:.1}  {}  median {median}  min {}  max {}",
            self.mean_pipes,
            show_ci95(self.ci95, 1),
            self.min_pipes,
            self.max_pipes
        )?;
        writeln!(
            f,
            "  ends    {} crashed, {} reached the cap",
            self.crashes, self.capped
        )?;
        writeln!(
            f,
            "  speed   {} frames in {:.2} s: {:.0} frames/s on {} thread{}",
            self.frames,
            self.seconds,
            self.frames_per_sec,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::runner::with_threads;

    /// A built-in in other letter case is that built-in, named as it is
    /// spelt; a typo that is no file is answered with the name meant.
    #[test]
    fn policies_resolve_by_name_in_any_case_and_typos_are_named() {
        for (spec, name) in [("Oracle", "oracle"), ("HEURISTIC", "heuristic")] {
            assert_eq!(Agent::resolve(spec).unwrap().name(spec), name);
        }
        let err = Agent::resolve("orcale").unwrap_err().to_string();
        assert!(err.contains("did you mean \"oracle\""), "{err}");
        let err = Agent::resolve("no/such/policy.json")
            .unwrap_err()
            .to_string();
        assert!(!err.contains("did you mean"), "{err}");
        // A bare name far from any built-in is no file: said so plainly.
        let err = Agent::resolve("foo").unwrap_err().to_string();
        assert_eq!(err, "no policy file \"foo\"");
    }

    fn config(episodes: u64) -> EvalConfig {
        EvalConfig {
            policy: "heuristic".into(),
            episodes,
            seed: 5,
            max_pipes: 200,
            per_episode: true,
        }
    }

    #[test]
    fn same_report_whatever_the_threads_and_counts_add_up() {
        let c = config(24);
        let a = with_threads(Some(1), || {
            evaluate(&Agent::Heuristic, &c, &Progress::hidden())
        });
        let b = with_threads(Some(3), || {
            evaluate(&Agent::Heuristic, &c, &Progress::hidden())
        });
        assert_eq!(a.pipes, b.pipes);
        assert_eq!(a.crashes + a.capped, 24);
        let pipes = a.pipes.clone().unwrap();
        assert_eq!(a.capped, pipes.iter().filter(|&&p| p == 200).count() as u64);
        let [low, high] = a.ci95.unwrap();
        assert!(low <= a.mean_pipes && a.mean_pipes <= high);
        for (i, &p) in pipes.iter().enumerate() {
            let o = Agent::Heuristic.play(eval_seed(5, i as u64), Some(200), |_| {});
            assert_eq!(o.pipes, p);
        }
        let mean = pipes.iter().sum::<u64>() as f64 / 24.0;
        assert_eq!(a.mean_pipes, mean);
    }

    /// Shards merged give exactly the report of the whole run, for a split
    /// inside a 4,096-episode block and one on a block boundary.
    #[test]
    fn merged_shards_give_the_whole_report() {
        let c = EvalConfig {
            max_pipes: 3,
            ..config(4_100)
        };
        let hidden = Progress::hidden();
        let whole = run_range(&Agent::Heuristic, &c, 0..c.episodes, &hidden);
        for cut in [1_000, 4_096] {
            let mut first = run_range(&Agent::Heuristic, &c, 0..cut, &hidden);
            first.merge(&run_range(&Agent::Heuristic, &c, cut..c.episodes, &hidden));
            assert_eq!(first, whole, "cut at {cut}");
            assert_eq!(
                EvalReport::new(&c, first, 1.0, 2),
                EvalReport::new(&c, whole.clone(), 1.0, 2)
            );
        }
    }

    #[test]
    fn zero_counts_are_errors() {
        assert!(config(0).check().is_err());
        let c = EvalConfig {
            max_pipes: 0,
            ..config(3)
        };
        assert_eq!(
            c.check().unwrap_err().to_string(),
            "max_pipes must be at least 1"
        );
    }
}
