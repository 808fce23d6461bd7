//! Rule sets: the shape of every piece in every rotation state, how rotation
//! works, and where pieces spawn.
//!
//! A rule set is data, so other games built on the same engine (the Tencent
//! Geek Challenge rules, for instance) supply their own tables instead of
//! forking the engine.

use crate::piece::Piece;

/// Cell offsets `(dx, dy)` from the pivot, `y` growing upward.
pub type Cells = [(i8, i8); 4];

/// One rotation state of a piece, with the bitboard view derived from its
/// cells: the bounding box, its rows as bit masks and each column's lowest cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Cells relative to the pivot.
    pub cells: Cells,
    /// Offset of the bounding box's left column from the pivot.
    pub min_dx: i8,
    /// Offset of the bounding box's bottom row from the pivot.
    pub min_dy: i8,
    pub width: u8,
    pub height: u8,
    /// Bounding-box rows, bottom first; bit `c` is box column `c`.
    pub rows: [u16; 4],
    /// Lowest filled row of each box column (what lands first on a drop).
    pub bottom: [u8; 4],
}

impl Shape {
    pub const fn new(cells: Cells) -> Shape {
        let mut min_dx = i8::MAX;
        let mut min_dy = i8::MAX;
        let mut max_dx = i8::MIN;
        let mut max_dy = i8::MIN;
        let mut i = 0;
        while i < 4 {
            let (dx, dy) = cells[i];
            if dx < min_dx {
                min_dx = dx;
            }
            if dy < min_dy {
                min_dy = dy;
            }
            if dx > max_dx {
                max_dx = dx;
            }
            if dy > max_dy {
                max_dy = dy;
            }
            i += 1;
        }
        let mut rows = [0u16; 4];
        let mut bottom = [u8::MAX; 4];
        let mut i = 0;
        while i < 4 {
            let c = (cells[i].0 - min_dx) as usize;
            let r = (cells[i].1 - min_dy) as usize;
            rows[r] |= 1 << c;
            if (r as u8) < bottom[c] {
                bottom[c] = r as u8;
            }
            i += 1;
        }
        Shape {
            cells,
            min_dx,
            min_dy,
            width: (max_dx - min_dx + 1) as u8,
            height: (max_dy - min_dy + 1) as u8,
            rows,
            bottom,
        }
    }

    /// Board cells `(x, y)` of this shape with its bounding box at `(col, row)`.
    pub fn cells_at(&self, col: i32, row: i32) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.cells.iter().map(move |&(dx, dy)| {
            (
                col + i32::from(dx - self.min_dx),
                row + i32::from(dy - self.min_dy),
            )
        })
    }
}

/// Which rotation steps a player may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// Clockwise and counter-clockwise (classic games have both buttons).
    Both,
    /// Only to the next state, `(s + 1) mod 4`.
    ClockwiseOnly,
}

/// Where pieces appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnRule {
    /// Bounding box centred (left of centre when it cannot be), lowest cell on
    /// the first row above the visible field: the field below is never in the way.
    AboveCentred,
    /// Pivot at column `x`, `from_top` rows below the top visible row: the
    /// stack can block the spawn and the moves near it.
    At { x: i32, from_top: i32 },
}

/// What happens to cells of a piece that locks above the visible field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AboveTop {
    /// Such a lock is not allowed (classic: the game is lost instead).
    Illegal,
    /// The lock is allowed and those cells vanish.
    Vanish,
}

/// A complete rule set.
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: &'static str,
    shapes: [[Shape; 4]; 7],
    /// For each rotation state, the first state with the same cells up to a
    /// translation: placements are deduplicated through it.
    canonical: [[u8; 4]; 7],
    pub rotation: Rotation,
    pub spawn_rule: SpawnRule,
    pub above_top: AboveTop,
}

/// Clockwise quarter turn about the pivot, `y` up.
const fn turn(c: Cells) -> Cells {
    [
        (c[0].1, -c[0].0),
        (c[1].1, -c[1].0),
        (c[2].1, -c[2].0),
        (c[3].1, -c[3].0),
    ]
}

