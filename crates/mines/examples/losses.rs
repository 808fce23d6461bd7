//! Where games are lost: the mine probability of the losing guess, the guess
//! number, and how much of the board was left.
//! `cargo run --release --example losses -- LEVEL RULE GAMES SEED [SOLVER]`
//! where SOLVER is a setting as in `compare` (default `standard`).

mod common;

use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_mines::play::{Event, play};
use arcade_mines::{Board, Level, Rule, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: Level = args[0].parse().unwrap();
    let rule: Rule = args[1].parse().unwrap();
    let games: usize = args[2].parse().unwrap();
    let seed: u64 = args[3].parse().unwrap();
    let first = rule.default_first(level.grid());
    let cell = level.grid().index(first.0, first.1);
    let spec = args.get(4).map_or("standard", String::as_str);
    let solver = Solver::new(common::config(spec));
    let safe_total = level.width * level.height - level.mines;
    let results = run_episodes(games, seed, &Progress::hidden(), |_, s| {
        let board = Board::generate(level, rule, first, s).unwrap();
        let mut last = (0.0, false, 0usize);
        let mut n = 0;
        let r = play(board, cell, &solver, |e| {
            if let Event::Guess {
                guess, analysis, ..
            } = e
            {
                n += 1;
                last = (
                    guess.mine_probability,
                    guess.win_probability.is_some(),
                    analysis.rest_cells(),
                );
            }
        })
        .unwrap();
        (r, last, n)
    });
    let mut by_p = [0usize; 11];
    let mut by_left = [0usize; 11];
    let mut by_guess = [0usize; 9];
    let mut endgame = 0;
    let mut rest_empty = 0;
    let mut lost = 0;
    for (r, (p, eg, rest), n) in &results {
        if r.won {
            continue;
        }
        lost += 1;
        by_p[((p * 20.0) as usize).min(10)] += 1;
        by_left[(10 * r.safe_left as usize / safe_total).min(10)] += 1;
        by_guess[(*n).min(8)] += 1;
        endgame += usize::from(*eg);
        rest_empty += usize::from(*rest == 0);
    }
    println!("{lost} losses of {games}");
    println!("losing guess mine probability (bins of 5%): {by_p:?}");
    println!("safe cells left at loss (tenths of the board): {by_left:?}");
    println!("lost on (the first click, guess 1, 2, ..., 8 or later): {by_guess:?}");
    println!(
        "losses decided by the endgame search: {endgame}; with no cell away from the frontier: {rest_empty}"
    );
}
