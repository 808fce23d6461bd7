//! The guess policy: what to reveal when no hidden cell is certainly safe.
//!
//! 1. Few arrangements left: exhaustive search for the move most likely to win
//!    the game ([`crate::endgame`]).
//! 2. A forced 50/50 (`fifty_fifty`, [`crate::fifty`]): guess it now, since
//!    its odds never change and its number can only help later guesses.
//! 3. Otherwise the candidates are the cells whose mine probability is within
//!    `tolerance` of the lowest. Each is scored by looking one reveal ahead:
//!    for every number it may show, the position is re-solved, and the score
//!    is the probability of surviving this guess *and* the next one. A
//!    position with a safe cell needs no next guess, but with `leaf_clicks`
//!    = 2 (standard and strong) one with a *single* safe cell is looked at
//!    once more: that cell is revealed, and each number it may show that
//!    leaves no safe cell counts as its best safety. A lone safe cell often
//!    only leads to the next guess; counting it as settled favoured guesses
//!    that merely postpone one.
//!    Ties go to the cell most likely to bring progress (a safe cell or an
//!    opening afterwards).
//!    Only one candidate (`outside_candidates`) is a cell away from the
//!    frontier: the one most likely to show a zero. Such cells all have the
//!    same mine probability and mostly tell the same story, and when they
//!    are the safest they used to fill every candidate slot, so frontier
//!    cells a little less safe but far more informative were never looked
//!    at.
//!    A dead cell (`skip_dead`), one that can show only one number if safe,
//!    is passed over while another candidate exists. Its reveal tells only
//!    that it was safe, and any play that takes it now is matched by the
//!    play that acts as if it had been taken and takes it last: the same
//!    wins where it is safe, and the other cells may settle it before then
//!    (David Hill's JSMinesweeper names such cells). They are rarely the
//!    best guess, so the rule changes few games.
//! 4. Optionally (`deep_candidates > 0`, the strong setting), the best few
//!    of those whose scores are within `deep_margin` of the best are scored
//!    `deep_reveals` (default two) reveals ahead: where a number leaves no
//!    safe cell, the next guess is itself chosen the same way one reveal
//!    less deep, so the score is the chance of surviving up to
//!    `deep_reveals + 1` guesses. Two reveals pay on expert; three do worse
//!    at a quarter of the speed: surviving more guesses is not the same as
//!    winning.
//! 5. Without lookahead (`candidates = 0`): lowest probability, ties to the
//!    cell most likely to be a zero.
//!
//! Every setting above was measured in paired runs on the same layouts; the
//! figures, and the many variants that were tried and not kept, are in
//! `docs/results/mines.md`.

use crate::endgame;
use crate::fifty;
use crate::frontier::SolveError;
use crate::outcome::{Outcome, outcomes};
use crate::position::{Cell, Position};
use crate::probability::Analysis;
use serde::{Deserialize, Serialize};

/// How hard the solver thinks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Guesses examined by one-reveal lookahead (0: none).
    pub candidates: usize,
    /// A guess is a candidate if its mine probability is at most the lowest
    /// plus this.
    pub tolerance: f64,
    /// Exhaustive endgame search when at most this many arrangements remain
    /// (0: never).
    pub endgame_limit: usize,
    /// Search states the endgame search may visit before giving up.
    pub endgame_budget: usize,
    /// The best this many one-reveal candidates are scored two reveals
    /// ahead (0: none); see [`Solver::guess`].
    #[serde(default)]
    pub deep_candidates: usize,
    /// Candidates examined in each position after the first reveal when
    /// looking two reveals ahead.
    #[serde(default)]
    pub deep_inner: usize,
    /// Only candidates whose one-reveal score is within this of the best
    /// are looked at two reveals ahead: a clear winner needs no deeper look.
    #[serde(default)]
    pub deep_margin: f64,
    /// How many reveals ahead the closest candidates are scored (2 when
    /// less): each further reveal looks at the best next guesses the same
    /// way, within the same margin.
    #[serde(default)]
    pub deep_reveals: usize,
    /// Guess a forced 50/50 ([`crate::fifty`]) as soon as one appears.
    #[serde(default)]
    pub fifty_fifty: bool,
    /// At the lookahead's leaves, a position with a safe cell counts as
    /// settled only if it has at least this many (0 and 1 alike: any): with
    /// fewer, its first safe cell is revealed, each number it may show is
    /// worth its best safety if that leaves no safe cell, and otherwise the
    /// same test applies with one click less. Step 3 of the module notes says why.
    #[serde(default)]
    pub leaf_clicks: usize,
    /// At most this many candidates away from the frontier, the ones most
    /// likely to show a zero (0: no limit). Step 3 of the module notes says why.
    #[serde(default)]
    pub outside_candidates: usize,
    /// Pass over dead cells (if safe, they can show only one number) while
    /// the lookahead has any other candidate. Step 3 of the module notes says
    /// why.
    #[serde(default)]
    pub skip_dead: bool,
}

