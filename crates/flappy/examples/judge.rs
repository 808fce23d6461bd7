//! Where a viability judge spends its time: plays the oracle on `GAMES`
//! seeds (default 20, at most `PIPES` pipes each, default 50) and times every
//! `Judge::action_depths` call: those that build the depth map of the first
//! pipe or of a new one apart from those that only look a state up. With
//! `BUILDS=n`, also times n depth maps built alone. Figures: docs/results/web.md.
//!
//! ```text
//! cargo run --release -p arcade-flappy --example judge -- [GAMES] [PIPES]
//! ```

use arcade_flappy::Env;
use arcade_flappy::policy::{Oracle, Policy};
use arcade_flappy::viability::{CYCLE_START_X, DepthMap, Depths, Judge};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u64>().expect("a number"));
    let games = args.next().unwrap_or(20);
    let pipes = args.next().unwrap_or(50);
    let t = Instant::now();
    let depths = Depths::shared();
    println!(
        "kernels: {} margins in {:.1} s",
        depths.kernels().len(),
        t.elapsed().as_secs_f64()
    );
    let (mut first, mut build, mut look) = (Vec::new(), Vec::new(), Vec::new());
    let (mut first_bytes, mut bytes) = (0, 0);
    for seed in 0..games {
        let mut env = Env::new(seed, Some(pipes));
        let mut oracle = Oracle::new(depths);
        let mut judge = Judge::new(depths);
        let mut last = None;
        while !env.is_over() {
            let ahead = env.pipe_ahead(0).gap_top;
            let key = (env.pipes(), ahead);
            let t = Instant::now();
            std::hint::black_box(judge.action_depths(&env));
            let took = t.elapsed();
            match last {
                None => {
                    first.push(took);
                    first_bytes = judge.bytes();
                }
                Some(k) if k != key => {
                    build.push(took);
                    bytes = judge.bytes();
                }
                _ => look.push(took),
            }
            last = Some(key);
            let flap = oracle.flap(&env);
            env.step(flap);
        }
    }
    report("the first pipe (depth map built, from x = 488)", &mut first);
    report("a new pipe (depth map built, from x = 148)", &mut build);
    report("same pipe (look-up)", &mut look);
    println!(
        "a judge holds {} KB before the first pipe, {} KB after",
        first_bytes / 1000,
        bytes / 1000
    );
    // The build alone, on every pair of gaps in turn (`BUILDS` of them).
    let builds: usize = std::env::var("BUILDS")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(0);
    let t = Instant::now();
    for i in 0..builds {
        let (a, b) = (80 + (i % 140) as i32, 80 + (i * 7 % 140) as i32);
        std::hint::black_box(DepthMap::new(depths, a, b, CYCLE_START_X));
    }
    if builds > 0 {
        println!(
            "{builds} builds: {:.1}us each",
            t.elapsed().as_secs_f64() * 1e6 / builds as f64
        );
    }
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = times.iter().map(|&d| us(d)).sum::<f64>() / times.len().max(1) as f64;
    let at = |p: f64| us(times[((times.len() - 1) as f64 * p) as usize]);
    println!(
        "{what}: n={} mean={mean:.1}us p50={:.1}us p99={:.1}us max={:.1}us",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}