const fn four_states(c: Cells) -> [Shape; 4] {
    let c1 = turn(c);
    let c2 = turn(c1);
    let c3 = turn(c2);
    [
        Shape::new(c),
        Shape::new(c1),
        Shape::new(c2),
        Shape::new(c3),
    ]
}

const fn two_states(c: Cells) -> [Shape; 4] {
    let c1 = turn(c);
    [Shape::new(c), Shape::new(c1), Shape::new(c), Shape::new(c1)]
}

impl Rules {
    /// Builds a rule set from shape tables (indexed by [`Piece::index`]).
    pub fn new(
        name: &'static str,
        shapes: [[Shape; 4]; 7],
        rotation: Rotation,
        spawn_rule: SpawnRule,
        above_top: AboveTop,
    ) -> Rules {
        let mut canonical = [[0u8; 4]; 7];
        for (p, states) in shapes.iter().enumerate() {
            for r in 0..4 {
                canonical[p][r] = (0..r)
                    .find(|&q| states[q].rows == states[r].rows)
                    .unwrap_or(r) as u8;
            }
        }
        Rules {
            name,
            shapes,
            canonical,
            rotation,
            spawn_rule,
            above_top,
        }
    }

    /// Classic rules in the style of the NES and Game Boy games: T, J and L
    /// have four states turning about their centre cell, I, S and Z toggle
    /// between two, O never turns; no wall kicks. Pieces spawn flat, centred,
    /// just above the visible field.
    pub fn classic() -> Rules {
        let i = two_states([(-2, 0), (-1, 0), (0, 0), (1, 0)]);
        let o = Shape::new([(-1, 0), (0, 0), (-1, -1), (0, -1)]);
        let t = four_states([(-1, 0), (0, 0), (1, 0), (0, -1)]);
        let s = two_states([(0, 0), (1, 0), (-1, -1), (0, -1)]);
        let z = two_states([(-1, 0), (0, 0), (0, -1), (1, -1)]);
        let j = four_states([(-1, 0), (0, 0), (1, 0), (1, -1)]);
        let l = four_states([(-1, 0), (0, 0), (1, 0), (-1, -1)]);
        Rules::new(
            "classic",
            [i, [o; 4], t, s, z, j, l],
            Rotation::Both,
            SpawnRule::AboveCentred,
            AboveTop::Illegal,
        )
    }

    /// The 2021 Tencent Geek Challenge game ("鹅罗斯方块"), from its published
    /// source: pieces spawn with their centre at column 4 of the top row, in
    /// the rotation state given by their index in the sequence; `C` turns to
    /// the next state about the centre without kicks; cells locked above the
    /// field vanish. The shape tables are the game's, with `y` flipped to
    /// point up.
    pub fn geek() -> Rules {
        let flip = |c: Cells| -> Shape { Shape::new(c.map(|(x, y)| (x, -y))) };
        let states = |a: Cells, b: Cells, c: Cells, d: Cells| [flip(a), flip(b), flip(c), flip(d)];
        let i0 = [(0, 0), (0, -1), (0, -2), (0, 1)];
        let i1 = [(0, 0), (1, 0), (2, 0), (-1, 0)];
        let s0 = [(0, 0), (0, -1), (1, -1), (-1, 0)];
        let s1 = [(0, 0), (-1, 0), (-1, -1), (0, 1)];
        let z0 = [(0, 0), (0, -1), (1, 0), (-1, -1)];
        let z1 = [(0, 0), (0, -1), (-1, 1), (-1, 0)];
        let o = [(0, 0), (0, -1), (1, -1), (1, 0)];
        let shapes = [
            states(i0, i1, i0, i1),
            states(o, o, o, o),
            states(
                [(0, 0), (1, 0), (0, 1), (-1, 0)],
                [(0, 0), (0, -1), (0, 1), (-1, 0)],
                [(0, 0), (0, -1), (1, 0), (-1, 0)],
                [(0, 0), (0, -1), (1, 0), (0, 1)],
            ),
            states(s0, s1, s0, s1),
            states(z0, z1, z0, z1),
            states(
                [(0, 0), (0, -1), (0, -2), (-1, 0)],
                [(0, 0), (0, -1), (1, 0), (2, 0)],
                [(0, 0), (1, 0), (0, 1), (0, 2)],
                [(0, 0), (-1, 0), (-2, 0), (0, 1)],
            ),
            states(
                [(0, 0), (0, -1), (0, -2), (1, 0)],
                [(0, 0), (1, 0), (2, 0), (0, 1)],
                [(0, 0), (-1, 0), (0, 1), (0, 2)],
                [(0, 0), (0, -1), (-1, 0), (-2, 0)],
            ),
        ];
        Rules::new(
            "geek",
            shapes,
            Rotation::ClockwiseOnly,
            SpawnRule::At { x: 4, from_top: 0 },
            AboveTop::Vanish,
        )
    }

