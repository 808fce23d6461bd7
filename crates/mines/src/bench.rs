//! Win-rate benchmark: many seeded games in parallel, Wilson interval.

use crate::board::{Board, BoardError, Level, Rule};
use crate::frontier::SolveError;
use crate::play::{Record, play};
use crate::solver::{Config, Solver};
use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_core::stats::wilson95;
use serde::Serialize;
use std::time::Instant;
use thiserror::Error;

/// What to benchmark.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    pub level: Level,
    pub rule: Rule,
    /// First click `(x, y)`.
    pub first: (usize, usize),
    pub games: usize,
    /// Game `i` plays the layout of seed `derive_seed(seed, i)`.
    pub seed: u64,
    pub solver: Config,
}

/// The result, as `arcade mines bench --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub level: String,
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    pub rule: Rule,
    pub first: [usize; 2],
    pub games: usize,
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
    pub solver: Config,
}

#[derive(Debug, Error)]
pub enum BenchError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("game {game}: {error}")]
    Solve { game: usize, error: SolveError },
}

/// Plays the games on the current rayon pool.
pub fn run(cfg: &BenchConfig, progress: &Progress) -> Result<BenchReport, BenchError> {
    // Fail early on an impossible setting rather than in every game.
    Board::generate(cfg.level, cfg.rule, cfg.first, 0)?;
    let solver = Solver::new(cfg.solver.clone());
    let grid = cfg.level.grid();
    let first = grid.index(cfg.first.0, cfg.first.1);
    let start = Instant::now();
    let records: Vec<Result<Record, SolveError>> =
        run_episodes(cfg.games, cfg.seed, progress, |_, seed| {
            let board =
                Board::generate(cfg.level, cfg.rule, cfg.first, seed).expect("checked above");
            play(board, first, &solver, |_| {})
        });
    let seconds = start.elapsed().as_secs_f64();
    let mut wins = 0u64;
    let (mut guesses, mut win_guesses) = (0u64, 0u64);
    for (game, r) in records.into_iter().enumerate() {
        let r = r.map_err(|error| BenchError::Solve { game, error })?;
        guesses += u64::from(r.guesses);
        if r.won {
            wins += 1;
            win_guesses += u64::from(r.guesses);
        }
    }
    let n = cfg.games as u64;
    Ok(BenchReport {
        level: cfg.level.name(),
        width: cfg.level.width,
        height: cfg.level.height,
        mines: cfg.level.mines,
        rule: cfg.rule,
        first: [cfg.first.0, cfg.first.1],
        games: cfg.games,
        wins,
        win_rate: wins as f64 / n.max(1) as f64,
        ci95: wilson95(wins, n).as_array(),
        seed: cfg.seed,
        games_per_sec: cfg.games as f64 / seconds,
        seconds,
        threads: rayon::current_num_threads(),
        guesses_per_game: guesses as f64 / n.max(1) as f64,
        guesses_per_win: win_guesses as f64 / wins.max(1) as f64,
        solver: cfg.solver.clone(),
    })
}
