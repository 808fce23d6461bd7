//! The first guess after an SFAR corner click that shows `V`, by rollouts:
//! every candidate cell is played on the same layouts (those whose corner
//! shows `V`), then the solver plays on; the win rates are paired.
//! `cargo run --release --example opening -- V GAMES SEED SOLVER X,Y X,Y ...`
//! where SOLVER is a setting as in `compare`.

mod common;

use arcade_core::progress::Progress;
use arcade_core::runner::run_episodes;
use arcade_mines::game::{Game, Status};
use arcade_mines::play::play_on;
use arcade_mines::{Board, Level, Rule, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value: u8 = args[0].parse().unwrap();
    let games: usize = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let solver = Solver::new(common::config(&args[3]));
    let level = Level::EXPERT;
    let grid = level.grid();
    let cells: Vec<usize> = args[4..]
        .iter()
        .map(|s| {
            let (x, y) = s.split_once(',').unwrap();
            grid.index(x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    let progress = Progress::new(games as u64, "layouts", false);
    // Per layout: None if the corner does not show the value, else a win
    // flag per candidate.
    let results: Vec<Option<Vec<bool>>> = run_episodes(games, seed, &progress, |_, s| {
        let board = Board::generate(level, Rule::Sfar, (0, 0), s).unwrap();
        if board.adjacent(0) != value || board.is_mine(0) {
            return None;
        }
        Some(
            cells
                .iter()
                .map(|&c| {
                    let mut game = Game::new(board.clone());
                    let mut opened = Vec::new();
                    game.reveal(0, &mut opened);
                    if game.reveal(c, &mut opened) == Status::Lost {
                        return false;
                    }
                    play_on(game, opened, &solver, |_| {}).unwrap().won
                })
                .collect(),
        )
    });
    progress.finish();
    let played: Vec<&Vec<bool>> = results.iter().flatten().collect();
    let n = played.len();
    println!("{n} layouts with corner {value}");
    for (k, s) in args[4..].iter().enumerate() {
        let wins = played.iter().filter(|r| r[k]).count();
        let vs0 = played.iter().filter(|r| r[k] && !r[0]).count() as f64
            - played.iter().filter(|r| !r[k] && r[0]).count() as f64;
        println!(
            "{s:>6}: {:.3}%  vs first {:+.3}%",
            100.0 * wins as f64 / n as f64,
            100.0 * vs0 / n as f64
        );
    }
}
