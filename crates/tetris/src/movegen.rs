//! Where can the current piece go? Two answers:
//!
//! - [`MoveMode::Drop`]: turn, shift, hard drop — what the classic AIs and the
//!   published benchmarks use;
//! - [`MoveMode::Reach`]: every resting position reachable from the spawn by
//!   single left, right, down and rotate steps, so tucks under overhangs and
//!   slides count.
//!
//! Placements that give the same board are reported once. Whether a piece may
//! lock with cells above the visible field is the rule set's call
//! ([`AboveTop`]). With `float`, positions where the piece is not resting but
//! completes a row are placements too (games that lock a piece wherever its
//! moves end allow them). [`path`] finds the moves that lead to a placement.

use crate::board::{Board, ROWS};
use crate::piece::Piece;
use crate::rules::{AboveTop, Rotation, Rules, SpawnRule};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

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

/// Appends the legal resting placements of `piece`, which spawns in rotation
/// state `spawn_rotation`, to `out` (cleared first).
pub fn placements(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    spawn_rotation: usize,
    mode: MoveMode,
    out: &mut Vec<Placement>,
) {
    out.clear();
    if mode == MoveMode::Drop && rules.spawn_rule == SpawnRule::AboveCentred {
        // The spawn is above an untouched field: every column is reachable and
        // a drop lands on the column heights.
        drop_placements(rules, board, piece, out);
    } else {
        search(rules, board, piece, spawn_rotation, mode, false, out);
    }
}

