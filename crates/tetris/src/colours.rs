//! A board that remembers which piece filled each cell, for drawing (the
//! terminal views, the web arena). It clears rows exactly as the engine
//! does, so its filled cells always equal the engine's [`Board`](crate::Board).

use crate::movegen::Placement;
use crate::piece::Piece;
use crate::rules::Rules;
use serde::{Deserialize, Serialize};

/// Cells by piece kind, `rows[y][x]` with `y = 0` the bottom row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColouredBoard {
    pub width: usize,
    pub height: usize,
    pub rows: Vec<Vec<Option<Piece>>>,
}

impl ColouredBoard {
    pub fn new(width: usize, height: usize) -> ColouredBoard {
        ColouredBoard {
            width,
            height,
            rows: vec![vec![None; width]; height],
        }
    }

    /// The piece that filled cell `(x, y)`, if any (`y = 0` at the bottom).
    pub fn get(&self, x: usize, y: usize) -> Option<Piece> {
        self.rows[y][x]
    }

    /// Writes `piece` into `cells` (bottom-up coordinates) without clearing:
    /// a view may draw the full rows before they go.
    pub fn fill(&mut self, piece: Piece, cells: impl IntoIterator<Item = (usize, usize)>) {
        for (x, y) in cells {
            if y < self.height && x < self.width {
                self.rows[y][x] = Some(piece);
            }
        }
    }

    /// Removes full rows; the rows above fall. Returns how many went.
    pub fn clear_full_rows(&mut self) -> usize {
        let before = self.rows.len();
        self.rows.retain(|row| row.iter().any(Option::is_none));
        let cleared = before - self.rows.len();
        self.rows.resize(self.height, vec![None; self.width]);
        cleared
    }

    /// Locks `piece` at `placement` as the engine does (fill, then clear).
    pub fn lock(&mut self, rules: &Rules, piece: Piece, placement: Placement) -> usize {
        let shape = rules.shape(piece, placement.rotation as usize);
        let cells = shape.cells_at(i32::from(placement.col), i32::from(placement.row));
        self.fill(
            piece,
            cells.into_iter().map(|(x, y)| (x as usize, y as usize)),
        );
        self.clear_full_rows()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geek::{HEIGHT, WIDTH};
    use crate::{Board, Limits, MoveMode, PieceSource, Player, Randomizer, Weights, game};

    /// On random games of every AI and several board sizes, after every
    /// piece each cell is filled exactly when the engine's cell is.
    #[test]
    fn the_coloured_board_follows_the_engine_on_random_games() {
        let rules = Rules::classic();
        let mut checked = 0;
        for (seed, (w, h), ai) in [
            (1, (10, 20), "dellacherie"),
            (2, (6, 8), "bcts"),
            (3, (4, 6), "el-tetris"),
            (4, (16, 32), "dellacherie"),
        ] {
            let weights = Weights::builtin(ai).unwrap();
            let mut player = Player::new(rules.clone(), weights, MoveMode::Reach, false);
            let mut source = PieceSource::random(Randomizer::Uniform, seed);
            let mut colours = ColouredBoard::new(w, h);
            let limits = Limits {
                max_pieces: Some(3000),
                max_lines: None,
            };
            let board = Board::new(w, h).unwrap();
            let mut cleared = 0;
            let r = game::play(&mut player, board, &mut source, limits, |s| {
                cleared += colours.lock(&rules, s.piece, s.placement);
                for y in 0..h {
                    for x in 0..w {
                        let filled = s.board.filled(x as i32, y as i32);
                        assert_eq!(colours.get(x, y).is_some(), filled, "({x}, {y})");
                    }
                }
                checked += 1;
            });
            assert_eq!(cleared as u64, r.lines);
        }
        assert!(checked > 3000, "{checked} pieces checked");
    }

    /// The Geek replay's field (top-down) agrees too, piece by piece.
    #[test]
    fn the_coloured_board_follows_the_geek_replay() {
        let record =
            crate::geek::record::Record::parse(crate::geek::record::PUBLISHED_1378178).unwrap();
        let mut colours = ColouredBoard::new(WIDTH, HEIGHT);
        crate::geek::replay::replay(&record, |f| {
            colours.fill(f.piece, geek_cells(f.cells));
            for (y, row) in f.grid.iter().enumerate() {
                for (x, &filled) in row.iter().enumerate() {
                    assert_eq!(colours.get(x, HEIGHT - 1 - y).is_some(), filled);
                }
            }
            colours.clear_full_rows();
        });
    }

    fn geek_cells(cells: &[(i32, i32)]) -> impl Iterator<Item = (usize, usize)> + '_ {
        cells
            .iter()
            .map(|&(x, y)| (x as usize, HEIGHT - 1 - y as usize))
    }
}
