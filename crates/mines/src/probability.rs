//! Exact mine probabilities of every hidden cell of a position.
//!
//! All arrangements of the unknown mines that agree with the numbers and the
//! total are equally likely. An arrangement is a solution of every component
//! plus a placement of the remaining mines among the `R` cells away from the
//! frontier, so a set of component solutions holding `m` frontier mines in
//! total stands for `C(R, left − m)` arrangements. Components are combined
//! through that weight.
//!
//! Numbers: weights are `f64` kept relative to the largest one. Binomials of
//! the rest are built from exact ratios `C(R, k−1) / C(R, k) = k / (R−k+1)`
//! summed in log space, which keeps about 13 significant digits even on
//! 100×100 boards where `C(R, k)` has thousands of digits. Big integers would
//! be exact but cost an allocation per multiply in the solver's inner loop;
//! the brute-force property tests check agreement to 1e-9.

use crate::count::{Counted, Poly, count};
use crate::deduce::deduce;
use crate::frontier::{Frontier, SolveError};
use crate::grid::Grid;
use crate::position::{Cell, Position};

/// The probabilities of one position.
#[derive(Clone, Debug)]
pub struct Analysis {
    grid: Grid,
    /// Mine probability per cell; `NaN` for cells that are not hidden.
    prob: Vec<f64>,
    safe: Vec<usize>,
    mines: Vec<usize>,
    rest_prob: Option<f64>,
    rest_cells: usize,
    ln_arrangements: f64,
    frontier_cells: usize,
}

impl Analysis {
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Mine probability of a hidden cell; `None` for revealed or known mines.
    #[inline]
    pub fn probability(&self, cell: usize) -> Option<f64> {
        let p = self.prob[cell];
        (!p.is_nan()).then_some(p)
    }

    /// Hidden cells that are safe in every arrangement, ascending.
    pub fn safe(&self) -> &[usize] {
        &self.safe
    }

    /// Hidden cells that are mines in every arrangement, ascending.
    pub fn mines(&self) -> &[usize] {
        &self.mines
    }

    /// Probability of a hidden cell next to no number (all such cells share
    /// it), if there is one.
    pub fn rest_probability(&self) -> Option<f64> {
        self.rest_prob
    }

    /// Hidden cells next to no number.
    pub fn rest_cells(&self) -> usize {
        self.rest_cells
    }

    /// Hidden cells next to a number.
    pub fn frontier_cells(&self) -> usize {
        self.frontier_cells
    }

    /// Natural log of the number of arrangements of the unknown mines that
    /// agree with the position.
    pub fn ln_arrangements(&self) -> f64 {
        self.ln_arrangements
    }

    /// The lowest mine probability of any hidden cell (1 if none is hidden).
    pub fn min_probability(&self) -> f64 {
        self.prob
            .iter()
            .filter(|p| !p.is_nan())
            .cloned()
            .fold(1.0, f64::min)
    }

    /// Adds the cells deduction settled in `work` (flagged mines that are
    /// hidden in `pos`, and `safe`) to an analysis of `work`.
    fn settle(&mut self, pos: &Position, work: &Position, safe: &[usize]) {
        let flagged: Vec<usize> = (0..pos.grid().len())
            .filter(|&i| pos.is_hidden(i) && work.cell(i) == Cell::Mine)
            .collect();
        for &c in &flagged {
            self.prob[c] = 1.0;
        }
        for &c in safe {
            self.prob[c] = 0.0;
        }
        self.frontier_cells += flagged.len() + safe.len();
        self.mines.extend_from_slice(&flagged);
        self.mines.sort_unstable();
        self.safe.extend_from_slice(safe);
        self.safe.sort_unstable();
    }

    /// Hidden cells with their probabilities.
    pub fn hidden(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.prob
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_nan())
            .map(|(i, &p)| (i, p))
    }
}

/// `ln C(n, k)`, exact to rounding for the sizes a board has.
pub(crate) fn ln_binomial(n: usize, k: usize) -> f64 {
    let k = k.min(n - k);
    (1..=k)
        .map(|i| (((n - k + i) as f64) / i as f64).ln())
        .sum()
}

