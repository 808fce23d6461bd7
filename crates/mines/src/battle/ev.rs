//! Expected-value search: a move is worth the mines it is expected to
//! capture for me minus what it is expected to hand the opponent.
//!
//! With `p` the exact mine probability of cell `c` and `P(v)` the
//! probability that `c`, if safe, shows the number `v`:
//!
//! `score_d(c) = p · (1 + T_{d−1}(after capturing c))
//!             − (1 − p) · Σ_v P(v) · (T_{d−1}(after c shows v) + zero · [v = 0])`
//!
//! where `T_d(position)` is what the player about to move there expects
//! from their turn:
//! - `T_0 = k + q`: the `k` certain mines, then one guess at the highest
//!   probability `q` — the opponent greedy for one move;
//! - `T_d = k + max_c score_d(c)` after taking the `k` certain mines (which
//!   changes no other probability: conditioning on a sure event).
//!
//! `ev` plays `argmax score_1`; `deep` plays `argmax score_2`, an expectimax
//! two turns deep, on the three best moves by `score_1`.
//!
//! A revealed zero floods, opening cells whose numbers the engine cannot
//! foresee cheaply; `zero` charges that information to the opponent at a
//! flat rate. It matters more than anything else tried: in 300-game matches
//! (seed 5) `ev` with a charge of 5 beat `ev` with 0.5 in 68% of games, and
//! with no charge it won 25%; charges from 3 to 30 did about as well as 5.

use crate::frontier::SolveError;
use crate::outcome::outcomes;
use crate::position::{Cell, Position};
use crate::probability::{Analysis, analyze};
use arcade_core::Rng;
use rustc_hash::FxHashMap;

/// How deep and wide the search looks.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// Turns of lookahead (1: `ev`, 2: `deep`).
    pub depth: usize,
    /// Candidate moves scored at the root.
    pub width: usize,
    /// Candidate moves scored at each deeper level.
    pub inner_width: usize,
    /// Root moves (best by the one-turn score) searched to full depth.
    pub deepen: usize,
    /// Numbers less likely than this are skipped below the root (their
    /// weight goes to the numbers kept).
    pub min_outcome: f64,
    /// Captures a flooding zero is assumed to hand the opponent.
    pub zero: f64,
}

impl Search {
    /// One turn: my move and the opponent's greedy reply.
    pub fn ev() -> Search {
        Search {
            depth: 1,
            width: 12,
            inner_width: 0,
            deepen: 0,
            min_outcome: 0.0,
            zero: 5.0,
        }
    }

    /// Two turns: the opponent's reply is itself an `ev` move.
    pub fn deep() -> Search {
        Search {
            depth: 2,
            width: 12,
            inner_width: 4,
            deepen: 3,
            min_outcome: 0.03,
            zero: 5.0,
        }
    }

    /// The move to play for the player to move in `pos`.
    pub fn choose(&self, pos: &Position, rng: &mut Rng) -> Result<usize, SolveError> {
        let a = analyze(pos)?;
        if let Some(&m) = a.mines().first() {
            return Ok(m);
        }
        let mut scored: Vec<(f64, usize)> = Vec::new();
        for c in candidates(pos, &a, self.width, rng) {
            scored.push((self.score(pos, &a, c, 1)?, c));
        }
        if self.depth > 1 {
            // Only the most promising moves are worth the deeper look.
            scored.sort_by(|x, y| y.0.total_cmp(&x.0));
            scored.truncate(self.deepen.max(1));
            for (s, c) in scored.iter_mut() {
                *s = self.score(pos, &a, *c, self.depth)?;
            }
        }
        let best = scored
            .iter()
            .fold((f64::NEG_INFINITY, usize::MAX), |b, &s| {
                if s.0 > b.0 { s } else { b }
            });
        Ok(best.1)
    }

    /// `score_depth(c)` as in the module docs, every number considered.
    pub fn score(
        &self,
        pos: &Position,
        a: &Analysis,
        c: usize,
        depth: usize,
    ) -> Result<f64, SolveError> {
        self.score_in(pos, a, c, depth, false)
    }