impl Config {
    /// Lowest probability only, ties to likely zeros; no search.
    pub fn fast() -> Config {
        Config {
            candidates: 0,
            tolerance: 0.0,
            endgame_limit: 0,
            endgame_budget: 0,
            deep_candidates: 0,
            deep_inner: 0,
            deep_margin: 0.0,
            fifty_fifty: false,
            deep_reveals: 2,
            leaf_clicks: 1,
            outside_candidates: 0,
            skip_dead: false,
        }
    }

    /// The default: one reveal of lookahead on up to 16 candidates within
    /// 0.1 of the safest (stronger on expert than 6 within 0.05, at 60% of
    /// the speed; see `docs/results/mines.md`), a small endgame search.
    pub fn standard() -> Config {
        Config {
            candidates: 16,
            tolerance: 0.1,
            endgame_limit: 64,
            endgame_budget: 20_000,
            deep_candidates: 0,
            deep_inner: 0,
            deep_margin: 0.0,
            fifty_fifty: true,
            deep_reveals: 2,
            leaf_clicks: 2,
            outside_candidates: 1,
            skip_dead: true,
        }
    }

    /// The strongest setting: as standard, plus two reveals ahead on the
    /// closest few candidates and a larger endgame search (2,048
    /// arrangements; measured against 512, 4,096 and 8,192 in
    /// `docs/results/mines.md`).
    pub fn strong() -> Config {
        Config {
            candidates: 16,
            tolerance: 0.1,
            endgame_limit: 2048,
            endgame_budget: 600_000,
            deep_candidates: 3,
            deep_inner: 4,
            deep_margin: 0.01,
            fifty_fifty: true,
            deep_reveals: 2,
            leaf_clicks: 2,
            outside_candidates: 1,
            skip_dead: true,
        }
    }
}

/// The named solver settings a user picks from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// [`Config::fast`].
    Fast,
    /// [`Config::standard`].
    Standard,
    /// [`Config::strong`].
    Strong,
}

impl Strength {
    pub fn config(self) -> Config {
        match self {
            Strength::Fast => Config::fast(),
            Strength::Standard => Config::standard(),
            Strength::Strong => Config::strong(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Strength::Fast => "fast",
            Strength::Standard => "standard",
            Strength::Strong => "strong",
        }
    }
}

/// A chosen guess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guess {
    pub cell: usize,
    /// Its mine probability.
    pub mine_probability: f64,
    /// The probability of winning from here, when the endgame search decided.
    pub win_probability: Option<f64>,
}

/// Picks guesses.
#[derive(Clone, Debug)]
pub struct Solver {
    pub config: Config,
}

impl Solver {
    pub fn new(config: Config) -> Solver {
        Solver { config }
    }

    /// The best guess in a position with no certainly safe cell.
    pub fn guess(&self, pos: &Position, analysis: &Analysis) -> Result<Guess, SolveError> {
        let cfg = &self.config;
        if cfg.endgame_limit > 0
            && analysis.ln_arrangements() <= (cfg.endgame_limit as f64).ln() + 1e-9
            && let Some(m) = endgame::best_move(pos, cfg.endgame_limit, cfg.endgame_budget)
        {
            return Ok(Guess {
                cell: m.cell,
                mine_probability: analysis.probability(m.cell).unwrap_or(0.0),
                win_probability: Some(m.win_probability),
            });
        }
        if cfg.fifty_fifty
            && let Some(forced) = fifty::forced_guess(pos, analysis)?
        {
            return Ok(Guess {
                cell: forced.guess(),
                mine_probability: 0.5,
                win_probability: None,
            });
        }
        let candidates = self.candidates(pos, analysis);
        let first = candidates[0];
        let pick = |cell: usize| Guess {
            cell,
            mine_probability: analysis.probability(cell).expect("candidates are hidden"),
            win_probability: None,
        };
        if cfg.candidates == 0 || candidates.len() == 1 {
            return Ok(pick(first));
        }
        // Scores within the margin of the best must all be known when the
        // closest are looked at more deeply.
        let slack = if cfg.deep_candidates > 0 {
            cfg.deep_margin
        } else {
            0.0
        };
        let scored = self.one_step_scores(pos, analysis, &candidates, cfg.candidates, slack)?;
        let Some(&(_, _, best_cell)) = scored.first() else {
            return Ok(pick(first));
        };
        if cfg.deep_candidates == 0 || scored.len() == 1 {
            return Ok(pick(best_cell));
        }
        let best = self.deepest(pos, analysis, scored, cfg.deep_reveals.max(2))?;
        Ok(pick(best.map_or(best_cell, |(_, c)| c)))
    }

