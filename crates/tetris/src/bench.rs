//! Many seeded games in parallel, streamed into exact statistics.
//!
//! Shardable (a Ray worker, a web job): [`run_range`] plays any range of the
//! games into a [`BenchPartial`] (integer counts and a [`Tally`], never
//! averages); partials of consecutive ranges [`merge`](BenchPartial::merge)
//! exactly, and [`BenchReport::new`] turns the whole into means and
//! intervals. Memory does not grow with the number of games.

use crate::board::Board;
use crate::eval::Weights;
use crate::game::{self, End, GameResult, Limits};
use crate::movegen::MoveMode;
use crate::player::Player;
use crate::rules::Rules;
use crate::source::{PieceSource, Randomizer};
use arcade_core::progress::{Progress, StepCount};
use arcade_core::runner::fold_episodes;
use arcade_core::stats::{Tally, exponential_mean95, show_ci95};
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::time::Instant;

/// What to play.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchConfig {
    pub width: usize,
    pub height: usize,
    pub games: u64,
    /// Game `i` uses pieces seeded by `derive_seed(seed, i)`.
    pub seed: u64,
    pub limits: Limits,
    pub mode: MoveMode,
    pub preview: bool,
    /// The expectation over the next piece from this stack height up
    /// ([`Player::with_expectation`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_from: Option<usize>,
    pub randomizer: Randomizer,
}

/// The games of one range, summarised so that ranges merge exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchPartial {
    /// Lines per game, in game order.
    pub lines: Tally,
    pub pieces: u64,
    /// Games that did not top out: stopped by the limits, or by a stop
    /// request while under way (both censor a game's length alike).
    pub capped_games: u64,
    /// Of `capped_games`, those cut short by a stop request (Ctrl-C).
    #[serde(default)]
    pub stopped_games: u64,
}

impl BenchPartial {
    pub fn new() -> BenchPartial {
        BenchPartial {
            lines: Tally::new(),
            ..BenchPartial::default()
        }
    }

    /// Adds one game (the next in order).
    pub fn push(&mut self, r: &GameResult) {
        self.lines.push(r.lines);
        self.pieces += r.pieces;
        self.capped_games += u64::from(r.end != End::ToppedOut);
        self.stopped_games += u64::from(r.end == End::Stopped);
    }

    /// Appends `later`, the partial of the range right after this one.
    pub fn merge(&mut self, later: &BenchPartial) {
        self.lines.merge(&later.lines);
        self.pieces += later.pieces;
        self.capped_games += later.capped_games;
        self.stopped_games += later.stopped_games;
    }
}

/// The summary `arcade tetris bench` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub ai: String,
    pub board: String,
    pub games: u64,
    pub seed: u64,
    pub mode: MoveMode,
    pub preview: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_from: Option<usize>,
    pub randomizer: Randomizer,
    /// The caps every game stopped at, if any (`--max-pieces`, `--max-lines`).
    #[serde(default)]
    pub limits: Limits,
    pub mean_lines: f64,
    /// 95% interval of the mean (Student t); None for a single game.
    pub ci95: Option<[f64; 2]>,
    /// The median, when the games were few enough to keep every result.
    pub median_lines: Option<f64>,
    pub std_lines: f64,
    pub min_lines: u64,
    pub max_lines: u64,
    /// Games that did not top out: stopped by `limits`, or by a stop
    /// request while under way.
    pub capped_games: u64,
    /// Of `capped_games`, those cut short by a stop request (Ctrl-C): the
    /// report then covers only the games that had started.
    #[serde(default)]
    pub stopped_games: u64,
    /// With capped games the mean above is only a lower bound; this is the
    /// mean under the exponential model of a game's length.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub if_exponential: Option<ExponentialMean>,
    pub pieces: u64,
    pub pieces_per_sec: f64,
    pub seconds: f64,
    pub threads: usize,
    /// Every game's lines, in order, when asked for (and kept).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub lines_per_game: Option<Vec<u64>>,
}

/// Lines per game when games end at a constant rate (a strong player's
/// games are close to exponential), estimated from games that were capped as
/// well as those that ended ([`exponential_mean95`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExponentialMean {
    /// Games that topped out.
    pub ended_games: u64,
    /// Lines of every game, capped ones included.
    pub total_lines: u64,
    /// `total_lines / ended_games`; none when no game ended.
    pub mean_lines: Option<f64>,
    pub ci95_low: f64,
    /// None (unbounded) when no game ended.
    pub ci95_high: Option<f64>,
    /// The cap (in lines; a piece cap counted as the lines its cells fill)
    /// is under [`SHORT_CAP`] of the estimate (or of `ci95_low`): a game
    /// ends less often while its stack builds up than later, so games cut
    /// that short make the estimate run high.
    #[serde(default)]
    pub short_cap: bool,
}

