//! Times the exact engine on positions where the solver had to guess
//! (expert, SFAR): `cargo run --release --example analyze_speed`.

use arcade_mines::play::{Event, play};
use arcade_mines::{Board, Config, Level, Position, Rule, Solver, analyze, outcomes};
use std::time::Instant;

fn main() {
    let solver = Solver::new(Config::fast());
    let mut positions: Vec<Position> = Vec::new();
    for seed in 0..300 {
        let board = Board::generate(Level::EXPERT, Rule::Sfar, (0, 0), seed).unwrap();
        play(board, 0, &solver, |e| {
            if let Event::Guess { view, .. } = e {
                positions.push(view.clone());
            }
        })
        .unwrap();
    }
    let start = Instant::now();
    let rounds: usize = std::env::args().nth(1).map_or(20, |a| a.parse().unwrap());
    for _ in 0..rounds {
        for p in &positions {
            std::hint::black_box(analyze(p).unwrap());
        }
    }
    let per = start.elapsed().as_secs_f64() / (rounds * positions.len()) as f64;
    println!(
        "{} positions, analyze: {:.1} µs each",
        positions.len(),
        per * 1e6
    );
    let start = Instant::now();
    let mut n = 0;
    for p in &positions {
        let a = analyze(p).unwrap();
        let (cell, _) = a.hidden().min_by(|x, y| x.1.total_cmp(&y.1)).unwrap();
        n += outcomes(p, cell).unwrap().len();
    }
    let per = start.elapsed().as_secs_f64() / positions.len() as f64;
    println!(
        "outcomes of the safest cell: {:.1} µs each ({:.1} values)",
        per * 1e6,
        n as f64 / positions.len() as f64
    );
}
