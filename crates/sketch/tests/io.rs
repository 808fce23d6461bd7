//! Encoded images in and out: limits, one-line errors, every advertised
//! output format.

use arcade_sketch::{
    Light, MAX_SIDE, SketchError, decode, encode, output_format, sketch, sketch_bytes,
};
use image::ImageFormat;
use std::path::Path;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .expect("fixture")
}

#[test]
fn every_advertised_output_format_encodes_and_decodes_back() {
    let image = decode(&data("photo-64x48.png"), "photo").unwrap();
    let grey = sketch(&image, &Light::default());
    for format in [
        ImageFormat::Png,
        ImageFormat::Jpeg,
        ImageFormat::Bmp,
        ImageFormat::Gif,
        ImageFormat::Tiff,
        ImageFormat::WebP,
        ImageFormat::Pnm,
    ] {
        let bytes = encode(&grey, format).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        let back = image::load_from_memory(&bytes).unwrap().to_luma8();
        assert_eq!(back.dimensions(), (64, 48), "{format:?}");
        if format != ImageFormat::Jpeg {
            assert_eq!(back, grey, "{format:?} is lossless");
        }
    }
}

#[test]
fn truncated_and_empty_images_are_one_line_bad_input() {
    let e = decode(&data("truncated.jpg"), "t.jpg").unwrap_err();
    assert!(e.is_bad_input());
    let message = e.to_string();
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with("cannot read image t.jpg: "),
        "{message}"
    );
    let e = decode(&data("zero-size.ppm"), "z.ppm").unwrap_err();
    assert!(
        matches!(e, SketchError::Empty { .. }) && e.is_bad_input(),
        "{e}"
    );
    assert_eq!(e.to_string(), "image z.ppm has no pixels (0×0)");
}

#[test]
fn oversized_images_are_refused_before_decoding() {
    // A header claiming 20,000 × 20,000 grey pixels (400 MB) and no data.
    let header = format!("P5\n{} {}\n255\n", MAX_SIDE + 1, 10);
    let e = decode(header.as_bytes(), "big.pgm").unwrap_err();
    assert!(e.is_bad_input(), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "cannot read image big.pgm: the image is wider or taller than {MAX_SIDE} pixels, the most accepted"
        )
    );
    // Within the sides, past the memory a decode may take.
    let mut tight = arcade_sketch::limits();
    tight.max_alloc = Some(1 << 10);
    let e = arcade_sketch::decode_within(&data("photo-64x48.png"), "p.png", tight).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot read image p.png: decoding it needs more than 1 KiB of memory, the most accepted"
    );
    let ok = decode(b"P5\n2 1\n255\n\x00\xff", "small.pgm").unwrap();
    assert_eq!((ok.width(), ok.height()), (2, 1));
}

#[test]
fn bytes_in_bytes_out_with_settings_checked() {
    let (png, size) = sketch_bytes(
        &data("photo-64x48.png"),
        "up",
        ImageFormat::Png,
        &Light::default(),
    )
    .unwrap();
    assert_eq!(size, (64, 48));
    assert!(image::load_from_memory(&png).is_ok());
    let light = Light {
        depth: f64::NAN,
        ..Light::default()
    };
    let e = sketch_bytes(&data("photo-64x48.png"), "up", ImageFormat::Png, &light).unwrap_err();
    assert_eq!(
        e.to_string(),
        "settings: depth must be above 0 and at most 1000, got nan"
    );
}

/// Each setting's range: inside it a sketch, outside (or at a degrees
/// value) an error naming the setting.
#[test]
fn light_settings_out_of_range_are_named() {
    let d = Light::default();
    let with = |depth, elevation, azimuth| Light {
        depth,
        elevation,
        azimuth,
    };
    for ok in [
        d,
        with(1e-3, 0.0, -std::f64::consts::TAU),
        with(1000.0, std::f64::consts::FRAC_PI_2, std::f64::consts::TAU),
    ] {
        assert_eq!(ok.check(), Ok(()), "{ok:?}");
    }
    for (bad, field) in [
        (with(0.0, d.elevation, d.azimuth), "depth"),
        (with(-1.0, d.elevation, d.azimuth), "depth"),
        (with(1000.5, d.elevation, d.azimuth), "depth"),
        (with(d.depth, -0.01, d.azimuth), "elevation"),
        (with(d.depth, 90.0, d.azimuth), "elevation"),
        (with(d.depth, d.elevation, 45.0), "azimuth"),
        (with(d.depth, d.elevation, f64::NEG_INFINITY), "azimuth"),
    ] {
        let e = bad.check().unwrap_err().to_string();
        assert!(e.starts_with(&format!("{field} must be")), "{bad:?}: {e}");
    }
}

/// A JPEG cut anywhere in its scan is an error, not a sketch gone blank
/// below the cut (the decoder fills the missing data and says nothing).
#[test]
fn a_cut_off_jpeg_is_an_error_wherever_it_is_cut() {
    let photo = decode(&data("photo-64x48.png"), "photo").unwrap();
    let jpeg = encode(&photo.to_luma8(), ImageFormat::Jpeg).unwrap();
    assert!(decode(&jpeg, "whole.jpg").is_ok());
    let scan = jpeg.windows(2).position(|w| w == [0xFF, 0xDA]).unwrap();
    let mut cuts = 0;
    for cut in (scan + 2..jpeg.len()).step_by(5) {
        let e = decode(&jpeg[..cut], "cut.jpg").unwrap_err();
        assert!(e.is_bad_input() && e.to_string().contains("cut.jpg"), "{e}");
        cuts += 1;
    }
    assert!(cuts > 100, "{cuts} cuts inside the scan");
    // Bytes after the end marker (some cameras append data) are fine.
    let mut padded = jpeg.clone();
    padded.extend_from_slice(b"trailing data");
    assert!(decode(&padded, "padded.jpg").is_ok());
}

/// `.pgm` is PGM (P5), which every PNM reader knows; `.ppm`, `.pbm` and
/// `.pam` would name something a grey sketch is not, so they are refused.
#[test]
fn pnm_output_is_plain_pgm() {
    let grey = sketch(
        &decode(&data("photo-64x48.png"), "p").unwrap(),
        &Light::default(),
    );
    let bytes = encode(&grey, ImageFormat::Pnm).unwrap();
    assert!(bytes.starts_with(b"P5\n"), "{:?}", &bytes[..8]);
    assert_eq!(image::load_from_memory(&bytes).unwrap().to_luma8(), grey);
    for ext in ["pgm", "PGM", "pnm"] {
        let path = format!("out.{ext}");
        assert_eq!(output_format(Path::new(&path)).unwrap(), ImageFormat::Pnm);
    }
    for ext in ["ppm", "pbm", "pam"] {
        let path = format!("out.{ext}");
        assert!(output_format(Path::new(&path)).is_err(), "{ext}");
    }
}
