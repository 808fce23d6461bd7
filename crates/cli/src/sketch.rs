//! `arcade sketch`: pencil-sketch image filter.

use crate::exit::bad_input;
use crate::output::OutputArgs;
use anyhow::{Result, anyhow};
use arcade_core::checkpoint::check_writable;
use arcade_sketch::{Light, sketch_file};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct SketchArgs {
    /// Input image (PNG, JPEG, BMP, GIF, TIFF, WebP, PNM; `-` reads standard
    /// input). At most 256 MiB, 16,384 pixels a side, 1 GiB decoded.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output image; the format follows the extension (.png, .jpg, .bmp,
    /// .gif, .tif, .webp, .pgm). Written whole or not at all; never the
    /// input. `-` writes a PNG to standard output (the report goes to stderr).
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Relief depth: larger values give darker, stronger strokes (above 0,
    /// at most 1000).
    #[arg(long, default_value_t = Light::default().depth,
          value_parser = crate::run_options::finite)]
    depth: f64,
    /// Light elevation above the image plane, in radians: 0 (grazing, dark)
    /// to π/2 = 1.5708 (overhead, light) (default π/2.2).
    #[arg(long, value_name = "RAD", default_value_t = Light::default().elevation,
          hide_default_value = true, value_parser = crate::run_options::finite)]
    elevation: f64,
    /// Light azimuth in radians, −2π to 2π; 0 points the light along the
    /// rows axis (default π/4).
    #[arg(long, value_name = "RAD", default_value_t = Light::default().azimuth,
          hide_default_value = true, value_parser = crate::run_options::finite)]
    azimuth: f64,
    #[command(flatten)]
    output_args: OutputArgs,
}

pub fn run(args: SketchArgs) -> Result<()> {
    let to_stdout = args.output == Path::new("-");
    if to_stdout && args.output_args.json {
        return Err(bad_input(anyhow!(
            "--json prints to standard output, where OUT `-` writes the image: name an output file"
        )));
    }
    // Before the decode and the filter, as every command's output is.
    if !to_stdout {
        check_writable(&args.output).map_err(bad_input)?;
    }
    let light = Light {
        depth: args.depth,
        elevation: args.elevation,
        azimuth: args.azimuth,
    };
    // The message starts with the setting's name: "--depth must be …".
    light.check().map_err(|e| bad_input(anyhow!("--{e}")))?;
    let report = sketch_file(&args.input, &args.output, &light).map_err(|e| {
        if e.is_bad_input() {
            bad_input(e)
        } else {
            anyhow!(e)
        }
    })?;
    if to_stdout {
        // Standard output holds the image: the report is a status line.
        if !args.output_args.quiet {
            let _ = write!(std::io::stderr(), "{report}");
        }
        return Ok(());
    }
    args.output_args.emit(&report)
}