/// A cap under this fraction of the exponential estimate is too short for
/// it: the checks in `docs/results/tetris.md` capped at 0.4–0.7 of the
/// mean (the 10×20 run at a tenth, millions of lines past any build-up).
pub const SHORT_CAP: f64 = 1.0 / 20.0;

impl ExponentialMean {
    fn of(partial: &BenchPartial, cfg: &BenchConfig) -> Option<ExponentialMean> {
        if partial.capped_games == 0 {
            return None;
        }
        let ended = partial.lines.n - partial.capped_games;
        let total = partial.lines.sum as u64;
        let (estimate, ci) = exponential_mean95(total as f64, ended);
        let finite = |x: f64| x.is_finite().then_some(x);
        let mean_lines = finite(estimate);
        Some(ExponentialMean {
            ended_games: ended,
            total_lines: total,
            mean_lines,
            ci95_low: ci.low,
            ci95_high: finite(ci.high),
            short_cap: cap_in_lines(cfg) < SHORT_CAP * mean_lines.unwrap_or(ci.low),
        })
    }
}

/// The games' cap in lines: a piece cap counts as the lines its pieces'
/// cells would fill (4 cells a piece, `width` cells a line).
fn cap_in_lines(cfg: &BenchConfig) -> f64 {
    let by_lines = cfg.limits.max_lines.map_or(f64::INFINITY, |l| l as f64);
    let by_pieces = cfg
        .limits
        .max_pieces
        .map_or(f64::INFINITY, |p| p as f64 * 4.0 / cfg.width as f64);
    by_lines.min(by_pieces)
}

impl BenchReport {
    /// The report of `partial` (all of `cfg`'s games) played by `ai`.
    pub fn new(
        ai: &str,
        cfg: &BenchConfig,
        partial: &BenchPartial,
        seconds: f64,
        threads: usize,
    ) -> BenchReport {
        let lines = &partial.lines;
        BenchReport {
            ai: ai.to_string(),
            board: format!("{}x{}", cfg.width, cfg.height),
            games: lines.n,
            seed: cfg.seed,
            mode: cfg.mode,
            preview: cfg.preview,
            expect_from: cfg.expect_from,
            randomizer: cfg.randomizer,
            limits: cfg.limits,
            mean_lines: lines.mean(),
            ci95: lines.ci95().map(|ci| ci.as_array()),
            median_lines: lines.median(),
            std_lines: lines.std_dev(),
            min_lines: lines.min.unwrap_or(0),
            max_lines: lines.max.unwrap_or(0),
            capped_games: partial.capped_games,
            stopped_games: partial.stopped_games,
            if_exponential: ExponentialMean::of(partial, cfg),
            pieces: partial.pieces,
            pieces_per_sec: partial.pieces as f64 / seconds,
            seconds,
            threads,
            lines_per_game: None,
        }
    }

    /// Adds every game's line count (when the partial kept them).
    pub fn with_games(mut self, partial: &BenchPartial) -> BenchReport {
        self.lines_per_game = partial.lines.values.clone();
        self
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
        let mode = match r.mode {
            MoveMode::Drop => "drop",
            MoveMode::Reach => "reach",
        };
        let preview = match (r.preview, r.expect_from) {
            (true, _) => " + preview".to_string(),
            (false, Some(h)) => format!(" + expectation from height {h}"),
            (false, None) => String::new(),
        };
        writeln!(
            f,
            "{} on {} ({mode}{preview}, {} pieces), {}, seed {}",
            r.ai,
            r.board,
            r.randomizer,
            counted(r.games, "game"),
            r.seed
        )?;
        let median = r.median_lines.map_or("-".into(), |m| format!("{m:.1}"));
        writeln!(
            f,
            "  lines   mean {:.1}  {}  median {median}  sd {:.1}  min {}  max {}",
            r.mean_lines,
            show_ci95(r.ci95, 1),
            r.std_lines,
            r.min_lines,
            r.max_lines
        )?;
        let at_cap = r.capped_games - r.stopped_games;
        if at_cap > 0 {
            writeln!(
                f,
                "  {at_cap} of {} stopped at the cap",
                counted(r.games, "game")
            )?;
        }
        if r.stopped_games > 0 {
            writeln!(
                f,
                "  {} of {} cut short by Ctrl-C (counted as capped where they stopped)",
                r.stopped_games,
                counted(r.games, "game")
            )?;
        }
        if let Some(e) = &r.if_exponential {
            let show = |x: Option<f64>| x.map_or("unbounded".into(), |x| format!("{x:.1}"));
            // With no game ended the data bound the mean from below only.
            let mean = e.mean_lines.map_or("unknown".into(), |x| format!("{x:.1}"));
            writeln!(
                f,
                "  if game lengths are exponential: mean {}  95% CI [{:.1}, {}]  ({} of {} ended; {} in all)",
                mean,
                e.ci95_low,
                show(e.ci95_high),
                e.ended_games,
                counted(r.games, "game"),
                counted(e.total_lines, "line")
            )?;
            if e.short_cap {
                writeln!(
                    f,
                    "  (the cap is under a twentieth of that: games end less often while the stack builds up, so this runs high; raise the cap)"
                )?;
            }
        }
        writeln!(
            f,
            "  speed   {} in {:.2} s: {:.0} pieces/s on {} thread{}",
            counted(r.pieces, "piece"),
            r.seconds,
            r.pieces_per_sec,
            r.threads,
            if r.threads == 1 { "" } else { "s" }
        )
    }
}

