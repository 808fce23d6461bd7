//! The battle AIs. Each sees only the shared view (numbers and captured
//! mines) and returns the cell to click.

use super::ev::Search;
use crate::deduce::deduce;
use crate::frontier::SolveError;
use crate::position::{Cell, Position};
use crate::probability::analyze;
use arcade_core::Rng;
use arcade_core::input::quote;
use std::fmt;
use std::str::FromStr;

/// A computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ai {
    /// Certain mines from the basic deductions, else a random hidden cell:
    /// a typical contest entry.
    Rule,
    /// The highest exact mine probability.
    Greedy,
    /// My expected captures minus the opponent's on their reply.
    Ev,
}

impl Ai {
    pub const ALL: [Ai; 3] = [Ai::Rule, Ai::Greedy, Ai::Ev];

    pub fn name(self) -> &'static str {
        match self {
            Ai::Rule => "rule",
            Ai::Greedy => "greedy",
            Ai::Ev => "ev",
        }
    }

    /// The cell to click in `view` (which must have a hidden cell).
    /// `rng` breaks ties and drives the random choices.
    pub fn choose(self, view: &Position, rng: &mut Rng) -> Result<usize, SolveError> {
        match self {
            Ai::Rule => Ok(rule(view, rng)),
            Ai::Greedy => greedy(view, rng),
            Ai::Ev => Search::ev().choose(view, rng),
        }
    }
}

impl fmt::Display for Ai {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ai {
    type Err = String;

    fn from_str(s: &str) -> Result<Ai, String> {
        Ai::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown AI {} (expected rule, greedy or ev)", quote(s)))
    }
}

/// A mine the trivial and pair rules prove, else a random hidden cell they
/// do not prove safe.
fn rule(view: &Position, rng: &mut Rng) -> usize {
    let mut known = view.clone();
    let mut safe = Vec::new();
    deduce(&mut known, None, &mut safe);
    let hidden = |i: &usize| view.is_hidden(*i);
    if let Some(m) = (0..view.grid().len()).find(|&i| hidden(&i) && known.cell(i) == Cell::Mine) {
        return m;
    }
    let unsure: Vec<usize> = (0..view.grid().len())
        .filter(|i| hidden(i) && !safe.contains(i))
        .collect();
    let pool = if unsure.is_empty() {
        (0..view.grid().len()).filter(hidden).collect()
    } else {
        unsure
    };
    pool[rng.index(pool.len())]
}

/// A hidden cell of highest exact mine probability, ties at random.
fn greedy(view: &Position, rng: &mut Rng) -> Result<usize, SolveError> {
    let a = analyze(view)?;
    let best = a.hidden().map(|(_, p)| p).fold(f64::NEG_INFINITY, f64::max);
    let top: Vec<usize> = a
        .hidden()
        .filter(|&(_, p)| p >= best - 1e-12)
        .map(|(c, _)| c)
        .collect();
    Ok(top[rng.index(top.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        Position::parse(text).unwrap()
    }

    #[test]
    fn names_round_trip() {
        for ai in Ai::ALL {
            assert_eq!(ai.name().parse::<Ai>(), Ok(ai));
        }
        assert!("human".parse::<Ai>().is_err());
    }

    /// A 1 in a corner of a 2x2 with one hidden neighbour left: the mine
    /// is certain and every AI takes it.
    #[test]
    fn every_ai_takes_a_certain_mine() {
        let p = pos("3 1 1\n1..\n");
        for ai in Ai::ALL {
            for seed in 0..5 {
                assert_eq!(ai.choose(&p, &mut Rng::new(seed)).unwrap(), 1, "{ai}");
            }
        }
    }

    /// Greedy picks the likeliest cell: a 2 in a corner of three hidden
    /// cells (2/3 each) beats the rest.
    #[test]
    fn greedy_prefers_the_likeliest_cell() {
        let p = pos("4 4 3\n2...\n....\n....\n....\n");
        let a = analyze(&p).unwrap();
        let c = greedy(&p, &mut Rng::new(1)).unwrap();
        assert!([1, 4, 5].contains(&c));
        assert!(a.probability(c).unwrap() > a.rest_probability().unwrap());
    }

    #[test]
    fn rule_avoids_proven_safe_cells() {
        // The 1 at (1,0) already touches a known mine, so its other
        // neighbours (2,4,5,6) are safe; only 3 and 7 are unknown.
        let p = pos("4 2 2\n*1..\n....\n");
        let mut seen = [false; 8];
        for seed in 0..50 {
            seen[rule(&p, &mut Rng::new(seed))] = true;
        }
        assert_eq!(seen, [false, false, false, true, false, false, false, true]);
    }
}
