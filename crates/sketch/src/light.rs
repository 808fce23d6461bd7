//! The shading model: a surface whose height is the grey level, lit from one
//! direction; a pixel's value is the cosine between the light and the
//! surface normal.

use arcade_core::text::number;
use std::f64::consts::PI;

/// Relief depth and light direction of the sketch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Relief depth: gradients are scaled by `depth / 100` (default 10).
    pub depth: f64,
    /// Light elevation above the image plane, in radians (default π/2.2).
    pub elevation: f64,
    /// Light azimuth in radians (default π/4); 0 points along the rows axis.
    pub azimuth: f64,
}

/// Deepest relief accepted: past it nearly every edge saturates to black.
pub const MAX_DEPTH: f64 = 1000.0;

/// A light setting out of its range (one line, naming the setting).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LightError {
    #[error("depth must be above 0 and at most {MAX_DEPTH}, got {}", number(*.0))]
    Depth(f64),
    #[error("elevation must be from 0 to π/2 = 1.5708 radians (not degrees), got {}", number(*.0))]
    Elevation(f64),
    #[error("azimuth must be from -2π to 2π = 6.2832 radians (not degrees), got {}", number(*.0))]
    Azimuth(f64),
}

impl Light {
    /// Checks every setting is in its range: a depth of 0 or an elevation
    /// below the image plane gives a uniform image, and a value in degrees
    /// (`--elevation 45`) is a mistake, not a light.
    pub fn check(&self) -> Result<(), LightError> {
        if !(self.depth > 0.0 && self.depth <= MAX_DEPTH) {
            return Err(LightError::Depth(self.depth));
        }
        if !(0.0..=PI / 2.0).contains(&self.elevation) {
            return Err(LightError::Elevation(self.elevation));
        }
        if !(-2.0 * PI..=2.0 * PI).contains(&self.azimuth) {
            return Err(LightError::Azimuth(self.azimuth));
        }
        Ok(())
    }
}

impl Default for Light {
    fn default() -> Light {
        Light {
            depth: 10.0,
            elevation: PI / 2.2,
            azimuth: PI / 4.0,
        }
    }
}

/// Precomputed direction and scale: [`Shader::shade`] turns the doubled
/// gradients of a pixel into its sketch value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shader {
    depth: f64,
    dx: f64,
    dy: f64,
    dz: f64,
}

impl Shader {
    pub fn new(light: &Light) -> Shader {
        let (el, az) = (light.elevation, light.azimuth);
        Shader {
            depth: light.depth,
            dx: el.cos() * az.cos(),
            dy: el.cos() * az.sin(),
            dz: el.sin(),
        }
    }

    /// The value of a pixel whose gradients along rows and columns are
    /// `rows2 / 2` and `cols2 / 2` (gradients are exact halves of integers:
    /// central differences of u8 divided by two, or one-sided differences).
    ///
    /// The operations and their order are the NumPy recipe's, in f64, so
    /// results agree to the last bit whenever the libm cos/sin agree:
    /// `g·depth/100`, `A = √(gx² + gy² + 1)`, `255·(dx·gx/A + dy·gy/A + dz/A)`,
    /// clipped to 0..=255 and truncated.
    #[inline]
    pub fn shade(&self, rows2: i32, cols2: i32) -> u8 {
        let gx = f64::from(rows2) / 2.0 * self.depth / 100.0;
        let gy = f64::from(cols2) / 2.0 * self.depth / 100.0;
        let a = (gx * gx + gy * gy + 1.0).sqrt();
        let b = 255.0 * (self.dx * (gx / a) + self.dy * (gy / a) + self.dz * (1.0 / a));
        // `as u8` truncates and saturates (NaN → 0), like clip + astype.
        b.clamp(0.0, 255.0) as u8
    }
}
