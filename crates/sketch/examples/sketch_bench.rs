//! Times the pencil-sketch filter on a decoded image (decoding and encoding
//! are not timed): what `bench/sketch/run.sh` compares with the NumPy recipe.
//!
//! ```text
//! sketch_bench INPUT OUTPUT [REPEATS] [DEPTH ELEVATION AZIMUTH]
//! ```
//!
//! Prints `width height best_seconds megapixels_per_second threads`, the best
//! of at least REPEATS runs (default 5), and of as many as fit in half a
//! second, of `arcade_sketch::sketch`, from the RGB pixels
//! in memory (grey conversion included) to the sketch in memory, and writes
//! the sketch to OUTPUT.

use arcade_sketch::{Light, sketch};
use std::time::Instant;

/// Keep timing runs until this much time has passed.
const MIN_SECONDS: f64 = 0.5;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 2,
        "usage: sketch_bench INPUT OUTPUT [REPEATS] [DEPTH ELEVATION AZIMUTH]"
    );
    let image = image::open(&args[0]).expect("read input");
    let repeats: usize = args.get(2).map_or(5, |r| r.parse().expect("repeats"));
    let mut light = Light::default();
    if let [depth, el, az] = &args.get(3..6).unwrap_or_default() {
        light = Light {
            depth: depth.parse().expect("depth"),
            elevation: el.parse().expect("elevation"),
            azimuth: az.parse().expect("azimuth"),
        };
    }
    let mut best = f64::INFINITY;
    let mut out = None;
    let (started, mut runs) = (Instant::now(), 0);
    while runs < repeats.max(1) || started.elapsed().as_secs_f64() < MIN_SECONDS {
        runs += 1;
        let t = Instant::now();
        let s = sketch(&image, &light);
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(s);
    }
    let out = out.expect("one run");
    let (w, h) = out.dimensions();
    let mpx = f64::from(w) * f64::from(h) / 1e6;
    println!(
        "{w} {h} {best:.6} {:.1} {}",
        mpx / best,
        rayon::current_num_threads()
    );
    out.save(&args[1]).expect("write output");
}
