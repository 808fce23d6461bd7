//! Pencil-sketch image filter.
//!
//! The popular NumPy "hand-drawn" recipe: take the grey image as a relief,
//! light it from a low angle, and keep the shading. Grey levels are Pillow's
//! `convert('L')`; gradients are `numpy.gradient`'s (scaled by `depth/100`);
//! the light comes from elevation `el` and azimuth `az` as the unit vector
//! `(cos el·cos az, cos el·sin az, sin el)`, its first component along the
//! rows axis; a pixel is `255 · light · normal`, clipped and truncated.
//!
//! - [`sketch`] / [`sketch_file`]: any image in, grey sketch out;
//! - [`pencil_sketch`]: the filter on a grey image (parallel, table-driven);
//! - [`naive`]: the recipe written out plainly, for tests.

mod filter;
mod grey;
mod light;
pub mod naive;

pub use filter::{Method, TABLE_MIN_PIXELS, pencil_sketch, pencil_sketch_with};
pub use grey::{grey_from_rgb, grey_of, luma};
pub use light::Light;

use image::{DynamicImage, GrayImage, ImageError, ImageFormat};
use std::path::{Path, PathBuf};

/// Why a sketch could not be made from or saved to a file. The decoder's
/// or encoder's own error is the `source` (print with `{:#}` in anyhow).
#[derive(Debug, thiserror::Error)]
pub enum SketchError {
    #[error("cannot read image {}", path.display())]
    Read { path: PathBuf, source: ImageError },
    #[error(
        "cannot write {}: unsupported output extension (use .png, .jpg, .bmp, .gif, .tif, .webp or .pgm)",
        path.display()
    )]
    UnsupportedOutput { path: PathBuf },
    #[error("cannot write image {}", path.display())]
    Write { path: PathBuf, source: ImageError },
}

impl SketchError {
    /// Whether the caller's input is at fault (an unreadable image, an
    /// unknown extension) rather than the system (a failed write).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, SketchError::Write { .. })
    }
}

/// The pencil sketch of any decoded image.
pub fn sketch(image: &DynamicImage, light: &Light) -> GrayImage {
    pencil_sketch(&grey_of(image), light)
}

/// The output format for `path`'s extension, if the build can write it.
pub fn output_format(path: &Path) -> Result<ImageFormat, SketchError> {
    let unsupported = || SketchError::UnsupportedOutput {
        path: path.to_path_buf(),
    };
    let format = ImageFormat::from_path(path).map_err(|_| unsupported())?;
    if format.writing_enabled() {
        Ok(format)
    } else {
        Err(unsupported())
    }
}

/// Reads `input` (any format the build decodes), sketches it and writes
/// `output` in the format its extension names. Returns the image size.
pub fn sketch_file(input: &Path, output: &Path, light: &Light) -> Result<(u32, u32), SketchError> {
    // Check the output name before the (possibly slow) decode.
    let format = output_format(output)?;
    let image = image::open(input).map_err(|source| SketchError::Read {
        path: input.to_path_buf(),
        source,
    })?;
    let out = sketch(&image, light);
    out.save_with_format(output, format)
        .map_err(|source| SketchError::Write {
            path: output.to_path_buf(),
            source,
        })?;
    Ok(out.dimensions())
}
