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
        other => grey_by_strips(other),
    }
}

/// [`grey_of`], keeping an 8-bit grey image's pixels instead of a copy.
pub fn into_grey(image: DynamicImage) -> GrayImage {
    match image {
        DynamicImage::ImageLuma8(grey) => grey,
        other => grey_of(&other),
    }
}

/// Rows reduced to 8-bit RGB at a time: a whole-image copy of a 16k × 16k
/// image would add 768 MiB to the decoded one.
const STRIP_ROWS: u32 = 64;

/// The grey image of any image through 8-bit RGB, a strip of rows at a
/// time (the same pixels as converting it whole).
fn grey_by_strips(image: &DynamicImage) -> GrayImage {
    let (w, h) = (image.width(), image.height());
    let mut grey = GrayImage::new(w, h);
    if w == 0 || h == 0 {
        return grey;
    }
    grey.par_chunks_mut(w as usize * STRIP_ROWS as usize)
        .enumerate()
        .for_each(|(k, out)| {
            let rows = (out.len() / w as usize) as u32;
            let rgb = image.crop_imm(0, k as u32 * STRIP_ROWS, w, rows).to_rgb8();
            for (o, p) in out.iter_mut().zip(rgb.chunks_exact(3)) {
                *o = luma(p[0], p[1], p[2]);
            }
        });
    grey
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

    /// Strips of rows give the pixels of a whole-image RGB conversion, on
    /// 16-bit and alpha images whose heights end inside a strip and on one.
    #[test]
    fn strips_equal_the_whole_conversion() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u16
        };
        let mut cases = 0;
        for (w, h) in [
            (1, 1),
            (5, STRIP_ROWS),
            (7, STRIP_ROWS + 1),
            (33, 3 * STRIP_ROWS - 5),
        ] {
            let wide = image::ImageBuffer::<image::Rgba<u16>, Vec<u16>>::from_fn(w, h, |_, _| {
                image::Rgba([next(), next(), next(), next()])
            });
            let grey_alpha =
                image::ImageBuffer::<image::LumaA<u16>, Vec<u16>>::from_fn(w, h, |_, _| {
                    image::LumaA([next(), next()])
                });
            for image in [
                DynamicImage::ImageRgba16(wide),
                DynamicImage::ImageLumaA16(grey_alpha),
            ] {
                let whole = grey_from_rgb(&image.to_rgb8());
                assert_eq!(grey_of(&image), whole, "{w}x{h}");
                cases += 1;
            }
        }
        assert_eq!(cases, 8);
    }
}
