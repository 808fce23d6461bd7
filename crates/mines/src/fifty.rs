//! Forced 50/50s: guesses no future reveal can ever improve.
//!
//! Take two sets of hidden cells `A` and `B` of the same size such that
//! every arrangement has mines on all of `A` and none of `B`, or the other
//! way round, and every cell that is not a known mine (outside `A ∪ B`)
//! touches as many cells of `A` as of `B`. Every number, shown now or
//! revealed later, is then the same under both, so swapping `A` and `B` maps
//! each arrangement to another with the same evidence: each way round has
//! probability ½, independently of the rest of the board. The only way to
//! learn which is to reveal a cell of `A ∪ B`, a coin flip whenever it is
//! done.
//!
//! So the guess is best made first: `P(win) = ½ · V(position + its number)`,
//! and the number it shows can only help the guesses after it. The idea of
//! guessing unavoidable 50/50s at once is David Hill's (JSMinesweeper, "50/50
//! and pseudo-50/50 detection"). Two shapes are looked for: a pair of cells
//! holding one mine (`A = {a}`, `B = {b}`), and a 2×2 block holding two
//! mines on one diagonal or the other.

use crate::frontier::SolveError;
use crate::grid::Grid;
use crate::position::{Cell, Position};
use crate::probability::{Analysis, analyze};

/// Probability of ½ up to rounding.
fn is_half(p: f64) -> bool {
    (p - 0.5).abs() < 1e-9
}

/// A forced 50/50: the cells of `A ∪ B`, any of which is the guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forced {
    pub cells: Vec<usize>,
}

impl Forced {
    /// The cell to reveal.
    pub fn guess(&self) -> usize {
        self.cells[0]
    }
}

/// A forced 50/50 in `pos` (whose probabilities are `analysis`), if there is
/// one. Costs an extra analysis per shape that passes the cheap tests but
/// needs the engine to confirm its two arrangements.
pub fn forced_guess(pos: &Position, analysis: &Analysis) -> Result<Option<Forced>, SolveError> {
    let grid = pos.grid();
    let halves: Vec<usize> = analysis
        .hidden()
        .filter(|&(_, p)| is_half(p))
        .map(|(c, _)| c)
        .collect();
    let mut half = vec![false; grid.len()];
    for &c in &halves {
        half[c] = true;
    }
    let walled: Vec<usize> = halves
        .iter()
        .copied()
        .filter(|&c| walled_in(pos, c))
        .collect();
    for &a in &halves {
        for b in pair_partners(pos, &half, &walled, a) {
            if swaps(pos, grid, &[a], &[b]) && exactly_one_side(pos, &[a], &[b])? {
                return Ok(Some(Forced { cells: vec![a, b] }));
            }
        }
    }
    for &a in &halves {
        let (x, y) = grid.coords(a);
        let (Some(b), Some(c), Some(d)) = (
            grid.checked_index(x + 1, y),
            grid.checked_index(x, y + 1),
            grid.checked_index(x + 1, y + 1),
        ) else {
            continue;
        };
        let [ah, bh, ch, dh] = [a, b, c, d].map(|i| analysis.probability(i).is_some_and(is_half));
        if ah
            && bh
            && ch
            && dh
            && swaps(pos, grid, &[a, d], &[b, c])
            && exactly_one_side(pos, &[a, d], &[b, c])?
        {
            return Ok(Some(Forced {
                cells: vec![a, b, c, d],
            }));
        }
    }
    Ok(None)
}

/// Whether every neighbour of `c` is a known mine.
fn walled_in(pos: &Position, c: usize) -> bool {
    pos.grid().neighbours(c).all(|n| pos.cell(n) == Cell::Mine)
}

/// The ½ cells after `a` (in index order) that may pair with it. Every
/// neighbour of `a` that is not a known mine must touch `b` too ([`swaps`]),
/// so `b` is within two steps of `a`, unless every neighbour of `a` is a
/// known mine, and then every neighbour of `b` is too. Trying only these
/// keeps a board of many ½ cells (a blank one) linear, not quadratic, and
/// finds the same first pair as trying every one.
fn pair_partners(pos: &Position, half: &[bool], walled: &[usize], a: usize) -> Vec<usize> {
    let grid = pos.grid();
    let (x, y) = grid.coords(a);
    let mut partners: Vec<usize> = (y.saturating_sub(2)..=y + 2)
        .flat_map(|v| (x.saturating_sub(2)..=x + 2).map(move |u| (u, v)))
        .filter_map(|(u, v)| grid.checked_index(u, v))
        .filter(|&b| b > a && half[b])
        .collect();
    if walled_in(pos, a) {
        partners.extend(walled.iter().copied().filter(|&b| b > a));
    }
    partners.sort_unstable();
    partners.dedup();
    partners
}

/// Whether every cell outside `A ∪ B` that is not a known mine touches as
/// many cells of `A` as of `B`. Only cells next to `A ∪ B` can touch any.
fn swaps(pos: &Position, grid: Grid, a: &[usize], b: &[usize]) -> bool {
    let inside = |c: usize| a.contains(&c) || b.contains(&c);
    let touching = |c: usize, set: &[usize]| set.iter().filter(|&&s| adjacent(grid, c, s)).count();
    a.iter().chain(b).all(|&s| {
        grid.neighbours(s)
            .filter(|&c| !inside(c) && pos.cell(c) != Cell::Mine)
            .all(|c| touching(c, a) == touching(c, b))
    })
}

fn adjacent(grid: Grid, c: usize, d: usize) -> bool {
    let ((x, y), (u, v)) = (grid.coords(c), grid.coords(d));
    c != d && x.abs_diff(u) <= 1 && y.abs_diff(v) <= 1
}

