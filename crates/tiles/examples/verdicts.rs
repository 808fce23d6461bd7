//! What a verdict costs when a person clicks at random: the web arena's
//! `tiles-random` load scenario without the server.
//!
//! ```text
//! cargo run --release -p arcade-tiles --example verdicts -- [LEVELS] [CLICKS_PER_LEVEL]
//! ```
//!
//! Each level is generated as `arcade serve` does (classic layout, 16
//! layers, difficulty 0.5, seeds 0, 1, …); every step clicks a random free
//! tile and asks for the verdict, and a click proved lost is undone (and the
//! verdict asked again). Prints how many verdicts needed a search, and the
//! percentiles of the verdict time.

use arcade_core::Rng;
use arcade_tiles::exact::Limits;
use arcade_tiles::generate::construct;
use arcade_tiles::layout::Classic;
use arcade_tiles::level::DEFAULT_CAPACITY;
use arcade_tiles::play::{TilesGame, TilesStatus};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("LEVELS and CLICKS_PER_LEVEL are whole numbers")
        })
        .collect();
    let levels = args.first().copied().unwrap_or(20);
    let clicks = args.get(1).copied().unwrap_or(200);
    let limits = Limits::seconds(2.0);
    let mut times: Vec<Duration> = Vec::new();
    let (mut searched, mut lost, mut unknown) = (0u64, 0u64, 0u64);
    let mut rng = Rng::new(7);
    for seed in 0..levels {
        let level = construct(&Classic::new(16), DEFAULT_CAPACITY, 0.5, seed)
            .expect("the web arena's settings generate")
            .level;
        let mut game = TilesGame::new(level);
        for _ in 0..clicks {
            if game.status() != TilesStatus::Playing {
                break;
            }
            let view = game.view();
            let free: Vec<usize> = view.tiles.iter().filter(|t| t.free).map(|t| t.id).collect();
            let tile = free[rng.below(free.len() as u64) as usize];
            game.click(tile).expect("a free tile");
            let start = Instant::now();
            let v = game.verdict(&limits);
            times.push(start.elapsed());
            searched += u64::from(v.nodes > 0);
            unknown += u64::from(v.verdict == "unknown");
            if v.verdict == "lost" {
                lost += 1;
                game.undo();
                let start = Instant::now();
                let v = game.verdict(&limits);
                times.push(start.elapsed());
                searched += u64::from(v.nodes > 0);
            }
        }
    }
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    let mean = times.iter().sum::<Duration>().as_secs_f64() * 1e3 / times.len() as f64;
    println!(
        "{} verdicts ({} searched, {} lost clicks undone, {} unknown): mean {:.3} ms, p50 {:.3}, p90 {:.3}, p99 {:.3}, max {:.3}",
        times.len(),
        searched,
        lost,
        unknown,
        mean,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
}
