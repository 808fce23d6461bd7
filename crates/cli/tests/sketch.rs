//! `arcade sketch`: writes the sketch, errors exit 2 with one line.

use crate::common::{arcade, assert_bad_input, temp_dir};

use std::path::Path;

fn golden(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sketch/tests/data")
        .join(name)
        .display()
        .to_string()
}

/// The light of the golden sketch `photo-37x23-d30.sketch.png`.
const GOLDEN_LIGHT: &[&str] = &["--depth", "30", "--elevation", "0.8", "--azimuth", "2"];

/// The image at `path` has the golden sketch's size and each pixel is within
/// one grey level of it.
fn assert_near_golden(path: &Path, name: &str) {
    let got = image::open(path).unwrap().to_luma8();
    let want = image::open(golden(name)).unwrap().to_luma8();
    assert_eq!(got.dimensions(), want.dimensions());
    let worst = got
        .as_raw()
        .iter()
        .zip(want.as_raw())
        .map(|(a, b)| a.abs_diff(*b))
        .max();
    assert!(worst <= Some(1), "max difference {worst:?}");
}

#[test]
fn writes_the_sketch_numpy_would_within_one() {
    let dir = temp_dir("golden");
    let out = dir.join("sketch.png");
    let photo = golden("photo-37x23-d30.png");
    let o = arcade(
        &[
            &["sketch", &photo, out.to_str().unwrap(), "--json"],
            GOLDEN_LIGHT,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(37), Some(23))
    );
    assert_near_golden(&out, "photo-37x23-d30.sketch.png");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unreadable_input_and_unknown_extension_exit_2() {
    let dir = temp_dir("errors");
    let out = dir.join("x.png");
    assert_bad_input(
        &["sketch", "/no/such/photo.png", out.to_str().unwrap()],
        "cannot read /no/such/photo.png: no such file",
    );
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"not an image").unwrap();
    assert_bad_input(
        &["sketch", junk.to_str().unwrap(), out.to_str().unwrap()],
        "cannot read image",
    );
    assert_bad_input(
        &[
            "sketch",
            &golden("photo-64x48.png"),
            dir.join("x.docx").to_str().unwrap(),
        ],
        "unsupported output extension",
    );
    // An output that cannot be written is bad input found before the work
    // (it was exit 1 after the filter), and a directory is named as one.
    assert_bad_input(
        &["sketch", &golden("photo-64x48.png"), "/no/such/dir/out.png"],
        "/no/such/dir/out.png",
    );
    assert_bad_input(
        &["sketch", &golden("photo-64x48.png"), dir.to_str().unwrap()],
        "is a directory",
    );
    assert_bad_input(
        &[
            "sketch",
            &golden("photo-64x48.png"),
            out.to_str().unwrap(),
            "--depth",
            "nan",
        ],
        "expected a finite number",
    );
    let photo = golden("photo-64x48.png");
    for (flag, value, says) in [
        (
            "--depth",
            "0",
            "--depth must be above 0 and at most 1000, got 0",
        ),
        (
            "--elevation",
            "90",
            "--elevation must be from 0 to π/2 = 1.5708 radians (not degrees), got 90",
        ),
        ("--azimuth", "45", "--azimuth must be from -2π to 2π"),
    ] {
        assert_bad_input(
            &["sketch", &photo, out.to_str().unwrap(), flag, value],
            says,
        );
    }
    // The input as the output would lose the photo: refused, the photo kept.
    let mine = dir.join("mine.png");
    std::fs::copy(&photo, &mine).unwrap();
    let mine = mine.to_str().unwrap();
    assert_bad_input(&["sketch", mine, mine], "is the input too");
    assert_eq!(std::fs::read(mine).unwrap(), std::fs::read(&photo).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 30 item 10: a truncated JPEG is one line; a zero-size image is bad
/// input naming the file (it was reported as a failed write); GIF output
/// works (it failed with "Gif does not support the color type L8").
#[test]
fn truncated_zero_size_and_gif() {
    let dir = temp_dir("repro");
    let out = dir.join("x.png");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sketch/tests/data");
    assert_bad_input(
        &[
            "sketch",
            data.join("truncated.jpg").to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        "cannot read image",
    );
    let zero = data.join("zero-size.ppm");
    assert_bad_input(
        &["sketch", zero.to_str().unwrap(), out.to_str().unwrap()],
        &format!("image {} has no pixels (0×0)", zero.display()),
    );
    assert!(!out.exists());
    let gif = dir.join("x.gif");
    let photo = golden("photo-37x23-d30.png");
    let o = arcade(&[&["sketch", &photo, gif.to_str().unwrap()], GOLDEN_LIGHT].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_near_golden(&gif, "photo-37x23-d30.sketch.png");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 30 item 2: a full disk on standard output is one line and exit 1.
#[test]
fn report_to_a_full_disk_is_one_line_and_exit_1() {
    let dir = temp_dir("full");
    let out = dir.join("x.png");
    for json in [true, false] {
        let mut args = vec![
            "sketch".to_string(),
            golden("photo-64x48.png"),
            out.display().to_string(),
        ];
        if json {
            args.push("--json".into());
        }
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_arcade"))
            .args(&args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("error: writing to standard output"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `OUT` `-` writes the sketch to standard output as a PNG (the report goes
/// to stderr), so `arcade sketch - - < photo > sketch.png` is a filter;
/// `--json` there would mix the report into the image and is refused.
#[test]
fn out_dash_writes_a_png_to_stdout() {
    let dir = temp_dir("stdout");
    let photo = std::fs::read(golden("photo-37x23-d30.png")).unwrap();
    let args = [&["sketch", "-", "-"], GOLDEN_LIGHT].concat();
    let o = crate::common::arcade_with_input(&args, &photo);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("standard input → standard output (37×23"),
        "{err}"
    );
    let out = dir.join("piped.png");
    std::fs::write(&out, &o.stdout).unwrap();
    assert_near_golden(&out, "photo-37x23-d30.sketch.png");

    let quiet = crate::common::arcade_with_input(&[&args[..], &["--quiet"]].concat(), &photo);
    assert!(quiet.status.success() && quiet.stderr.is_empty());
    assert_eq!(quiet.stdout, o.stdout);
    assert_bad_input(
        &["sketch", &golden("photo-37x23-d30.png"), "-", "--json"],
        "--json prints to standard output, where OUT `-` writes the image",
    );
    std::fs::remove_dir_all(&dir).ok();
}
