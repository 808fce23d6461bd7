//! Evaluation: many unseen episodes in parallel, summarised with a 95% interval.

use crate::episode::{Outcome, eval_seed, play};
use crate::file::{self, PolicyFileError};
use crate::mlp::Mlp;
use crate::policy::{Greedy, Heuristic, Oracle};
use crate::viability::Depths;
use arcade_core::progress::Progress;
use arcade_core::rng::derive_seed;
use arcade_core::stats;
use serde::Serialize;
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
    /// `heuristic`, `oracle`, or the path of a policy file.
    pub fn resolve(spec: &str) -> Result<Agent, PolicyFileError> {
        match spec {
            "heuristic" => Ok(Agent::Heuristic),
            "oracle" => Ok(Agent::Oracle),
            _ => file::load(Path::new(spec)).map(Agent::Mlp),
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

/// Summary of an evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct EvalReport {
    pub episodes: usize,
    pub seed: u64,
    /// Pipe cap of every episode.
    pub cap: Option<u64>,
    pub mean_pipes: f64,
    /// 95% interval of the mean (Student t).
    pub ci95: [f64; 2],
    pub median_pipes: f64,
    pub min_pipes: u64,
    pub max_pipes: u64,
    /// Episodes ended by a crash.
    pub crashes: usize,
    /// Episodes stopped by the pipe cap.
    pub capped: usize,
    pub frames: u64,
    pub frames_per_sec: f64,
    pub seconds: f64,
    /// Pipes of every episode, in seed order.
    pub pipes: Vec<u64>,
}

/// Plays `episodes` evaluation episodes (seeds [`eval_seed`]`(seed, i)`,
/// disjoint from every training seed) on the current rayon pool.
pub fn evaluate(
    agent: &Agent,
    episodes: usize,
    seed: u64,
    max_pipes: Option<u64>,
    progress: &Progress,
) -> EvalReport {
    let start = Instant::now();
    // run_episodes derives seed i as derive_seed(master, i); eval_seed sets
    // the evaluation bit on the same value.
    let outcomes: Vec<Outcome> =
        arcade_core::runner::run_episodes(episodes, seed, progress, |i, derived| {
            debug_assert_eq!(derived, derive_seed(seed, i as u64));
            agent.play(eval_seed(seed, i as u64), max_pipes, |_| {})
        });
    summarise(&outcomes, seed, max_pipes, start.elapsed().as_secs_f64())
}

fn summarise(outcomes: &[Outcome], seed: u64, max_pipes: Option<u64>, seconds: f64) -> EvalReport {
    let pipes: Vec<u64> = outcomes.iter().map(|o| o.pipes).collect();
    let xs: Vec<f64> = pipes.iter().map(|&p| p as f64).collect();
    let ci = stats::mean_ci95(&xs);
    let frames = outcomes.iter().map(|o| o.frames).sum();
    EvalReport {
        episodes: outcomes.len(),
        seed,
        cap: max_pipes,
        mean_pipes: stats::mean(&xs),
        ci95: ci.as_array(),
        median_pipes: stats::median(&xs),
        min_pipes: pipes.iter().copied().min().unwrap_or(0),
        max_pipes: pipes.iter().copied().max().unwrap_or(0),
        crashes: outcomes.iter().filter(|o| o.crashed).count(),
        capped: outcomes.iter().filter(|o| !o.crashed).count(),
        frames,
        frames_per_sec: frames as f64 / seconds.max(1e-9),
        seconds,
        pipes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::runner::with_threads;

    #[test]
    fn same_report_whatever_the_threads_and_counts_add_up() {
        let a = with_threads(Some(1), || {
            evaluate(&Agent::Heuristic, 24, 5, Some(200), &Progress::hidden())
        });
        let b = with_threads(Some(3), || {
            evaluate(&Agent::Heuristic, 24, 5, Some(200), &Progress::hidden())
        });
        assert_eq!(a.pipes, b.pipes);
        assert_eq!(a.crashes + a.capped, 24);
        assert_eq!(a.capped, a.pipes.iter().filter(|&&p| p == 200).count());
        assert!(a.ci95[0] <= a.mean_pipes && a.mean_pipes <= a.ci95[1]);
        for (i, &p) in a.pipes.iter().enumerate() {
            let o = Agent::Heuristic.play(eval_seed(5, i as u64), Some(200), |_| {});
            assert_eq!(o.pipes, p);
        }
    }
}
