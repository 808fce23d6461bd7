//! Matches between two AIs: many seeded games in parallel, seats
//! alternating so that each layout is played once with each AI first.

use super::ai::Ai;
use super::rules::{Battle, Rules, Turn};
use crate::frontier::SolveError;
use arcade_core::progress::Progress;
use arcade_core::runner::fold_episodes;
use arcade_core::stats::wilson95;
use arcade_core::text::counted;
use arcade_core::{Rng, derive_seed};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
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

/// The layout seed of game `game` of a match with master seed `master`: both
/// seatings of a layout (games `2j` and `2j + 1`) share layout `j`. A human
/// game, a web game and the arena all start from here, so they agree.
pub fn layout_seed(master: u64, game: u64) -> u64 {
    derive_seed(master, game / 2)
}

/// The random streams of the two seats on the layout of `seed`. Each seat
/// draws from its own stream, so a player's random choices do not depend on
/// what the other player drew.
pub fn seat_rngs(seed: u64) -> [Rng; 2] {
    [
        Rng::new(derive_seed(seed, 1)),
        Rng::new(derive_seed(seed, 2)),
    ]
}

/// Plays one game of `players[0]` (moving first) against `players[1]` on
/// the layout of `seed`; `observe` sees the game after every move.
pub fn play_game(
    rules: Rules,
    players: [Ai; 2],
    seed: u64,
    observe: impl FnMut(&Battle, usize, &Turn),
) -> Result<GameResult, SolveError> {
    let played = play_game_until(rules, players, seed, observe, || false)?;
    Ok(played.expect("a game nothing stops is played to its end"))
}

/// [`play_game`], abandoned (`None`) when `stopped` says so before a move:
/// a game on a huge board takes minutes, and Ctrl-C should not wait for it.
pub fn play_game_until(
    rules: Rules,
    players: [Ai; 2],
    seed: u64,
    mut observe: impl FnMut(&Battle, usize, &Turn),
    stopped: impl Fn() -> bool,
) -> Result<Option<GameResult>, SolveError> {
    let mut battle = Battle::new(rules, rules.board(seed));
    let mut rngs = seat_rngs(seed);
    let mut moves = 0;
    while !battle.is_over() {
        if stopped() {
            return Ok(None);
        }
        let seat = battle.to_move();
        let cell = players[seat].choose(battle.view(), &mut rngs[seat])?;
        let turn = battle.play(cell).expect("AIs click hidden cells");
        moves += 1;
        observe(&battle, cell, &turn);
    }
    Ok(Some(GameResult {
        scores: battle.scores(),
        winner: battle.winner(),
        moves,
    }))
}

/// What to play.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    pub rules: Rules,
    pub a: Ai,
    pub b: Ai,
    /// Games in all: layout `i / 2`, with `a` first in even games.
    pub games: u64,
    /// Layout `j` is that of seed `derive_seed(seed, j)`.
    pub seed: u64,
}

/// Counts over a range of games: merge consecutive ranges exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchPartial {
    pub games: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    pub first_wins: u64,
    pub mines_a: u64,
    pub mines_b: u64,
    pub moves: u64,
}

impl MatchPartial {
    fn push(&mut self, r: &GameResult, a_first: bool) {
        let a_seat = usize::from(!a_first);
        self.games += 1;
        self.mines_a += r.scores[a_seat] as u64;
        self.mines_b += r.scores[1 - a_seat] as u64;
        self.moves += r.moves as u64;
        match r.winner {
            Some(w) if w == a_seat => self.a_wins += 1,
            Some(_) => self.b_wins += 1,
            None => self.draws += 1,
        }
        self.first_wins += u64::from(r.winner == Some(0));
    }

    /// Appends `other`, the games after this partial's.
    pub fn merge(&mut self, o: &MatchPartial) {
        self.games += o.games;
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
        self.draws += o.draws;
        self.first_wins += o.first_wins;
        self.mines_a += o.mines_a;
        self.mines_b += o.mines_b;
        self.moves += o.moves;
    }
}

/// The result, as `arcade mines battle --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    pub a: String,
    pub b: String,
    pub board: String,
    pub target: usize,
    pub games: u64,
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
    pub game: u64,
    pub seed: u64,
    pub error: SolveError,
}

/// The layout seed and seats of game `i`: `a` is seat 0 in even games.
pub fn game_setup(cfg: &MatchConfig, i: u64) -> (u64, [Ai; 2], bool) {
    let seed = layout_seed(cfg.seed, i);
    let a_first = i.is_multiple_of(2);
    let seats = if a_first {
        [cfg.a, cfg.b]
    } else {
        [cfg.b, cfg.a]
    };
    (seed, seats, a_first)
}

/// Counts games by layout pairs (games `2j` and `2j + 1`: one layout, each
/// AI first once). Games stopped by Ctrl-C leave gaps, and a lone half of a
/// pair would tilt the report toward the AI that moved first in it, so a
/// stopped run counts whole pairs only; a range that starts or ends inside a
/// pair (a shard's) keeps its halves, which the next shard completes.
#[derive(Default)]
pub struct PairFold {
    partial: MatchPartial,
    waiting: Option<(u64, GameResult, bool)>,
    halves: Vec<(GameResult, bool)>,
}

