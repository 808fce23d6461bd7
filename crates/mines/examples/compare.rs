//! Paired comparison of two solver settings on the same layouts:
//! `cargo run --release --example compare -- LEVEL RULE GAMES SEED A B`
//! where A and B are `fast`, `standard`, `strong`, optionally followed by
//! `,key=value,...` over the fields of `Config` (see `common::config`).

mod common;

use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_mines::play::play;
use arcade_mines::{Board, Config, Level, Rule, Solver};
use common::config;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: Level = args[0].parse().unwrap();
    let rule: Rule = args[1].parse().unwrap();
    let games: usize = args[2].parse().unwrap();
    let seed: u64 = args[3].parse().unwrap();
    let configs: Vec<Config> = args[4..].iter().map(|s| config(s)).collect();
    let first = rule.default_first(level.grid());
    let cell = level.grid().index(first.0, first.1);
    let progress = Progress::new(games as u64, "games", false);
    let mut results: Vec<Vec<bool>> = Vec::new();
    for (k, cfg) in configs.iter().enumerate() {
        let solver = Solver::new(cfg.clone());
        progress.reset(games as u64, &args[4 + k]);
        let start = Instant::now();
        let won: Vec<bool> = run_episodes(games, seed, &progress, |_, s| {
            let board = Board::generate(level, rule, first, s).unwrap();
            play(board, cell, &solver, |_| {}).unwrap().won
        });
        let secs = start.elapsed().as_secs_f64();
        let wins = won.iter().filter(|&&w| w).count();
        progress.println(format!(
            "{:<40} {:>6} / {} = {:.3}%  {:.0} games/s",
            args[4 + k],
            wins,
            games,
            100.0 * wins as f64 / games as f64,
            games as f64 / secs
        ));
        results.push(won);
    }
    progress.finish();
    for k in 1..results.len() {
        let (a, b) = (&results[0], &results[k]);
        let only_a = a.iter().zip(b).filter(|(x, y)| **x && !**y).count();
        let only_b = a.iter().zip(b).filter(|(x, y)| !**x && **y).count();
        let z = (only_b as f64 - only_a as f64) / ((only_a + only_b) as f64).sqrt().max(1.0);
        println!(
            "{} vs {}: {} - {} won only by the first / the second; difference {:+.3}% (z = {:.2})",
            args[4],
            args[4 + k],
            only_a,
            only_b,
            100.0 * (only_b as f64 - only_a as f64) / games as f64,
            z
        );
    }
}
