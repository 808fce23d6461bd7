//! Many seeded games in parallel, summarised with confidence intervals.

use crate::board::Board;
use crate::eval::Weights;
use crate::game::{self, End, GameResult, Limits};
use crate::movegen::MoveMode;
use crate::player::Player;
use crate::rules::Rules;
use crate::source::{PieceSource, Randomizer};
use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_core::stats::Summary;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What to play.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchConfig {
    pub width: usize,
    pub height: usize,
    pub games: usize,
    /// Game `i` uses pieces seeded by `derive_seed(seed, i)`.
    pub seed: u64,
    pub limits: Limits,
    pub mode: MoveMode,
    pub preview: bool,
    pub randomizer: Randomizer,
}

/// The summary `arcade tetris bench` prints.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchReport {
    pub ai: String,
    pub board: String,
    pub games: usize,
    pub seed: u64,
    pub mode: MoveMode,
    pub preview: bool,
    pub randomizer: Randomizer,
    pub mean_lines: f64,
    pub ci95: [f64; 2],
    pub median_lines: f64,
    pub std_lines: f64,
    pub min_lines: f64,
    pub max_lines: f64,
    /// Games stopped by `limits` rather than by topping out.
    pub capped_games: usize,
    pub pieces: u64,
    pub pieces_per_sec: f64,
    pub seconds: f64,
    pub threads: usize,
    pub lines_per_game: Vec<u64>,
}

/// Plays one game with a fresh player and board.
pub fn play_one(player: &Player, cfg: &BenchConfig, seed: u64) -> GameResult {
    let mut player = player.clone();
    let board = Board::new(cfg.width, cfg.height).expect("board size checked by the caller");
    let mut source = PieceSource::random(cfg.randomizer, seed);
    game::play(&mut player, board, &mut source, cfg.limits, |_| {})
}

/// Plays `cfg.games` games on the current rayon pool.
pub fn run(
    rules: &Rules,
    weights: &Weights,
    cfg: &BenchConfig,
    progress: &Progress,
) -> BenchReport {
    let player = Player::new(rules.clone(), weights.clone(), cfg.mode, cfg.preview);
    let start = Instant::now();
    let results = run_episodes(cfg.games, cfg.seed, progress, |_, seed| {
        play_one(&player, cfg, seed)
    });
    let seconds = start.elapsed().as_secs_f64();
    let lines: Vec<f64> = results.iter().map(|r| r.lines as f64).collect();
    let summary = Summary::of(&lines);
    let pieces: u64 = results.iter().map(|r| r.pieces).sum();
    BenchReport {
        ai: weights.name.clone(),
        board: format!("{}x{}", cfg.width, cfg.height),
        games: cfg.games,
        seed: cfg.seed,
        mode: cfg.mode,
        preview: cfg.preview,
        randomizer: cfg.randomizer,
        mean_lines: summary.mean,
        ci95: summary.ci95.as_array(),
        median_lines: summary.median,
        std_lines: summary.std_dev,
        min_lines: summary.min,
        max_lines: summary.max,
        capped_games: results.iter().filter(|r| r.end != End::ToppedOut).count(),
        pieces,
        pieces_per_sec: pieces as f64 / seconds,
        seconds,
        threads: rayon::current_num_threads(),
        lines_per_game: results.iter().map(|r| r.lines).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::runner::with_threads;

    #[test]
    fn reports_are_reproducible_and_thread_independent() {
        let cfg = BenchConfig {
            width: 6,
            height: 8,
            games: 24,
            seed: 3,
            limits: Limits::default(),
            mode: MoveMode::Drop,
            preview: false,
            randomizer: Randomizer::Uniform,
        };
        let rules = Rules::classic();
        let w = Weights::builtin("dellacherie").unwrap();
        let a = with_threads(Some(1), || run(&rules, &w, &cfg, &Progress::hidden()));
        let b = with_threads(Some(3), || run(&rules, &w, &cfg, &Progress::hidden()));
        assert_eq!(a.lines_per_game, b.lines_per_game);
        assert_eq!(a.pieces, b.pieces);
        let mean = a.lines_per_game.iter().sum::<u64>() as f64 / 24.0;
        assert!((a.mean_lines - mean).abs() < 1e-9);
        assert!(a.ci95[0] <= a.mean_lines && a.mean_lines <= a.ci95[1]);
        assert_eq!(a.capped_games, 0);
    }
}
