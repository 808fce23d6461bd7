//! Writes a mid-game position in the `analyze` file format, for timing the
//! analyser on big boards: safe cells of a seeded layout are clicked in a
//! random order (zeros flood as in a game) until `FRACTION` of the safe cells
//! are open. Scattered clicks leave a long, many-component frontier and no
//! flags, harder than the positions a solver reaches.
//! `cargo run --release --example midgame -- [LEVEL] [SEED] [FRACTION] > pos.txt`
//! (defaults: 100x100/2000, seed 1, fraction 0.5).

use arcade_core::Rng;
use arcade_mines::{Board, Game, Level, Rule};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let level: Level = arg(0, "100x100/2000")
        .parse()
        .expect("a level such as 100x100/2000");
    let seed: u64 = arg(1, "1").parse().expect("a seed");
    let fraction: f64 = arg(2, "0.5").parse().expect("a fraction of the safe cells");
    let board = Board::generate(level, Rule::None, (0, 0), seed).expect("a valid level");
    let safe_total = level.width * level.height - level.mines;
    let mut order: Vec<usize> = (0..board.grid().len())
        .filter(|&i| !board.is_mine(i))
        .collect();
    Rng::new(seed ^ 0x5eed).shuffle(&mut order);
    let mut game = Game::new(board);
    let mut opened = Vec::new();
    for &c in &order {
        if (safe_total - game.safe_left()) as f64 >= fraction * safe_total as f64 {
            break;
        }
        game.reveal(c, &mut opened);
    }
    println!(
        "# {} mid-game: layout seed {seed}, {} of {safe_total} safe cells open",
        level.name(),
        safe_total - game.safe_left()
    );
    print!("{}", game.view().to_text());
}
