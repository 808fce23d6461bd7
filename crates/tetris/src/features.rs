//! Board features, computed on the bitboard.
//!
//! Definitions follow Dellacherie's controller as implemented in MDPTetris
//! (Thiery & Scherrer), the code the published El-Tetris and BCTS weights
//! were tuned with, so those weights mean here what they meant there:
//!
//! - landing height: bounding-box bottom row of the placed piece (0-based)
//!   plus half its height minus one half;
//! - eroded piece cells: rows cleared × cells of the piece that vanished;
//! - row transitions: filled/empty changes along every visible row, walls
//!   filled (an empty row counts 2);
//! - column transitions: filled/empty changes up every column, floor filled;
//! - holes: empty cells with a filled cell somewhere above them;
//! - well sums: for every well cell (empty, both sides filled or wall), one
//!   plus the empty cells directly below it — a well of depth d over a filled
//!   cell adds 1 + 2 + … + d;
//! - hole depth: filled cells stacked directly (without a gap) on a hole;
//! - rows with holes: rows holding at least one hole;
//! - aggregate height, max height, bumpiness (sum of |h(c) − h(c+1)|) and
//!   lines cleared, as in the popular genetic-algorithm players.

use crate::board::{Board, Lock};
use crate::rules::Shape;
use serde::{Deserialize, Serialize};

/// One feature of a placement or of the board it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Feature {
    LandingHeight,
    ErodedCells,
    RowTransitions,
    ColumnTransitions,
    Holes,
    WellSums,
    HoleDepth,
    RowsWithHoles,
    AggregateHeight,
    MaxHeight,
    Bumpiness,
    LinesCleared,
}

/// Number of features.
pub const COUNT: usize = 12;

impl Feature {
    pub const ALL: [Feature; COUNT] = [
        Feature::LandingHeight,
        Feature::ErodedCells,
        Feature::RowTransitions,
        Feature::ColumnTransitions,
        Feature::Holes,
        Feature::WellSums,
        Feature::HoleDepth,
        Feature::RowsWithHoles,
        Feature::AggregateHeight,
        Feature::MaxHeight,
        Feature::Bumpiness,
        Feature::LinesCleared,
    ];

