//! One-piece players: put the current piece where the evaluator likes the
//! result best, optionally looking at the next piece too.

use crate::board::Board;
use crate::eval::Weights;
use crate::features::{self, Feature, FeatureSet, Values};
use crate::movegen::{self, MoveMode, Placement};
use crate::piece::Piece;
use crate::rules::Rules;

/// A greedy player over a linear evaluator.
#[derive(Clone, Debug)]
pub struct Player {
    rules: Rules,
    weights: Weights,
    mode: MoveMode,
    preview: bool,
    /// The features the weights use: only these are computed.
    needs: FeatureSet,
    first: Vec<Placement>,
    second: Vec<Placement>,
}

impl Player {
    /// `preview`: also consider the next piece (best pair of placements).
    pub fn new(rules: Rules, weights: Weights, mode: MoveMode, preview: bool) -> Player {
        Player {
            rules,
            needs: FeatureSet::of(weights.used().map(|(f, _)| f)),
            weights,
            mode,
            preview,
            first: Vec::with_capacity(64),
            second: Vec::with_capacity(64),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    pub fn mode(&self) -> MoveMode {
        self.mode
    }

    pub fn uses_preview(&self) -> bool {
        self.preview
    }

    /// The chosen placement of `piece`, or `None` when it has no legal
    /// placement (the game is lost). `next` is used only with preview.
    pub fn choose(
        &mut self,
        board: &Board,
        piece: Piece,
        next: Option<Piece>,
    ) -> Option<Placement> {
        let mut first = std::mem::take(&mut self.first);
        movegen::placements(&self.rules, board, piece, 0, self.mode, &mut first);
        let top = board.stack_height();
        let mut best: Option<(f64, Placement)> = None;
        for &p in &first {
            let value = match (self.preview, next) {
                (true, Some(next)) => self.pair_value(board, top, piece, p, next),
                _ => self.value(board, top, piece, p),
            };
            best = match best {
                Some((b, q))
                    if value < b || (value == b && !self.closer_to_centre(board, piece, p, q)) =>
                {
                    Some((b, q))
                }
                _ => Some((value, p)),
            };
        }
        self.first = first;
        best.map(|(_, p)| p)
    }

    /// Locks `p` on a copy of `board`; returns that board and its features.
    #[inline(always)]
    fn lock_and_describe(
        &self,
        board: &Board,
        top: usize,
        piece: Piece,
        p: Placement,
    ) -> (Board, Values) {
        let shape = self.rules.shape(piece, p.rotation as usize);
        let mut after = *board;
        let lock = after.lock(shape, p.col as usize, p.row as usize);
        let top_hint = top.max(p.row as usize + shape.height as usize);
        let values =
            features::placement_values(&after, lock, shape, p.row as usize, top_hint, self.needs);
        (after, values)
    }

    /// The evaluator's value of placing `piece` at `p` (the hot path: only
    /// the number leaves, so the board and features stay in registers).
    #[inline]
    fn value(&self, board: &Board, top: usize, piece: Piece, p: Placement) -> f64 {
        self.weights
            .value(&self.lock_and_describe(board, top, piece, p).1)
    }

    /// Value of placing `piece` at `p` then `next` as well as possible: the
    /// placement terms of both pieces plus the board terms of the final board.
    fn pair_value(
        &mut self,
        board: &Board,
        top: usize,
        piece: Piece,
        p: Placement,
        next: Piece,
    ) -> f64 {
        let (after, values) = self.lock_and_describe(board, top, piece, p);
        let mut own = Values::default();
        for f in [
            Feature::LandingHeight,
            Feature::ErodedCells,
            Feature::LinesCleared,
        ] {
            own.0[f.index()] = values.get(f);
        }
        let own_value = self.weights.value(&own);
        let mut second = std::mem::take(&mut self.second);
        movegen::placements(&self.rules, &after, next, 0, self.mode, &mut second);
        let top = after.stack_height();
        let best_next = second
            .iter()
            .map(|&q| self.value(&after, top, next, q))
            .fold(f64::NEG_INFINITY, f64::max);
        self.second = second;
        // No room for the next piece: legal, but the worst of choices.
        if best_next == f64::NEG_INFINITY {
            f64::MIN / 2.0
        } else {
            own_value + best_next
        }
    }

    /// Tie-break between equally valued placements: prefer the one whose box
    /// sits nearer the centre, then the lower rotation state.
    fn closer_to_centre(&self, board: &Board, piece: Piece, a: Placement, b: Placement) -> bool {
        let off = |p: Placement| {
            let w = i32::from(self.rules.shape(piece, p.rotation as usize).width);
            (
                (2 * i32::from(p.col) + w - board.width() as i32).abs(),
                p.rotation,
            )
        };
        off(a) < off(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(name: &str, preview: bool) -> Player {
        Player::new(
            Rules::classic(),
            Weights::builtin(name).unwrap(),
            MoveMode::Drop,
            preview,
        )
    }

    #[test]
    fn takes_the_obvious_line_clear() {
        // A vertical I slot at the right: every AI should fill it.
        let board = Board::from_text(
            6,
            8,
            "
            #####.
            #####.
            #####.
            #####.",
        )
        .unwrap();
        for name in ["dellacherie", "el-tetris", "bcts"] {
            let p = player(name, false).choose(&board, Piece::I, None).unwrap();
            assert_eq!((p.rotation, p.col, p.row), (1, 5, 0), "{name}");
        }
    }

    #[test]
    fn no_placement_when_the_board_is_full_to_the_top() {
        let mut board = Board::new(4, 4).unwrap();
        for y in 0..4 {
            for x in 0..3 {
                board.set(x + (y % 2), y);
            }
        }
        assert_eq!(player("bcts", false).choose(&board, Piece::O, None), None);
    }

    /// The preview choice must maximise, over first placements, the first
    /// piece's placement terms plus the best second-piece value.
    #[test]
    fn preview_choice_maximises_the_pair_value() {
        let rules = Rules::classic();
        let weights = Weights::builtin("el-tetris").unwrap();
        let board = Board::from_text(
            8,
            10,
            "
            ##......
            ###..#..
            ####.##.",
        )
        .unwrap();
        let pair_total = |p: Placement| {
            let shape = rules.shape(Piece::S, p.rotation as usize);
            let mut after = board;
            let lock = after.lock(shape, p.col as usize, p.row as usize);
            let v = features::placement_values(
                &after,
                lock,
                shape,
                p.row as usize,
                40,
                FeatureSet::ALL,
            );
            let own: f64 = [
                Feature::LandingHeight,
                Feature::ErodedCells,
                Feature::LinesCleared,
            ]
            .iter()
            .map(|&f| weights.get(f) * v.get(f))
            .sum();
            let mut seconds = Vec::new();
            movegen::placements(&rules, &after, Piece::Z, 0, MoveMode::Drop, &mut seconds);
            let best = seconds
                .iter()
                .map(|q| {
                    let s2 = rules.shape(Piece::Z, q.rotation as usize);
                    let mut b2 = after;
                    let l2 = b2.lock(s2, q.col as usize, q.row as usize);
                    weights.value(&features::placement_values(
                        &b2,
                        l2,
                        s2,
                        q.row as usize,
                        40,
                        FeatureSet::ALL,
                    ))
                })
                .fold(f64::NEG_INFINITY, f64::max);
            own + best
        };
        let mut firsts = Vec::new();
        movegen::placements(&rules, &board, Piece::S, 0, MoveMode::Drop, &mut firsts);
        let best_total = firsts
            .iter()
            .map(|&p| pair_total(p))
            .fold(f64::NEG_INFINITY, f64::max);
        let chosen = player("el-tetris", true)
            .choose(&board, Piece::S, Some(Piece::Z))
            .unwrap();
        assert_eq!(pair_total(chosen), best_total);
        // And the one-piece player decides differently here, so the test
        // exercises the look-ahead.
        let greedy = player("el-tetris", false)
            .choose(&board, Piece::S, None)
            .unwrap();
        assert_ne!(greedy, chosen);
    }
}