/// The logs of the tilted rest weights for `m` in `lo..hi`, less a constant
/// (−∞ where `m` mines cannot be placed), and that constant.
fn rest_ln(rest: usize, left: usize, lo: usize, hi: usize, ln_rho: f64) -> (Vec<f64>, f64) {
    // Feasible: 0 ≤ left − m ≤ rest.
    let mut ln = vec![f64::NEG_INFINITY; hi - lo];
    let first = lo.max(left.saturating_sub(rest));
    let last = hi.min(left + 1); // exclusive
    if first >= last {
        return (ln, 0.0);
    }
    // Walk m upwards: C(R, k−1) = C(R, k) · k / (R − k + 1) with k = left − m.
    let mut acc = 0.0;
    ln[first - lo] = -(first as f64) * ln_rho;
    for m in first + 1..last {
        let k = left - (m - 1);
        acc += (k as f64 / (rest - k + 1) as f64).ln();
        ln[m - lo] = acc - m as f64 * ln_rho;
    }
    (ln, ln_binomial(rest, left - first))
}

/// `exp(l − max)` of log weights, and `max` (0 when all are −∞).
fn exp_relative(ln: &[f64]) -> (Vec<f64>, f64) {
    let max = ln.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return (vec![0.0; ln.len()], 0.0);
    }
    (ln.iter().map(|&l| (l - max).exp()).collect(), max)
}

/// `w[m] · ρ^m` rescaled to a maximum of 1, and the log of the factor removed.
fn tilt(poly: &Poly, ln_rho: f64) -> (Poly, f64) {
    if ln_rho == 0.0 {
        return (poly.clone(), 0.0);
    }
    let ln: Vec<f64> = poly
        .w
        .iter()
        .enumerate()
        .map(|(i, &x)| x.ln() + (poly.lo + i) as f64 * ln_rho)
        .collect();
    let (w, max) = exp_relative(&ln);
    (Poly { lo: poly.lo, w }, max)
}

/// The log of the tilt `ρ` that centres the combination: the odds of a mine
/// at the average density of the unknown cells. Any `ρ` gives the same exact
/// result (`ρ^m` of the frontier cancels `ρ^−m` of the rest); this one keeps
/// the frontier weights and the rest weights peaked at the same mine count,
/// so their product does not underflow on big dense boards.
fn tilt_for(unknown: usize, left: usize) -> f64 {
    if unknown == 0 {
        return 0.0;
    }
    let n = unknown as f64;
    let d = (left as f64 / n).clamp(0.5 / n, 1.0 - 0.5 / n);
    (d / (1.0 - d)).ln()
}

/// The log of the odds of a mine among `rest` cells holding `mines`: the
/// tilt that makes the rest weights flat at that count (kept off 0 and 1).
fn rest_odds(rest: usize, mines: usize) -> f64 {
    if rest == 0 {
        return 0.0;
    }
    let k = (mines as f64).clamp(0.5, rest as f64 - 0.5);
    (k / (rest as f64 - k)).ln()
}

/// Exact mine probabilities of every hidden cell.
///
/// The local deductions run first: the cells they settle leave the counting,
/// which splits long frontiers into small independent pieces (on a big board
/// this is the difference between milliseconds and an intractable count).
/// Deductions are sound, so the arrangements, and every probability, are
/// unchanged. A contradiction is reported as the undeduced position shows it.
pub fn analyze(pos: &Position) -> Result<Analysis, SolveError> {
    let mut work = pos.clone();
    let mut safe = Vec::new();
    deduce(&mut work, None, &mut safe);
    let mut is_safe = vec![false; pos.grid().len()];
    for &c in &safe {
        is_safe[c] = true;
    }
    match Frontier::build_with_safe(&work, &is_safe).and_then(|f| count_all(&f, pos.grid())) {
        Ok(mut analysis) => {
            analysis.settle(pos, &work, &safe);
            Ok(analysis)
        }
        Err(e @ SolveError::TooComplex { .. }) => Err(e),
        // Name the contradiction in the user's own position.
        Err(e) => match analyze_settled(pos) {
            Err(SolveError::TooComplex { .. }) => Err(e),
            other => other,
        },
    }
}