    #[inline]
    pub fn shape(&self, piece: Piece, rotation: usize) -> &Shape {
        &self.shapes[piece.index()][rotation]
    }

    /// The rotation states that give distinct shapes (placements use these).
    pub fn distinct_rotations(&self, piece: Piece) -> impl Iterator<Item = usize> + '_ {
        (0..4).filter(move |&r| self.canonical[piece.index()][r] as usize == r)
    }

    /// The first rotation state with the same cells as `rotation`.
    #[inline]
    pub fn canonical(&self, piece: Piece, rotation: usize) -> usize {
        self.canonical[piece.index()][rotation] as usize
    }

    /// The spawn pivot `(x, y)` of `piece` appearing in rotation state
    /// `rotation` (0 in classic games; the game decides, see [`SpawnRule`]).
    pub fn spawn(&self, piece: Piece, rotation: usize, width: usize, height: usize) -> (i32, i32) {
        match self.spawn_rule {
            SpawnRule::AboveCentred => {
                let shape = self.shape(piece, rotation);
                let col = (width as i32 - i32::from(shape.width)) / 2;
                (
                    col - i32::from(shape.min_dx),
                    height as i32 - i32::from(shape.min_dy),
                )
            }
            SpawnRule::At { x, from_top } => (x, height as i32 - 1 - from_top),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_has_four_distinct_connected_cells() {
        let rules = Rules::classic();
        for p in Piece::ALL {
            for r in 0..4 {
                let s = rules.shape(p, r);
                let mut cells = s.cells.to_vec();
                cells.sort();
                cells.dedup();
                assert_eq!(cells.len(), 4, "{p} {r}");
                let bits: u32 = s.rows.iter().map(|r| r.count_ones()).sum();
                assert_eq!(bits, 4);
                // Connected: every cell touches another.
                for &(x, y) in &cells {
                    assert!(
                        cells
                            .iter()
                            .any(|&(a, b)| (a - x).abs() + (b - y).abs() == 1)
                    );
                }
            }
        }
    }

    #[test]
    fn distinct_rotation_counts_are_classic() {
        let rules = Rules::classic();
        let counts: Vec<usize> = Piece::ALL
            .iter()
            .map(|&p| rules.distinct_rotations(p).count())
            .collect();
        // I O T S Z J L
        assert_eq!(counts, vec![2, 1, 4, 2, 2, 4, 4]);
    }

    #[test]
    fn derived_masks_match_cells() {
        let t = Shape::new([(-1, 0), (0, 0), (1, 0), (0, -1)]);
        assert_eq!((t.width, t.height), (3, 2));
        assert_eq!(t.rows[0], 0b010);
        assert_eq!(t.rows[1], 0b111);
        assert_eq!(&t.bottom[..3], &[1, 0, 1]);
        let cells: Vec<_> = t.cells_at(3, 5).collect();
        assert!(cells.contains(&(4, 5)) && cells.contains(&(3, 6)) && cells.contains(&(5, 6)));
    }
}