/// Plays one game with a fresh player and board.
pub fn play_one(player: &Player, cfg: &BenchConfig, seed: u64) -> GameResult {
    play_counted(
        player,
        cfg,
        seed,
        &StepCount::new(&Progress::hidden(), "piece"),
    )
}

/// As [`play_one`], counting its pieces on `count`'s bar and ending as
/// [`End::Stopped`] when a stop is asked: a 10×20 game lasts hours.
fn play_counted(player: &Player, cfg: &BenchConfig, seed: u64, count: &StepCount) -> GameResult {
    let mut player = player.clone();
    let board = Board::new(cfg.width, cfg.height).expect("board size checked by the caller");
    let mut source = PieceSource::random(cfg.randomizer, seed);
    let result = game::play_while(&mut player, board, &mut source, cfg.limits, |s| {
        count.step(s.pieces)
    });
    count.end(result.pieces);
    result
}

/// Plays games `range` of `cfg` on the current rayon pool, streaming, and
/// counts their pieces on `progress`. After [`Progress::cancel`] the games
/// under way stop where they are and the rest are left out.
pub fn run_range(
    rules: &Rules,
    weights: &Weights,
    cfg: &BenchConfig,
    range: Range<u64>,
    progress: &Progress,
) -> BenchPartial {
    let mut player = Player::new(rules.clone(), weights.clone(), cfg.mode, cfg.preview);
    if let Some(from) = cfg.expect_from {
        player = player.with_expectation(from);
    }
    let mut partial = BenchPartial::new();
    let count = StepCount::new(progress, "piece");
    fold_episodes(
        range,
        cfg.seed,
        progress,
        |_, seed| play_counted(&player, cfg, seed, &count),
        |_, r| partial.push(&r),
    );
    partial
}