impl PairFold {
    /// Game `i`'s result; calls come in increasing `i`, with gaps.
    pub fn push(&mut self, i: u64, r: GameResult, a_first: bool) {
        if let Some((j, g, f)) = self.waiting.take() {
            if j / 2 == i / 2 {
                self.partial.push(&g, f);
                self.partial.push(&r, a_first);
                return;
            }
            self.halves.push((g, f));
        }
        self.waiting = Some((i, r, a_first));
    }

    /// The counts: whole pairs only if the run was `stopped`.
    pub fn finish(mut self, stopped: bool) -> MatchPartial {
        self.halves
            .extend(self.waiting.take().map(|(_, g, f)| (g, f)));
        if !stopped {
            for (g, f) in &self.halves {
                self.partial.push(g, *f);
            }
        }
        self.partial
    }
}

/// Plays games `range` of the match on the current rayon pool, streaming.
/// Ctrl-C abandons the games being played; the report counts the whole
/// layout pairs played ([`PairFold`]).
pub fn run_range(
    cfg: &MatchConfig,
    range: Range<u64>,
    progress: &Progress,
) -> Result<MatchPartial, MatchError> {
    let mut pairs = PairFold::default();
    let mut failure = None;
    fold_episodes(
        range,
        cfg.seed,
        progress,
        |i, _| {
            let (seed, seats, a_first) = game_setup(cfg, i);
            let stopped = || progress.is_cancelled();
            play_game_until(cfg.rules, seats, seed, |_, _, _| {}, stopped)
                .map(|r| (r, a_first))
                .map_err(|error| MatchError {
                    game: i,
                    seed,
                    error,
                })
        },
        |i, r| match r {
            Ok((Some(r), a_first)) if failure.is_none() => pairs.push(i, r, a_first),
            Ok(_) => {}
            Err(e) => {
                failure.get_or_insert(e);
            }
        },
    );
    failure.map_or_else(|| Ok(pairs.finish(progress.is_cancelled())), Err)
}

/// Plays the match on the current rayon pool.
pub fn run_match(cfg: &MatchConfig, progress: &Progress) -> Result<MatchReport, MatchError> {
    let start = Instant::now();
    let partial = run_range(cfg, 0..cfg.games, progress)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(MatchReport::new(
        cfg,
        &partial,
        seconds,
        rayon::current_num_threads(),
    ))
}

impl MatchReport {
    /// Rates and means of the games counted in `p`.
    pub fn new(cfg: &MatchConfig, p: &MatchPartial, seconds: f64, threads: usize) -> MatchReport {
        let n = p.games.max(1) as f64;
        MatchReport {
            a: cfg.a.name().into(),
            b: cfg.b.name().into(),
            board: format!(
                "{}x{}/{}",
                cfg.rules.level.width, cfg.rules.level.height, cfg.rules.level.mines
            ),
            target: cfg.rules.target,
            games: p.games,
            seed: cfg.seed,
            a_wins: p.a_wins,
            b_wins: p.b_wins,
            draws: p.draws,
            a_win_rate: p.a_wins as f64 / n,
            ci95: wilson95(p.a_wins, p.games).as_array(),
            first_wins: p.first_wins,
            mean_mines_a: p.mines_a as f64 / n,
            mean_mines_b: p.mines_b as f64 / n,
            mean_moves: p.moves as f64 / n,
            seconds,
            games_per_sec: p.games as f64 / seconds,
            threads,
        }
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
        // The same AI in both seats is told apart by its seat.
        let (a, b) = match r.a == r.b {
            true => (format!("{} (A)", r.a), format!("{} (B)", r.b)),
            false => (r.a.to_string(), r.b.to_string()),
        };
        writeln!(
            f,
            "{a} vs {b} on {} (first to {}), {} with seats alternating, seed {}",
            r.board,
            r.target,
            counted(r.games, "game"),
            r.seed
        )?;
        writeln!(
            f,
            "  {a} wins {} / {} = {:.2}%  95% CI [{:.2}%, {:.2}%] (Wilson)",
            r.a_wins,
            r.games,
            100.0 * r.a_win_rate,
            100.0 * r.ci95[0],
            100.0 * r.ci95[1]
        )?;
        writeln!(
            f,
            "  {b} wins {}, draws {}; whoever moved first won {}",
            r.b_wins, r.draws, r.first_wins
        )?;
        writeln!(
            f,
            "  mines   {a} {:.2}, {b} {:.2} a game; {:.1} clicks a game",
            r.mean_mines_a, r.mean_mines_b, r.mean_moves
        )?;
        writeln!(
            f,
            "  speed   {} in {:.2} s: {:.1} games/s on {} thread{}",
            counted(r.games, "game"),
            r.seconds,
            r.games_per_sec,
            r.threads,
            if r.threads == 1 { "" } else { "s" }
        )
    }
}
