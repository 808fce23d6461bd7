//! Brute force over every arrangement: the obviously correct reference the
//! fast engine is tested against. Only for small positions (≤ 24 hidden cells).

use crate::position::{Cell, Position};

/// Counts over all arrangements of the unknown mines that agree with the
/// position.
#[derive(Clone, Debug, PartialEq)]
pub struct BruteForce {
    /// Number of agreeing arrangements.
    pub total: u64,
    /// Per cell: arrangements with a mine there (0 for non-hidden cells).
    pub mine_counts: Vec<u64>,
    /// Per cell, for hidden cells: `[k]` = arrangements where the cell is
    /// safe and would show `k`.
    pub number_counts: Vec<[u64; 9]>,
}

impl BruteForce {
    /// Mine probability of a hidden cell (`None` when no arrangement agrees).
    pub fn probability(&self, cell: usize) -> Option<f64> {
        (self.total > 0).then(|| self.mine_counts[cell] as f64 / self.total as f64)
    }
}

/// Largest number of hidden cells [`brute_force`] accepts.
pub const MAX_HIDDEN: usize = 24;

/// Enumerates every subset of the hidden cells holding exactly the unknown
/// mines and keeps those that match every number.
///
/// Panics when the position has more than [`MAX_HIDDEN`] hidden cells.
pub fn brute_force(pos: &Position) -> BruteForce {
    let grid = pos.grid();
    let hidden: Vec<usize> = (0..grid.len()).filter(|&i| pos.is_hidden(i)).collect();
    assert!(
        hidden.len() <= MAX_HIDDEN,
        "too many hidden cells to enumerate"
    );
    let left = pos.mines() as i64 - pos.known_mines() as i64;
    let mut out = BruteForce {
        total: 0,
        mine_counts: vec![0; grid.len()],
        number_counts: vec![[0; 9]; grid.len()],
    };
    if left < 0 {
        return out;
    }
    let mut mine = vec![false; grid.len()];
    for mask in 0u32..(1u32 << hidden.len()) {
        if mask.count_ones() as i64 != left {
            continue;
        }
        for (b, &c) in hidden.iter().enumerate() {
            mine[c] = mask >> b & 1 == 1;
        }
        for (i, m) in mine.iter_mut().enumerate() {
            if pos.cell(i) == Cell::Mine {
                *m = true;
            }
        }
        let around = |i: usize| grid.neighbours(i).filter(|&n| mine[n]).count();
        let agrees = (0..grid.len()).all(|i| match pos.cell(i) {
            Cell::Number(v) => around(i) == v as usize,
            _ => true,
        });
        if !agrees {
            continue;
        }
        out.total += 1;
        for &c in &hidden {
            if mine[c] {
                out.mine_counts[c] += 1;
            } else {
                out.number_counts[c][around(c)] += 1;
            }
        }
    }
    out
}
