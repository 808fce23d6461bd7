//! Where can the current piece go? Two answers:
//!
//! - [`MoveMode::Drop`]: turn, shift, hard drop — what the classic AIs and the
//!   published benchmarks use;
//! - [`MoveMode::Reach`]: every resting position reachable from the spawn by
//!   single left, right, down and rotate steps, so tucks under overhangs and
//!   slides count.
//!
//! Placements that give the same board are reported once, and placements that
//! would lock a cell above the visible field are not legal.

use crate::board::{Board, ROWS};
use crate::piece::Piece;
use crate::rules::{Rotation, Rules};
use serde::{Deserialize, Serialize};

/// A resting position: rotation state (the first state with that shape) and
/// the bottom-left corner of the shape's bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Placement {
    pub rotation: u8,
    pub col: u8,
    pub row: u8,
}

/// How placements are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveMode {
    Drop,
    Reach,
}

/// Appends the legal placements of `piece` on `board` to `out` (cleared first).
pub fn placements(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    mode: MoveMode,
    out: &mut Vec<Placement>,
) {
    out.clear();
    match mode {
        MoveMode::Drop => drop_placements(rules, board, piece, out),
        MoveMode::Reach => reach_placements(rules, board, piece, out),
    }
}

fn drop_placements(rules: &Rules, board: &Board, piece: Piece, out: &mut Vec<Placement>) {
    let heights = board.column_heights();
    for r in rules.distinct_rotations(piece) {
        let shape = rules.shape(piece, r);
        for col in 0..=board.width() - shape.width as usize {
            let row = Board::drop_row(shape, col, &heights);
            if row + shape.height as usize <= board.height() {
                out.push(Placement {
                    rotation: r as u8,
                    col: col as u8,
                    row: row as u8,
                });
            }
        }
    }
}

/// Pivot offsets so that masks index non-negative bits and arrays non-negative
/// rows: cell offsets of every rule set lie in `-2..=2`.
const PX_OFFSET: i32 = 2;
const PY_OFFSET: i32 = 2;
const PY_SLOTS: usize = ROWS + 2 * PY_OFFSET as usize;

/// Row `y` as a mask where bit `x + 4` is set when `(x, y)` is blocked;
/// walls and floor are blocked.
#[inline]
fn blocked_row(board: &Board, y: i32) -> u32 {
    if y < 0 {
        return u32::MAX;
    }
    let walls = 0xF | (u32::MAX << (board.width() + 4));
    if y >= ROWS as i32 {
        return walls;
    }
    (u32::from(board.row(y as usize)) << 4) | walls
}

/// Bit `px + PX_OFFSET` is set when the piece fits with its pivot at `(px, py)`.
#[inline]
fn free_mask(rules: &Rules, board: &Board, piece: Piece, rotation: usize, py: i32) -> u32 {
    let shape = rules.shape(piece, rotation);
    let mut blocked = 0u32;
    for &(dx, dy) in &shape.cells {
        blocked |= blocked_row(board, py + i32::from(dy)) >> (i32::from(dx) + PX_OFFSET);
    }
    !blocked & ((1u32 << (board.width() + 4)) - 1)
}

/// Extends the seed bits along runs of set bits of `free`, both ways
/// (a Kogge–Stone occluded fill: five steps per direction for 32 bits).
#[inline]
fn fill_runs(seed: u32, free: u32) -> u32 {
    let mut g = seed & free;
    let mut p = free;
    g |= p & (g << 1);
    p &= p << 1;
    g |= p & (g << 2);
    p &= p << 2;
    g |= p & (g << 4);
    p &= p << 4;
    g |= p & (g << 8);
    p &= p << 8;
    g |= p & (g << 16);
    let mut p = free;
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    g
}

