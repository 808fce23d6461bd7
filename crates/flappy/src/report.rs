//! What the `arcade flappy` commands report (and `--json` prints), with the
//! library calls that make each report: one call per command.

use crate::Agent;
use crate::bench::frames_per_second;
use crate::env::Obstacle;
use crate::episode::{Outcome, eval_seed};
use crate::policy::{Greedy, Heuristic, Oracle};
use crate::train::{TrainConfig, TrainSummary};
use crate::viability::{Depths, HEIGHTS, SPEEDS};
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// One watched (or silently played) game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayReport {
    pub policy: String,
    pub seed: u64,
    pub pipes: u64,
    pub frames: u64,
    pub crashed: bool,
    /// `ceiling`, `ground` or `pipe` after a crash.
    #[serde(default)]
    pub crashed_into: Option<Obstacle>,
    pub reward: f64,
    pub seconds: f64,
}

/// Plays evaluation game `seed` (seed [`eval_seed`]`(seed, 0)`) with
/// `agent`, calling `on_frame` after every frame (to draw it).
pub fn play(
    agent: &Agent,
    policy: &str,
    seed: u64,
    max_pipes: Option<u64>,
    on_frame: impl FnMut(&crate::Env),
) -> PlayReport {
    let start = Instant::now();
    let o: Outcome = agent.play(eval_seed(seed, 0), max_pipes, on_frame);
    PlayReport {
        policy: policy.to_string(),
        seed,
        pipes: o.pipes,
        frames: o.frames,
        crashed: o.crashed(),
        crashed_into: o.crashed_into,
        reward: o.reward,
        seconds: start.elapsed().as_secs_f64(),
    }
}

impl fmt::Display for PlayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = match self.crashed_into {
            Some(obstacle) => format!("crashed into {}", obstacle.phrase()),
            None if self.crashed => "crashed".to_string(),
            None => "stopped at the cap".to_string(),
        };
        writeln!(
            f,
            "{}: {} in {}, {end} (reward {})",
            self.policy,
            counted(self.pipes, "pipe"),
            counted(self.frames, "frame"),
            self.reward
        )
    }
}

/// Environment speed with a policy in the loop, on one thread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub policy: String,
    pub frames: u64,
    pub episodes: u64,
    pub seconds: f64,
    pub frames_per_sec: f64,
}

/// Plays at least `frames` frames of `agent` on the calling thread.
pub fn bench(agent: &Agent, policy: &str, frames: u64, seed: u64) -> BenchReport {
    let r = match agent {
        Agent::Heuristic => frames_per_second(&mut Heuristic, frames, seed),
        Agent::Oracle => frames_per_second(&mut Oracle::new(Depths::shared()), frames, seed),
        Agent::Mlp(mlp) => frames_per_second(&mut Greedy::new(mlp), frames, seed),
    };
    BenchReport {
        policy: policy.to_string(),
        frames: r.frames,
        episodes: r.episodes,
        seconds: r.seconds,
        frames_per_sec: r.frames_per_sec,
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} frames ({}) in {:.2} s on one thread: {:.1} M frames/s",
            self.policy,
            self.frames,
            counted(self.episodes, "episode"),
            self.seconds,
            self.frames_per_sec / 1e6
        )
    }
}

/// One wall margin's viability kernel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelRow {
    pub margin: i32,
    /// Fixed-point rounds until nothing changed.
    pub rounds: usize,
    /// The gap top with the smallest kernel, and that kernel's size.
    pub narrowest_gap_top: i32,
    pub narrowest_states: usize,
}

/// The viability kernels for margins 0 up to the first empty one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelReport {
    pub kernels: Vec<KernelRow>,
    /// Largest margin whose kernel is non-empty for every gap.
    pub largest_safe_margin: Option<i32>,
    /// Bird states: heights × speeds.
    pub states: usize,
    pub seconds: f64,
}

