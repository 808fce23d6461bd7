//! Pencil-sketch image filter.
//!
//! The popular NumPy "hand-drawn" recipe: take the grey image as a relief,
//! light it from a low angle, and keep the shading. Grey levels are Pillow's
//! `convert('L')`; gradients are `numpy.gradient`'s (scaled by `depth/100`);
//! the light comes from elevation `el` and azimuth `az` as the unit vector
//! `(cos el·cos az, cos el·sin az, sin el)`, its first component along the
//! rows axis; a pixel is `255 · light · normal`, clipped and truncated.
//!
//! - [`sketch`]: any decoded image in, grey sketch out;
//! - [`sketch_bytes`] / [`sketch_file`]: encoded image in, encoded sketch out,
//!   with size limits ([`limits`]) and typed errors ([`SketchError`]);
//! - [`pencil_sketch`]: the filter on a grey image (parallel, table-driven);
//! - [`naive`]: the recipe written out plainly, for tests.

mod filter;
mod grey;
mod light;
pub mod naive;

pub use filter::{Method, TABLE_MIN_PIXELS, pencil_sketch, pencil_sketch_with};
pub use grey::{grey_from_rgb, grey_of, into_grey, luma};
pub use light::{Light, LightError, MAX_DEPTH};

mod io;
mod report;

pub use io::{
    MAX_ALLOC_BYTES, MAX_FILE_BYTES, MAX_SIDE, SketchError, decode, decode_within, encode, limits,
    output_format, sketch_bytes, sketch_file,
};
pub use report::SketchReport;

use image::{DynamicImage, GrayImage};

/// The pencil sketch of any decoded image.
pub fn sketch(image: &DynamicImage, light: &Light) -> GrayImage {
    pencil_sketch(&grey_of(image), light)
}