/// Exact probabilities without the deduction pass, for positions already
/// deduced to a standstill (as in a game, where the deductions run first).
pub(crate) fn analyze_settled(pos: &Position) -> Result<Analysis, SolveError> {
    count_all(&Frontier::build(pos)?, pos.grid())
}

fn count_all(frontier: &Frontier, grid: Grid) -> Result<Analysis, SolveError> {
    let counted: Vec<Counted> = (0..frontier.components.len())
        .map(|c| count(frontier, c, grid))
        .collect::<Result<_, _>>()?;
    finish(frontier, &counted, grid)
}

/// Combines counted components into the probabilities of every cell.
pub(crate) fn finish(
    frontier: &Frontier,
    counted: &[Counted],
    grid: Grid,
) -> Result<Analysis, SolveError> {
    for (c, k) in counted.iter().enumerate() {
        if k.weights.w.is_empty() || k.weights.is_zero() {
            let j = frontier.components[c].constraints[0];
            let (x, y) = grid.coords(frontier.constraints[j as usize].cell as usize);
            return Err(SolveError::Unsatisfiable { x, y });
        }
    }
    let combined = Combined::new(frontier, counted)?;
    let mut prob = vec![f64::NAN; grid.len()];
    combined.for_each_worth(counted, |c, h| {
        counted[c].group_distributions(&h, |g, dist| {
            let group = &frontier.groups[g as usize];
            let size = group.cells.len();
            let p = if dist[0] == 1.0 {
                0.0
            } else if dist[size] == 1.0 {
                1.0
            } else {
                let expected: f64 = dist.iter().enumerate().map(|(x, d)| x as f64 * d).sum();
                expected / size as f64
            };
            for &cell in group.cells.iter() {
                prob[cell as usize] = p;
            }
        });
    });
    let rest_prob = (!frontier.rest.is_empty()).then(|| combined.rest_probability());
    for &cell in &frontier.rest {
        prob[cell as usize] = rest_prob.expect("rest is not empty");
    }
    let mut safe = Vec::new();
    let mut mines = Vec::new();
    for (i, &p) in prob.iter().enumerate() {
        if p == 0.0 {
            safe.push(i);
        } else if p == 1.0 {
            mines.push(i);
        }
    }
    Ok(Analysis {
        grid,
        prob,
        safe,
        mines,
        rest_prob,
        rest_cells: frontier.rest.len(),
        ln_arrangements: combined.ln_total,
        frontier_cells: frontier.groups.iter().map(|g| g.cells.len()).sum(),
    })
}

/// The components combined through the rest weights.
///
/// Frontier weights are tilted by `ρ^m` and the rest weights by `ρ^−m` (see
/// [`tilt_for`]); every product of one frontier total with the rest is
/// unchanged, but both sides now peak near the same total. Untilted, each
/// side scaled to a maximum of 1 can peak thousands of mines apart on a big
/// dense board, and their product underflowed to a false contradiction.
struct Combined {
    /// The components' weights, tilted.
    tilted: Vec<Poly>,
    /// The mine counts prefix `c` (components `0..c` convolved) covers:
    /// `(lo, len)` for `c` in `0..=K`.
    prefix_range: Vec<(usize, usize)>,
    /// All the components convolved (scaled).
    all: Poly,
    /// suffix_worth[c] (the tilted worth of components `0..=c` holding `m`
    /// mines, summed over the later components and the rest) kept only for
    /// the last `c` of each block of [`Combined::block`] components; a block's
    /// others are rebuilt from it when they are needed. Kept for every `c`,
    /// a board of hundreds of separate groups of numbers needed gigabytes.
    checkpoints: Vec<Poly>,
    rest: Poly,
    rest_cells: usize,
    left: usize,
    ln_rho: f64,
    /// The largest term of the total (both sides scaled to a maximum of 1).
    peak: f64,
    ln_total: f64,
}