/// Plays all of `cfg.games` on the current rayon pool.
pub fn run(
    rules: &Rules,
    weights: &Weights,
    cfg: &BenchConfig,
    progress: &Progress,
) -> BenchReport {
    let start = Instant::now();
    let partial = run_range(rules, weights, cfg, 0..cfg.games, progress);
    let seconds = start.elapsed().as_secs_f64();
    BenchReport::new(
        &weights.name,
        cfg,
        &partial,
        seconds,
        rayon::current_num_threads(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::runner::with_threads;

    fn config(games: u64) -> BenchConfig {
        BenchConfig {
            width: 6,
            height: 8,
            games,
            seed: 3,
            limits: Limits::default(),
            mode: MoveMode::Drop,
            preview: false,
            expect_from: None,
            randomizer: Randomizer::Uniform,
        }
    }

    #[test]
    fn reports_are_reproducible_and_thread_independent() {
        let cfg = config(24);
        let rules = Rules::classic();
        let w = Weights::builtin("dellacherie").unwrap();
        let a = with_threads(Some(1), || run(&rules, &w, &cfg, &Progress::hidden()));
        let b = with_threads(Some(3), || run(&rules, &w, &cfg, &Progress::hidden()));
        let partial = run_range(&rules, &w, &cfg, 0..24, &Progress::hidden());
        let lines = partial.lines.values.clone().unwrap();
        assert_eq!(a.pieces, b.pieces);
        assert_eq!((a.mean_lines, a.ci95), (b.mean_lines, b.ci95));
        let mean = lines.iter().sum::<u64>() as f64 / 24.0;
        assert!((a.mean_lines - mean).abs() < 1e-9);
        let [low, high] = a.ci95.unwrap();
        assert!(low <= a.mean_lines && a.mean_lines <= high);
        assert_eq!(a.capped_games, 0);
        assert_eq!(a.if_exponential, None);
        assert_eq!(a.lines_per_game, None);
        let with = BenchReport::new("x", &cfg, &partial, 1.0, 1).with_games(&partial);
        assert_eq!(with.lines_per_game, Some(lines));
    }

    /// Capped games add the exponential-model estimate, from the games
    /// that ended and the lines of all of them.
    #[test]
    fn capped_games_get_the_exponential_estimate() {
        let mut cfg = config(40);
        cfg.limits.max_lines = Some(20);
        let rules = Rules::classic();
        let w = Weights::builtin("dellacherie").unwrap();
        let partial = run_range(&rules, &w, &cfg, 0..40, &Progress::hidden());
        let r = BenchReport::new("x", &cfg, &partial, 1.0, 1);
        let lines = partial.lines.values.clone().unwrap();
        let ended = lines.iter().filter(|&&l| l < 20).count() as u64;
        assert!(
            ended > 0 && r.capped_games > 0,
            "{ended} ended, {} capped",
            r.capped_games
        );
        let e = r.if_exponential.expect("some games were capped");
        assert_eq!(e.ended_games, ended);
        assert_eq!(e.total_lines, lines.iter().sum::<u64>());
        assert_eq!(e.mean_lines, Some(e.total_lines as f64 / ended as f64));
        assert!(e.ci95_low < e.mean_lines.unwrap() && e.mean_lines < e.ci95_high);
        // The flag: a cap under a twentieth of the estimate, in lines or
        // in pieces (4 cells each over the board's width).
        let mean = e.mean_lines.unwrap();
        assert_eq!(e.short_cap, 20.0 < mean / 20.0, "mean {mean}");
        for (lines, pieces, short) in [
            (Some((mean / 25.0) as u64), None, true),
            (Some((mean / 15.0) as u64), None, false),
            (
                None,
                Some((mean / 25.0 * cfg.width as f64 / 4.0) as u64),
                true,
            ),
            (
                None,
                Some((mean / 15.0 * cfg.width as f64 / 4.0) as u64),
                false,
            ),
        ] {
            cfg.limits = Limits {
                max_lines: lines,
                max_pieces: pieces,
            };
            let e = ExponentialMean::of(&partial, &cfg).unwrap();
            assert_eq!(e.short_cap, short, "{:?}", cfg.limits);
        }
        assert_eq!(r.limits.max_lines, Some(20));
    }

    /// A stop request ends a game under way at its next look (after
    /// `StepCount::EVERY` pieces), counted as capped, and starts no more.
    #[test]
    fn a_stop_ends_the_games_under_way_and_starts_no_more() {
        let cfg = BenchConfig {
            width: 10,
            height: 20,
            ..config(3)
        };
        let rules = Rules::classic();
        let w = Weights::builtin("bcts").unwrap();
        let player = Player::new(rules.clone(), w.clone(), cfg.mode, cfg.preview);
        let progress = Progress::hidden();
        progress.cancel();
        let count = StepCount::new(&progress, "piece");
        let r = play_counted(&player, &cfg, 5, &count);
        assert_eq!((r.end, r.pieces), (End::Stopped, StepCount::EVERY));
        assert_eq!(count.total(), StepCount::EVERY);
        assert_eq!(run_range(&rules, &w, &cfg, 0..3, &progress).lines.n, 0);
        let mut partial = BenchPartial::new();
        partial.push(&r);
        assert_eq!((partial.capped_games, partial.stopped_games), (1, 1));
        let text = BenchReport::new("bcts", &cfg, &partial, 1.0, 1).to_string();
        assert!(text.contains("1 of 1 game cut short by Ctrl-C"), "{text}");
        assert!(!text.contains("at the cap"), "{text}");
    }

    /// Shards merge to exactly the whole run: split inside the first block
    /// of 4,096 games and on its boundary.
    #[test]
    fn merged_ranges_give_exactly_the_whole_report() {
        let n = 4096 + 300;
        let cfg = BenchConfig {
            width: 4,
            height: 4,
            ..config(n)
        };
        let rules = Rules::classic();
        let w = Weights::builtin("dellacherie").unwrap();
        let whole = run_range(&rules, &w, &cfg, 0..n, &Progress::hidden());
        assert!(whole.lines.max > whole.lines.min, "games differ");
        for split in [1000, 4096] {
            let mut merged = run_range(&rules, &w, &cfg, 0..split, &Progress::hidden());
            merged.merge(&run_range(&rules, &w, &cfg, split..n, &Progress::hidden()));
            assert_eq!(merged, whole, "split at {split}");
            assert_eq!(
                BenchReport::new("x", &cfg, &merged, 1.0, 2),
                BenchReport::new("x", &cfg, &whole, 1.0, 2)
            );
        }
    }
}
