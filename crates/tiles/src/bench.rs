//! Benchmarks over many classic levels: how often each player clears them,
//! what the exact solver decides, and what making the levels cost.

use crate::check::replay;
use crate::evolve::{EvolveConfig, evolve};
use crate::exact::{Limits, Verdict, solve};
use crate::generate::{GenerateError, construct};
use crate::greedy::play_greedy;
use crate::layout::Classic;
use crate::level::Level;
use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_core::stats::{Summary, wilson95};
use serde::Serialize;
use std::time::Instant;

/// Where the levels come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// Random deals of the classic layout.
    Random,
    /// [`crate::generate::construct`] at this difficulty.
    Construct { difficulty: f64 },
    /// [`crate::evolve::evolve`], the DE-swap approach.
    Evolve(EvolveConfig),
}

impl Source {
    pub fn name(&self) -> &'static str {
        match self {
            Source::Random => "random",
            Source::Construct { .. } => "construct",
            Source::Evolve(_) => "de-swap",
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    pub shape: Classic,
    pub capacity: usize,
    pub levels: usize,
    pub seed: u64,
    pub source: Source,
    pub greedy: bool,
    /// Run the exact solver with these limits.
    pub exact: Option<Limits>,
}

/// One level's results.
#[derive(Clone, Debug, Serialize)]
pub struct LevelResult {
    pub seed: u64,
    /// Seconds to make the level (0 for random deals).
    pub make_seconds: f64,
    /// Random deals: always; construct: the intended clicks replay to a win;
    /// DE-swap: greedy clears the level found.
    pub made: bool,
    pub greedy_won: Option<bool>,
    pub greedy_share: Option<f64>,
    pub exact: Option<ExactResult>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ExactResult {
    pub verdict: &'static str,
    pub nodes: u64,
    pub seconds: f64,
    /// 1 when solved, else the most tiles taken on a line searched.
    pub share: f64,
    /// For "solved": the independent replay confirms the win.
    pub replay_ok: bool,
}

/// Counts and rates over the levels of one run.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub layers: usize,
    pub types: usize,
    pub groups: usize,
    pub tiles: usize,
    pub capacity: usize,
    pub levels: usize,
    pub seed: u64,
    pub source: &'static str,
    pub difficulty: Option<f64>,
    pub make: MakeSummary,
    pub greedy: Option<GreedySummary>,
    pub exact: Option<ExactSummary>,
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct MakeSummary {
    pub made: usize,
    pub mean_seconds: f64,
    pub max_seconds: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct GreedySummary {
    pub wins: usize,
    pub win_rate: f64,
    pub ci95: [f64; 2],
    pub mean_share: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ExactSummary {
    pub solved: usize,
    pub unsolvable: usize,
    pub unknown: usize,
    /// Share of levels decided (solved or unsolvable).
    pub decided_rate: f64,
    pub mean_share: f64,
    pub mean_seconds: f64,
    pub max_seconds: f64,
    pub mean_nodes: f64,
    /// Solutions the independent replay rejected (always 0 unless a bug).
    pub replay_failures: usize,
}

/// Runs the benchmark, ticking `progress` once per level.
pub fn run(config: &BenchConfig, progress: &Progress) -> Result<BenchReport, GenerateError> {
    config.shape.validate()?;
    let start = Instant::now();
    let results = run_episodes(config.levels, config.seed, progress, |_, seed| {
        one_level(config, seed)
    });
    let results = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(summarise(config, &results, start.elapsed().as_secs_f64()))
}

/// Makes and plays one level.
pub fn one_level(config: &BenchConfig, seed: u64) -> Result<LevelResult, GenerateError> {
    let start = Instant::now();
    let (level, made) = make_level(config, seed)?;
    let make_seconds = match config.source {
        Source::Random => 0.0,
        _ => start.elapsed().as_secs_f64(),
    };
    let n = level.len().max(1) as f64;
    let greedy = config.greedy.then(|| play_greedy(&level));
    let exact = config.exact.map(|limits| {
        let out = solve(&level, &limits);
        let (share, replay_ok) = match &out.verdict {
            Verdict::Solved(clicks) => (1.0, replay(&level, clicks).won()),
            _ => (out.best_taken as f64 / n, true),
        };
        ExactResult {
            verdict: out.verdict.name(),
            nodes: out.nodes,
            seconds: out.seconds,
            share,
            replay_ok,
        }
    });
    Ok(LevelResult {
        seed,
        make_seconds,
        made,
        greedy_won: greedy.as_ref().map(|p| p.won),
        greedy_share: greedy.as_ref().map(|p| p.taken as f64 / n),
        exact,
    })
}

fn make_level(config: &BenchConfig, seed: u64) -> Result<(Level, bool), GenerateError> {
    Ok(match config.source {
        Source::Random => (
            config
                .shape
                .random_level(seed)?
                .with_capacity(config.capacity)
                .map_err(|_| GenerateError::Capacity(config.capacity))?,
            true,
        ),
        Source::Construct { difficulty } => {
            let g = construct(&config.shape, config.capacity, difficulty, seed)?;
            let ok = replay(&g.level, &g.intended).won();
            (g.level, ok)
        }
        Source::Evolve(ev) => {
            let e = evolve(&config.shape, config.capacity, &ev, seed)?;
            (e.level, e.won)
        }
    })
}

fn summarise(config: &BenchConfig, results: &[LevelResult], seconds: f64) -> BenchReport {
    let n = results.len();
    let make: Vec<f64> = results.iter().map(|r| r.make_seconds).collect();
    let make_summary = Summary::of(&make);
    let greedy = config.greedy.then(|| {
        let wins = results
            .iter()
            .filter(|r| r.greedy_won == Some(true))
            .count();
        let shares: Vec<f64> = results.iter().filter_map(|r| r.greedy_share).collect();
        let ci = wilson95(wins as u64, n as u64);
        GreedySummary {
            wins,
            win_rate: wins as f64 / n.max(1) as f64,
            ci95: ci.as_array(),
            mean_share: Summary::of(&shares).mean,
        }
    });
    let exact = config.exact.map(|_| {
        let runs: Vec<&ExactResult> = results.iter().filter_map(|r| r.exact.as_ref()).collect();
        let count = |v: &str| runs.iter().filter(|e| e.verdict == v).count();
        let secs: Vec<f64> = runs.iter().map(|e| e.seconds).collect();
        let (solved, unsolvable) = (count("solved"), count("unsolvable"));
        ExactSummary {
            solved,
            unsolvable,
            unknown: count("unknown"),
            decided_rate: (solved + unsolvable) as f64 / n.max(1) as f64,
            mean_share: Summary::of(&runs.iter().map(|e| e.share).collect::<Vec<_>>()).mean,
            mean_seconds: Summary::of(&secs).mean,
            max_seconds: secs.iter().copied().fold(0.0, f64::max),
            mean_nodes: runs.iter().map(|e| e.nodes as f64).sum::<f64>() / n.max(1) as f64,
            replay_failures: runs.iter().filter(|e| !e.replay_ok).count(),
        }
    });
    BenchReport {
        layers: config.shape.layers,
        types: config.shape.types,
        groups: config.shape.groups,
        tiles: config.shape.tiles(),
        capacity: config.capacity,
        levels: n,
        seed: config.seed,
        source: config.source.name(),
        difficulty: match config.source {
            Source::Construct { difficulty } => Some(difficulty),
            _ => None,
        },
        make: MakeSummary {
            made: results.iter().filter(|r| r.made).count(),
            mean_seconds: make_summary.mean,
            max_seconds: make.iter().copied().fold(0.0, f64::max),
        },
        greedy,
        exact,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::runner::with_threads;

    fn config(source: Source) -> BenchConfig {
        BenchConfig {
            shape: Classic {
                layers: 10,
                types: 6,
                groups: 4,
            },
            capacity: 7,
            levels: 12,
            seed: 5,
            source,
            greedy: true,
            exact: Some(Limits::nodes(200_000)),
        }
    }

    #[test]
    fn counts_add_up_and_threads_do_not_change_results() {
        for source in [
            Source::Random,
            Source::Construct { difficulty: 0.5 },
            Source::Evolve(EvolveConfig {
                generations: 5,
                ..EvolveConfig::default()
            }),
        ] {
            let c = config(source);
            let one = with_threads(Some(1), || run(&c, &Progress::hidden()).unwrap());
            let two = with_threads(Some(2), || run(&c, &Progress::hidden()).unwrap());
            let e = one.exact.as_ref().unwrap();
            assert_eq!(e.solved + e.unsolvable + e.unknown, 12);
            assert_eq!(e.replay_failures, 0);
            let g = one.greedy.as_ref().unwrap();
            assert_eq!(
                (g.wins, e.solved, e.unsolvable),
                {
                    let (g2, e2) = (two.greedy.unwrap(), two.exact.unwrap());
                    (g2.wins, e2.solved, e2.unsolvable)
                },
                "{}",
                source.name()
            );
            assert!(g.wins <= e.solved, "greedy wins are solvable levels");
            if let Source::Construct { .. } = source {
                assert_eq!(one.make.made, 12);
                assert_eq!(e.solved, 12, "constructed levels are solvable");
            }
        }
    }
}