    /// `score_depth(c)`; below the root (`inner`) unlikely numbers are
    /// skipped.
    fn score_in(
        &self,
        pos: &Position,
        a: &Analysis,
        c: usize,
        depth: usize,
        inner: bool,
    ) -> Result<f64, SolveError> {
        let p = a.probability(c).expect("candidates are hidden");
        let mut score = 0.0;
        if p > 0.0 {
            let mut taken = pos.clone();
            taken.set(c, Cell::Mine);
            let after = if taken.known_mines() == taken.mines() {
                0.0
            } else {
                self.turn_value(&taken, &analyze(&taken)?, depth - 1)?
            };
            score += p * (1.0 + after);
        }
        if p < 1.0 {
            let floor = if inner { self.min_outcome } else { 0.0 };
            let (mut reply, mut kept) = (0.0, 0.0);
            for o in outcomes(pos, c)? {
                if o.probability < floor {
                    continue;
                }
                let mut next = pos.clone();
                next.set(c, Cell::Number(o.value));
                let zero = if o.value == 0 { self.zero } else { 0.0 };
                reply += o.probability * (self.turn_value(&next, &o.analysis, depth - 1)? + zero);
                kept += o.probability;
            }
            if kept > 0.0 {
                score -= (1.0 - p) * reply / kept;
            }
        }
        Ok(score)
    }

    /// `T_depth`: what the player to move in `pos` expects from the turn.
    fn turn_value(&self, pos: &Position, a: &Analysis, depth: usize) -> Result<f64, SolveError> {
        let certain = a.mines();
        let k = certain.len() as f64;
        if depth == 0 {
            let q = a
                .hidden()
                .map(|(_, p)| p)
                .filter(|&p| p < 1.0)
                .fold(0.0, f64::max);
            return Ok(k + q);
        }
        let mut taken = pos.clone();
        for &m in certain {
            taken.set(m, Cell::Mine);
        }
        if taken.known_mines() == taken.mines() {
            return Ok(k);
        }
        // A fixed stream: the value of a position must not depend on the
        // order in which the search happens to visit it.
        let mut rng = Rng::new(0x5EED);
        let mut best = f64::NEG_INFINITY;
        for c in candidates(&taken, a, self.inner_width, &mut rng) {
            best = best.max(self.score_in(&taken, a, c, depth, true)?);
        }
        Ok(k + if best.is_finite() { best } else { 0.0 })
    }
}

/// Moves worth scoring, at most `width` guesses plus up to two "passes".
///
/// Cells away from every number that look alike (same count of board,
/// frontier, unknown-rest and known-mine neighbours) are interchangeable up
/// to details the search ignores, so one random cell stands for each such
/// kind. Guesses are ranked by mine probability. A pass is a certainly safe
/// cell that reveals the least: the right move when every guess gives away
/// more than it wins.
pub fn candidates(pos: &Position, a: &Analysis, width: usize, rng: &mut Rng) -> Vec<usize> {
    let grid = pos.grid();
    let mut kinds: FxHashMap<[u8; 4], (usize, u32)> = FxHashMap::default();
    let mut guesses: Vec<(f64, usize)> = Vec::new();
    let mut passes: Vec<(usize, usize)> = Vec::new();
    for (c, p) in a.hidden() {
        if p >= 1.0 {
            continue;
        }
        let near_number = grid
            .neighbours(c)
            .any(|n| matches!(pos.cell(n), Cell::Number(_)));
        if p == 0.0 {
            let unknown = grid
                .neighbours(c)
                .filter(|&n| a.probability(n).is_some_and(|q| q > 0.0 && q < 1.0))
                .count();
            passes.push((unknown, c));
        } else if near_number {
            guesses.push((p, c));
        } else {
            let mut kind = [0u8; 4];
            for n in grid.neighbours(c) {
                kind[0] += 1;
                match (pos.cell(n), a.probability(n)) {
                    (Cell::Mine, _) | (_, Some(1.0)) => kind[3] += 1,
                    (Cell::Hidden, Some(_)) => {
                        let frontier = grid
                            .neighbours(n)
                            .any(|m| matches!(pos.cell(m), Cell::Number(_)));
                        kind[if frontier { 1 } else { 2 }] += 1;
                    }
                    _ => {}
                }
            }
            // Reservoir sampling of one member per kind.
            let e = kinds.entry(kind).or_insert((c, 0));
            e.1 += 1;
            if rng.below(u64::from(e.1)) == 0 {
                e.0 = c;
            }
        }
    }
    let mut rest: Vec<([u8; 4], usize)> = kinds.into_iter().map(|(k, (c, _))| (k, c)).collect();
    rest.sort_unstable();
    guesses.extend(
        rest.into_iter()
            .map(|(_, c)| (a.probability(c).unwrap_or(0.0), c)),
    );
    guesses.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut out: Vec<usize> = guesses.into_iter().take(width).map(|(_, c)| c).collect();
    passes.sort_unstable();
    out.extend(passes.into_iter().take(2).map(|(_, c)| c));
    out
}
