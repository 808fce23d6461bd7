//! The analyser on big boards, where the frontier and the cells away from it
//! weigh mine totals thousands of mines apart: no false contradiction, and
//! agreement with an independent log-space computation where one fits.

use arcade_core::Rng;
use arcade_mines::{Board, Cell, Grid, Position, analyze};

/// A random layout of `mines` mines, about `reveal` of its safe cells
/// revealed (areas opened from zeros, as a player would, then single cells),
/// and half of the mines next to a revealed number flagged. The same recipe
/// as `gen_mines_layout.py` of the hardening reproducers.
fn half_revealed(
    width: usize,
    height: usize,
    mines: usize,
    seed: u64,
    reveal: f64,
) -> (Board, Position) {
    let grid = Grid::new(width, height).unwrap();
    let mut rng = Rng::new(seed);
    let mut cells: Vec<usize> = (0..grid.len()).collect();
    rng.shuffle(&mut cells);
    let board = Board::from_mines(grid, cells[..mines].iter().copied());
    let safe: Vec<usize> = (0..grid.len()).filter(|&i| !board.is_mine(i)).collect();
    let target = (safe.len() as f64 * reveal) as usize;
    let mut zeros: Vec<usize> = safe
        .iter()
        .copied()
        .filter(|&i| board.adjacent(i) == 0)
        .collect();
    rng.shuffle(&mut zeros);
    let mut revealed = vec![false; grid.len()];
    let mut count = 0;
    for &start in zeros.iter().chain(&safe) {
        if count >= target {
            break;
        }
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            if revealed[c] {
                continue;
            }
            revealed[c] = true;
            count += 1;
            if board.adjacent(c) == 0 {
                stack.extend(grid.neighbours(c).filter(|&j| !revealed[j]));
            }
        }
    }
    let mut pos = Position::new(grid, mines);
    for i in 0..grid.len() {
        if revealed[i] {
            pos.set(i, Cell::Number(board.adjacent(i)));
        } else if board.is_mine(i) && grid.neighbours(i).any(|j| revealed[j]) && rng.chance(0.5) {
            pos.set(i, Cell::Mine);
        }
    }
    (board, pos)
}

/// Sound and complete on the facts the layout fixes: the analysis exists,
/// its probabilities sum to the mines left, its certain cells are right.
fn check_against_layout(board: &Board, pos: &Position) {
    let a = analyze(pos).unwrap_or_else(|e| panic!("a real layout is not a contradiction: {e}"));
    let left = (pos.mines() - pos.known_mines()) as f64;
    let sum: f64 = a.hidden().map(|(_, p)| p).sum();
    assert!(
        (sum - left).abs() < 1e-6 * left,
        "probabilities sum to {sum}, {left} mines left"
    );
    assert!(a.hidden().all(|(_, p)| (0.0..=1.0).contains(&p)));
    assert!(
        a.safe().iter().all(|&c| !board.is_mine(c)),
        "a mine called safe"
    );
    assert!(
        a.mines().iter().all(|&c| board.is_mine(c)),
        "a safe cell called a mine"
    );
    assert!(a.ln_arrangements().is_finite());
}

#[test]
fn dense_half_revealed_boards_are_not_contradictions() {
    // The size and density of the 700×700 reproducer: before the tilt, the
    // scaled weights' product underflowed to "contradiction".
    for seed in 0..2 {
        let (board, pos) = half_revealed(700, 700, 100_000, seed, 0.5);
        check_against_layout(&board, &pos);
    }
}

/// One independent piece of the frontier: every assignment of its cells
/// enumerated, by number of mines.
struct Piece {
    cells: Vec<usize>,
    /// Arrangements with `m` mines.
    count: Vec<u64>,
    /// `by_cell[k][m]`: those in which `cells[k]` is a mine.
    by_cell: Vec<Vec<u64>>,
}

fn enumerate(pos: &Position, numbers: &[usize]) -> Piece {
    let grid = pos.grid();
    let mut cells: Vec<usize> = numbers
        .iter()
        .flat_map(|&n| grid.neighbours(n))
        .filter(|&c| pos.is_hidden(c))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    let n = cells.len();
    let mut count = vec![0u64; n + 1];
    let mut by_cell = vec![vec![0u64; n + 1]; n];
    for mask in 0u32..1 << n {
        let ok = numbers.iter().all(|&num| {
            let Cell::Number(v) = pos.cell(num) else {
                unreachable!()
            };
            let around = grid
                .neighbours(num)
                .filter(|c| cells.binary_search(c).is_ok_and(|k| mask >> k & 1 == 1))
                .count();
            around == v as usize
        });
        if ok {
            let m = mask.count_ones() as usize;
            count[m] += 1;
            for (k, row) in by_cell.iter_mut().enumerate() {
                if mask >> k & 1 == 1 {
                    row[m] += 1;
                }
            }
        }
    }
    Piece {
        cells,
        count,
        by_cell,
    }
}

fn ln_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// `ln Σ_m a[m] · b[m + shift]` over `b`'s range, `b` in log space.
fn ln_dot(a: &[u64], b: &[f64], shift: usize) -> f64 {
    a.iter()
        .enumerate()
        .filter(|(m, n)| **n > 0 && m + shift < b.len())
        .fold(f64::NEG_INFINITY, |t, (m, &n)| {
            ln_add(t, (n as f64).ln() + b[m + shift])
        })
}

#[test]
fn big_boards_match_an_independent_log_space_count() {
    // Both boards put the largest term of the untilted total near 1e-150 and
    // 1e-214, so the analyser takes its tilted path here.
    for (blocks, near, far) in [(20, 0.6, 0.01), (30, 0.5, 0.2)] {
        exact_case(blocks, near, far);
    }
}

