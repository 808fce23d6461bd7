//! One-piece players: put the current piece where the evaluator likes the
//! result best, optionally looking at the next piece too (known with
//! preview, or averaged over the seven it may be when the stack is high).

use crate::board::Board;
use crate::eval::Weights;
use crate::features::{self, Feature, FeatureSet, Values};
use crate::movegen::{self, MoveMode, Placement};
use crate::piece::Piece;
use crate::rules::Rules;
use thiserror::Error;

/// Player options that would silently change the player, which every
/// front end (the CLI, a cluster's spec) refuses the same way.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum OptionError {
    /// Preview asked of an AI built to average over the unknown next piece.
    #[error("{0} averages over the unknown next piece, which preview would replace")]
    PreviewReplacesExpectation(String),
    /// An expectation height (the first) above the board's rows (the second).
    #[error("{0}: above the board's {1} rows, so it would never apply")]
    ExpectationAboveBoard(usize, usize),
}

/// Checks `preview` and an `expect_from` asked for on a board of `height`
/// rows against `weights` (its own expectation height is not checked: a
/// built-in or a file was not made for this board, and plays without it).
pub fn check_options(
    weights: &Weights,
    preview: bool,
    expect_from: Option<usize>,
    height: usize,
) -> Result<(), OptionError> {
    if preview && weights.expect_from.is_some() {
        return Err(OptionError::PreviewReplacesExpectation(
            weights.name.clone(),
        ));
    }
    match expect_from.filter(|&h| h > height) {
        Some(h) => Err(OptionError::ExpectationAboveBoard(h, height)),
        None => Ok(()),
    }
}

/// The value of a next piece that has no room, per unit of the weights'
/// total size (the sum of their magnitudes): no feature reaches 10^5 on the
/// largest board, so this is far below any board's value, whatever the
/// weights' scale, yet finite so that means stay ordered. Scaling every
/// weight scales it too, so the player chooses as before.
const DEATH_PER_WEIGHT: f64 = -1.0e9;

/// The value of a next piece that has no room, for these weights.
fn death(weights: &Weights) -> f64 {
    DEATH_PER_WEIGHT * weights.values.iter().map(|w| w.abs()).sum::<f64>()
}

/// A greedy player over a linear evaluator.
#[derive(Clone, Debug)]
pub struct Player {
    rules: Rules,
    weights: Weights,
    mode: MoveMode,
    preview: bool,
    /// Without preview: from this stack height up, choose by the expected
    /// value over the unknown next piece (see [`Player::with_expectation`]).
    expect_from: Option<usize>,
    /// The features the weights use: only these are computed.
    needs: FeatureSet,
    /// A next piece with no room, in the expectation ([`death`]).
    death: f64,
    first: Vec<Placement>,
    second: Vec<Placement>,
}

impl Player {
    /// `preview`: also consider the next piece (best pair of placements).
    pub fn new(rules: Rules, weights: Weights, mode: MoveMode, preview: bool) -> Player {
        Player {
            rules,
            needs: FeatureSet::of(weights.used().map(|(f, _)| f)),
            death: death(&weights),
            expect_from: weights.expect_from,
            weights,
            mode,
            preview,
            first: Vec::with_capacity(64),
            second: Vec::with_capacity(64),
        }
    }

