//! Random small positions for the property tests.

use arcade_core::Rng;
use arcade_mines::{Board, Cell, Grid, Position};

/// A random position seen partway through a game on a small board: some safe
/// cells revealed, some mines flagged, and sometimes one number altered so
/// that the position may be impossible (unless `consistent`).
pub fn random_position(seed: u64, max_hidden: usize, consistent: bool) -> Position {
    let mut rng = Rng::new(seed);
    let (w, h) = (2 + rng.index(6), 2 + rng.index(5));
    let grid = Grid::new(w, h).unwrap();
    let mines = rng.index(grid.len() / 2 + 1);
    let mut cells: Vec<usize> = (0..grid.len()).collect();
    rng.shuffle(&mut cells);
    let board = Board::from_mines(grid, cells[..mines].iter().copied());
    let mut pos = Position::new(grid, mines);
    let reveal = rng.uniform(0.2, 0.9);
    let flag = rng.uniform(0.0, 0.5);
    for i in 0..grid.len() {
        if board.is_mine(i) {
            if rng.chance(flag) {
                pos.set(i, Cell::Mine);
            }
        } else if rng.chance(reveal) {
            pos.set(i, Cell::Number(board.adjacent(i)));
        }
    }
    // Reveal more until the brute force is affordable.
    let mut order: Vec<usize> = (0..grid.len()).collect();
    rng.shuffle(&mut order);
    for &i in &order {
        if pos.hidden() <= max_hidden {
            break;
        }
        if pos.is_hidden(i) {
            pos.set(
                i,
                if board.is_mine(i) {
                    Cell::Mine
                } else {
                    Cell::Number(board.adjacent(i))
                },
            );
        }
    }
    if !consistent && rng.chance(0.3) {
        let numbers: Vec<usize> = (0..grid.len())
            .filter(|&i| matches!(pos.cell(i), Cell::Number(_)))
            .collect();
        if !numbers.is_empty() {
            let i = numbers[rng.index(numbers.len())];
            let Cell::Number(v) = pos.cell(i) else {
                unreachable!()
            };
            let v = if v == 0 || (v < 8 && rng.chance(0.5)) {
                v + 1
            } else {
                v - 1
            };
            pos.set(i, Cell::Number(v));
        }
    }
    if !consistent && rng.chance(0.2) {
        // A wrong total.
        let total = pos.mines() + rng.index(3);
        let total = total.saturating_sub(rng.index(3)).min(grid.len());
        pos = Position::parse(&retotal(&pos, total)).unwrap();
    }
    pos
}

pub fn retotal(pos: &Position, mines: usize) -> String {
    let text = pos.to_text();
    let (_, rows) = text.split_once('\n').unwrap();
    format!(
        "{} {} {}\n{rows}",
        pos.grid().width(),
        pos.grid().height(),
        mines.max(pos.known_mines())
    )
}
