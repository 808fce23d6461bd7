//! Win-rate benchmark: many seeded games in parallel, Wilson interval.
//!
//! Shardable: [`run_range`] plays any range of game indices into a
//! [`BenchPartial`] (integer counts only), partials of consecutive ranges
//! [`merge`](BenchPartial::merge) exactly, and [`BenchReport::new`] turns the
//! whole into rates. Results stream, so memory does not grow with the games.

use crate::board::{Board, BoardError, Level, Rule, level_label};
use crate::frontier::SolveError;
use crate::play::{Record, play};
use crate::solver::{Config, Solver, Strength};
use arcade_core::progress::Progress;
use arcade_core::runner::fold_episodes;
use arcade_core::stats::wilson95;
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::time::Instant;
use thiserror::Error;

/// What to benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchConfig {
    pub level: Level,
    pub rule: Rule,
    /// First click `(x, y)`.
    pub first: (usize, usize),
    pub games: u64,
    /// Game `i` plays the layout of seed `derive_seed(seed, i)`.
    pub seed: u64,
    pub strength: Strength,
}

/// Counts over a range of games: merge consecutive ranges exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchPartial {
    pub games: u64,
    pub wins: u64,
    /// Guesses after the first click, over all games and over won games.
    pub guesses: u64,
    pub win_guesses: u64,
}

impl BenchPartial {
    fn push(&mut self, r: &Record) {
        self.games += 1;
        self.guesses += u64::from(r.guesses);
        if r.won {
            self.wins += 1;
            self.win_guesses += u64::from(r.guesses);
        }
    }

    /// Appends `other`, the games after this partial's.
    pub fn merge(&mut self, other: &BenchPartial) {
        self.games += other.games;
        self.wins += other.wins;
        self.guesses += other.guesses;
        self.win_guesses += other.win_guesses;
    }
}

/// The result, as `arcade mines bench --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub level: String,
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    pub rule: Rule,
    pub first: [usize; 2],
    pub games: u64,
    pub wins: u64,
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub ci95: [f64; 2],
    pub seed: u64,
    pub games_per_sec: f64,
    pub seconds: f64,
    pub threads: usize,
    /// Mean guesses per game after the first click.
    pub guesses_per_game: f64,
    /// Mean guesses per won game.
    pub guesses_per_win: f64,
    pub strength: Strength,
    pub solver: Config,
}

#[derive(Debug, Error)]
pub enum BenchError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("game {game}: {error}")]
    Solve { game: u64, error: SolveError },
}

/// Plays games `range` on the current rayon pool.
pub fn run_range(
    cfg: &BenchConfig,
    range: Range<u64>,
    progress: &Progress,
) -> Result<BenchPartial, BenchError> {
    // Fail early on an impossible setting rather than in every game.
    Board::generate(cfg.level, cfg.rule, cfg.first, 0)?;
    let solver = Solver::new(cfg.strength.config());
    let first = cfg.level.grid().index(cfg.first.0, cfg.first.1);
    let mut partial = BenchPartial::default();
    let mut failure = None;
    fold_episodes(
        range,
        cfg.seed,
        progress,
        |_, seed| {
            let board =
                Board::generate(cfg.level, cfg.rule, cfg.first, seed).expect("checked above");
            play(board, first, &solver, |_| {})
        },
        |game, r| match r {
            Ok(r) if failure.is_none() => partial.push(&r),
            Ok(_) => {}
            Err(error) => {
                failure.get_or_insert(BenchError::Solve { game, error });
            }
        },
    );
    failure.map_or(Ok(partial), Err)
}

/// Plays every game of `cfg` on the current rayon pool.
pub fn run(cfg: &BenchConfig, progress: &Progress) -> Result<BenchReport, BenchError> {
    let start = Instant::now();
    let partial = run_range(cfg, 0..cfg.games, progress)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(BenchReport::new(
        cfg,
        &partial,
        seconds,
        rayon::current_num_threads(),
    ))
}

impl BenchReport {
    /// Rates and intervals of the games counted in `p`.
    pub fn new(cfg: &BenchConfig, p: &BenchPartial, seconds: f64, threads: usize) -> BenchReport {
        let n = p.games.max(1) as f64;
        BenchReport {
            level: cfg.level.name(),
            width: cfg.level.width,
            height: cfg.level.height,
            mines: cfg.level.mines,
            rule: cfg.rule,
            first: [cfg.first.0, cfg.first.1],
            games: p.games,
            wins: p.wins,
            win_rate: p.wins as f64 / n,
            ci95: wilson95(p.wins, p.games).as_array(),
            seed: cfg.seed,
            games_per_sec: p.games as f64 / seconds,
            seconds,
            threads,
            guesses_per_game: p.guesses as f64 / n,
            guesses_per_win: p.win_guesses as f64 / p.wins.max(1) as f64,
            strength: cfg.strength,
            solver: cfg.strength.config(),
        }
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
        writeln!(
            f,
            "{}, rule {}, first click ({},{}), solver {}, {}, seed {}",
            level_label(&r.level, r.width, r.height, r.mines),
            r.rule,
            r.first[0],
            r.first[1],
            r.strength.name(),
            counted(r.games, "game"),
            r.seed
        )?;
        writeln!(
            f,
            "  wins    {} / {} = {:.2}%  95% CI [{:.2}%, {:.2}%] (Wilson)",
            r.wins,
            r.games,
            100.0 * r.win_rate,
            100.0 * r.ci95[0],
            100.0 * r.ci95[1]
        )?;
        let per_win = match r.wins {
            0 => "no won game".to_string(),
            _ => format!("{:.2} per won game", r.guesses_per_win),
        };
        writeln!(
            f,
            "  guesses {:.2} per game, {per_win} (after the first click)",
            r.guesses_per_game
        )?;
        // A slow run (big boards) still shows its rate.
        let rate = match r.games_per_sec {
            x if x < 10.0 => format!("{x:.2}"),
            x => format!("{x:.0}"),
        };
        writeln!(
            f,
            "  speed   {} in {:.2} s: {rate} games/s on {} thread{}",
            counted(r.games, "game"),
            r.seconds,
            r.threads,
            if r.threads == 1 { "" } else { "s" }
        )
    }
}
