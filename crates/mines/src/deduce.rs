//! Cheap local deductions, tried before the exact engine because they settle
//! most moves of a game at a fraction of its cost.
//!
//! For a number with hidden neighbours `H` still missing `r` mines:
//! - `r = 0`: every cell of `H` is safe; `r = |H|`: every cell is a mine.
//! - For two numbers A and B, the cells of B outside A hold `r_B − s` mines
//!   where `s`, the mines in the shared cells, lies between
//!   `max(0, r_A − |A∖B|)` and `min(r_A, |A∩B|)`. When that pins `B∖A` to
//!   all-safe or all-mines (the subset rule is the case `A ⊆ B`), so be it;
//!   when it pins `B∖A` to all mines with `s = r_A`, `A∖B` is all safe.
//!
//! Work is driven by a queue of numbers whose surroundings changed, so a game
//! re-examines only what its last move touched.

use crate::grid::Grid;
use crate::position::{Cell, Position};

/// Finds safe cells and mines by the local rules, flagging the mines in `pos`
/// (as `Cell::Mine`) and appending the safe cells to `safe` (deduplicated).
///
/// `changed` lists the cells whose state changed since the position was last
/// deduced to a standstill (all numbers are examined when it is `None`).
pub fn deduce(pos: &mut Position, changed: Option<&[usize]>, safe: &mut Vec<usize>) {
    let grid = pos.grid();
    let mut queued = vec![false; grid.len()];
    let mut queue: Vec<usize> = Vec::new();
    let mut is_safe = vec![false; grid.len()];
    for &s in safe.iter() {
        is_safe[s] = true;
    }
    match changed {
        None => {
            for i in 0..grid.len() {
                enqueue(pos, &mut queue, &mut queued, i);
            }
        }
        Some(cells) => {
            for &c in cells {
                for i in grid.block(c) {
                    enqueue(pos, &mut queue, &mut queued, i);
                }
            }
        }
    }
    let mut found_mines = Vec::new();
    let mut found_safe = Vec::new();
    while let Some(a) = queue.pop() {
        queued[a] = false;
        found_mines.clear();
        found_safe.clear();
        let sa = Local::of(pos, grid, a, &is_safe);
        if sa.hidden.is_empty() {
            continue;
        }
        if sa.need == 0 {
            found_safe.extend_from_slice(&sa.hidden);
        } else if sa.need as usize == sa.hidden.len() {
            found_mines.extend_from_slice(&sa.hidden);
        } else {
            pairs(
                pos,
                grid,
                a,
                &sa,
                &is_safe,
                &mut found_safe,
                &mut found_mines,
            );
        }
        // What changed alters what the numbers around it see.
        for &c in &found_safe {
            if !is_safe[c] {
                is_safe[c] = true;
                safe.push(c);
                for i in grid.neighbours(c) {
                    enqueue(pos, &mut queue, &mut queued, i);
                }
            }
        }
        for &m in &found_mines {
            if pos.is_hidden(m) && !is_safe[m] {
                pos.set(m, Cell::Mine);
                for i in grid.neighbours(m) {
                    enqueue(pos, &mut queue, &mut queued, i);
                }
            }
        }
    }
}

fn enqueue(pos: &Position, queue: &mut Vec<usize>, queued: &mut [bool], i: usize) {
    if !queued[i] && matches!(pos.cell(i), Cell::Number(_)) {
        queued[i] = true;
        queue.push(i);
    }
}

/// A number's unknown neighbours (hidden and not yet proven safe) and the
/// mines still missing among them.
struct Local {
    hidden: Vec<usize>,
    need: i32,
}