    /// From stack height `from` up, value each placement by its own terms
    /// plus the mean, over the seven pieces that may come next (uniform
    /// pieces), of the best value after placing that piece too. The next
    /// piece stays unknown: this is still a one-piece, no-preview player.
    /// It costs about 7 × 34 evaluations per candidate, so it is kept for
    /// high stacks, where a game is lost; `from = 0` uses it always.
    pub fn with_expectation(mut self, from: usize) -> Player {
        self.expect_from = Some(from);
        self
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Every feature of the field placing `piece` at `p` leaves, for showing
    /// why the player chose it: the weights' sum of these is its value
    /// (unless it looks ahead: preview or expectation).
    pub fn describe(&self, board: &Board, piece: Piece, p: Placement) -> Values {
        let shape = self.rules.shape(piece, p.rotation as usize);
        let (col, row) = (p.col as usize, p.row as usize);
        features::afterstate(board, board.stack_height(), shape, col, row)
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    pub fn mode(&self) -> MoveMode {
        self.mode
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
        let expect = !self.preview && self.expect_from.is_some_and(|h| top >= h);
        let mut best: Option<(f64, Placement)> = None;
        for &p in &first {
            let value = match (self.preview, next) {
                (true, Some(next)) => self.pair_value(board, top, piece, p, next),
                _ if expect => self.expected_value(board, top, piece, p),
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
        let own_value = self.placement_terms(&values);
        match self.best_value(&after, next) {
            Some(best_next) => own_value + best_next,
            // No room for the next piece: legal, but the worst of choices.
            None => f64::MIN / 2.0,
        }
    }

    /// Value of placing `piece` at `p`, then the next piece, drawn uniformly
    /// from the seven, as well as possible: the placement terms of `p` plus
    /// the mean best value. A next piece with no room costs [`death`], so
    /// the chance of losing outweighs every other term.
    fn expected_value(&mut self, board: &Board, top: usize, piece: Piece, p: Placement) -> f64 {
        let (after, values) = self.lock_and_describe(board, top, piece, p);
        let own_value = self.placement_terms(&values);
        let total: f64 = Piece::ALL
            .iter()
            .map(|&next| {
                if crate::game::spawn_fits(&self.rules, &after, next) {
                    self.best_value(&after, next).unwrap_or(self.death)
                } else {
                    self.death
                }
            })
            .sum();
        own_value + total / Piece::ALL.len() as f64
    }

    /// The weighted placement terms (the ones that describe the move, not
    /// the board it leaves).
    fn placement_terms(&self, values: &Values) -> f64 {
        let mut own = Values::default();
        for f in [
            Feature::LandingHeight,
            Feature::ErodedCells,
            Feature::LinesCleared,
        ] {
            own.0[f.index()] = values.get(f);
        }
        self.weights.value(&own)
    }

    /// The best value of any placement of `piece` on `board`, or `None`
    /// when it has none.
    fn best_value(&mut self, board: &Board, piece: Piece) -> Option<f64> {
        let mut second = std::mem::take(&mut self.second);
        movegen::placements(&self.rules, board, piece, 0, self.mode, &mut second);
        let top = board.stack_height();
        let best = second
            .iter()
            .map(|&q| self.value(board, top, piece, q))
            .fold(f64::NEG_INFINITY, f64::max);
        self.second = second;
        (best != f64::NEG_INFINITY).then_some(best)
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
            let (after, v) = naive_lock(&rules, &board, Piece::S, p);
            naive_own(&weights, &v)
                + naive_best(&rules, &weights, &after, Piece::Z, f64::NEG_INFINITY)
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

    /// `piece` locked at `p` on a copy of `board`, and every feature.
    fn naive_lock(rules: &Rules, board: &Board, piece: Piece, p: Placement) -> (Board, Values) {
        let shape = rules.shape(piece, p.rotation as usize);
        let mut after = *board;
        let lock = after.lock(shape, p.col as usize, p.row as usize);
        let v =
            features::placement_values(&after, lock, shape, p.row as usize, 40, FeatureSet::ALL);
        (after, v)
    }

    /// The weighted placement terms of `v`.
    fn naive_own(weights: &Weights, v: &Values) -> f64 {
        [
            Feature::LandingHeight,
            Feature::ErodedCells,
            Feature::LinesCleared,
        ]
        .iter()
        .map(|&f| weights.get(f) * v.get(f))
        .sum()
    }

    /// The best full value of `piece` on `board`, or `none` without a
    /// placement.
    fn naive_best(rules: &Rules, weights: &Weights, board: &Board, piece: Piece, none: f64) -> f64 {
        let mut places = Vec::new();
        movegen::placements(rules, board, piece, 0, MoveMode::Drop, &mut places);
        places
            .iter()
            .map(|&q| weights.value(&naive_lock(rules, board, piece, q).1))
            .fold(none, f64::max)
    }

    /// The naive expectation: a placement's own terms plus the mean, over
    /// the seven next pieces, of the best full value (death without room).
    fn naive_expected_total(
        rules: &Rules,
        weights: &Weights,
        board: &Board,
        piece: Piece,
        p: Placement,
    ) -> f64 {
        let (after, v) = naive_lock(rules, board, piece, p);
        let sum: f64 = Piece::ALL
            .iter()
            .map(|&next| match crate::game::spawn_fits(rules, &after, next) {
                true => naive_best(rules, weights, &after, next, death(weights)),
                false => death(weights),
            })
            .sum();
        naive_own(weights, &v) + sum / 7.0
    }

    /// On random high stacks the expectation player picks a placement of
    /// the highest naive expected total, whatever the weights' scale, and it
    /// often differs from the greedy choice (so the comparison is
    /// exercised).
    #[test]
    fn expectation_choice_maximises_the_naive_mean() {
        let rules = Rules::classic();
        let weights = Weights::builtin("bcts").unwrap();
        let mut rng = arcade_core::Rng::new(35);
        let (mut checked, mut differs, mut deaths) = (0, 0, 0);
        while checked < 300 {
            // A random rubble board of height 6-11 on a 6-wide, 12-high field.
            let mut board = Board::new(6, 12).unwrap();
            let rows = 6 + rng.index(6);
            for y in 0..rows {
                for x in 0..6 {
                    if rng.chance(0.55) {
                        board.set(x, y);
                    }
                }
            }
            let piece = Piece::ALL[rng.index(7)];
            let Some(chosen) = player("bcts", false)
                .with_expectation(0)
                .choose(&board, piece, None)
            else {
                continue;
            };
            let mut firsts = Vec::new();
            movegen::placements(&rules, &board, piece, 0, MoveMode::Drop, &mut firsts);
            let totals: Vec<f64> = firsts
                .iter()
                .map(|&p| naive_expected_total(&rules, &weights, &board, piece, p))
                .collect();
            let best = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let got = naive_expected_total(&rules, &weights, &board, piece, chosen);
            assert!(
                (got - best).abs() <= 1e-9 * best.abs().max(1.0),
                "{got} vs {best}"
            );
            // A linear value's choice does not depend on its scale: the
            // same weights × 2^40 (exact in floating point) choose alike.
            let mut scaled = weights.clone();
            scaled.values.iter_mut().for_each(|w| *w *= 2f64.powi(40));
            let scaled = Player::new(rules.clone(), scaled, MoveMode::Drop, false);
            assert_eq!(
                scaled.with_expectation(0).choose(&board, piece, None),
                Some(chosen)
            );
            let greedy = player("bcts", false).choose(&board, piece, None).unwrap();
            differs += usize::from(greedy != chosen);
            deaths += usize::from(best < -1.0e9);
            checked += 1;
            // Below the threshold the expectation is not used.
            let high = player("bcts", false)
                .with_expectation(13)
                .choose(&board, piece, None);
            assert_eq!(high, Some(greedy));
        }
        eprintln!("{differs} of 300 choices differ from greedy; {deaths} with a likely loss");
        assert!(
            differs >= 30,
            "only {differs} of 300 choices differ from greedy"
        );
        assert!(deaths >= 1, "no position with a likely death was tried");
    }
}
