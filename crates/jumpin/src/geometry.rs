//! The 5×5 board: cells, holes, jump directions and the 8 symmetries.
//!
//! A cell is `y * 5 + x` (x = column, y = row, both from 0 at the top left),
//! and a set of cells is a `u32` bitmask, so occupancy tests are one AND.

/// Side of the board.
pub const SIZE: u8 = 5;
/// Number of cells.
pub const CELLS: u8 = SIZE * SIZE;
/// Mask of every cell.
pub const ALL: u32 = (1 << CELLS) - 1;
/// The five holes: the four corners and the centre.
pub const HOLES: u32 = bit(0) | bit(4) | bit(12) | bit(20) | bit(24);

/// A cell index, `y * 5 + x`.
pub type Cell = u8;

/// The mask of one cell.
#[inline]
pub const fn bit(c: Cell) -> u32 {
    1 << c
}

/// The cell at column `x`, row `y`.
#[inline]
pub const fn cell(x: u8, y: u8) -> Cell {
    y * SIZE + x
}

/// Column and row of a cell.
#[inline]
pub const fn xy(c: Cell) -> (u8, u8) {
    (c % SIZE, c / SIZE)
}

/// The cells of a mask in increasing order.
pub fn cells(mut mask: u32) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let c = mask.trailing_zeros() as Cell;
        mask &= mask - 1;
        Some(c)
    })
}

/// Steps (dx, dy) of the four jump directions: up, down, left, right.
pub const DIRECTIONS: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// The cells met walking from a cell in one direction, nearest first; at most
/// four, `len` of them real.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    pub cells: [Cell; 4],
    pub len: u8,
}

/// `RAYS[cell][direction]`, precomputed so a jump is a short table walk.
pub static RAYS: [[Ray; 4]; CELLS as usize] = rays();

const fn rays() -> [[Ray; 4]; CELLS as usize] {
    let empty = Ray {
        cells: [0; 4],
        len: 0,
    };
    let mut out = [[empty; 4]; CELLS as usize];
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIRECTIONS[d];
            let (mut x, mut y) = ((c % SIZE) as i8, (c / SIZE) as i8);
            let mut ray = empty;
            loop {
                x += dx;
                y += dy;
                if x < 0 || y < 0 || x >= SIZE as i8 || y >= SIZE as i8 {
                    break;
                }
                ray.cells[ray.len as usize] = cell(x as u8, y as u8);
                ray.len += 1;
            }
            out[c as usize][d] = ray;
            d += 1;
        }
        c += 1;
    }
    out
}

/// One of the 8 symmetries of the square (rotations and reflections), as a
/// map on cells. Symmetry 0 is the identity; every symmetry fixes the holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry(pub u8);

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Where this symmetry sends a cell.
    #[inline]
    pub fn cell(self, c: Cell) -> Cell {
        SYMMETRY_CELLS[self.0 as usize][c as usize]
    }

    /// The image of a set of cells.
    #[inline]
    pub fn mask(self, mask: u32) -> u32 {
        cells(mask).fold(0, |m, c| m | bit(self.cell(c)))
    }
}

static SYMMETRY_CELLS: [[Cell; CELLS as usize]; 8] = symmetry_cells();

const fn symmetry_cells() -> [[Cell; CELLS as usize]; 8] {
    let mut out = [[0; CELLS as usize]; 8];
    let n = SIZE - 1;
    let mut s = 0;
    while s < 8 {
        let mut c = 0;
        while c < CELLS {
            let (x, y) = (c % SIZE, c / SIZE);
            let (nx, ny) = match s {
                0 => (x, y),
                1 => (n - y, x),
                2 => (n - x, n - y),
                3 => (y, n - x),
                4 => (n - x, y),
                5 => (x, n - y),
                6 => (y, x),
                _ => (n - y, n - x),
            };
            out[s][c as usize] = cell(nx, ny);
            c += 1;
        }
        s += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_walk_to_the_edge() {
        let r = RAYS[cell(1, 2) as usize][3];
        assert_eq!(
            &r.cells[..r.len as usize],
            &[cell(2, 2), cell(3, 2), cell(4, 2)]
        );
        let up = RAYS[cell(1, 2) as usize][0];
        assert_eq!(&up.cells[..up.len as usize], &[cell(1, 1), cell(1, 0)]);
        assert_eq!(RAYS[cell(0, 0) as usize][2].len, 0);
    }

    #[test]
    fn symmetries_are_distinct_bijections_that_fix_the_holes() {
        let mut images = Vec::new();
        for s in Symmetry::ALL {
            let image: Vec<Cell> = (0..CELLS).map(|c| s.cell(c)).collect();
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..CELLS).collect::<Vec<_>>());
            assert_eq!(s.mask(HOLES), HOLES);
            images.push(image);
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn symmetries_form_a_group() {
        // The composition of any two symmetries is one of the eight.
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let composed: Vec<Cell> = (0..CELLS).map(|c| b.cell(a.cell(c))).collect();
                assert!(
                    Symmetry::ALL
                        .iter()
                        .any(|s| (0..CELLS).all(|c| s.cell(c) == composed[c as usize]))
                );
            }
        }
    }
}
