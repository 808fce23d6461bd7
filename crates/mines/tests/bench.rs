//! The win-rate benchmark shards: partials of consecutive ranges merge into
//! exactly the counts of the whole range.

use arcade_core::progress::Progress;
use arcade_mines::bench::{BenchConfig, BenchReport, run_range};
use arcade_mines::solver::Strength;
use arcade_mines::{Level, Rule};

#[test]
fn bench_shards_merge_exactly() {
    let cfg = BenchConfig {
        level: Level::new(6, 6, 6).unwrap(),
        rule: Rule::Sfar,
        first: (0, 0),
        games: 4200,
        seed: 3,
        strength: Strength::Fast,
    };
    let hidden = Progress::hidden();
    let whole = run_range(&cfg, 0..4200, &hidden).unwrap();
    assert_eq!(whole.games, 4200);
    assert!(whole.wins > 0 && whole.wins < 4200 && whole.guesses > 0);
    // Inside a 4,096-game block, and on its boundary.
    for k in [1000, 4096] {
        let mut left = run_range(&cfg, 0..k, &hidden).unwrap();
        left.merge(&run_range(&cfg, k..4200, &hidden).unwrap());
        assert_eq!(left, whole, "split at {k}");
        assert_eq!(
            BenchReport::new(&cfg, &left, 1.0, 2),
            BenchReport::new(&cfg, &whole, 1.0, 2)
        );
    }
    let report = BenchReport::new(&cfg, &whole, 1.0, 2);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["strength"], "fast");
    assert_eq!(json["games"], 4200);
}