/// Computes the kernels up to `max_margin` (0..=[`crate::viability::MAX_MARGIN`]
/// is the documented range; larger ones stop at the first empty kernel anyway).
pub fn kernels(max_margin: u32) -> KernelReport {
    let start = Instant::now();
    let depths = Depths::compute(max_margin.min(i32::MAX as u32) as i32);
    let kernels: Vec<KernelRow> = depths
        .kernels()
        .iter()
        .map(|k| {
            let (gap, states) = k.narrowest();
            KernelRow {
                margin: k.margin(),
                rounds: k.rounds,
                narrowest_gap_top: gap,
                narrowest_states: states,
            }
        })
        .collect();
    let largest_safe_margin = kernels
        .iter()
        .filter(|k| k.narrowest_states > 0)
        .map(|k| k.margin)
        .max();
    KernelReport {
        kernels,
        largest_safe_margin,
        states: HEIGHTS * SPEEDS,
        seconds: start.elapsed().as_secs_f64(),
    }
}

impl fmt::Display for KernelReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "bird states: {HEIGHTS} heights x {SPEEDS} speeds = {}",
            self.states
        )?;
        writeln!(f, "margin  rounds  smallest kernel (gap top)")?;
        for k in &self.kernels {
            writeln!(
                f,
                "{:>6}  {:>6}  {:>7} ({})",
                k.margin, k.rounds, k.narrowest_states, k.narrowest_gap_top
            )?;
        }
        match self.largest_safe_margin {
            Some(m) => writeln!(
                f,
                "perfect play never crashes, even with every wall {m} px closer ({:.1} s)",
                self.seconds
            ),
            None => writeln!(f, "some gap has an empty kernel: a crash can be forced"),
        }
    }
}

/// A finished training run.
#[derive(Clone, Debug, Serialize)]
pub struct TrainReport {
    pub method: crate::train::Method,
    pub seed: u64,
    pub sizes: Vec<usize>,
    /// Where the best policy was written.
    pub out: String,
    pub iterations: usize,
    pub best_validation: f64,
    pub validation_cap: u64,
    pub validation_episodes: usize,
    pub validation_confirm: usize,
    pub solved: bool,
    pub frames: u64,
    pub seconds: f64,
}

impl TrainReport {
    pub fn new(config: &TrainConfig, summary: &TrainSummary, out: &str) -> TrainReport {
        TrainReport {
            method: config.method,
            seed: config.seed,
            sizes: config.sizes.clone(),
            out: out.to_string(),
            iterations: summary.iterations,
            best_validation: summary.best_validation,
            validation_cap: summary.validation_cap,
            validation_episodes: config.validation_episodes,
            validation_confirm: config.validation_confirm,
            solved: summary.solved,
            frames: summary.frames,
            seconds: summary.seconds,
        }
    }
}

impl fmt::Display for TrainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let solved = if self.solved {
            format!(
                " (all of them and {} confirmation episodes reached the cap)",
                self.validation_confirm
            )
        } else {
            String::new()
        };
        writeln!(
            f,
            "{} after {} in {:.0} s ({} frames): best validation mean {:.1} pipes over {} capped at {}{solved}; policy in {}",
            self.method.as_str(),
            counted(self.iterations, "iteration"),
            self.seconds,
            self.frames,
            self.best_validation,
            counted(self.validation_episodes, "episode"),
            self.validation_cap,
            self.out
        )
    }
}

/// The notes a trained policy file carries in its `about` field.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyAbout<'a> {
    pub made_by: &'static str,
    pub config: &'a TrainConfig,
    pub iteration: usize,
    pub validation_mean_pipes: f64,
    pub validation_cap: u64,
    pub seconds: f64,
}

impl crate::train::IterationReport {
    /// The status line of this iteration (`saved`: it was a new best, written out).
    pub fn status_line(&self, saved: bool) -> String {
        let (validation, note) = if saved {
            (self.best_validation, " → saved")
        } else {
            (self.validation, "")
        };
        format!(
            "{:>6} {:>4.0}s  train mean {:>8.1} best {:>8.1} (cap {})  validation {:>8.1} / {}{note}",
            self.iteration,
            self.seconds,
            self.mean_pipes,
            self.best_pipes,
            self.train_cap,
            validation,
            self.validation_cap
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_and_bench_report_what_they_played() {
        let r = play(&Agent::Heuristic, "heuristic", 3, Some(5), |_| {});
        assert!(r.crashed || r.pipes == 5);
        assert!(r.to_string().starts_with("heuristic: "));
        let b = bench(&Agent::Heuristic, "heuristic", 1_000, 1);
        assert_eq!(b.frames, 1_000);
        assert!(b.to_string().contains("1000 frames"));
    }
}
