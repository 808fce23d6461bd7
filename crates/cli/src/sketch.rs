//! `arcade sketch`: pencil-sketch image filter.

use crate::exit::bad_input;
use anyhow::{Result, anyhow};
use arcade_sketch::{Light, sketch_file};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct SketchArgs {
    /// Input image (PNG, JPEG, BMP, GIF, TIFF, WebP, PNM).
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output image; the format follows the extension (.png, .jpg, .bmp,
    /// .gif, .tif, .webp, .pgm).
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Relief depth: larger values give darker, stronger strokes.
    #[arg(long, default_value_t = Light::default().depth, value_parser = finite,
          allow_negative_numbers = true)]
    depth: f64,
    /// Light elevation above the image plane, in radians (default π/2.2).
    #[arg(long, value_name = "RAD", default_value_t = Light::default().elevation,
          value_parser = finite, allow_negative_numbers = true)]
    elevation: f64,
    /// Light azimuth in radians (default π/4).
    #[arg(long, value_name = "RAD", default_value_t = Light::default().azimuth,
          value_parser = finite, allow_negative_numbers = true)]
    azimuth: f64,
    /// Print one JSON object (sizes, settings, time) instead of a line.
    #[arg(long)]
    json: bool,
}

fn finite(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("expected a finite number, found {s:?}")),
    }
}

pub fn run(args: SketchArgs) -> Result<()> {
    let light = Light {
        depth: args.depth,
        elevation: args.elevation,
        azimuth: args.azimuth,
    };
    let start = Instant::now();
    let (width, height) = sketch_file(&args.input, &args.output, &light).map_err(|e| {
        if e.is_bad_input() {
            bad_input(e)
        } else {
            anyhow!(e)
        }
    })?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let report = json!({
            "input": args.input.display().to_string(),
            "output": args.output.display().to_string(),
            "width": width,
            "height": height,
            "depth": light.depth,
            "elevation": light.elevation,
            "azimuth": light.azimuth,
            "seconds": seconds,
        });
        println!("{report}");
    } else {
        println!(
            "{} → {} ({width}×{height}, {seconds:.2} s)",
            args.input.display(),
            args.output.display()
        );
    }
    Ok(())
}
