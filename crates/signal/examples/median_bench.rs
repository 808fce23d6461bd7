//! Times the batch rolling median on a file of little-endian f64 values (the
//! same bytes the bottleneck side of `bench/median/run.sh` loads).
//!
//! ```text
//! median_bench INPUT.f64 K[,K...] [ALGO[,ALGO...]] [REPEATS] [OUTPUT.f64]
//! ```
//!
//! ALGO is auto, sorted, lanes, heap, blocks or ranks (default auto); with the environment
//! variable REUSE=1 the output buffer is reused across runs (no allocation
//! or page faults timed). Prints one line per
//! (k, algorithm): `k algo n best_seconds elements_per_second runs`, the best of
//! at least REPEATS runs (default 3) and of as many as fit in half a second,
//! so that short runs get as many chances as long ones to run undisturbed. With OUTPUT, the last result is written there
//! (little-endian f64) so the script can compare it with bottleneck's.

use arcade_signal::{Algorithm, rolling_median_into, rolling_median_with};
use std::time::Instant;

/// Keep timing runs until this much time has passed.
const MIN_SECONDS: f64 = 0.5;

fn parse_algo(s: &str) -> Algorithm {
    match s {
        "auto" => Algorithm::Auto,
        "sorted" => Algorithm::Sorted,
        "heap" => Algorithm::Heap,
        "blocks" => Algorithm::Blocks,
        "lanes" => Algorithm::Lanes,
        "ranks" => Algorithm::Ranks,
        _ => panic!("unknown algorithm {s:?} (auto, sorted, lanes, heap, blocks, ranks)"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 2,
        "usage: median_bench INPUT.f64 K[,K...] [ALGO[,...]] [REPEATS] [OUTPUT.f64]"
    );
    let bytes = std::fs::read(&args[0]).expect("read input");
    let data: Vec<f64> = bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let windows: Vec<usize> = args[1]
        .split(',')
        .map(|k| k.parse().expect("window"))
        .collect();
    let algos: Vec<(&str, Algorithm)> = args
        .get(2)
        .map_or("auto", String::as_str)
        .split(',')
        .map(|a| (a, parse_algo(a)))
        .collect();
    let repeats: usize = args.get(3).map_or(3, |r| r.parse().expect("repeats"));
    let reuse = std::env::var("REUSE").is_ok_and(|v| v == "1");
    let mut last = Vec::new();
    for &k in &windows {
        for &(name, algo) in &algos {
            let mut best = f64::INFINITY;
            let started = Instant::now();
            let mut runs = 0;
            while runs < repeats || started.elapsed().as_secs_f64() < MIN_SECONDS {
                runs += 1;
                let t = Instant::now();
                if reuse {
                    rolling_median_into(&data, k, algo, &mut last);
                } else {
                    last = rolling_median_with(&data, k, algo);
                }
                best = best.min(t.elapsed().as_secs_f64());
                std::hint::black_box(&last);
            }
            println!(
                "{k} {name} {} {best:.6} {:.0} {runs}",
                data.len(),
                data.len() as f64 / best
            );
        }
    }
    if let Some(path) = args.get(4) {
        let bytes: Vec<u8> = last.iter().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(path, bytes).expect("write output");
    }
}
