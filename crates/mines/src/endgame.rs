//! Exhaustive search for the move with the highest probability of winning
//! when few arrangements of the mines remain.
//!
//! Every arrangement that agrees with the position is equally likely, so a
//! state of knowledge is the set `S` of arrangements still possible. Revealing
//! a cell that is safe in all of `S` is free and only adds information, so it
//! is always done first; otherwise the player guesses a cell `c`, loses on
//! the arrangements with a mine there, and sees a number that splits the rest.
//! The game is won once a single arrangement remains (everything is known):
//!
//! `win(S) = max_c Σ_v |S_{c,v}| / |S| · win(S_{c,v})`, memoised on `S`.

use crate::grid::Grid;
use crate::position::{Cell, Position};
use rustc_hash::FxHashMap;

/// A set of arrangements, one bit each.
type Set = Vec<u64>;

fn count(s: &[u64]) -> u32 {
    s.iter().map(|w| w.count_ones()).sum()
}

fn and(a: &[u64], b: &[u64]) -> Set {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

fn is_empty(s: &[u64]) -> bool {
    s.iter().all(|&w| w == 0)
}

/// Lists every arrangement of the unknown mines agreeing with `pos`, as the
/// set of hidden cells (indices into `hidden`) holding a mine; `None` if there
/// are more than `limit`.
pub(crate) fn arrangements(pos: &Position, limit: usize) -> Option<(Vec<usize>, Vec<Vec<bool>>)> {
    let grid = pos.grid();
    // Constraints: numbers with hidden neighbours.
    let mut need: Vec<i32> = Vec::new();
    let mut open: Vec<i32> = Vec::new();
    let mut of_cell: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for i in 0..grid.len() {
        let Cell::Number(v) = pos.cell(i) else {
            continue;
        };
        let mut n = i32::from(v);
        let mut hidden = 0;
        for c in grid.neighbours(i) {
            match pos.cell(c) {
                Cell::Mine => n -= 1,
                Cell::Hidden => {
                    hidden += 1;
                    of_cell.entry(c).or_default().push(need.len());
                }
                Cell::Number(_) => {}
            }
        }
        if hidden > 0 {
            need.push(n);
            open.push(hidden);
        }
    }
    let hidden = frontier_first(pos, grid, &of_cell);
    let constraints: Vec<Vec<usize>> = hidden
        .iter()
        .map(|c| of_cell.get(c).cloned().unwrap_or_default())
        .collect();
    let left = pos.mines() as i64 - pos.known_mines() as i64;
    let mut search = Enumerate {
        constraints: &constraints,
        need,
        open,
        left,
        current: vec![false; hidden.len()],
        out: Vec::new(),
        limit,
    };
    search.run(0, 0).then_some((hidden, search.out))
}

/// Hidden cells with the frontier first, in breadth-first order through the
/// numbers (so constraints close early and prune), then the rest.
fn frontier_first(
    pos: &Position,
    grid: Grid,
    of_cell: &FxHashMap<usize, Vec<usize>>,
) -> Vec<usize> {
    let mut seen = vec![false; grid.len()];
    let mut out = Vec::new();
    for start in 0..grid.len() {
        if seen[start] || !of_cell.contains_key(&start) {
            continue;
        }
        seen[start] = true;
        let mut k = out.len();
        out.push(start);
        while k < out.len() {
            let c = out[k];
            k += 1;
            // Frontier cells within distance 2 share a number, roughly.
            let (x, y) = grid.coords(c);
            for yy in y.saturating_sub(2)..=(y + 2).min(grid.height() - 1) {
                for xx in x.saturating_sub(2)..=(x + 2).min(grid.width() - 1) {
                    let d = grid.index(xx, yy);
                    if !seen[d] && of_cell.contains_key(&d) {
                        seen[d] = true;
                        out.push(d);
                    }
                }
            }
        }
    }
    out.extend((0..grid.len()).filter(|&i| pos.is_hidden(i) && !of_cell.contains_key(&i)));
    out
}

struct Enumerate<'a> {
    constraints: &'a [Vec<usize>],
    need: Vec<i32>,
    open: Vec<i32>,
    left: i64,
    current: Vec<bool>,
    out: Vec<Vec<bool>>,
    limit: usize,
}

