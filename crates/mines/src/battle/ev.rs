//! Expected-value search: a move is worth the mines it is expected to
//! capture for me minus what it is expected to hand the opponent.
//!
//! With `p` the exact mine probability of cell `c` and `P(v)` the
//! probability that `c`, if safe, shows the number `v`:
//!
//! `score(c) = p · (1 + T(after capturing c))
//!           − (1 − p) · Σ_v P(v) · (T(after c shows v) + zero · [v = 0])`
//!
//! where `T(position) = k + q` is what the player about to move there
//! expects from one greedy turn: the `k` certain mines, then one guess at the
//! highest probability `q`. `ev` plays `argmax score`.
//!
//! A revealed zero floods, opening cells whose numbers the engine cannot
//! foresee cheaply; `zero` charges that information to the opponent at a
//! flat rate. It matters more than anything else tried, and a search two
//! turns deep did not pay for its cost; both are measured in
//! `docs/results/battle.md`.

use crate::frontier::SolveError;
use crate::outcome::outcomes;
use crate::position::{Cell, Position};
use crate::probability::{Analysis, analyze};
use arcade_core::Rng;
use rustc_hash::FxHashMap;

/// How wide the search looks and what a zero costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// Candidate moves scored.
    pub width: usize,
    /// Captures a flooding zero is assumed to hand the opponent.
    pub zero: f64,
}

impl Search {
    /// The `ev` player: my move and the opponent's greedy reply.
    pub fn ev() -> Search {
        Search {
            width: 12,
            zero: 5.0,
        }
    }

    /// The move to play for the player to move in `pos`.
    pub fn choose(&self, pos: &Position, rng: &mut Rng) -> Result<usize, SolveError> {
        let a = analyze(pos)?;
        if let Some(&m) = a.mines().first() {
            return Ok(m);
        }
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for c in candidates(pos, &a, self.width, rng) {
            let s = self.score(pos, &a, c)?;
            if s > best.0 {
                best = (s, c);
            }
        }
        Ok(best.1)
    }

    /// `score(c)` as in the module docs.
    pub fn score(&self, pos: &Position, a: &Analysis, c: usize) -> Result<f64, SolveError> {
        let p = a.probability(c).expect("candidates are hidden");
        let mut score = 0.0;
        if p > 0.0 {
            let mut taken = pos.clone();
            taken.set(c, Cell::Mine);
            let after = if taken.known_mines() == taken.mines() {
                0.0
            } else {
                greedy_turn(&analyze(&taken)?)
            };
            score += p * (1.0 + after);
        }
        if p < 1.0 {
            let mut reply = 0.0;
            for o in outcomes(pos, c)? {
                let zero = if o.value == 0 { self.zero } else { 0.0 };
                reply += o.probability * (greedy_turn(&o.analysis) + zero);
            }
            score -= (1.0 - p) * reply;
        }
        Ok(score)
    }
}

/// `T`: the captures a greedy player to move expects from its turn: every
/// certain mine, then one guess at the highest uncertain probability.
fn greedy_turn(a: &Analysis) -> f64 {
    let q = a
        .hidden()
        .map(|(_, p)| p)
        .filter(|&p| p < 1.0)
        .fold(0.0, f64::max);
    a.mines().len() as f64 + q
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
