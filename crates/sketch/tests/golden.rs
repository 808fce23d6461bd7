//! The filter against images the NumPy recipe made (bench/sketch/make_golden.sh
//! wrote them): every pixel within ±1; and the fast filter against the plain
//! reference on random images, which must agree exactly.

use arcade_sketch::naive::pencil_sketch_naive;
use arcade_sketch::{Light, Method, grey_of, pencil_sketch_with, sketch, sketch_file};
use image::GrayImage;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The cases of make_golden.py: name and light.
fn golden_cases() -> [(&'static str, Light); 3] {
    [
        ("photo-64x48", Light::default()),
        (
            "photo-37x23-d30",
            Light {
                depth: 30.0,
                elevation: 0.8,
                azimuth: 2.0,
            },
        ),
        (
            "noise-16x9-d70",
            Light {
                depth: 70.0,
                elevation: 0.3,
                azimuth: -1.0,
            },
        ),
    ]
}

/// Largest per-pixel difference.
fn max_diff(a: &GrayImage, b: &GrayImage) -> u8 {
    assert_eq!(a.dimensions(), b.dimensions());
    a.as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0)
}

#[test]
fn golden_images_match_numpy_within_one() {
    for (name, light) in golden_cases() {
        let input = image::open(data(&format!("{name}.png"))).expect("golden input");
        let expected = image::open(data(&format!("{name}.sketch.png")))
            .expect("golden output")
            .to_luma8();
        for method in [Method::Direct, Method::Table] {
            let got = pencil_sketch_with(&grey_of(&input), &light, method);
            let diff = max_diff(&got, &expected);
            assert!(diff <= 1, "{name} {method:?}: a pixel is off by {diff}");
        }
        assert!(max_diff(&sketch(&input, &light), &expected) <= 1);
    }
}

#[test]
fn sketch_file_writes_the_format_of_the_extension() {
    let dir = std::env::temp_dir().join(format!("arcade-sketch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (name, light) = golden_cases()[0];
    let expected = image::open(data(&format!("{name}.sketch.png")))
        .unwrap()
        .to_luma8();
    let png = dir.join("out.png");
    let report = sketch_file(&data(&format!("{name}.png")), &png, &light).unwrap();
    assert_eq!((report.width, report.height), (64, 48));
    assert!(max_diff(&image::open(&png).unwrap().to_luma8(), &expected) <= 1);
    let bmp = dir.join("out.bmp");
    sketch_file(&data(&format!("{name}.png")), &bmp, &light).unwrap();
    assert_eq!(
        image::ImageFormat::from_path(&bmp).unwrap(),
        image::ImageFormat::Bmp
    );
    assert!(max_diff(&image::open(&bmp).unwrap().to_luma8(), &expected) <= 1);

    let err = sketch_file(&data(&format!("{name}.png")), &dir.join("out.xyz"), &light).unwrap_err();
    assert!(
        err.is_bad_input() && err.to_string().contains("unsupported output extension"),
        "{err}"
    );
    let err = sketch_file(&data("missing.png"), &png, &light).unwrap_err();
    assert!(
        err.is_bad_input() && err.to_string().contains("cannot read "),
        "{err}"
    );
    let not_image = dir.join("not-an-image.png");
    std::fs::write(&not_image, b"hello").unwrap();
    let err = sketch_file(&not_image, &png, &light).unwrap_err();
    assert!(err.is_bad_input(), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

fn grey_image(max_w: u32, max_h: u32) -> impl Strategy<Value = GrayImage> {
    (1..=max_w, 1..=max_h).prop_flat_map(|(w, h)| {
        prop::collection::vec(any::<u8>(), (w * h) as usize)
            .prop_map(move |px| GrayImage::from_raw(w, h, px).unwrap())
    })
}

fn light() -> impl Strategy<Value = Light> {
    (0.0f64..200.0, -3.2f64..3.2, -7.0f64..7.0).prop_map(|(depth, elevation, azimuth)| Light {
        depth,
        elevation,
        azimuth,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fast_paths_equal_the_plain_recipe(img in grey_image(24, 24), light in light()) {
        let expected = pencil_sketch_naive(&img, &light);
        for method in [Method::Auto, Method::Direct, Method::Table] {
            let got = pencil_sketch_with(&img, &light, method);
            prop_assert!(got == expected, "{method:?} differs on {}x{}", img.width(), img.height());
        }
    }
}

#[test]
fn flat_image_is_lit_by_the_vertical_component_only() {
    let img = GrayImage::from_pixel(5, 4, image::Luma([77]));
    let light = Light::default();
    let expected = (255.0 * light.elevation.sin()) as u8;
    let out = pencil_sketch_with(&img, &light, Method::Direct);
    assert!(out.pixels().all(|p| p.0[0] == expected));
    // One-pixel-wide and empty images have no gradient along the short side.
    let line = GrayImage::from_raw(1, 3, vec![0, 100, 200]).unwrap();
    assert_eq!(
        pencil_sketch_with(&line, &light, Method::Table),
        pencil_sketch_naive(&line, &light)
    );
    assert_eq!(
        pencil_sketch_with(&GrayImage::new(0, 0), &light, Method::Table).dimensions(),
        (0, 0)
    );
}