/// Like [`placements`], plus the positions on the way that are not resting
/// but complete at least one row (for games where a piece locks wherever
/// its moves end).
pub fn placements_with_floats(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    spawn_rotation: usize,
    mode: MoveMode,
    out: &mut Vec<Placement>,
) {
    out.clear();
    search(rules, board, piece, spawn_rotation, mode, true, out);
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

/// Flood fill over pivot rows, top down. At the spawn row the piece may
/// shift and turn freely; below it, `Reach` keeps shifting and turning while
/// `Drop` only falls.
fn search(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    r0: usize,
    mode: MoveMode,
    float: bool,
    out: &mut Vec<Placement>,
) {
    let (px0, py0) = rules.spawn(piece, r0, board.width(), board.height());
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
    if mode == MoveMode::Drop && !float {
        straight_drops(rules, board, piece, py0, &reach, out);
        return;
    }

    // Above the stack the rows are empty, so nothing changes while falling
    // through them: jump to the lowest pivot row still clear of the stack.
    let lowest_dy = (0..4)
        .map(|r| i32::from(rules.shape(piece, r).min_dy))
        .min()
        .unwrap_or(0);
    let clear_py = board.stack_height() as i32 - lowest_dy;
    let mut py = clear_py.min(py0);
    let skipped = reach;

    // Masks indexed by canonical rotation and bounding-box row; `seen` keeps
    // every reachable position for the floating check.
    let mut rest = [[0u32; PY_SLOTS]; 4];
    let mut seen = [[0u32; PY_SLOTS]; 4];
    // Below the floor every free mask is empty, so the loop ends there.
    while reach.iter().any(|&m| m != 0) {
        let below = free_at(py - 1);
        for r in 0..4 {
            if float && reach[r] != 0 {
                let (c, row, cols) = to_box(rules, piece, r, py, reach[r]);
                seen[c][row] |= cols;
            }
            let resting = reach[r] & !below[r];
            if resting != 0 {
                let (c, row, cols) = to_box(rules, piece, r, py, resting);
                if lock_allowed(rules, board, piece, r, row) {
                    rest[c][row] |= cols;
                }
            }
        }
        for r in 0..4 {
            reach[r] &= below[r];
        }
        py -= 1;
        if mode == MoveMode::Reach {
            close_row(rules.rotation, &below, &mut reach);
        }
    }
    if float {
        add_floating_clears(
            rules,
            board,
            piece,
            (clear_py, py0, &skipped),
            &seen,
            &mut rest,
        );
    }
    emit(rules, piece, &rest, out);
}

/// Drops every spawn-row position straight down. Where the piece at the
/// spawn row is above all its columns' tops it lands on the column heights,
/// the cheap case; otherwise (a stack reaching the spawn rows, with gaps
/// under overhangs) it falls row by row.
fn straight_drops(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    py0: i32,
    spawn: &[u32; 4],
    out: &mut Vec<Placement>,
) {
    let heights = board.column_heights();
    let mut rest = [[0u32; PY_SLOTS]; 4];
    for (r, &mask) in spawn.iter().enumerate() {
        let shape = rules.shape(piece, r);
        let spawn_row = py0 + i32::from(shape.min_dy);
        let mut bits = mask >> (PX_OFFSET - i32::from(shape.min_dx)); // bit col
        while bits != 0 {
            let col = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let above_tops = (0..shape.width as usize)
                .all(|c| i32::from(heights[col + c]) <= spawn_row + i32::from(shape.bottom[c]));
            let row = if above_tops {
                Board::drop_row(shape, col, &heights) as i32
            } else {
                let mut row = spawn_row;
                while board.fits(shape, col as i32, row - 1) {
                    row -= 1;
                }
                row
            };
            if lock_allowed(rules, board, piece, r, row as usize) {
                rest[rules.canonical(piece, r)][row as usize] |= 1 << col;
            }
        }
    }
    emit(rules, piece, &rest, out);
}

/// Appends the placements marked in `rest` (canonical rotation, box row,
/// column bits).
fn emit(rules: &Rules, piece: Piece, rest: &[[u32; PY_SLOTS]; 4], out: &mut Vec<Placement>) {
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

/// Converts pivot-indexed bits at pivot row `py` in state `r` to the
/// canonical state, bounding-box row and column bits.
#[inline]
fn to_box(rules: &Rules, piece: Piece, r: usize, py: i32, bits: u32) -> (usize, usize, u32) {
    let shape = rules.shape(piece, r);
    let row = py + i32::from(shape.min_dy);
    // bit px + PX_OFFSET -> bit col = px + min_dx
    let cols = bits >> (PX_OFFSET - i32::from(shape.min_dx));
    (rules.canonical(piece, r), row.max(0) as usize, cols)
}

/// Whether state `r` may lock with its box bottom at `row`.
#[inline]
fn lock_allowed(rules: &Rules, board: &Board, piece: Piece, r: usize, row: usize) -> bool {
    rules.above_top == AboveTop::Vanish
        || row + rules.shape(piece, r).height as usize <= board.height()
}

/// Adds the reachable positions that complete a row. A row with gap mask `g`
/// is completed by box row `j` of a shape exactly when `g` is that row's mask
/// shifted, which fixes the column: few candidates, each checked against the
/// reachable set (`seen`, or for the rows skipped above the stack, the spawn
/// closure).
fn add_floating_clears(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    (clear_py, py0, skipped): (i32, i32, &[u32; 4]),
    seen: &[[u32; PY_SLOTS]; 4],
    rest: &mut [[u32; PY_SLOTS]; 4],
) {
    let full = board.full_row();
    for y in 0..board.stack_height().min(board.height()) {
        let gap = full & !board.row(y);
        if gap == 0 || gap.count_ones() > 4 {
            continue;
        }
        for (r, &spawn_closure) in skipped.iter().enumerate() {
            let shape = rules.shape(piece, r);
            for j in 0..shape.height as usize {
                let m = shape.rows[j];
                let shift = gap.trailing_zeros() as i32 - m.trailing_zeros() as i32;
                if shift < 0 || m << shift != gap || y < j {
                    continue;
                }
                let (row, col) = (y - j, shift as u32);
                let py = row as i32 - i32::from(shape.min_dy);
                let px_bit = 1u32 << (col as i32 - i32::from(shape.min_dx) + PX_OFFSET);
                let c = rules.canonical(piece, r);
                let reachable = if py > clear_py && py <= py0 {
                    spawn_closure & px_bit != 0
                } else {
                    seen[c][row] >> col & 1 == 1
                };
                if reachable && lock_allowed(rules, board, piece, r, row) {
                    rest[c][row] |= 1 << col;
                }
            }
        }
    }
}

/// One step of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Left,
    Right,
    Down,
    /// To the next rotation state.
    Clockwise,
    /// To the previous rotation state (only where the rules allow it).
    CounterClockwise,
}

/// Where `ops` leave the piece, starting from the spawn; like the games, an
/// illegal step is ignored. `None` if the spawn itself is blocked.
pub fn follow(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    spawn_rotation: usize,
    ops: impl IntoIterator<Item = Op>,
) -> Option<Placement> {
    let fits = |r: usize, px: i32, py: i32| {
        rules
            .shape(piece, r)
            .cells
            .iter()
            .all(|&(dx, dy)| !board.filled(px + i32::from(dx), py + i32::from(dy)))
    };
    let (mut px, mut py) = rules.spawn(piece, spawn_rotation, board.width(), board.height());
    let mut r = spawn_rotation;
    if !fits(r, px, py) {
        return None;
    }
    for op in ops {
        let (nr, nx, ny) = match op {
            Op::Left => (r, px - 1, py),
            Op::Right => (r, px + 1, py),
            Op::Down => (r, px, py - 1),
            Op::Clockwise => ((r + 1) % 4, px, py),
            Op::CounterClockwise => ((r + 3) % 4, px, py),
        };
        if fits(nr, nx, ny) {
            (r, px, py) = (nr, nx, ny);
        }
    }
    let shape = rules.shape(piece, r);
    Some(Placement {
        rotation: rules.canonical(piece, r) as u8,
        col: (px + i32::from(shape.min_dx)) as u8,
        row: (py + i32::from(shape.min_dy)) as u8,
    })
}

/// A piece's state: rotation, pivot x, pivot y.
type State = (usize, i32, i32);

/// A shortest sequence of steps from the spawn to `target` (which the piece
/// then locks in), or `None` if it cannot be reached. `Drop` paths shift and
/// turn only on the spawn row. Plain breadth-first search over pivot
/// positions: it runs once per chosen placement, not in the search loop.
pub fn path(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    spawn_rotation: usize,
    mode: MoveMode,
    target: Placement,
) -> Option<Vec<Op>> {
    let fits = |r: usize, px: i32, py: i32| {
        rules
            .shape(piece, r)
            .cells
            .iter()
            .all(|&(dx, dy)| !board.filled(px + i32::from(dx), py + i32::from(dy)))
    };
    let is_target = |r: usize, px: i32, py: i32| {
        let shape = rules.shape(piece, r);
        rules.canonical(piece, r) == target.rotation as usize
            && px + i32::from(shape.min_dx) == i32::from(target.col)
            && py + i32::from(shape.min_dy) == i32::from(target.row)
    };
    let (px0, py0) = rules.spawn(piece, spawn_rotation, board.width(), board.height());
    let start = (spawn_rotation, px0, py0);
    if !fits(start.0, start.1, start.2) {
        return None;
    }
    // States (rotation, pivot x, pivot y) index a flat array of parents;
    // every legal pivot lies within PX_OFFSET / PY_OFFSET of the board.
    let xs = board.width() as i32 + 2 * PX_OFFSET + 1;
    let ys = ROWS as i32 + 2 * PY_OFFSET;
    let index = |(r, px, py): (usize, i32, i32)| {
        ((r as i32 * ys + py + PY_OFFSET) * xs + px + PX_OFFSET) as usize
    };
    let mut parent: Vec<Option<(State, Op)>> = vec![None; (4 * xs * ys) as usize];
    let mut queue = VecDeque::from([start]);
    let mut found = None;
    while let Some(state @ (r, px, py)) = queue.pop_front() {
        if is_target(r, px, py) {
            found = Some(state);
            break;
        }
        let on_spawn_row = py == py0;
        let mut steps = vec![(Op::Down, (r, px, py - 1))];
        if mode == MoveMode::Reach || on_spawn_row {
            steps.push((Op::Left, (r, px - 1, py)));
            steps.push((Op::Right, (r, px + 1, py)));
            steps.push((Op::Clockwise, ((r + 1) % 4, px, py)));
            if rules.rotation == Rotation::Both {
                steps.push((Op::CounterClockwise, ((r + 3) % 4, px, py)));
            }
        }
        for (op, next) in steps {
            if next != start && fits(next.0, next.1, next.2) && parent[index(next)].is_none() {
                parent[index(next)] = Some((state, op));
                queue.push_back(next);
            }
        }
    }
    let mut state = found?;
    let mut ops = Vec::new();
    while state != start {
        let (prev, op) = parent[index(state)].expect("visited states have parents");
        ops.push(op);
        state = prev;
    }
    ops.reverse();
    Some(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeSet, HashSet, VecDeque};

    /// Obviously-correct reference: breadth-first search over single steps,
    /// testing every cell. `Drop` shifts and turns only on the spawn row;
    /// `float` also keeps non-resting positions that complete a row.
    fn naive(
        rules: &Rules,
        board: &Board,
        piece: Piece,
        r0: usize,
        mode: MoveMode,
        float: bool,
    ) -> BTreeSet<Placement> {
        let fits = |r: usize, px: i32, py: i32| {
            rules
                .shape(piece, r)
                .cells
                .iter()
                .all(|&(dx, dy)| !board.filled(px + i32::from(dx), py + i32::from(dy)))
        };
        let completes_a_row = |r: usize, px: i32, py: i32| {
            let cells: Vec<(i32, i32)> = rules
                .shape(piece, r)
                .cells
                .iter()
                .map(|&(dx, dy)| (px + i32::from(dx), py + i32::from(dy)))
                .collect();
            cells.iter().any(|&(_, y)| {
                y < board.height() as i32
                    && (0..board.width() as i32)
                        .all(|x| board.filled(x, y) || cells.contains(&(x, y)))
            })
        };
        let (px, py) = rules.spawn(piece, r0, board.width(), board.height());
        let start = (r0, px, py);
        let mut seen = HashSet::new();
        let mut queue = VecDeque::new();
        let mut out = BTreeSet::new();
        if !fits(start.0, start.1, start.2) {
            return out;
        }
        seen.insert(start);
        queue.push_back(start);
        while let Some((r, px, py)) = queue.pop_front() {
            let mut next = vec![(r, px, py - 1)];
            if mode == MoveMode::Reach || py == start.2 {
                next.extend([(r, px - 1, py), (r, px + 1, py), ((r + 1) % 4, px, py)]);
                if rules.rotation == Rotation::Both {
                    next.push(((r + 3) % 4, px, py));
                }
            }
            for s in next {
                if fits(s.0, s.1, s.2) && seen.insert(s) {
                    queue.push_back(s);
                }
            }
            if !fits(r, px, py - 1) || (float && completes_a_row(r, px, py)) {
                let shape = rules.shape(piece, r);
                let row = py + i32::from(shape.min_dy);
                let in_field = row + i32::from(shape.height) <= board.height() as i32;
                if in_field || rules.above_top == AboveTop::Vanish {
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
                placements(&rules, &b, p, 0, MoveMode::Drop, &mut out);
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
        placements(&rules, &b, Piece::O, 0, MoveMode::Drop, &mut drop);
        placements(&rules, &b, Piece::O, 0, MoveMode::Reach, &mut reach);
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
            placements(&rules, &board, piece, 0, MoveMode::Reach, &mut fast);
            let fast_set: BTreeSet<Placement> = fast.iter().copied().collect();
            prop_assert_eq!(fast_set.len(), fast.len(), "duplicates in reach output");
            prop_assert_eq!(&fast_set, &naive(&rules, &board, piece, 0, MoveMode::Reach, false));
            if !cw_only {
                let mut drop = Vec::new();
                placements(&rules, &board, piece, 0, MoveMode::Drop, &mut drop);
                for p in drop {
                    prop_assert!(fast_set.contains(&p), "drop placement {:?} not reachable", p);
                }
            }
        }
        /// Geek rules (spawn inside the field, clockwise turns only, cells
        /// above the top vanish), any spawn state, both modes, with and
        /// without floating placements; and every placement's path replays
        /// to it.
        #[test]
        fn geek_moves_match_naive_bfs_and_paths_replay(
            cols in prop::collection::vec(any::<u8>(), 1..16),
            noise in prop::collection::vec(any::<u16>(), 1..8),
            tall in any::<bool>(),
            piece in 0usize..7,
            r0 in 0usize..4,
            reach in any::<bool>(),
            float in any::<bool>(),
        ) {
            let rules = Rules::geek();
            // Tall stacks reach the spawn row, where the spawn closure matters.
            let height = if tall { 8 } else { 20 };
            let board = random_board(10, height, &cols, &noise);
            let piece = Piece::from_index(piece);
            let mode = if reach { MoveMode::Reach } else { MoveMode::Drop };
            let mut fast = Vec::new();
            if float {
                placements_with_floats(&rules, &board, piece, r0, mode, &mut fast);
            } else {
                placements(&rules, &board, piece, r0, mode, &mut fast);
            }
            let fast_set: BTreeSet<Placement> = fast.iter().copied().collect();
            prop_assert_eq!(fast_set.len(), fast.len(), "duplicates");
            prop_assert_eq!(&fast_set, &naive(&rules, &board, piece, r0, mode, float));
            for &p in fast.iter().take(6) {
                let ops = path(&rules, &board, piece, r0, mode, p).expect("reachable");
                prop_assert_eq!(follow(&rules, &board, piece, r0, ops), Some(p));
            }
        }
    }
}