/// Below this, the largest product of frontier and rest weights may have
/// lost terms to underflow, and the combination is redone tilted.
const TILT_BELOW: f64 = 1e-100;

/// Tilts tried after the untilted combination: each recentres on the
/// largest product the one before could represent. On boards of 700×700 and
/// more, the frontier's density can differ so much from the rest's that the
/// first tilt (the average density) still underflows, so a few more are
/// allowed; each moves the representable range up to its full width
/// towards the peak.
const MAX_TILTS: usize = 8;

/// One combination at one tilt, and the mine count of its largest product
/// (in logs, so it is found even when every product underflowed).
struct Attempt {
    result: Result<Combined, SolveError>,
    peak_at: Option<usize>,
}

impl Attempt {
    fn is_sound(&self) -> bool {
        matches!(&self.result, Ok(c) if c.peak >= TILT_BELOW)
    }
}

impl Combined {
    /// Untilted first (the common case, and bit for bit the plain sum), then
    /// tilted if the frontier and the rest peak too far apart: at the
    /// average density, then at the rest's odds where the last try's
    /// products peaked, until the peak is well inside the f64 range.
    fn new(frontier: &Frontier, counted: &[Counted]) -> Result<Combined, SolveError> {
        let mut attempt = Combined::tilted(frontier, counted, 0.0);
        if attempt.is_sound() {
            return attempt.result;
        }
        let frontier_cells: usize = frontier.groups.iter().map(|g| g.cells.len()).sum();
        let mut ln_rho = tilt_for(frontier_cells + frontier.rest.len(), frontier.mines_left);
        for _ in 0..MAX_TILTS {
            attempt = Combined::tilted(frontier, counted, ln_rho);
            if attempt.is_sound() {
                break;
            }
            let Some(m) = attempt.peak_at else { break };
            let next = rest_odds(frontier.rest.len(), frontier.mines_left - m);
            if next == ln_rho {
                break;
            }
            ln_rho = next;
        }
        attempt.result
    }

