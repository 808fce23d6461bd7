//! What revealing a cell would show: the distribution of its number and the
//! position that follows each value. Lookahead in the guess policy and the
//! two-player mode build on this.

use crate::count::{Counted, count};
use crate::frontier::Frontier;
use crate::frontier::SolveError;
use crate::position::{Cell, Position};
use crate::probability::{Analysis, finish};

/// One number a revealed cell may show.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub value: u8,
    /// Probability of this value given that the cell is safe.
    pub probability: f64,
    /// The analysis of the position with the cell showing `value`.
    pub analysis: Analysis,
}

/// Every number `cell` can show if it is safe, with its probability (given
/// safe) and the resulting analysis. Empty when the cell is certainly a mine.
///
/// The positions for the different numbers share their structure, so the
/// frontier is built once and only the component holding the new number is
/// recounted for each value.
///
/// Panics if `cell` is not hidden.
pub fn outcomes(pos: &Position, cell: usize) -> Result<Vec<Outcome>, SolveError> {
    assert!(pos.is_hidden(cell), "outcomes of a cell that is not hidden");
    let grid = pos.grid();
    let (mut known, mut hidden) = (0u8, 0u8);
    for n in grid.neighbours(cell) {
        match pos.cell(n) {
            Cell::Mine => known += 1,
            Cell::Hidden => hidden += 1,
            Cell::Number(_) => {}
        }
    }
    let mut next = pos.clone();
    next.set(cell, Cell::Number(known));
    let mut frontier = match Frontier::build(&next) {
        Ok(f) => f,
        Err(e @ SolveError::TooComplex { .. }) => return Err(e),
        Err(_) => return Ok(Vec::new()),
    };
    let mut out: Vec<Outcome> = Vec::new();
    let mut lns = Vec::new();
    let mut keep = |analysis: Result<Analysis, SolveError>, value: u8| match analysis {
        Ok(analysis) => {
            lns.push(analysis.ln_arrangements());
            out.push(Outcome {
                value,
                probability: 0.0,
                analysis,
            });
            Ok(())
        }
        Err(e @ SolveError::TooComplex { .. }) => Err(e),
        Err(_) => Ok(()),
    };
    let own = frontier
        .constraints
        .iter()
        .position(|c| c.cell as usize == cell);
    match own {
        None => keep(finish_all(&frontier, grid), known)?,
        Some(j) => {
            let comp = frontier
                .components
                .iter()
                .position(|c| c.constraints.binary_search(&(j as u32)).is_ok())
                .expect("every constraint is in a component");
            let mut counted: Vec<Counted> = (0..frontier.components.len())
                .map(|c| {
                    if c == comp {
                        Ok(Counted::default())
                    } else {
                        count(&frontier, c, grid)
                    }
                })
                .collect::<Result<_, _>>()?;
            for need in 0..=hidden {
                frontier.constraints[j].need = need;
                counted[comp] = count(&frontier, comp, grid)?;
                keep(finish(&frontier, &counted, grid), known + need)?;
            }
        }
    }
    let max = lns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = lns.iter().map(|l| (l - max).exp()).sum();
    for (o, l) in out.iter_mut().zip(&lns) {
        o.probability = (l - max).exp() / total;
    }
    Ok(out)
}

fn finish_all(frontier: &Frontier, grid: crate::grid::Grid) -> Result<Analysis, SolveError> {
    let counted: Vec<Counted> = (0..frontier.components.len())
        .map(|c| count(frontier, c, grid))
        .collect::<Result<_, _>>()?;
    finish(frontier, &counted, grid)
}