/// Closes `reach` (one mask per rotation state, all at the same pivot row)
/// under left/right moves and the allowed rotations.
#[inline]
fn close_row(rotation: Rotation, free: &[u32; 4], reach: &mut [u32; 4]) {
    loop {
        let mut changed = false;
        for r in 0..4 {
            reach[r] = fill_runs(reach[r], free[r]);
        }
        for r in 0..4 {
            if reach[r] == 0 {
                continue;
            }
            let turns: &[usize] = match rotation {
                Rotation::Both => &[(r + 1) % 4, (r + 3) % 4],
                Rotation::ClockwiseOnly => &[(r + 1) % 4],
            };
            for &t in turns {
                let add = reach[r] & free[t] & !reach[t];
                if add != 0 {
                    reach[t] |= add;
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

fn reach_placements(rules: &Rules, board: &Board, piece: Piece, out: &mut Vec<Placement>) {
    let (r0, px0, py0) = rules.spawn(piece, board.width(), board.height());
    let free_at =
        |py: i32| -> [u32; 4] { std::array::from_fn(|r| free_mask(rules, board, piece, r, py)) };
    let spawn_free = free_at(py0);
    let spawn_bit = 1u32 << (px0 + PX_OFFSET);
    if spawn_free[r0] & spawn_bit == 0 {
        return; // blocked spawn: no legal placement
    }
    let mut reach = [0u32; 4];
    reach[r0] = spawn_bit;
    close_row(rules.rotation, &spawn_free, &mut reach);

    // Above the stack the rows are empty, so nothing changes while falling
    // through them: jump to the lowest pivot row still clear of the stack.
    let lowest_dy = (0..4)
        .map(|r| i32::from(rules.shape(piece, r).min_dy))
        .min()
        .unwrap_or(0);
    let py = (board.stack_height() as i32 - lowest_dy).min(py0);

    // Resting masks, indexed by canonical rotation and bounding-box row.
    // Below the floor every free mask is empty, so the loop ends there.
    let mut rest = [[0u32; PY_SLOTS]; 4];
    let mut py = py;
    while reach.iter().any(|&m| m != 0) {
        let below = free_at(py - 1);
        for r in 0..4 {
            let resting = reach[r] & !below[r];
            if resting == 0 {
                continue;
            }
            let shape = rules.shape(piece, r);
            let row = py + i32::from(shape.min_dy);
            if row + i32::from(shape.height) > board.height() as i32 {
                continue; // would lock above the visible field
            }
            // bit px + PX_OFFSET -> bit col = px + min_dx
            let cols = resting >> (PX_OFFSET - i32::from(shape.min_dx));
            rest[rules.canonical(piece, r)][row as usize] |= cols;
        }
        for r in 0..4 {
            reach[r] &= below[r];
        }
        py -= 1;
        close_row(rules.rotation, &below, &mut reach);
    }

    for r in rules.distinct_rotations(piece) {
        for (row, &mask) in rest[r].iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                let col = m.trailing_zeros();
                m &= m - 1;
                out.push(Placement {
                    rotation: r as u8,
                    col: col as u8,
                    row: row as u8,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeSet, HashSet, VecDeque};

    /// Obviously-correct reference: breadth-first search over single steps,
    /// testing every cell.
    fn naive_reach(rules: &Rules, board: &Board, piece: Piece) -> BTreeSet<Placement> {
        let fits = |r: usize, px: i32, py: i32| {
            rules
                .shape(piece, r)
                .cells
                .iter()
                .all(|&(dx, dy)| !board.filled(px + i32::from(dx), py + i32::from(dy)))
        };
        let start = rules.spawn(piece, board.width(), board.height());
        let mut seen = HashSet::new();
        let mut queue = VecDeque::new();
        let mut out = BTreeSet::new();
        if !fits(start.0, start.1, start.2) {
            return out;
        }
        seen.insert(start);
        queue.push_back(start);
        while let Some((r, px, py)) = queue.pop_front() {
            let mut next = vec![
                (r, px - 1, py),
                (r, px + 1, py),
                (r, px, py - 1),
                ((r + 1) % 4, px, py),
            ];
            if rules.rotation == Rotation::Both {
                next.push(((r + 3) % 4, px, py));
            }
            for s in next {
                if fits(s.0, s.1, s.2) && seen.insert(s) {
                    queue.push_back(s);
                }
            }
            if !fits(r, px, py - 1) {
                let shape = rules.shape(piece, r);
                let row = py + i32::from(shape.min_dy);
                if row + i32::from(shape.height) <= board.height() as i32 {
                    out.insert(Placement {
                        rotation: rules.canonical(piece, r) as u8,
                        col: (px + i32::from(shape.min_dx)) as u8,
                        row: row as u8,
                    });
                }
            }
        }
        out
    }

    fn random_board(width: usize, height: usize, cols: &[u8], noise: &[u16]) -> Board {
        let mut b = Board::new(width, height).unwrap();
        for x in 0..width {
            let h = cols[x % cols.len()] as usize % (height - 2);
            for y in 0..h {
                // Punch holes and overhangs from the noise words.
                if noise[(x * 7 + y) % noise.len()] >> (y % 16) & 1 == 0 || y + 1 == h {
                    b.set(x, y);
                }
            }
        }
        // No full rows on a board at rest.
        for y in 0..height {
            if b.row(y) == b.full_row() {
                let mut rows = *b.rows();
                rows[y] &= !(1 << (y % width));
                b = Board::new(width, height).unwrap();
                for (yy, r) in rows.iter().enumerate().take(height) {
                    for x in 0..width {
                        if r >> x & 1 == 1 {
                            b.set(x, yy);
                        }
                    }
                }
            }
        }
        b
    }

    #[test]
    fn empty_board_drop_counts() {
        let rules = Rules::classic();
        let b = Board::new(10, 20).unwrap();
        let mut out = Vec::new();
        let counts: Vec<usize> = Piece::ALL
            .iter()
            .map(|&p| {
                placements(&rules, &b, p, MoveMode::Drop, &mut out);
                out.len()
            })
            .collect();
        // I O T S Z J L: the well-known 17, 9, 34, 17, 17, 34, 34.
        assert_eq!(counts, vec![17, 9, 34, 17, 17, 34, 34]);
    }

    #[test]
    fn reach_finds_a_tuck_that_drop_cannot() {
        let rules = Rules::classic();
        // An overhang: the T can slide under the roof at the right.
        let b = Board::from_text(
            6,
            8,
            "
            ...###
            ......
            #.....",
        )
        .unwrap();
        let mut drop = Vec::new();
        let mut reach = Vec::new();
        placements(&rules, &b, Piece::O, MoveMode::Drop, &mut drop);
        placements(&rules, &b, Piece::O, MoveMode::Reach, &mut reach);
        let tuck = Placement {
            rotation: 0,
            col: 4,
            row: 0,
        };
        assert!(!drop.contains(&tuck));
        assert!(reach.contains(&tuck));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn reach_matches_naive_bfs_and_contains_drop(
            width in 4usize..=12,
            height in 6usize..=14,
            cols in prop::collection::vec(any::<u8>(), 1..16),
            noise in prop::collection::vec(any::<u16>(), 1..8),
            piece in 0usize..7,
            cw_only in any::<bool>(),
        ) {
            let mut rules = Rules::classic();
            if cw_only {
                rules.rotation = Rotation::ClockwiseOnly;
            }
            let board = random_board(width, height, &cols, &noise);
            let piece = Piece::from_index(piece);
            let mut fast = Vec::new();
            placements(&rules, &board, piece, MoveMode::Reach, &mut fast);
            let fast_set: BTreeSet<Placement> = fast.iter().copied().collect();
            prop_assert_eq!(fast_set.len(), fast.len(), "duplicates in reach output");
            prop_assert_eq!(&fast_set, &naive_reach(&rules, &board, piece));
            if !cw_only {
                let mut drop = Vec::new();
                placements(&rules, &board, piece, MoveMode::Drop, &mut drop);
                for p in drop {
                    prop_assert!(fast_set.contains(&p), "drop placement {:?} not reachable", p);
                }
            }
        }
    }
}