    fn tilted(frontier: &Frontier, counted: &[Counted], ln_rho: f64) -> Attempt {
        let rest_cells = frontier.rest.len();
        let left = frontier.mines_left;
        let mut all = Poly::one();
        let mut prefix_range = vec![(all.lo, all.w.len())];
        let mut tilted = Vec::with_capacity(counted.len());
        let mut ln_scale = 0.0;
        for k in counted {
            let (t, ln_t) = tilt(&k.weights, ln_rho);
            all = all.convolve(&t);
            ln_scale += all.normalise() + k.ln_scale + ln_t;
            prefix_range.push((all.lo, all.w.len()));
            tilted.push(t);
        }
        let (rest_log, ln_first) = rest_ln(rest_cells, left, all.lo, all.hi(), ln_rho);
        let (rest_w, ln_max) = exp_relative(&rest_log);
        let (rest, ln_rest) = (
            Poly {
                lo: all.lo,
                w: rest_w,
            },
            ln_first + ln_max,
        );
        let total: f64 = all.w.iter().zip(&rest.w).map(|(a, b)| a * b).sum();
        let peak = all
            .w
            .iter()
            .zip(&rest.w)
            .map(|(a, b)| a * b)
            .fold(0.0, f64::max);
        // In logs: the rest's weights may underflow where the frontier's
        // are not 0, when the two peak far apart.
        let peak_at = all
            .w
            .iter()
            .zip(&rest_log)
            .enumerate()
            .filter(|(_, (a, b))| **a > 0.0 && b.is_finite())
            .map(|(i, (a, b))| (a.ln() + b, all.lo + i))
            .max_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, m)| m);
        if total <= 0.0 {
            let min = all.lo + all.w.iter().position(|&x| x > 0.0).unwrap_or(0);
            let max = all.lo + all.w.iter().rposition(|&x| x > 0.0).unwrap_or(0);
            let error = SolveError::MineCount {
                min,
                max,
                left,
                rest: rest_cells,
            };
            return Attempt {
                result: Err(error),
                peak_at,
            };
        }
        let mut combined = Combined {
            tilted,
            prefix_range,
            all,
            checkpoints: Vec::new(),
            rest,
            rest_cells,
            left,
            ln_rho,
            peak,
            ln_total: total.ln() + ln_scale + ln_rest,
        };
        // suffix_worth[c] built backwards from the rest, its block ends kept.
        let block = combined.block();
        let mut worth = combined.rest.clone();
        for c in (0..combined.tilted.len()).rev() {
            if c % block == block - 1 || c + 1 == combined.tilted.len() {
                combined.checkpoints.push(worth.clone());
            }
            if c > 0 {
                worth = combined.step_back(&worth, c);
            }
        }
        combined.checkpoints.reverse();
        Attempt {
            result: Ok(combined),
            peak_at,
        }
    }

    /// Components per block of kept suffix worths: about √K, so that the
    /// kept ends and one rebuilt block each hold about √K polynomials.
    fn block(&self) -> usize {
        (self.tilted.len() as f64).sqrt().ceil().max(1.0) as usize
    }

    /// suffix_worth[c − 1] from `worth` = suffix_worth[c]: the worth of
    /// components `0..c` holding `m` mines (prefix `c`'s range), summed over
    /// component `c`'s counts.
    fn step_back(&self, worth: &Poly, c: usize) -> Poly {
        let (lo, len) = self.prefix_range[c];
        let w = &self.tilted[c];
        let mut next = Poly {
            lo,
            w: vec![0.0; len],
        };
        for (i, v) in next.w.iter_mut().enumerate() {
            let m = lo + i;
            let mut acc = 0.0;
            for (j, &b) in w.w.iter().enumerate() {
                let t = m + w.lo + j;
                if t >= worth.lo && t < worth.hi() {
                    acc += b * worth.w[t - worth.lo];
                }
            }
            *v = acc;
        }
        next.normalise();
        next
    }

    /// Calls `each(c, h)` for every component in order, `h[m]` the global
    /// worth of component `c` holding `m` mines, for its own untilted
    /// weights `counted[c].weights`. The prefix runs forward and each
    /// block's suffix worths are rebuilt from its kept end, so memory holds
    /// about 2√K polynomials instead of 2K.
    fn for_each_worth(&self, counted: &[Counted], mut each: impl FnMut(usize, Poly)) {
        let block = self.block();
        let mut below = Poly::one();
        let mut rebuilt: Vec<Poly> = Vec::with_capacity(block);
        for (c, k) in counted.iter().enumerate() {
            if c % block == 0 {
                let last = (c + block).min(counted.len()) - 1;
                rebuilt.clear();
                let mut worth = self.checkpoints[c / block].clone();
                for d in (c..=last).rev() {
                    let next = (d > c).then(|| self.step_back(&worth, d));
                    rebuilt.push(worth);
                    match next {
                        Some(next) => worth = next,
                        None => break,
                    }
                }
                rebuilt.reverse();
            }
            each(c, self.worth(&below, &rebuilt[c % block], &k.weights));
            below = below.convolve(&self.tilted[c]);
            below.normalise();
        }
    }

    /// `h[m]`: the global worth of a component holding `m` mines, for its
    /// own untilted weights `own`, between the prefix `below` and the
    /// suffix worth `after`.
    fn worth(&self, below: &Poly, after: &Poly, own: &Poly) -> Poly {
        if self.ln_rho == 0.0 {
            let mut h = Poly {
                lo: own.lo,
                w: vec![0.0; own.w.len()],
            };
            for (i, v) in h.w.iter_mut().enumerate() {
                *v = dot_shifted(below, after, own.lo + i);
            }
            h.normalise();
            return h;
        }
        let mut ln = vec![f64::NEG_INFINITY; own.w.len()];
        for (i, v) in ln.iter_mut().enumerate() {
            let m = own.lo + i;
            // Undo the tilt: the tilted worth pairs with `own · ρ^m`.
            *v = dot_shifted(below, after, m).ln() + m as f64 * self.ln_rho;
        }
        Poly {
            lo: own.lo,
            w: exp_relative(&ln).0,
        }
    }

    /// Mine probability of a cell away from the frontier: exactly 0 or 1
    /// when every feasible frontier total leaves the rest no mine or full.
    fn rest_probability(&self) -> f64 {
        let all = &self.all;
        let (mut num, mut den) = (0.0, 0.0);
        let (mut none, mut full) = (true, true);
        for (i, (&a, &r)) in all.w.iter().zip(&self.rest.w).enumerate() {
            let w = a * r;
            if w > 0.0 {
                let k = self.left - (all.lo + i);
                none &= k == 0;
                full &= k == self.rest_cells;
                num += w * k as f64 / self.rest_cells as f64;
                den += w;
            }
        }
        if none {
            0.0
        } else if full {
            1.0
        } else {
            num / den
        }
    }
}

