//! Board geometry: cell indices, coordinates and the 8-neighbourhood.
//!
//! Cells are numbered row by row (`index = y * width + x`), x the column and
//! y the row, both from 0, as in the position file format.

use thiserror::Error;

/// Largest width or height accepted: far above the 100×100 the issue asks
/// for, small enough that cell indices fit comfortably in a `u32`.
pub const MAX_SIDE: usize = 1000;

/// The board is not a size the engine accepts.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("board size {width}x{height} is out of range (each side 1 to {MAX_SIDE})")]
pub struct SizeError {
    pub width: usize,
    pub height: usize,
}

/// Width and height of a board; everything that walks neighbourhoods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    width: usize,
    height: usize,
}

impl Grid {
    pub fn new(width: usize, height: usize) -> Result<Grid, SizeError> {
        if (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height) {
            Ok(Grid { width, height })
        } else {
            Err(SizeError { width, height })
        }
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.width * self.height
    }

    /// Always false: a grid has at least one cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        debug_assert!(x < self.width && y < self.height);
        y * self.width + x
    }

    /// `(x, y)` of a cell index.
    #[inline]
    pub fn coords(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// The index of `(x, y)` if it lies on the board.
    #[inline]
    pub fn checked_index(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.width && y < self.height).then(|| self.index(x, y))
    }

    /// The up to 8 cells around `i` (not `i` itself), in row order.
    #[inline]
    pub fn neighbours(&self, i: usize) -> Neighbours {
        let (x, y) = self.coords(i);
        self.neighbours_xy(x, y)
    }

    /// The neighbours of `(x, y)`, in row order (no division needed).
    #[inline(always)]
    pub fn neighbours_xy(&self, x: usize, y: usize) -> Neighbours {
        let w = self.width;
        let i = y * w + x;
        let (left, right) = (x > 0, x + 1 < w);
        let mut n = Neighbours {
            items: [0; 8],
            len: 0,
            next: 0,
        };
        let row = |c: usize, n: &mut Neighbours, centre: bool| {
            if left {
                n.push(c - 1);
            }
            if !centre {
                n.push(c);
            }
            if right {
                n.push(c + 1);
            }
        };
        if y > 0 {
            row(i - w, &mut n, false);
        }
        row(i, &mut n, true);
        if y + 1 < self.height {
            row(i + w, &mut n, false);
        }
        n
    }

    /// Calls `f` on each neighbour of `(x, y)` in row order; a straight
    /// run of eight offsets for interior cells, the hot case.
    #[inline(always)]
    pub fn for_neighbours(&self, x: usize, y: usize, mut f: impl FnMut(usize)) {
        let w = self.width;
        let i = y * w + x;
        if x > 0 && y > 0 && x + 1 < w && y + 1 < self.height {
            f(i - w - 1);
            f(i - w);
            f(i - w + 1);
            f(i - 1);
            f(i + 1);
            f(i + w - 1);
            f(i + w);
            f(i + w + 1);
        } else {
            self.neighbours_xy(x, y).for_each(f);
        }
    }

    /// The cell and its neighbours (the 3×3 block clipped to the board).
    pub fn block(&self, i: usize) -> impl Iterator<Item = usize> {
        std::iter::once(i).chain(self.neighbours(i))
    }
}

/// The neighbours of one cell, computed up front.
#[derive(Clone, Debug)]
pub struct Neighbours {
    items: [u32; 8],
    len: u8,
    next: u8,
}

impl Neighbours {
    #[inline]
    fn push(&mut self, c: usize) {
        self.items[self.len as usize] = c as u32;
        self.len += 1;
    }
}

impl Iterator for Neighbours {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        (self.next < self.len).then(|| {
            self.next += 1;
            self.items[self.next as usize - 1] as usize
        })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.len - self.next) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Neighbours {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbour iterator against the obvious double loop over offsets.
    #[test]
    fn neighbours_match_offsets() {
        for (w, h) in [(1, 1), (1, 5), (5, 1), (2, 2), (4, 3), (9, 9)] {
            let g = Grid::new(w, h).unwrap();
            for i in 0..g.len() {
                let (x, y) = g.coords(i);
                let mut expected = Vec::new();
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                        if (dx, dy) != (0, 0)
                            && (0..w as i64).contains(&nx)
                            && (0..h as i64).contains(&ny)
                        {
                            expected.push(ny as usize * w + nx as usize);
                        }
                    }
                }
                assert_eq!(g.neighbours(i).collect::<Vec<_>>(), expected, "{w}x{h} {i}");
                let mut called = Vec::new();
                g.for_neighbours(x, y, |n| called.push(n));
                assert_eq!(called, expected);
            }
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Grid::new(0, 5).is_err());
        assert!(Grid::new(5, MAX_SIDE + 1).is_err());
        assert_eq!(Grid::new(100, 100).unwrap().len(), 10_000);
    }
}
