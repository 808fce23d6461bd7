//! Matches between two AIs: many seeded games in parallel, seats
//! alternating so that each layout is played once with each AI first.

use super::ai::Ai;
use super::rules::{Battle, Rules, Turn};
use crate::frontier::SolveError;
use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_core::stats::wilson95;
use arcade_core::{Rng, derive_seed};
use serde::Serialize;
use std::time::Instant;
use thiserror::Error;

/// How one game ended, by seat (0 moved first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub scores: [usize; 2],
    /// The seat that reached the target; `None` for a draw.
    pub winner: Option<usize>,
    /// Clicks made by both players.
    pub moves: usize,
}

/// Plays one game of `players[0]` (moving first) against `players[1]` on
/// the layout of `seed`; `observe` sees the game after every move.
pub fn play_game(
    rules: Rules,
    players: [Ai; 2],
    seed: u64,
    mut observe: impl FnMut(&Battle, usize, &Turn),
) -> Result<GameResult, SolveError> {
    let mut battle = Battle::new(rules, rules.board(seed));
    // Each seat draws from its own stream, so a player's random choices do
    // not depend on what the other player drew.
    let mut rngs = [
        Rng::new(derive_seed(seed, 1)),
        Rng::new(derive_seed(seed, 2)),
    ];
    let mut moves = 0;
    while !battle.is_over() {
        let seat = battle.to_move();
        let cell = players[seat].choose(battle.view(), &mut rngs[seat])?;
        let turn = battle.play(cell).expect("AIs click hidden cells");
        moves += 1;
        observe(&battle, cell, &turn);
    }
    Ok(GameResult {
        scores: battle.scores(),
        winner: battle.winner(),
        moves,
    })
}

/// What to play.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    pub rules: Rules,
    pub a: Ai,
    pub b: Ai,
    /// Games in all: layout `i / 2`, with `a` first in even games.
    pub games: usize,
    /// Layout `j` is that of seed `derive_seed(seed, j)`.
    pub seed: u64,
}

/// The result, as `arcade mines battle --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub a: String,
    pub b: String,
    pub board: String,
    pub target: usize,
    pub games: usize,
    pub seed: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    pub a_win_rate: f64,
    /// Wilson 95% interval of `a_win_rate`.
    pub ci95: [f64; 2],
    /// Games won by whoever moved first.
    pub first_wins: u64,
    pub mean_mines_a: f64,
    pub mean_mines_b: f64,
    pub mean_moves: f64,
    pub seconds: f64,
    pub games_per_sec: f64,
    pub threads: usize,
}

#[derive(Debug, Error)]
#[error("game {game} (seed {seed}): {error}")]
pub struct MatchError {
    pub game: usize,
    pub seed: u64,
    pub error: SolveError,
}

/// The layout seed and seats of game `i`: `a` is seat 0 in even games.
pub fn game_setup(cfg: &MatchConfig, i: usize) -> (u64, [Ai; 2], bool) {
    let seed = derive_seed(cfg.seed, (i / 2) as u64);
    let a_first = i.is_multiple_of(2);
    let seats = if a_first {
        [cfg.a, cfg.b]
    } else {
        [cfg.b, cfg.a]
    };
    (seed, seats, a_first)
}

/// Plays the match on the current rayon pool.
pub fn run_match(cfg: &MatchConfig, progress: &Progress) -> Result<MatchReport, MatchError> {
    let start = Instant::now();
    let results = run_episodes(cfg.games, cfg.seed, progress, |i, _| {
        let (seed, seats, a_first) = game_setup(cfg, i);
        play_game(cfg.rules, seats, seed, |_, _, _| {})
            .map(|r| (r, a_first))
            .map_err(|error| MatchError {
                game: i,
                seed,
                error,
            })
    });
    let seconds = start.elapsed().as_secs_f64();
    let (mut a_wins, mut b_wins, mut draws, mut first_wins) = (0u64, 0u64, 0u64, 0u64);
    let (mut mines_a, mut mines_b, mut moves) = (0usize, 0usize, 0usize);
    for r in results {
        let (r, a_first) = r?;
        let a_seat = if a_first { 0 } else { 1 };
        mines_a += r.scores[a_seat];
        mines_b += r.scores[1 - a_seat];
        moves += r.moves;
        match r.winner {
            Some(w) if w == a_seat => a_wins += 1,
            Some(_) => b_wins += 1,
            None => draws += 1,
        }
        first_wins += u64::from(r.winner == Some(0));
    }
    let n = cfg.games.max(1) as f64;
    Ok(MatchReport {
        a: cfg.a.name().into(),
        b: cfg.b.name().into(),
        board: format!(
            "{}x{}/{}",
            cfg.rules.level.width, cfg.rules.level.height, cfg.rules.level.mines
        ),
        target: cfg.rules.target,
        games: cfg.games,
        seed: cfg.seed,
        a_wins,
        b_wins,
        draws,
        a_win_rate: a_wins as f64 / n,
        ci95: wilson95(a_wins, cfg.games as u64).as_array(),
        first_wins,
        mean_mines_a: mines_a as f64 / n,
        mean_mines_b: mines_b as f64 / n,
        mean_moves: moves as f64 / n,
        seconds,
        games_per_sec: cfg.games as f64 / seconds,
        threads: rayon::current_num_threads(),
    })
}