impl Enumerate<'_> {
    /// Assigns cells `k..`; false if the limit was passed.
    fn run(&mut self, k: usize, placed: i64) -> bool {
        let n = self.current.len();
        if placed > self.left || placed + ((n - k) as i64) < self.left {
            return true;
        }
        if k == n {
            if self.out.len() >= self.limit {
                return false;
            }
            self.out.push(self.current.clone());
            return true;
        }
        for mine in [false, true] {
            let cons = &self.constraints[k];
            let ok = cons.iter().all(|&j| {
                let need = self.need[j] - i32::from(mine);
                need >= 0 && need < self.open[j]
            });
            if !ok {
                continue;
            }
            for &j in cons {
                self.need[j] -= i32::from(mine);
                self.open[j] -= 1;
            }
            self.current[k] = mine;
            let fine = self.run(k + 1, placed + i64::from(mine));
            self.current[k] = false;
            for &j in cons {
                self.need[j] += i32::from(mine);
                self.open[j] += 1;
            }
            if !fine {
                return false;
            }
        }
        true
    }
}

/// The solved endgame: the best guess and its probability of winning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameMove {
    pub cell: usize,
    pub win_probability: f64,
}

/// A cell the search may reveal, as sets of arrangements.
struct Living {
    /// Arrangements with a mine here.
    mine: Set,
    /// `(value, arrangements where the cell is safe and shows it)`.
    shows: Vec<(u8, Set)>,
}

