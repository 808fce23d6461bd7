//! Benchmarks over many classic levels: how often each player clears them,
//! what the exact solver decides, and what making the levels cost.

use crate::check::replay;
use crate::evolve::{EvolveConfig, evolve};
use crate::exact::{Limits, Verdict, solve};
use crate::generate::{GenerateError, construct};
use crate::generated::check_capacity;
use crate::greedy::play_greedy;
use crate::layout::Classic;
use crate::level::Level;
use arcade_core::progress::Progress;
use arcade_core::runner::fold_episodes;
use arcade_core::stats::{Tally, wilson95};
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
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
    /// Levels played.
    pub levels: u64,
    pub seed: u64,
    pub source: Source,
    pub greedy: bool,
    /// Run the exact solver with these limits.
    pub exact: Option<Limits>,
}

impl BenchConfig {
    /// Checks everything a level needs before any is made.
    pub fn validate(&self) -> Result<(), GenerateError> {
        self.shape.validate()?;
        check_capacity(self.capacity)?;
        match self.source {
            Source::Construct { difficulty } if !(0.0..=1.0).contains(&difficulty) => {
                Err(GenerateError::Difficulty(difficulty))
            }
            Source::Evolve(de) => de.validate(),
            _ => Ok(()),
        }
    }
}

/// One level's results.
#[derive(Clone, Debug, Serialize)]
pub struct LevelResult {
    pub seed: u64,
    /// Microseconds to make the level (0 for random deals).
    pub make_micros: u64,
    /// Random deals: always; construct: the intended clicks replay to a win;
    /// DE-swap: greedy clears the level found.
    pub made: bool,
    pub greedy: Option<Playout>,
    pub exact: Option<ExactResult>,
}

/// What greedy did on one level.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Playout {
    pub won: bool,
    pub taken: usize,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct ExactResult {
    pub verdict: &'static str,
    pub nodes: u64,
    pub micros: u64,
    /// All tiles when solved, else the most taken on a line searched.
    pub taken: usize,
    /// For "solved": the independent replay confirms the win.
    pub replay_ok: bool,
}

/// The exactly mergeable results of a range of levels: counts, integer sums
/// and tallies, never averages, so shards run apart (say, on Ray workers)
/// merge into the report of the whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    pub levels: u64,
    pub made: u64,
    /// Microseconds to make each level.
    pub make_micros: Tally,
    pub greedy_wins: u64,
    /// Tiles greedy took, summed over levels.
    pub greedy_taken: u128,
    pub solved: u64,
    pub unsolvable: u64,
    pub unknown: u64,
    /// Tiles the exact solver took (all when solved), summed over levels.
    pub exact_taken: u128,
    pub exact_micros: Tally,
    pub exact_nodes: u128,
    pub replay_failures: u64,
}

impl Partial {
    fn new() -> Partial {
        Partial {
            make_micros: Tally::new(),
            exact_micros: Tally::new(),
            ..Partial::default()
        }
    }

    fn add(&mut self, r: &LevelResult) {
        self.levels += 1;
        self.made += u64::from(r.made);
        self.make_micros.push(r.make_micros);
        if let Some(g) = r.greedy {
            self.greedy_wins += u64::from(g.won);
            self.greedy_taken += g.taken as u128;
        }
        if let Some(e) = r.exact {
            match e.verdict {
                "solved" => self.solved += 1,
                "unsolvable" => self.unsolvable += 1,
                _ => self.unknown += 1,
            }
            self.exact_taken += e.taken as u128;
            self.exact_micros.push(e.micros);
            self.exact_nodes += u128::from(e.nodes);
            self.replay_failures += u64::from(!e.replay_ok);
        }
    }

    /// Appends `later`, the results of the levels that follow this range.
    pub fn merge(&mut self, later: &Partial) {
        self.levels += later.levels;
        self.made += later.made;
        self.make_micros.merge(&later.make_micros);
        self.greedy_wins += later.greedy_wins;
        self.greedy_taken += later.greedy_taken;
        self.solved += later.solved;
        self.unsolvable += later.unsolvable;
        self.unknown += later.unknown;
        self.exact_taken += later.exact_taken;
        self.exact_micros.merge(&later.exact_micros);
        self.exact_nodes += later.exact_nodes;
        self.replay_failures += later.replay_failures;
    }
}