    /// Of one-reveal `scored` candidates (best first), the one with the best
    /// score `reveals` reveals ahead, looking only at the best
    /// `deep_candidates` within `deep_margin` of the first; `None` when the
    /// first is too big to look ahead.
    fn deepest(
        &self,
        pos: &Position,
        analysis: &Analysis,
        mut scored: Vec<(f64, f64, usize)>,
        reveals: usize,
    ) -> Result<Option<(f64, usize)>, SolveError> {
        let cfg = &self.config;
        let Some(&(top, _, first)) = scored.first() else {
            return Ok(None);
        };
        scored.retain(|s| s.0 >= top - cfg.deep_margin);
        scored.truncate(cfg.deep_candidates);
        if scored.len() == 1 {
            return Ok(Some((top, first)));
        }
        let mut best = (f64::NEG_INFINITY, f64::NEG_INFINITY, first);
        for (one, progress, cell) in scored {
            // A deeper score never exceeds the one-reveal score, and the
            // list is best first: nothing later can win.
            if one < best.0 {
                break;
            }
            let p = analysis.probability(cell).expect("hidden");
            let Some(deep) = self.deep_score(pos, cell, p, reveals)? else {
                break; // too big to look at: the best so far stands
            };
            if (deep, progress) > (best.0, best.1) {
                best = (deep, progress, cell);
            }
        }
        Ok((best.0 > f64::NEG_INFINITY).then_some((best.0, best.2)))
    }

    /// One-reveal scores `(survival, progress, cell)` of up to `limit` of the
    /// `candidates` (safest first), best first. Stops early when no later
    /// candidate can come within `slack` of the best, or when a position is
    /// too big to look ahead (what was scored so far stands). With
    /// `skip_dead`, dead cells are left out unless nothing else was scored.
    fn one_step_scores(
        &self,
        pos: &Position,
        analysis: &Analysis,
        candidates: &[usize],
        limit: usize,
        slack: f64,
    ) -> Result<Vec<(f64, f64, usize)>, SolveError> {
        let cfg = &self.config;
        let mut scored: Vec<(f64, f64, usize)> = Vec::new();
        let mut dead: Vec<(f64, f64, usize)> = Vec::new();
        let mut best = f64::NEG_INFINITY;
        for &cell in candidates.iter().take(limit) {
            let p = analysis.probability(cell).expect("hidden");
            // The score is at most the chance of surviving this guess, and
            // candidates come safest first.
            if 1.0 - p < best - slack {
                break;
            }
            let Some(outs) = outcomes_within_limits(pos, cell)? else {
                break;
            };
            let is_dead = outs.len() == 1;
            let (mut survive, mut progress) = (0.0, 0.0);
            for o in outs {
                let next_safe = if needs_guess(&o.analysis) {
                    self.guess_value(&o.analysis)
                } else {
                    progress += o.probability;
                    self.settled_value(pos, cell, &o, cfg.leaf_clicks)?
                };
                survive += o.probability * next_safe;
            }
            let score = (1.0 - p) * survive;
            if cfg.skip_dead && is_dead {
                dead.push((score, (1.0 - p) * progress, cell));
                continue;
            }
            best = best.max(score);
            scored.push((score, (1.0 - p) * progress, cell));
        }
        if scored.is_empty() {
            scored = dead;
        }
        // Stable: equal scores keep the safest-first, likeliest-zero order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
        Ok(scored)
    }

    /// The score of a guess at hidden `cell` `reveals` (at least 2) reveals
    /// ahead, as the deep lookahead computes it (see [`Solver::guess`]):
    /// the probability of surviving it and then, where no cell is certainly
    /// safe, the best of `deep_inner` next guesses scored one reveal less
    /// deep. `None` when a position is too big to look ahead.
    pub fn reveal_score(
        &self,
        pos: &Position,
        analysis: &Analysis,
        cell: usize,
        reveals: usize,
    ) -> Result<Option<f64>, SolveError> {
        let p = analysis.probability(cell).expect("a hidden cell");
        self.deep_score(pos, cell, p, reveals.max(2))
    }