    /// The name used in weights files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Feature::LandingHeight => "landing_height",
            Feature::ErodedCells => "eroded_cells",
            Feature::RowTransitions => "row_transitions",
            Feature::ColumnTransitions => "column_transitions",
            Feature::Holes => "holes",
            Feature::WellSums => "well_sums",
            Feature::HoleDepth => "hole_depth",
            Feature::RowsWithHoles => "rows_with_holes",
            Feature::AggregateHeight => "aggregate_height",
            Feature::MaxHeight => "max_height",
            Feature::Bumpiness => "bumpiness",
            Feature::LinesCleared => "lines_cleared",
        }
    }

    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Feature values, indexed by [`Feature::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Values(pub [f64; COUNT]);

impl Values {
    #[inline]
    pub fn get(&self, f: Feature) -> f64 {
        self.0[f.index()]
    }
}

/// A set of features: what an evaluator needs computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureSet(u16);

impl FeatureSet {
    pub const ALL: FeatureSet = FeatureSet((1 << COUNT) - 1);

    pub fn of(features: impl IntoIterator<Item = Feature>) -> FeatureSet {
        FeatureSet(features.into_iter().fold(0, |m, f| m | 1 << f.index()))
    }

    #[inline]
    pub fn contains(self, f: Feature) -> bool {
        self.0 >> f.index() & 1 == 1
    }

    fn any(self, fs: &[Feature]) -> bool {
        fs.iter().any(|&f| self.contains(f))
    }
}

/// Features of the board left after locking `shape` with its bounding box
/// bottom at `row`; `lock` is what the lock did and `top_hint` an upper bound
/// on the stack height of `after` (rows from it up must be empty). Features
/// outside `needs` may be left at zero.
#[inline]
pub fn placement_values(
    after: &Board,
    lock: Lock,
    shape: &Shape,
    row: usize,
    top_hint: usize,
    needs: FeatureSet,
) -> Values {
    let mut v = board_values(after, top_hint, needs);
    v.0[Feature::LandingHeight.index()] = row as f64 + f64::from(shape.height - 1) / 2.0;
    v.0[Feature::ErodedCells.index()] = f64::from(lock.eroded_cells());
    v.0[Feature::LinesCleared.index()] = f64::from(lock.lines);
    v
}

/// Every feature of placing `shape` on `board` with its box's bottom-left at
/// `(col, row)`: what an explanation or a learner outside the AIs' hot path
/// needs. Cells above the board vanish (a Geek Challenge piece can lock
/// there); `top` is the board's stack height.
pub fn afterstate(board: &Board, top: usize, shape: &Shape, col: usize, row: usize) -> Values {
    let height = board.height();
    let mut inside = *shape;
    for (i, r) in inside
        .rows
        .iter_mut()
        .enumerate()
        .take(shape.height as usize)
    {
        if row + i >= height {
            *r = 0;
        }
    }
    let mut after = *board;
    let lock = after.lock(&inside, col, row);
    let top_hint = top.max(row + shape.height as usize).min(height);
    placement_values(&after, lock, shape, row, top_hint, FeatureSet::ALL)
}

/// The board-only features in `needs` (placement features are left at zero,
/// as may be features outside `needs`).
///
/// The work is split so that evaluators pay only for what they use: the
/// transitions and holes in one top-down pass; well sums, rows with holes and
/// the height features in the same pass when asked for; hole depth in a
/// second, bottom-up pass when asked for (it costs a third of the time).
#[inline]
pub fn board_values(board: &Board, top_hint: usize, needs: FeatureSet) -> Values {
    use Feature::*;
    let extended = needs.any(&[RowsWithHoles, AggregateHeight, MaxHeight, Bumpiness]);
    match (
        extended,
        needs.contains(HoleDepth),
        needs.contains(WellSums),
    ) {
        (false, false, false) => board_values_with::<false, false, false>(board, top_hint),
        (false, false, true) => board_values_with::<false, false, true>(board, top_hint),
        (false, true, false) => board_values_with::<false, true, false>(board, top_hint),
        (false, true, true) => board_values_with::<false, true, true>(board, top_hint),
        (true, false, false) => board_values_with::<true, false, false>(board, top_hint),
        (true, false, true) => board_values_with::<true, false, true>(board, top_hint),
        (true, true, false) => board_values_with::<true, true, false>(board, top_hint),
        (true, true, true) => board_values_with::<true, true, true>(board, top_hint),
    }
}

#[inline(always)]
fn board_values_with<const EXTENDED: bool, const DEPTH: bool, const WELLS: bool>(
    board: &Board,
    top_hint: usize,
) -> Values {
    use Feature::*;
    let rows = board.rows();
    let width = board.width();
    let full = board.full_row();
    let mut top = top_hint.min(rows.len());
    while top > 0 && rows[top - 1] == 0 {
        top -= 1;
    }

    let walls: u32 = 1 | (1 << (width + 1));
    let row_mask: u32 = (1 << (width + 1)) - 1;
    let left_wall: u16 = 1;
    let right_wall: u16 = 1 << (width - 1);
    let mut row_transitions = 2 * (board.height().saturating_sub(top)) as u32;
    let mut column_transitions = 0u32;
    let mut holes = 0u32;
    let mut rows_with_holes = 0u32;
    let mut aggregate_height = 0u32;
    let mut bumpiness = 0u32;
    let mut well_sums = 0u32;
    let (mut w0, mut w1, mut overflow) = (0u16, 0u16, 0u16);
    let mut cover = 0u16;
    let mut above = 0u16;
    for y in (0..top).rev() {
        let r = rows[y];
        let walled = (u32::from(r) << 1) | walls;
        row_transitions += ((walled ^ (walled >> 1)) & row_mask).count_ones();
        column_transitions += (r ^ above).count_ones();
        let hole = !r & cover;
        holes += hole.count_ones();
        cover |= r;
        if EXTENDED {
            rows_with_holes += u32::from(hole != 0);
            aggregate_height += cover.count_ones();
            bumpiness += ((cover ^ (cover >> 1)) & (full >> 1)).count_ones();
        }
        // Well sums, bit-parallel: every empty cell adds the number of well
        // cells above it in its run of empty cells, counted per column in a
        // 2-bit counter (bit planes `w0`, `w1`). A run with four or more well
        // cells sets `overflow`, and the sum is recounted with wide counters.
        if WELLS {
            let empty = !r & full;
            let wells = empty & ((r << 1) | left_wall) & ((r >> 1) | right_wall);
            w0 &= empty;
            w1 &= empty;
            let carry = w0 & wells;
            w0 ^= wells;
            overflow |= w1 & carry;
            w1 ^= carry;
            well_sums += (w0 & empty).count_ones() + 2 * (w1 & empty).count_ones();
        }
        above = r;
    }
    column_transitions += (rows[0] ^ full).count_ones();
    if WELLS && overflow != 0 {
        well_sums = well_sums_wide(rows, top, full);
    }

    let mut hole_depth = 0u32;
    if DEPTH {
        let mut prev = full;
        let mut over_hole = 0u16;
        for &r in &rows[..top] {
            over_hole = r & (!prev | over_hole);
            hole_depth += over_hole.count_ones();
            prev = r;
        }
    }

    let mut v = Values::default();
    v.0[RowTransitions.index()] = f64::from(row_transitions);
    v.0[ColumnTransitions.index()] = f64::from(column_transitions);
    v.0[Holes.index()] = f64::from(holes);
    v.0[WellSums.index()] = f64::from(well_sums);
    if DEPTH {
        v.0[HoleDepth.index()] = f64::from(hole_depth);
    }
    if EXTENDED {
        v.0[RowsWithHoles.index()] = f64::from(rows_with_holes);
        v.0[AggregateHeight.index()] = f64::from(aggregate_height);
        v.0[MaxHeight.index()] = top as f64;
        v.0[Bumpiness.index()] = f64::from(bumpiness);
    }
    v
}

/// Well sums with 6-bit per-column counters: exact for any run the row
/// array can hold (at most 40 cells). The second pass for boards with deep
/// wells, which are the norm where players wait for an I piece; the usual
/// shallow case stays on the cheaper 2-bit counters of the main pass.
fn well_sums_wide(rows: &[u16], top: usize, full: u16) -> u32 {
    let left_wall: u16 = 1;
    let right_wall: u16 = (full >> 1) + 1;
    let mut planes = [0u16; 6];
    let mut sum = 0;
    for &r in rows[..top].iter().rev() {
        let empty = !r & full;
        let mut carry = empty & ((r << 1) | left_wall) & ((r >> 1) | right_wall);
        for (k, plane) in planes.iter_mut().enumerate() {
            *plane &= empty;
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
            sum += (*plane & empty).count_ones() << k;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::ROWS;
    use proptest::prelude::*;

    /// Cell-by-cell definitions on a plain grid: the reference the bitboard
    /// code must agree with.
    struct Grid {
        w: usize,
        h: usize,
        cells: Vec<Vec<bool>>, // [y][x], y = 0 at the bottom
    }

    impl Grid {
        fn of(board: &Board) -> Grid {
            let (w, h) = (board.width(), board.height());
            let cells = (0..h)
                .map(|y| (0..w).map(|x| board.filled(x as i32, y as i32)).collect())
                .collect();
            Grid { w, h, cells }
        }

        /// Walls and floor filled, above the field empty.
        fn at(&self, x: i32, y: i32) -> bool {
            if x < 0 || x >= self.w as i32 || y < 0 {
                return true;
            }
            (y as usize) < self.h && self.cells[y as usize][x as usize]
        }

        fn column_height(&self, x: usize) -> usize {
            (0..self.h)
                .rev()
                .find(|&y| self.cells[y][x])
                .map_or(0, |y| y + 1)
        }

        fn is_hole(&self, x: usize, y: usize) -> bool {
            !self.cells[y][x] && (y + 1..self.h).any(|k| self.cells[k][x])
        }

        fn values(&self) -> Values {
            let mut v = Values::default();
            let (w, h) = (self.w as i32, self.h as i32);
            let mut rt = 0;
            for y in 0..h {
                for x in 0..=w {
                    rt += u32::from(self.at(x - 1, y) != self.at(x, y));
                }
            }
            let mut ct = 0;
            for x in 0..w {
                for y in 0..h {
                    ct += u32::from(self.at(x, y - 1) != self.at(x, y));
                }
            }
            let mut holes = 0;
            let mut rows_with_holes = 0;
            for y in 0..self.h {
                let n = (0..self.w).filter(|&x| self.is_hole(x, y)).count() as u32;
                holes += n;
                rows_with_holes += u32::from(n > 0);
            }
            let mut wells = 0;
            for x in 0..w {
                for y in 0..h {
                    if !self.at(x, y) && self.at(x - 1, y) && self.at(x + 1, y) {
                        let mut k = y;
                        while k >= 0 && !self.at(x, k) {
                            wells += 1;
                            k -= 1;
                        }
                    }
                }
            }
            // Hole depth: filled cells whose column, going down without a gap
            // in the filled run, reaches an empty cell.
            let mut depth = 0;
            for x in 0..w {
                for y in 0..h {
                    if !self.at(x, y) {
                        continue;
                    }
                    let mut k = y - 1;
                    while k >= 0 && self.at(x, k) {
                        k -= 1;
                    }
                    depth += u32::from(k >= 0);
                }
            }
            let heights: Vec<usize> = (0..self.w).map(|x| self.column_height(x)).collect();
            let bump: usize = heights.windows(2).map(|p| p[0].abs_diff(p[1])).sum();
            v.0[Feature::RowTransitions.index()] = f64::from(rt);
            v.0[Feature::ColumnTransitions.index()] =
                f64::from(ct + (0..self.w).filter(|&x| self.cells[self.h - 1][x]).count() as u32);
            v.0[Feature::Holes.index()] = f64::from(holes);
            v.0[Feature::WellSums.index()] = f64::from(wells);
            v.0[Feature::HoleDepth.index()] = f64::from(depth);
            v.0[Feature::RowsWithHoles.index()] = f64::from(rows_with_holes);
            v.0[Feature::AggregateHeight.index()] = heights.iter().sum::<usize>() as f64;
            v.0[Feature::MaxHeight.index()] = *heights.iter().max().unwrap() as f64;
            v.0[Feature::Bumpiness.index()] = bump as f64;
            v
        }
    }

    fn board_from(width: usize, height: usize, words: &[u16], fill_to: usize) -> Board {
        let mut b = Board::new(width, height).unwrap();
        for y in 0..fill_to.min(height) {
            let r = words[y % words.len()].rotate_left(y as u32) & b.full_row();
            // Thin the rows out towards the top so boards look like stacks.
            let r = if y * 3 > fill_to * 2 {
                r & words[(y + 1) % words.len()]
            } else {
                r
            };
            for x in 0..width {
                if r >> x & 1 == 1 {
                    b.set(x, y);
                }
            }
        }
        b
    }

    #[test]
    fn hand_checked_example() {
        // Well in column 1 of depth 2, a hole under column 3.
        let b = Board::from_text(
            5,
            6,
            "
            #.#..
            #.###
            ##..#",
        )
        .unwrap();
        let v = board_values(&b, ROWS, FeatureSet::ALL);
        assert_eq!(v.get(Feature::Holes), 2.0);
        assert_eq!(v.get(Feature::RowsWithHoles), 1.0);
        assert_eq!(v.get(Feature::HoleDepth), 3.0);
        // Column 1 well: cells (1,2) and (1,1), each over empty cells down to
        // the filled (1,0): 2 + 1. Column 4 at y = 2: wall on the right,
        // column 3 empty there, so no well.
        assert_eq!(v.get(Feature::WellSums), 3.0);
        assert_eq!(v.get(Feature::AggregateHeight), 3.0 + 1.0 + 3.0 + 2.0 + 2.0);
        assert_eq!(v.get(Feature::Bumpiness), 2.0 + 2.0 + 1.0 + 0.0);
        assert_eq!(v.get(Feature::MaxHeight), 3.0);
        // Rows: "#.#.." 4, "#.###" 2, "##..#" 2, three empty rows 2 each.
        assert_eq!(v.get(Feature::RowTransitions), 4.0 + 2.0 + 2.0 + 6.0);
    }

    #[test]
    fn deep_wells_agree_with_the_grid() {
        // Column 2 is a well of depth 7, column 5 one of depth 3 over a hole.
        let b = Board::from_text(
            7,
            10,
            "
            ##.###.
            ##.###.
            ##.###.
            ##.###.
            ##.##.#
            ##.##.#
            ##.##.#
            ###.###",
        )
        .unwrap();
        let v = board_values(&b, ROWS, FeatureSet::ALL);
        assert_eq!(v, Grid::of(&b).values());
        // 1 + ... + 7 in column 2; column 6: 4 well cells over 4 empty cells,
        // then filled: 4 + 3 + 2 + 1; column 5: three cells each reaching down
        // through the empty cells to the filled (5,0): 3 + 2 + 1; and the
        // one-cell well at (3,0): 1.
        assert_eq!(v.get(Feature::WellSums), 28.0 + 10.0 + 6.0 + 1.0);
    }

    #[test]
    fn wells_as_deep_as_the_board_are_counted_exactly() {
        // A 32-deep well in column 1, the deepest a board can have.
        let mut b = Board::new(5, 32).unwrap();
        for y in 0..32 {
            for x in [0, 2, 3] {
                b.set(x, y);
            }
        }
        let v = board_values(&b, ROWS, FeatureSet::ALL);
        assert_eq!(v, Grid::of(&b).values());
        // 1 + ... + 32 in column 1; column 4 next to the wall: the same.
        assert_eq!(v.get(Feature::WellSums), 2.0 * 528.0);
    }

    #[test]
    fn empty_board() {
        let b = Board::new(10, 20).unwrap();
        let v = board_values(&b, 0, FeatureSet::ALL);
        assert_eq!(v.get(Feature::RowTransitions), 40.0);
        assert_eq!(v.get(Feature::ColumnTransitions), 10.0);
        assert_eq!(v, Grid::of(&b).values());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn bitboard_features_match_the_grid_definitions(
            width in 4usize..=16,
            height in 4usize..=24,
            words in prop::collection::vec(any::<u16>(), 1..10),
            fill_frac in 0.0f64..1.0,
        ) {
            use Feature::*;
            let subsets: [&[Feature]; 4] = [
                &[RowTransitions, ColumnTransitions, Holes, WellSums],
                &[Holes, HoleDepth],
                &[Bumpiness, MaxHeight],
                &[RowsWithHoles, AggregateHeight, HoleDepth],
            ];
            let fill_to = (height as f64 * fill_frac) as usize;
            let b = board_from(width, height, &words, fill_to);
            prop_assert_eq!(board_values(&b, ROWS, FeatureSet::ALL), Grid::of(&b).values());
            // A loose upper bound on the stack height gives the same answer.
            prop_assert_eq!(board_values(&b, b.stack_height() + 3, FeatureSet::ALL), board_values(&b, ROWS, FeatureSet::ALL));
            // Asking for fewer features gives the same values for those asked.
            let full = board_values(&b, ROWS, FeatureSet::ALL);
            for (i, needs) in subsets.iter().enumerate() {
                let part = board_values(&b, ROWS, FeatureSet::of(needs.iter().copied()));
                for &f in needs.iter() {
                    prop_assert_eq!(part.get(f), full.get(f), "subset {} feature {:?}", i, f);
                }
            }
        }
        #[test]
        fn placement_features_match_a_grid_lock(
            width in 4usize..=12,
            words in prop::collection::vec(any::<u16>(), 1..10),
            fill_frac in 0.0f64..0.7,
            piece in 0usize..7,
            rot in 0usize..4,
            col_frac in 0.0f64..1.0,
        ) {
            use crate::piece::Piece;
            use crate::rules::Rules;
            let height = 16;
            let mut b = board_from(width, height, &words, (height as f64 * fill_frac) as usize);
            // Boards at rest have no full rows.
            for y in 0..height {
                if b.row(y) == b.full_row() {
                    let mut g = Grid::of(&b);
                    g.cells[y][y % width] = false;
                    b = Board::new(width, height).unwrap();
                    for (yy, row) in g.cells.iter().enumerate() {
                        for (x, &c) in row.iter().enumerate() {
                            if c { b.set(x, yy); }
                        }
                    }
                }
            }
            let rules = Rules::classic();
            let shape = rules.shape(Piece::from_index(piece), rot);
            let col = ((width - shape.width as usize) as f64 * col_frac) as usize;
            let row = Board::drop_row(shape, col, &b.column_heights());
            prop_assume!(row + shape.height as usize <= height);
            // Naive: write the cells on a grid, find the full rows.
            let mut grid = Grid::of(&b);
            let cells: Vec<(i32, i32)> = shape.cells_at(col as i32, row as i32).collect();
            for &(x, y) in &cells {
                grid.cells[y as usize][x as usize] = true;
            }
            let full: Vec<usize> = (0..height).filter(|&y| grid.cells[y].iter().all(|&c| c)).collect();
            let piece_in_full = cells.iter().filter(|&&(_, y)| full.contains(&(y as usize))).count();
            let min_y = cells.iter().map(|c| c.1).min().unwrap();
            let max_y = cells.iter().map(|c| c.1).max().unwrap();

            let mut after = b;
            let lock = after.lock(shape, col, row);
            let v = placement_values(&after, lock, shape, row, ROWS, FeatureSet::ALL);
            prop_assert_eq!(v.get(Feature::LinesCleared), full.len() as f64);
            prop_assert_eq!(v.get(Feature::ErodedCells), (full.len() * piece_in_full) as f64);
            prop_assert_eq!(v.get(Feature::LandingHeight), f64::from(min_y + max_y) / 2.0);
        }
    }
}
