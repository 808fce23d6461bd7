//! The NumPy recipe written out plainly (whole-image f64 gradient arrays,
//! then the formula per pixel): the reference the fast filter is tested
//! against.

use crate::light::Light;
use image::GrayImage;

/// `numpy.gradient` along one axis of a `len`-long line read by `at`:
/// central differences inside, one-sided at the two ends (0 for length 1).
fn gradient(len: usize, at: impl Fn(usize) -> f64) -> Vec<f64> {
    (0..len)
        .map(|i| match i {
            _ if len == 1 => 0.0,
            0 => at(1) - at(0),
            i if i == len - 1 => at(len - 1) - at(len - 2),
            i => (at(i + 1) - at(i - 1)) / 2.0,
        })
        .collect()
}

/// The pencil sketch, computed the slow, obvious way.
pub fn pencil_sketch_naive(grey: &GrayImage, light: &Light) -> GrayImage {
    let (w, h) = (grey.width() as usize, grey.height() as usize);
    let a = |r: usize, c: usize| f64::from(grey.as_raw()[r * w + c]);
    let mut grad_x = vec![0.0; w * h]; // along rows (axis 0)
    let mut grad_y = vec![0.0; w * h]; // along columns (axis 1)
    for c in 0..w {
        for (r, g) in gradient(h, |r| a(r, c)).into_iter().enumerate() {
            grad_x[r * w + c] = g;
        }
    }
    for r in 0..h {
        for (c, g) in gradient(w, |c| a(r, c)).into_iter().enumerate() {
            grad_y[r * w + c] = g;
        }
    }
    let (el, az) = (light.elevation, light.azimuth);
    let (dx, dy, dz) = (el.cos() * az.cos(), el.cos() * az.sin(), el.sin());
    let pixels = grad_x
        .iter()
        .zip(&grad_y)
        .map(|(&gx, &gy)| {
            let gx = gx * light.depth / 100.0;
            let gy = gy * light.depth / 100.0;
            let a = (gx * gx + gy * gy + 1.0).sqrt();
            let (ux, uy, uz) = (gx / a, gy / a, 1.0 / a);
            let b = 255.0 * (dx * ux + dy * uy + dz * uz);
            b.clamp(0.0, 255.0) as u8
        })
        .collect();
    GrayImage::from_raw(w as u32, h as u32, pixels).expect("w·h pixels")
}