/// The state of the search.
struct Search {
    cells: Vec<Living>,
    memo: FxHashMap<Set, f64>,
    budget: usize,
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn count_and(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

impl Search {
    fn win(&mut self, s: &Set) -> Option<f64> {
        let n = count(s);
        if n <= 1 {
            return Some(1.0);
        }
        if let Some(&v) = self.memo.get(s) {
            return Some(v);
        }
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        // Free information: reveal a cell safe in all of S whose number
        // differs between arrangements, then carry on in each part.
        let split = (0..self.cells.len()).find(|&c| {
            let cell = &self.cells[c];
            !intersects(&cell.mine, s)
                && cell
                    .shows
                    .iter()
                    .filter(|(_, set)| intersects(set, s))
                    .count()
                    > 1
        });
        let value = match split {
            Some(c) => {
                let parts: Vec<Set> = self.cells[c]
                    .shows
                    .iter()
                    .map(|(_, set)| and(set, s))
                    .filter(|p| !is_empty(p))
                    .collect();
                let mut total = 0.0;
                for part in &parts {
                    total += f64::from(count(part)) * self.win(part)?;
                }
                total / f64::from(n)
            }
            None => self.best_guess(s, n)?.1,
        };
        self.memo.insert(s.clone(), value);
        Some(value)
    }

    /// The guess with the highest probability of winning from `s`, safest
    /// first so that the survival bound cuts the rest.
    fn best_guess(&mut self, s: &Set, n: u32) -> Option<(usize, f64)> {
        let mut candidates: Vec<(u32, usize)> = (0..self.cells.len())
            .filter_map(|c| {
                let m = count_and(&self.cells[c].mine, s);
                (m > 0 && m < n).then_some((m, c))
            })
            .collect();
        candidates.sort_unstable();
        let mut best: Option<(usize, f64)> = None;
        for (m, c) in candidates {
            let bound = f64::from(n - m) / f64::from(n);
            if best.is_some_and(|(_, b)| bound <= b) {
                break;
            }
            // Arrangements not yet scored count as wins: once even that
            // cannot beat the best, the guess is cut.
            let (mut total, mut unscored) = (0.0, n - m);
            let mut cut = false;
            for v in 0..self.cells[c].shows.len() {
                let part = and(s, &self.cells[c].shows[v].1);
                let k = count(&part);
                if k == 0 {
                    continue;
                }
                total += f64::from(k) * self.win(&part)?;
                unscored -= k;
                if best.is_some_and(|(_, b)| (total + f64::from(unscored)) / f64::from(n) <= b) {
                    cut = true;
                    break;
                }
            }
            let value = total / f64::from(n);
            if !cut && best.is_none_or(|(_, b)| value > b) {
                best = Some((c, value));
            }
        }
        best
    }
}

/// The guess with the highest probability of winning the game, by exhaustive
/// search over at most `limit` arrangements and `budget` search states.
/// `None` when there are more arrangements, the budget runs out, or no guess
/// is needed (a cell is safe in every arrangement).
pub fn best_move(pos: &Position, limit: usize, budget: usize) -> Option<EndgameMove> {
    let (hidden, sols) = arrangements(pos, limit)?;
    let n = sols.len();
    if n <= 1 {
        return None;
    }
    let grid = pos.grid();
    let words = n.div_ceil(64);
    let index_of: FxHashMap<usize, usize> =
        hidden.iter().enumerate().map(|(k, &c)| (c, k)).collect();
    let mut cells = Vec::new();
    let mut cell_of = Vec::new();
    let mut seen: FxHashMap<(Set, Vec<(u8, Set)>), ()> = FxHashMap::default();
    for (k, &c) in hidden.iter().enumerate() {
        let mut mine = vec![0u64; words];
        let mut shows: Vec<(u8, Set)> = Vec::new();
        let known = grid
            .neighbours(c)
            .filter(|&d| pos.cell(d) == Cell::Mine)
            .count();
        for (s, sol) in sols.iter().enumerate() {
            if sol[k] {
                mine[s / 64] |= 1 << (s % 64);
                continue;
            }
            let v = (known
                + grid
                    .neighbours(c)
                    .filter(|d| index_of.get(d).is_some_and(|&j| sol[j]))
                    .count()) as u8;
            let slot = match shows.iter().position(|(w, _)| *w == v) {
                Some(i) => i,
                None => {
                    shows.push((v, vec![0u64; words]));
                    shows.len() - 1
                }
            };
            shows[slot].1[s / 64] |= 1 << (s % 64);
        }
        let mines = count(&mine) as usize;
        if mines == 0 {
            return None; // safe everywhere: no guess needed
        }
        if mines == n {
            continue; // a mine everywhere: never worth revealing
        }
        // Cells with the same mines and the same numbers are interchangeable.
        shows.sort_unstable();
        if seen.insert((mine.clone(), shows.clone()), ()).is_some() {
            continue;
        }
        cells.push(Living { mine, shows });
        cell_of.push(c);
    }
    let mut all = vec![0u64; words];
    for s in 0..n {
        all[s / 64] |= 1 << (s % 64);
    }
    let mut search = Search {
        cells,
        memo: FxHashMap::default(),
        budget,
    };
    let (k, win_probability) = search.best_guess(&all, n as u32)?;
    Some(EndgameMove {
        cell: cell_of[k],
        win_probability,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_match_brute_force_counts() {
        let pos = Position::parse("4 3 3\n1...\n2...\n1...\n").unwrap();
        let (_, sols) = arrangements(&pos, 10_000).unwrap();
        let brute = crate::reference::brute_force(&pos);
        assert_eq!(sols.len() as u64, brute.total);
        assert!(arrangements(&pos, (brute.total - 1) as usize).is_none());
    }

    #[test]
    fn a_pure_fifty_fifty_is_half() {
        // Two hidden cells, one mine, no way to tell: 50%.
        let pos = Position::parse("3 1 1\n.1.\n").unwrap();
        let m = best_move(&pos, 100, 1000).unwrap();
        assert!((m.win_probability - 0.5).abs() < 1e-12);
    }

    #[test]
    fn an_end_cell_tells_where_the_mine_is() {
        // One mine among three cells in a row: the middle cell always shows 1
        // (a coin flip remains: 2/3 · 1/2), an end cell shows 0 or 1 and
        // settles everything (2/3).
        let pos = Position::parse("3 1 1\n...\n").unwrap();
        let m = best_move(&pos, 100, 1000).unwrap();
        assert!((m.win_probability - 2.0 / 3.0).abs() < 1e-12, "{m:?}");
        assert_eq!(m.cell, 0);
    }
}