/// Whether every arrangement has mines on all of `A` and none of `B` or the
/// other way round, given that both sides are swap images of each other and
/// each cell is a mine with probability ½. For a pair, a number that needs
/// one more mine and has exactly the two as hidden neighbours settles it;
/// otherwise the engine is asked what a mine on the first cell of `A`
/// implies.
fn exactly_one_side(pos: &Position, a: &[usize], b: &[usize]) -> Result<bool, SolveError> {
    if let ([a], [b]) = (a, b)
        && one_mine_between(pos, *a, *b)
    {
        return Ok(true);
    }
    let mut given = pos.clone();
    given.set(a[0], Cell::Mine);
    let after = match analyze(&given) {
        Ok(after) => after,
        Err(SolveError::TooComplex { .. }) => return Ok(false),
        Err(e) => return Err(e),
    };
    let mine = |c: &usize| c == &a[0] || after.mines().contains(c);
    Ok(a.iter().all(mine) && b.iter().all(|c| after.safe().contains(c)))
}

/// Whether a revealed number next to both needs exactly one more mine and
/// has no other hidden neighbour.
fn one_mine_between(pos: &Position, a: usize, b: usize) -> bool {
    let grid = pos.grid();
    grid.neighbours(a).any(|n| {
        let Cell::Number(v) = pos.cell(n) else {
            return false;
        };
        let (mut hidden, mut mines) = (0, 0u8);
        for c in grid.neighbours(n) {
            match pos.cell(c) {
                Cell::Hidden if c == a || c == b => hidden += 1,
                Cell::Hidden => return false,
                Cell::Mine => mines += 1,
                Cell::Number(_) => {}
            }
        }
        hidden == 2 && v == mines + 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guess(text: &str) -> Option<usize> {
        let pos = Position::parse(text).unwrap();
        forced_guess(&pos, &analyze(&pos).unwrap())
            .unwrap()
            .map(|f| f.guess())
    }

    #[test]
    fn two_cells_behind_the_same_numbers_are_forced() {
        assert_eq!(guess("3 2 1\n.10\n.10\n"), Some(0));
        assert_eq!(guess("3 1 1\n.1.\n"), Some(0));
    }

    #[test]
    fn two_cells_walled_in_by_mines_are_forced_by_the_count() {
        // No number sees the pair alone: only the total says one mine.
        assert_eq!(guess("4 1 3\n.*.*\n"), Some(0));
    }

    #[test]
    fn a_cell_touching_one_of_the_pair_tells_them_apart() {
        // The 1 needs one mine in cells 1 or 3, but revealing cell 0 would
        // say which.
        assert_eq!(guess("4 1 1\n..1.\n"), None);
        // A number touching only one of them already tells them apart: the
        // last 1 makes cell 2 the mine.
        assert_eq!(guess("4 1 1\n.1.1\n"), None);
    }

    /// The pairs tried before: every two ½ cells, in index order.
    fn naive_pair(pos: &Position, analysis: &Analysis) -> Option<Vec<usize>> {
        let halves: Vec<usize> = analysis
            .hidden()
            .filter(|&(_, p)| is_half(p))
            .map(|(c, _)| c)
            .collect();
        for (k, &a) in halves.iter().enumerate() {
            for &b in &halves[k + 1..] {
                if swaps(pos, pos.grid(), &[a], &[b]) && exactly_one_side(pos, &[a], &[b]).unwrap()
                {
                    return Some(vec![a, b]);
                }
            }
        }
        None
    }

    /// On random positions with known mines and numbers, the pairs tried
    /// now find the same first forced pair as every pair would.
    #[test]
    fn nearby_and_walled_in_partners_find_the_same_pair_as_all_pairs() {
        let mut rng = arcade_core::Rng::new(50);
        let (mut tried, mut found, mut walled) = (0, 0, 0);
        while tried < 3000 {
            let (w, h) = (3 + rng.index(6), 1 + rng.index(5));
            let grid = Grid::new(w, h).unwrap();
            // Every other position dense, its mines mostly known, so that
            // cells walled in by known mines come up too.
            let (density, known) = [(0.35, 0.4), (0.7, 0.9)][tried % 2];
            let mines: Vec<bool> = (0..w * h).map(|_| rng.chance(density)).collect();
            let mut pos = Position::new(grid, mines.iter().filter(|&&m| m).count());
            for c in 0..w * h {
                if mines[c] && rng.chance(known) {
                    pos.set(c, Cell::Mine);
                } else if !mines[c] && rng.chance(0.5) {
                    let n = grid.neighbours(c).filter(|&d| mines[d]).count();
                    pos.set(c, Cell::Number(n as u8));
                }
            }
            let Ok(analysis) = analyze(&pos) else {
                continue;
            };
            tried += 1;
            let naive = naive_pair(&pos, &analysis);
            let fast = forced_guess(&pos, &analysis).unwrap();
            if let Some(pair) = &naive {
                found += 1;
                walled +=
                    usize::from(walled_in(&pos, pair[0]) && !adjacent(grid, pair[0], pair[1]));
                assert_eq!(fast.map(|f| f.cells).as_ref(), Some(pair), "{pos:?}");
            } else {
                assert!(fast.is_none_or(|f| f.cells.len() == 4), "{pos:?}");
            }
        }
        eprintln!("{found} of {tried} positions had a forced pair, {walled} walled in apart");
        assert!(
            found >= 100 && walled >= 10,
            "{found} pairs, {walled} walled in"
        );
    }

    #[test]
    fn a_box_with_a_mine_pair_on_either_diagonal_is_forced() {
        // Each 2 sees one cell of each diagonal; the wall and the known mine
        // close the other corners.
        assert_eq!(guess("3 3 3\n..1\n..2\n12*\n"), Some(0));
    }
}