/// Counts and rates over the levels of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub layers: usize,
    pub types: usize,
    pub groups: usize,
    pub tiles: usize,
    pub capacity: usize,
    pub levels: u64,
    pub seed: u64,
    /// How the levels were made: `random`, `construct` or `de-swap`.
    pub source: String,
    pub difficulty: Option<f64>,
    pub make: MakeSummary,
    pub greedy: Option<GreedySummary>,
    pub exact: Option<ExactSummary>,
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MakeSummary {
    pub made: u64,
    pub mean_seconds: f64,
    pub max_seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GreedySummary {
    pub wins: u64,
    pub win_rate: f64,
    pub ci95: [f64; 2],
    pub mean_share: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExactSummary {
    pub solved: u64,
    pub unsolvable: u64,
    pub unknown: u64,
    /// Share of levels decided (solved or unsolvable).
    pub decided_rate: f64,
    pub mean_share: f64,
    pub mean_seconds: f64,
    pub max_seconds: f64,
    pub mean_nodes: f64,
    /// Solutions the independent replay rejected (always 0 unless a bug).
    pub replay_failures: u64,
}

/// Runs levels `range` of `config`, ticking `progress` once per level; the
/// results stream into a [`Partial`] (memory does not grow with the count).
pub fn run_range(
    config: &BenchConfig,
    range: Range<u64>,
    progress: &Progress,
) -> Result<Partial, GenerateError> {
    config.validate()?;
    let mut partial = Partial::new();
    let mut error = None;
    fold_episodes(
        range,
        config.seed,
        progress,
        |_, seed| one_level(config, seed),
        |_, result| match result {
            Ok(r) => partial.add(&r),
            Err(e) => {
                error.get_or_insert(e);
            }
        },
    );
    match error {
        Some(e) => Err(e),
        None => Ok(partial),
    }
}

/// Runs the whole benchmark: [`run_range`] over every level, then
/// [`BenchReport::new`].
pub fn run(config: &BenchConfig, progress: &Progress) -> Result<BenchReport, GenerateError> {
    let start = Instant::now();
    let partial = run_range(config, 0..config.levels, progress)?;
    Ok(BenchReport::new(
        config,
        &partial,
        start.elapsed().as_secs_f64(),
    ))
}

fn micros(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Makes and plays one level.
pub fn one_level(config: &BenchConfig, seed: u64) -> Result<LevelResult, GenerateError> {
    let start = Instant::now();
    let (level, made) = make_level(config, seed)?;
    let make_micros = match config.source {
        Source::Random => 0,
        _ => micros(start),
    };
    let greedy = config.greedy.then(|| {
        let p = play_greedy(&level);
        Playout {
            won: p.won,
            taken: p.taken,
        }
    });
    let exact = config.exact.map(|limits| {
        let start = Instant::now();
        let out = solve(&level, &limits);
        let (taken, replay_ok) = match &out.verdict {
            Verdict::Solved(clicks) => (level.len(), replay(&level, clicks).won()),
            _ => (out.best_taken, true),
        };
        ExactResult {
            verdict: out.verdict.name(),
            nodes: out.nodes,
            micros: micros(start),
            taken,
            replay_ok,
        }
    });
    Ok(LevelResult {
        seed,
        make_micros,
        made,
        greedy,
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

impl BenchReport {
    /// Means, rates and intervals of `partial`, a run of `config`'s levels
    /// that took `seconds`.
    pub fn new(config: &BenchConfig, p: &Partial, seconds: f64) -> BenchReport {
        let n = p.levels.max(1) as f64;
        let tiles = config.shape.tiles();
        let share = |taken: u128| taken as f64 / (n * tiles.max(1) as f64);
        let secs = |t: &Tally| if t.n == 0 { 0.0 } else { t.mean() / 1e6 };
        let max_secs = |t: &Tally| t.max.unwrap_or(0) as f64 / 1e6;
        let greedy = config.greedy.then(|| GreedySummary {
            wins: p.greedy_wins,
            win_rate: p.greedy_wins as f64 / n,
            ci95: wilson95(p.greedy_wins, p.levels).as_array(),
            mean_share: share(p.greedy_taken),
        });
        let exact = config.exact.map(|_| ExactSummary {
            solved: p.solved,
            unsolvable: p.unsolvable,
            unknown: p.unknown,
            decided_rate: (p.solved + p.unsolvable) as f64 / n,
            mean_share: share(p.exact_taken),
            mean_seconds: secs(&p.exact_micros),
            max_seconds: max_secs(&p.exact_micros),
            mean_nodes: p.exact_nodes as f64 / n,
            replay_failures: p.replay_failures,
        });
        BenchReport {
            layers: config.shape.layers,
            types: config.shape.types,
            groups: config.shape.groups,
            tiles,
            capacity: config.capacity,
            levels: p.levels,
            seed: config.seed,
            source: config.source.name().to_string(),
            difficulty: match config.source {
                Source::Construct { difficulty } => Some(difficulty),
                _ => None,
            },
            make: MakeSummary {
                made: p.made,
                mean_seconds: secs(&p.make_micros),
                max_seconds: max_secs(&p.make_micros),
            },
            greedy,
            exact,
            seconds,
        }
    }

    /// One line per finished row (for progress output).
    pub fn row_line(&self) -> String {
        let mut s = format!("{} layers:", self.layers);
        if let Some(g) = &self.greedy {
            s += &format!(" greedy {}/{}", g.wins, self.levels);
        }
        if let Some(e) = &self.exact {
            s += &format!(
                " exact {} solved, {} unsolvable, {} unknown",
                e.solved, e.unsolvable, e.unknown
            );
        }
        s
    }
}

/// A benchmark over several layer counts (one [`BenchReport`] row each),
/// as `arcade tiles bench` reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchTable {
    pub rows: Vec<BenchReport>,
    /// Levels per row.
    pub games: u64,
    pub seed: u64,
    /// Where the levels come from: `random`, `construct` or `de-swap`.
    pub method: String,
    /// The exact solver's time limit per level, when it ran.
    pub seconds_limit: Option<f64>,
    pub threads: usize,
}

impl BenchTable {
    /// Solutions the independent replay rejected, over all rows.
    pub fn replay_failures(&self) -> u64 {
        self.rows
            .iter()
            .filter_map(|r| r.exact.as_ref())
            .map(|e| e.replay_failures)
            .sum()
    }
}

/// Runs one row per config, in order (`on_row` sees each as it finishes).
pub fn run_table(
    configs: &[BenchConfig],
    progress: &Progress,
    mut on_row: impl FnMut(&BenchReport),
) -> Result<BenchTable, GenerateError> {
    for c in configs {
        c.validate()?;
    }
    let mut rows = Vec::new();
    for c in configs {
        // Stopped (Ctrl-C): the rows so far, the last one as far as it got.
        if progress.is_cancelled() {
            break;
        }
        let row = run(c, progress)?;
        on_row(&row);
        rows.push(row);
    }
    let first = configs.first();
    Ok(BenchTable {
        rows,
        games: first.map_or(0, |c| c.levels),
        seed: first.map_or(0, |c| c.seed),
        method: first.map_or("random", |c| c.source.name()).to_string(),
        seconds_limit: first
            .and_then(|c| c.exact)
            .and_then(|l| l.time)
            .map(|t| t.as_secs_f64()),
        threads: arcade_core::runner::effective_threads(None),
    })
}

fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

impl fmt::Display for BenchTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = self.rows.first() else {
            return Ok(());
        };
        writeln!(
            f,
            "{} per row, {} types × {} groups = {} tiles, tray {}, levels: {}{}, seed {}",
            counted(first.levels, "level"),
            first.types,
            first.groups,
            first.tiles,
            first.capacity,
            first.source,
            first
                .difficulty
                .map_or(String::new(), |d| format!(" (difficulty {d})")),
            first.seed
        )?;
        writeln!(
            f,
            "layers | greedy wins [95% CI]   cleared | exact solved/unsolvable/unknown  cleared  s/level (max) | make s/level"
        )?;
        for r in &self.rows {
            let greedy = r.greedy.as_ref().map_or("-".to_string(), |g| {
                format!(
                    "{:>3} {:>4} [{}, {}]  {:>4}",
                    g.wins,
                    pct(g.win_rate),
                    pct(g.ci95[0]),
                    pct(g.ci95[1]),
                    pct(g.mean_share)
                )
            });
            let exact = r.exact.as_ref().map_or("-".to_string(), |e| {
                format!(
                    "{:>3}/{}/{}  {:>4}  {:.3} ({:.2})",
                    e.solved,
                    e.unsolvable,
                    e.unknown,
                    pct(e.mean_share),
                    e.mean_seconds,
                    e.max_seconds
                )
            });
            let make = if r.source == "random" {
                "-".to_string()
            } else {
                format!(
                    "{:.4} ({}/{} made)",
                    r.make.mean_seconds, r.make.made, r.levels
                )
            };
            writeln!(f, "{:>6} | {greedy:<30} | {exact:<40} | {make}", r.layers)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::EvolveConfig;
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

    /// A partial without its timings, which differ from run to run.
    fn untimed(mut p: Partial) -> Partial {
        for t in [&mut p.make_micros, &mut p.exact_micros] {
            *t = Tally {
                n: t.n,
                ..Tally::new()
            };
        }
        p
    }

    /// Shards merged in order give exactly the partial of the whole run,
    /// split inside a 4,096-level block and on its boundary.
    #[test]
    fn merged_shards_give_the_whole_run() {
        let c = BenchConfig {
            shape: Classic {
                layers: 4,
                types: 5,
                groups: 2,
            },
            capacity: 4,
            levels: 4_100,
            exact: Some(Limits::nodes(2_000)),
            ..config(Source::Random)
        };
        let hidden = Progress::hidden();
        let whole = untimed(run_range(&c, 0..4_100, &hidden).unwrap());
        assert_eq!(whole.levels, 4_100);
        assert!(
            whole.greedy_wins > 0 && whole.greedy_wins < 4_100,
            "{whole:?}"
        );
        assert!(whole.solved > 0 && whole.solved + whole.unsolvable + whole.unknown == 4_100);
        for split in [1_000, 4_096] {
            let mut first = run_range(&c, 0..split, &hidden).unwrap();
            first.merge(&run_range(&c, split..4_100, &hidden).unwrap());
            assert_eq!(untimed(first.clone()), whole, "split at {split}");
            let back: Partial =
                serde_json::from_str(&serde_json::to_string(&first).unwrap()).unwrap();
            assert_eq!(back, first);
        }
    }

    #[test]
    fn bad_settings_are_refused_before_any_level() {
        let mut c = config(Source::Construct { difficulty: 1.5 });
        assert_eq!(c.validate(), Err(GenerateError::Difficulty(1.5)));
        c.source = Source::Random;
        c.capacity = 100;
        assert_eq!(c.validate(), Err(GenerateError::Capacity(100)));
    }
}
