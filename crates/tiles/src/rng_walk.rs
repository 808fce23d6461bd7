//! Test helper: random legal play.

use crate::board::{Board, Click};
use arcade_core::Rng;

/// Clicks random free tiles until the board is empty or the next click
/// would fill the tray; returns the clicks made.
pub fn random_walk(board: &mut Board, seed: u64) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut clicks = Vec::new();
    loop {
        let free: Vec<usize> = board.free().iter().collect();
        if free.is_empty() {
            return clicks;
        }
        let i = free[rng.index(free.len())];
        if board.take(i) == Click::Overflow {
            board.undo(i);
            return clicks;
        }
        clicks.push(i);
    }
}