impl Local {
    fn of(pos: &Position, grid: Grid, i: usize, is_safe: &[bool]) -> Local {
        let Cell::Number(v) = pos.cell(i) else {
            return Local {
                hidden: Vec::new(),
                need: 0,
            };
        };
        let mut hidden = Vec::with_capacity(8);
        let mut need = i32::from(v);
        let (x, y) = grid.coords(i);
        grid.for_neighbours(x, y, |n| match pos.cell(n) {
            Cell::Hidden if !is_safe[n] => hidden.push(n),
            Cell::Mine => need -= 1,
            _ => {}
        });
        Local { hidden, need }
    }
}

/// The pair rule between `a` and every number within distance 2, both ways
/// (a change around `a` can unlock a conclusion about either side).
fn pairs(
    pos: &Position,
    grid: Grid,
    a: usize,
    sa: &Local,
    is_safe: &[bool],
    safe: &mut Vec<usize>,
    mines: &mut Vec<usize>,
) {
    let (ax, ay) = grid.coords(a);
    let (x0, y0) = (ax.saturating_sub(2), ay.saturating_sub(2));
    let (x1, y1) = (
        (ax + 2).min(grid.width() - 1),
        (ay + 2).min(grid.height() - 1),
    );
    for by in y0..=y1 {
        for bx in x0..=x1 {
            let b = grid.index(bx, by);
            if b == a || !matches!(pos.cell(b), Cell::Number(_)) {
                continue;
            }
            let sb = Local::of(pos, grid, b, is_safe);
            if sb.hidden.is_empty() {
                continue;
            }
            let shared = sb.hidden.iter().filter(|c| sa.hidden.contains(c)).count();
            if shared > 0 {
                pair_rule(sa, &sb, shared as i32, safe, mines);
                pair_rule(&sb, sa, shared as i32, safe, mines);
            }
        }
    }
}

/// What A tells about the cells of B outside A.
fn pair_rule(sa: &Local, sb: &Local, shared: i32, safe: &mut Vec<usize>, mines: &mut Vec<usize>) {
    let a_only = sa.hidden.len() as i32 - shared;
    let b_only = sb.hidden.len() as i32 - shared;
    if b_only == 0 {
        return;
    }
    // Mines in the shared cells lie in lo..=hi; B∖A holds r_B minus that.
    let lo = (sa.need - a_only).max(0);
    let hi = sa.need.min(shared);
    let outside_a = || sb.hidden.iter().filter(|c| !sa.hidden.contains(c));
    if sb.need - lo == 0 {
        safe.extend(outside_a());
    } else if sb.need - hi == b_only {
        mines.extend(outside_a());
        // Then the shared cells hold r_B − |B∖A|; if that is r_A, A∖B is safe.
        if sb.need - b_only == sa.need && a_only > 0 {
            safe.extend(sa.hidden.iter().filter(|c| !sb.hidden.contains(c)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Position, Vec<usize>) {
        let mut pos = Position::parse(text).unwrap();
        let mut safe = Vec::new();
        deduce(&mut pos, None, &mut safe);
        safe.sort_unstable();
        (pos, safe)
    }

    #[test]
    fn one_two_one() {
        // The 1s force a mine on each side of the 2, so the middle is safe.
        let (pos, safe) = run("3 2 2\n...\n121\n");
        assert_eq!(pos.cell(0), Cell::Mine);
        assert_eq!(pos.cell(2), Cell::Mine);
        assert_eq!(safe, vec![1]);
    }

    #[test]
    fn subset_rule() {
        // The 1 at (0,1) sees (0,0),(1,0); the 1 at (1,1) sees those and
        // (2,0): the extra cell is safe.
        let (_, safe) = run("4 2 1\n....\n11..\n");
        assert_eq!(safe, vec![2, 6]);
    }

    #[test]
    fn trivial_rules() {
        let (pos, safe) = run("3 1 1\n1..\n");
        assert_eq!(pos.cell(1), Cell::Mine);
        // (2,0) touches no number: only the global count could free it.
        assert!(safe.is_empty());
        let (_, safe) = run("3 2 1\n*1.\n...\n");
        assert_eq!(safe, vec![2, 3, 4, 5]);
    }
}
