//! Grey levels as Pillow's `Image.convert('L')` computes them (ITU-R 601-2
//! luma in 16-bit fixed point, rounded).

use image::{DynamicImage, GrayImage, RgbImage};
use rayon::prelude::*;

/// Pillow's `L = (R·19595 + G·38470 + B·7471 + 0x8000) >> 16`.
#[inline]
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((u32::from(r) * 19595 + u32::from(g) * 38470 + u32::from(b) * 7471 + 0x8000) >> 16) as u8
}

/// The grey image of an RGB image, rows in parallel.
pub fn grey_from_rgb(rgb: &RgbImage) -> GrayImage {
    let (w, h) = rgb.dimensions();
    let mut grey = GrayImage::new(w, h);
    let row_in = 3 * w as usize;
    if w > 0 {
        grey.par_chunks_mut(w as usize)
            .zip(rgb.par_chunks(row_in))
            .for_each(|(out, src)| {
                for (o, p) in out.iter_mut().zip(src.chunks_exact(3)) {
                    *o = luma(p[0], p[1], p[2]);
                }
            });
    }
    grey
}

/// The grey image of any decoded image: 8-bit grey is kept as it is (alpha
/// dropped), everything else goes through 8-bit RGB (as Pillow does for
/// RGB, RGBA and palette images; 16-bit images are first reduced to 8 bits).
pub fn grey_of(image: &DynamicImage) -> GrayImage {
    match image {
        DynamicImage::ImageLuma8(grey) => grey.clone(),
        DynamicImage::ImageLumaA8(grey_alpha) => {
            let (w, h) = grey_alpha.dimensions();
            let luma: Vec<u8> = grey_alpha.as_raw().chunks_exact(2).map(|p| p[0]).collect();
            GrayImage::from_raw(w, h, luma).expect("one byte per pixel")
        }
        DynamicImage::ImageRgb8(rgb) => grey_from_rgb(rgb),
        other => grey_from_rgb(&other.to_rgb8()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luma_matches_pillow_on_known_colours() {
        // Values Pillow gives for convert('L') of these RGB pixels.
        assert_eq!(luma(255, 255, 255), 255);
        assert_eq!(luma(0, 0, 0), 0);
        assert_eq!(luma(255, 0, 0), 76);
        assert_eq!(luma(0, 255, 0), 150);
        assert_eq!(luma(0, 0, 255), 29);
        for g in 0..=255 {
            assert_eq!(luma(g, g, g), g, "grey stays grey");
        }
    }
}