/// `Σ_j below[j] · after[j + m]` over the mine counts both cover.
fn dot_shifted(below: &Poly, after: &Poly, m: usize) -> f64 {
    let mut acc = 0.0;
    for (j, &a) in below.w.iter().enumerate() {
        let t = below.lo + j + m;
        if t >= after.lo && t < after.hi() {
            acc += a * after.w[t - after.lo];
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probs(text: &str) -> Analysis {
        analyze(&Position::parse(text).unwrap()).unwrap()
    }

    /// 15% mines and 40% of the safe cells revealed at random on 700×700 (an
    /// audit's reproducer): the frontier holds so much denser mines than the
    /// rest that the tilt at the average density still underflowed, and a
    /// real layout was called a contradiction. More tilts find its counts.
    #[test]
    fn a_frontier_far_denser_than_the_rest_takes_more_tilts() {
        let grid = Grid::new(700, 700).unwrap();
        let mut rng = arcade_core::Rng::new(1);
        let mut cells: Vec<usize> = (0..grid.len()).collect();
        rng.shuffle(&mut cells);
        let board = crate::Board::from_mines(grid, cells[..73_500].iter().copied());
        let mut pos = Position::new(grid, 73_500);
        for c in (0..grid.len()).filter(|&c| !board.is_mine(c) && rng.chance(0.4)) {
            pos.set(c, Cell::Number(board.adjacent(c)));
        }
        // The first tilt fails here, or this test would not reach the others.
        let mut work = pos.clone();
        let mut safe = Vec::new();
        deduce(&mut work, None, &mut safe);
        let mut is_safe = vec![false; grid.len()];
        safe.iter().for_each(|&c| is_safe[c] = true);
        let frontier = Frontier::build_with_safe(&work, &is_safe).unwrap();
        let counted: Vec<Counted> = (0..frontier.components.len())
            .map(|c| count(&frontier, c, grid).unwrap())
            .collect();
        let cells: usize = frontier.groups.iter().map(|g| g.cells.len()).sum();
        let ln_rho = tilt_for(cells + frontier.rest.len(), frontier.mines_left);
        assert!(!Combined::tilted(&frontier, &counted, ln_rho).is_sound());

        let a = analyze(&pos).unwrap_or_else(|e| panic!("a real layout: {e}"));
        let left = (pos.mines() - pos.known_mines()) as f64;
        let sum: f64 = a.hidden().map(|(_, p)| p).sum();
        assert!((sum - left).abs() < 1e-6 * left, "{sum} of {left} mines");
        assert!(a.safe().iter().all(|&c| !board.is_mine(c)));
        assert!(a.mines().iter().all(|&c| board.is_mine(c)));
        assert!(a.hidden().any(|(_, p)| p > 0.05 && p < 0.95));
    }

    /// The worths rebuilt a block at a time equal, bit for bit, those of
    /// every prefix and suffix kept, on strips of many separate groups.
    #[test]
    fn block_rebuilt_worths_equal_the_kept_ones() {
        let mut rng = arcade_core::Rng::new(7);
        let (mut positions, mut multi_block) = (0, 0);
        while positions < 200 {
            // A 3-row strip: the middle row's numbers in runs parted by
            // hidden columns, so each run is a group of its own.
            let width = 8 + rng.index(60);
            let grid = Grid::new(width, 3).unwrap();
            let mines: Vec<bool> = (0..width * 3).map(|_| rng.chance(0.3)).collect();
            let total = mines.iter().filter(|&&m| m).count();
            let mut pos = Position::new(grid, total + rng.index(width));
            for x in 0..width {
                let c = grid.index(x, 1);
                if !mines[c] && x % 3 != 2 {
                    let n = grid.neighbours(c).filter(|&d| mines[d]).count();
                    pos.set(c, Cell::Number(n as u8));
                }
            }
            let Ok(frontier) = Frontier::build(&pos) else {
                continue;
            };
            let counted: Vec<Counted> = (0..frontier.components.len())
                .map(|c| count(&frontier, c, grid).unwrap())
                .collect();
            let Ok(combined) = Combined::new(&frontier, &counted) else {
                continue;
            };
            positions += 1;
            let k = counted.len();
            multi_block += usize::from(k > combined.block());
            // Every prefix and suffix worth, kept as the combination once did.
            let mut prefix = vec![Poly::one()];
            for t in &combined.tilted {
                let mut next = prefix.last().unwrap().convolve(t);
                next.normalise();
                prefix.push(next);
            }
            let mut suffix = vec![Poly::default(); k];
            let mut worth = combined.rest.clone();
            for c in (0..k).rev() {
                suffix[c] = worth.clone();
                worth = combined.step_back(&worth, c);
            }
            let mut seen = 0;
            combined.for_each_worth(&counted, |c, h| {
                assert_eq!(c, seen);
                let kept = combined.worth(&prefix[c], &suffix[c], &counted[c].weights);
                assert_eq!(h, kept, "component {c} of {k}");
                seen += 1;
            });
            assert_eq!(seen, k);
        }
        assert!(
            multi_block >= 100,
            "{multi_block} of 200 with several blocks"
        );
    }

    #[test]
    fn ln_binomial_small_values() {
        assert!((ln_binomial(10, 3) - 120f64.ln()).abs() < 1e-12);
        assert_eq!(ln_binomial(5, 0), 0.0);
        assert!((ln_binomial(52, 5) - 2_598_960f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn a_lone_one_in_a_corner() {
        // 1 at (0,0) with 3 hidden neighbours and 1 mine on a 2x2: 1/3 each.
        let a = probs("2 2 1\n1.\n..\n");
        for c in 1..4 {
            assert!((a.probability(c).unwrap() - 1.0 / 3.0).abs() < 1e-12);
        }
        assert!(a.probability(0).is_none());
        assert!((a.ln_arrangements() - 3f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn certain_cells() {
        let a = probs("4 1 1\n.1..\n");
        // The 1 at (1,0): mine at (0,0) or (2,0); (3,0) is rest.
        assert!((a.probability(0).unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(a.probability(3), Some(0.0));
        assert_eq!(a.safe(), &[3]);
        let a = probs("3 1 1\n1..\n");
        assert_eq!(a.mines(), &[1]);
        assert_eq!(a.safe(), &[2]);
    }

    #[test]
    fn total_count_contradiction() {
        let e = analyze(&Position::parse("5 1 1\n.1.1.\n").unwrap());
        // Two separate 1s sharing no cell... they share (2,0): feasible.
        assert!(e.is_ok());
        let e = analyze(&Position::parse("6 1 1\n.1..1.\n").unwrap()).unwrap_err();
        assert!(matches!(e, SolveError::MineCount { min: 2, .. }), "{e}");
        assert!(e.to_string().contains("need at least 2 mines"), "{e}");
        assert!(e.to_string().contains("only 1 mine left"), "{e}");
        // Too many: two mines left, the 1 takes one, no other cell holds the second.
        let e = analyze(&Position::parse("2 1 2\n1.\n").unwrap()).unwrap_err();
        assert!(
            matches!(
                e,
                SolveError::MineCount {
                    max: 1,
                    left: 2,
                    rest: 0,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("at most 1 and only 0 other hidden cells"),
            "{e}"
        );
    }
}
