//! A game in progress: reveals with flood fill on zeros, win and loss.

use crate::board::Board;
use crate::position::{Cell, Position};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    Won,
    Lost,
}

/// A board and which of its cells are revealed.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    view: Position,
    safe_left: usize,
    status: Status,
    stack: Vec<usize>,
}

impl Game {
    pub fn new(board: Board) -> Game {
        let grid = board.grid();
        let safe_left = grid.len() - board.mines();
        Game {
            view: Position::new(grid, board.mines()),
            status: if safe_left == 0 {
                Status::Won
            } else {
                Status::Playing
            },
            board,
            safe_left,
            stack: Vec::new(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// What the player sees: numbers for revealed cells, hidden elsewhere
    /// (the game knows no flags; players keep their own).
    pub fn view(&self) -> &Position {
        &self.view
    }

    /// Safe cells not yet revealed.
    pub fn safe_left(&self) -> usize {
        self.safe_left
    }

    /// Reveals `cell`. A mine loses; a zero opens its neighbours, and so on.
    /// Newly revealed cells are appended to `opened`. Revealing a revealed
    /// cell, or playing after the game ended, does nothing.
    pub fn reveal(&mut self, cell: usize, opened: &mut Vec<usize>) -> Status {
        if self.status != Status::Playing || !self.view.is_hidden(cell) {
            return self.status;
        }
        if self.board.is_mine(cell) {
            self.status = Status::Lost;
            return self.status;
        }
        let grid = self.board.grid();
        self.stack.clear();
        self.stack.push(cell);
        while let Some(c) = self.stack.pop() {
            if !self.view.is_hidden(c) {
                continue;
            }
            let n = self.board.adjacent(c);
            self.view.set(c, Cell::Number(n));
            self.safe_left -= 1;
            opened.push(c);
            if n == 0 {
                self.stack
                    .extend(grid.neighbours(c).filter(|&d| self.view.is_hidden(d)));
            }
        }
        if self.safe_left == 0 {
            self.status = Status::Won;
        }
        release_if_large(&mut self.stack);
        self.status
    }
}

/// Scratch entries a game keeps between reveals.
const SCRATCH_KEPT: usize = 1 << 12;

/// Frees a scratch vector a large flood fill grew: a game may wait long
/// between reveals, and many held at once (a vector environment of big
/// boards) would otherwise each keep 8 bytes for every cell they opened.
pub fn release_if_large<T>(scratch: &mut Vec<T>) {
    if scratch.capacity() > SCRATCH_KEPT {
        *scratch = Vec::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn flood_fill_opens_the_zero_region_and_its_border() {
        // 5x4 with mines at (4,0) and (4,3): everything else opens from (0,0).
        let grid = Grid::new(5, 4).unwrap();
        let board = Board::from_mines(grid, [grid.index(4, 0), grid.index(4, 3)]);
        let mut g = Game::new(board);
        let mut opened = Vec::new();
        assert_eq!(g.reveal(0, &mut opened), Status::Playing);
        // Columns 0-2 are zeros, column 3 shows 1s; (4,1) and (4,2) touch
        // no zero, so they stay hidden.
        assert_eq!(opened.len(), 16);
        assert!(g.view().is_hidden(grid.index(4, 1)));
        assert_eq!(g.view().cell(grid.index(3, 1)), Cell::Number(1));
        g.reveal(grid.index(4, 1), &mut opened);
        assert_eq!(g.reveal(grid.index(4, 2), &mut opened), Status::Won);
        assert_eq!(g.safe_left(), 0);
    }

    #[test]
    fn a_mine_loses_and_the_game_stops() {
        let grid = Grid::new(3, 1).unwrap();
        let mut g = Game::new(Board::from_mines(grid, [1]));
        let mut opened = Vec::new();
        assert_eq!(g.reveal(1, &mut opened), Status::Lost);
        assert_eq!(g.reveal(0, &mut opened), Status::Lost);
        assert!(opened.is_empty());
    }
}