fn exact_case(blocks: usize, near_density: f64, far_density: f64) {
    // 5×5 blocks; in each, some cells of a 2×2 window inside are revealed, so
    // every piece of the frontier stays in its block and can be enumerated.
    // Mines crowd the frontier (60%) and avoid the rest (1%): the frontier
    // and the rest weigh totals far apart, as on a big dense board.
    let size = 5 * blocks;
    let grid = Grid::new(size, size).unwrap();
    let mut rng = Rng::new(2026);
    let mut revealed = vec![false; grid.len()];
    let mut by_block = Vec::new();
    for by in 0..blocks {
        for bx in 0..blocks {
            let (x0, y0) = (5 * bx + 1 + rng.index(2), 5 * by + 1 + rng.index(2));
            let mut window: Vec<usize> = (0..4)
                .map(|k| grid.index(x0 + k % 2, y0 + k / 2))
                .filter(|_| rng.chance(0.5))
                .collect();
            if window.is_empty() {
                window.push(grid.index(x0, y0));
            }
            window.iter().for_each(|&c| revealed[c] = true);
            by_block.push(window);
        }
    }
    let near = |c: usize| grid.neighbours(c).any(|j| revealed[j]);
    let mines: Vec<usize> = (0..grid.len())
        .filter(|&c| !revealed[c] && rng.chance(if near(c) { near_density } else { far_density }))
        .collect();
    let board = Board::from_mines(grid, mines.iter().copied());
    let mut pos = Position::new(grid, mines.len());
    for c in (0..grid.len()).filter(|&c| revealed[c]) {
        pos.set(c, Cell::Number(board.adjacent(c)));
    }
    let a = analyze(&pos).expect("a real layout");

    let pieces: Vec<Piece> = by_block.iter().map(|w| enumerate(&pos, w)).collect();
    let rest: Vec<usize> = (0..grid.len())
        .filter(|&c| pos.is_hidden(c) && !near(c))
        .collect();
    let r = rest.len();
    let left = mines.len();
    let ln_fact: Vec<f64> = std::iter::once(0.0)
        .chain((1..=grid.len()).scan(0.0, |s, i| {
            *s += (i as f64).ln();
            Some(*s)
        }))
        .collect();
    let ln_rest = |frontier: usize| {
        if frontier <= left && left - frontier <= r {
            ln_fact[r] - ln_fact[left - frontier] - ln_fact[r - (left - frontier)]
        } else {
            f64::NEG_INFINITY
        }
    };
    // prefix[b][x]: ln ways pieces 0..b hold x mines; after[b][x]: ln ways
    // pieces b.. and the rest complete a board whose pieces 0..b hold x.
    let cap = pieces.iter().map(|p| p.cells.len()).sum::<usize>() + 1;
    let mut prefix = vec![vec![f64::NEG_INFINITY; cap]];
    prefix[0][0] = 0.0;
    for piece in &pieces {
        let last = prefix.last().unwrap();
        let next: Vec<f64> = (0..cap)
            .map(|x| {
                piece
                    .count
                    .iter()
                    .enumerate()
                    .filter(|(m, n)| **n > 0 && *m <= x)
                    .fold(f64::NEG_INFINITY, |t, (m, &n)| {
                        ln_add(t, last[x - m] + (n as f64).ln())
                    })
            })
            .collect();
        prefix.push(next);
    }
    let mut after = vec![(0..cap).map(ln_rest).collect::<Vec<f64>>()];
    for piece in pieces.iter().rev() {
        let last = after.last().unwrap();
        let next = (0..cap).map(|x| ln_dot(&piece.count, last, x)).collect();
        after.push(next);
    }
    after.reverse();
    let ln_total = after[0][0];
    assert!((a.ln_arrangements() - ln_total).abs() < 1e-9 * ln_total.abs());

    let rest_p: f64 = prefix[pieces.len()]
        .iter()
        .enumerate()
        .map(|(m, &l)| {
            (l + ln_rest(m) - ln_total).exp() * (left.saturating_sub(m)) as f64 / r as f64
        })
        .sum();
    for &c in &rest {
        assert!((a.probability(c).unwrap() - rest_p).abs() < 1e-9);
    }
    let mut checked = 0;
    for (b, piece) in pieces.iter().enumerate() {
        // h[m]: ln ways the other pieces and the rest complete `m` mines here.
        let h: Vec<f64> = (0..piece.count.len())
            .map(|m| {
                (0..cap - m).fold(f64::NEG_INFINITY, |t, x| {
                    ln_add(t, prefix[b][x] + after[b + 1][x + m])
                })
            })
            .collect();
        for (k, &cell) in piece.cells.iter().enumerate() {
            let (mut p, mut possible) = (0.0, false);
            for (m, &n) in piece.by_cell[k].iter().enumerate().filter(|(_, n)| **n > 0) {
                possible |= h[m] > f64::NEG_INFINITY;
                p += ((n as f64).ln() + h[m] - ln_total).exp();
            }
            let got = a.probability(cell).unwrap();
            assert!(
                (got - p).abs() < 1e-9,
                "cell {:?}: {got} vs {p}",
                grid.coords(cell)
            );
            assert_eq!(a.safe().contains(&cell), !possible);
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked} frontier cells checked");
    // The comparison means something: certain cells and uncertain ones both.
    assert!(!a.safe().is_empty() && a.hidden().any(|(_, p)| p > 0.1 && p < 0.9));
}