    /// The score of a guess at `cell` (mine probability `p`) `reveals`
    /// reveals ahead: the probability of surviving it and, where no cell is
    /// then certainly safe, the best next guess scored `reveals - 1` ahead
    /// (one reveal: [`Solver::one_step_scores`]).
    fn deep_score(
        &self,
        pos: &Position,
        cell: usize,
        p: f64,
        reveals: usize,
    ) -> Result<Option<f64>, SolveError> {
        let cfg = &self.config;
        let Some(outs) = outcomes_within_limits(pos, cell)? else {
            return Ok(None);
        };
        let mut survive = 0.0;
        for o in outs {
            let value = if needs_guess(&o.analysis) {
                let mut next = pos.clone();
                next.set(cell, Cell::Number(o.value));
                let inner = self.candidates(&next, &o.analysis);
                let slack = if reveals > 2 { cfg.deep_margin } else { 0.0 };
                let scored =
                    self.one_step_scores(&next, &o.analysis, &inner, cfg.deep_inner, slack)?;
                let best = if reveals > 2 {
                    self.deepest(&next, &o.analysis, scored, reveals - 1)?
                        .map(|(s, _)| s)
                } else {
                    scored.first().map(|&(s, _, _)| s)
                };
                match best {
                    Some(s) => s,
                    None => return Ok(None),
                }
            } else {
                self.settled_value(pos, cell, &o, cfg.leaf_clicks)?
            };
            survive += o.probability * value;
        }
        Ok(Some((1.0 - p) * survive))
    }

    /// The lookahead's value of outcome `o` of revealing `cell` in `pos`,
    /// which leaves a safe cell (or nothing but mines): the chance of
    /// surviving the next `clicks` reveals when the safe cells come first,
    /// one at a time.
    fn settled_value(
        &self,
        pos: &Position,
        cell: usize,
        o: &Outcome,
        clicks: usize,
    ) -> Result<f64, SolveError> {
        let safe = o.analysis.safe();
        if safe.is_empty() || safe.len() >= clicks {
            return Ok(1.0);
        }
        let mut next = pos.clone();
        next.set(cell, Cell::Number(o.value));
        let Some(outs) = outcomes_within_limits(&next, safe[0])? else {
            return Ok(1.0);
        };
        let mut value = 0.0;
        for n in &outs {
            let v = if needs_guess(&n.analysis) {
                self.guess_value(&n.analysis)
            } else {
                self.settled_value(&next, safe[0], n, clicks - 1)?
            };
            value += n.probability * v;
        }
        Ok(value)
    }

    /// The lookahead's value of a position that needs a guess: its best
    /// safety.
    fn guess_value(&self, analysis: &Analysis) -> f64 {
        1.0 - analysis.min_probability()
    }

    /// Hidden cells within the tolerance of the lowest probability, best
    /// first: by probability, then by the chance of showing a zero
    /// (estimated from the neighbours' probabilities as if independent).
    fn candidates(&self, pos: &Position, analysis: &Analysis) -> Vec<usize> {
        let grid = pos.grid();
        let low = analysis.min_probability();
        let limit = low + self.config.tolerance;
        let mut scored: Vec<(f64, f64, usize)> = analysis
            .hidden()
            .filter(|&(_, p)| p <= limit && p < 1.0)
            .map(|(i, p)| {
                let zero: f64 = grid
                    .neighbours(i)
                    .map(|n| match pos.cell(n) {
                        Cell::Hidden => 1.0 - analysis.probability(n).unwrap_or(1.0),
                        Cell::Mine => 0.0,
                        Cell::Number(_) => 1.0,
                    })
                    .product();
                (p, zero, i)
            })
            .collect();
        scored.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(b.1.total_cmp(&a.1))
                .then(a.2.cmp(&b.2))
        });
        let limit = match self.config.outside_candidates {
            0 => usize::MAX,
            k => k,
        };
        let mut outside = 0;
        scored
            .into_iter()
            .map(|(_, _, i)| i)
            .filter(|&i| {
                let frontier = pos.borders_number(i);
                outside += usize::from(!frontier);
                frontier || outside <= limit
            })
            .collect()
    }
}

/// [`outcomes`], or `None` when the position is too big to look ahead.
fn outcomes_within_limits(pos: &Position, cell: usize) -> Result<Option<Vec<Outcome>>, SolveError> {
    match outcomes(pos, cell) {
        Ok(outs) => Ok(Some(outs)),
        Err(SolveError::TooComplex { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether a position calls for a guess: no cell is certainly safe and some
/// hidden cell may still be safe (when every hidden cell is a mine, the game
/// is won).
fn needs_guess(analysis: &Analysis) -> bool {
    analysis.safe().is_empty() && analysis.min_probability() < 1.0
}
