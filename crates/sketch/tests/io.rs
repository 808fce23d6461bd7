//! Encoded images in and out: limits, one-line errors, every advertised
//! output format.

use arcade_sketch::{Light, MAX_SIDE, SketchError, decode, encode, sketch, sketch_bytes};
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
    assert!(e.to_string().contains("big.pgm"), "{e}");
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
        "settings: depth must be a finite number, got NaN"
    );
}
