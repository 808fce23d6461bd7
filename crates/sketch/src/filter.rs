//! The filter itself: gradients of the grey image (central differences
//! inside, one-sided at the edges, as `numpy.gradient`), then the shade of
//! each pixel, rows in parallel.
//!
//! Inside the image both gradients are differences of two u8 values, so a
//! pixel's shade depends only on a pair in `-255..=255`²: large images look
//! it up in a 511 × 511 table (255 KiB, built once per call) instead of
//! taking a square root and four divisions per pixel. Edge pixels, whose
//! one-sided differences count double, are shaded directly.

use crate::light::{Light, Shader};
use image::GrayImage;
use rayon::prelude::*;

/// How [`pencil_sketch_with`] shades pixels. Both give identical images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The table from [`TABLE_MIN_PIXELS`] pixels on, direct below.
    Auto,
    /// Square root and divisions for every pixel.
    Direct,
    /// A table of every inside shade, built first.
    Table,
}

/// Images with at least this many pixels use the table under `Auto`: below
/// it, building the table's 261,121 entries costs more than it saves.
pub const TABLE_MIN_PIXELS: u64 = 1 << 20;

/// Differences of two u8 span this many values.
const SPAN: usize = 511;

/// The pencil sketch of a grey image, with the default shading method.
pub fn pencil_sketch(grey: &GrayImage, light: &Light) -> GrayImage {
    pencil_sketch_with(grey, light, Method::Auto)
}

/// The pencil sketch of a grey image.
///
/// A dimension of length 1 has no gradient along it (taken as 0; NumPy's
/// `gradient` refuses such arrays).
pub fn pencil_sketch_with(grey: &GrayImage, light: &Light, method: Method) -> GrayImage {
    let (w, h) = grey.dimensions();
    let shader = Shader::new(light);
    let use_table = match method {
        Method::Auto => u64::from(w) * u64::from(h) >= TABLE_MIN_PIXELS,
        Method::Direct => false,
        Method::Table => true,
    };
    let table = use_table.then(|| build_table(&shader));
    let mut out = GrayImage::new(w, h);
    if w == 0 || h == 0 {
        return out;
    }
    let (w, h) = (w as usize, h as usize);
    let src = grey.as_raw();
    let row = |r: usize| &src[r * w..(r + 1) * w];
    out.par_chunks_mut(w).enumerate().for_each(|(r, dst)| {
        // Rows above and below, and how much their difference counts.
        let (up, down, weight) = if h == 1 {
            (row(0), row(0), 0)
        } else if r == 0 {
            (row(0), row(1), 2)
        } else if r == h - 1 {
            (row(h - 2), row(h - 1), 2)
        } else {
            (row(r - 1), row(r + 1), 1)
        };
        let rows = Rows {
            up,
            cur: row(r),
            down,
            weight,
        };
        match &table {
            Some(table) if weight == 1 => rows.shade_with_table(&shader, table, dst),
            _ => rows.shade_direct(&shader, dst),
        }
    });
    out
}

/// The three grey rows one output row needs.
struct Rows<'a> {
    up: &'a [u8],
    cur: &'a [u8],
    down: &'a [u8],
    /// 1 for a central difference, 2 for a one-sided one (which is not
    /// halved), 0 when the image is one row high.
    weight: i32,
}

impl Rows<'_> {
    /// Twice the gradient along the rows at column `c`.
    #[inline(always)]
    fn rows2(&self, c: usize) -> i32 {
        self.weight * (i32::from(self.down[c]) - i32::from(self.up[c]))
    }

    /// Twice the gradient along the columns at column `c`.
    #[inline(always)]
    fn cols2(&self, c: usize) -> i32 {
        let w = self.cur.len();
        let at = |i: usize| i32::from(self.cur[i]);
        match (c, w) {
            (_, 1) => 0,
            (0, _) => 2 * (at(1) - at(0)),
            (c, w) if c == w - 1 => 2 * (at(w - 1) - at(w - 2)),
            (c, _) => at(c + 1) - at(c - 1),
        }
    }

    fn shade_direct(&self, shader: &Shader, dst: &mut [u8]) {
        for (c, d) in dst.iter_mut().enumerate() {
            *d = shader.shade(self.rows2(c), self.cols2(c));
        }
    }

    /// Inside columns from the table, the two edge columns directly.
    fn shade_with_table(&self, shader: &Shader, table: &[u8], dst: &mut [u8]) {
        let w = dst.len();
        if w < 3 {
            return self.shade_direct(shader, dst);
        }
        dst[0] = shader.shade(self.rows2(0), self.cols2(0));
        dst[w - 1] = shader.shade(self.rows2(w - 1), self.cols2(w - 1));
        let inside = dst[1..w - 1]
            .iter_mut()
            .zip(self.cur.windows(3))
            .zip(self.up[1..].iter().zip(&self.down[1..]));
        for ((d, around), (&up, &down)) in inside {
            let rows = usize::from(down) + 255 - usize::from(up);
            let cols = usize::from(around[2]) + 255 - usize::from(around[0]);
            *d = table[rows * SPAN + cols];
        }
    }
}

/// `table[(rows2 + 255) · 511 + (cols2 + 255)]` = the shade of an inside
/// pixel, for every pair of differences.
fn build_table(shader: &Shader) -> Vec<u8> {
    let mut table = vec![0u8; SPAN * SPAN];
    table.par_chunks_mut(SPAN).enumerate().for_each(|(i, row)| {
        let rows2 = i as i32 - 255;
        for (j, t) in row.iter_mut().enumerate() {
            *t = shader.shade(rows2, j as i32 - 255);
        }
    });
    table
}
