//! `arcade mines bench` as shards.

use super::{Sharded, check_count, from_spec, to_json};
use arcade_core::progress::Progress;
use arcade_mines::bench::{self, BenchConfig, BenchPartial, BenchReport};
use arcade_mines::solver::Strength;
use arcade_mines::{Board, Level, Rule};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The options of `arcade mines bench`, with its defaults.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec {
    #[serde(default = "expert")]
    level: String,
    #[serde(default = "sfar")]
    rule: Rule,
    /// First click `[x, y]` (default: the rule's).
    first: Option<(usize, usize)>,
    #[serde(default = "standard")]
    solver: Strength,
    #[serde(default = "thousand")]
    games: u64,
    #[serde(default = "one")]
    seed: u64,
}

fn expert() -> String {
    "expert".into()
}
fn sfar() -> Rule {
    Rule::Sfar
}
fn standard() -> Strength {
    Strength::Standard
}
fn thousand() -> u64 {
    1000
}
fn one() -> u64 {
    1
}

pub(crate) struct MinesBench(BenchConfig);

impl Sharded for MinesBench {
    type Spec = Spec;
    type Partial = BenchPartial;

    fn parse(spec: &str) -> Result<Self, String> {
        let s: Spec = from_spec("mines-bench", spec)?;
        let level: Level = s.level.parse().map_err(|e| format!("level: {e}"))?;
        let first = s
            .first
            .unwrap_or_else(|| s.rule.default_first(level.grid()));
        let cfg = BenchConfig {
            level,
            rule: s.rule,
            first,
            games: check_count("games", s.games)?,
            seed: s.seed,
            strength: s.solver,
        };
        Board::generate(cfg.level, cfg.rule, cfg.first, 0).map_err(|e| e.to_string())?;
        Ok(MinesBench(cfg))
    }

    fn units(&self) -> u64 {
        self.0.games
    }

    fn run(&self, range: Range<u64>) -> Result<BenchPartial, String> {
        bench::run_range(&self.0, range, &Progress::hidden()).map_err(|e| e.to_string())
    }

    fn merge(into: &mut BenchPartial, later: &BenchPartial) {
        into.merge(later);
    }

    fn report(&self, whole: BenchPartial, seconds: f64, threads: usize) -> Result<String, String> {
        to_json(&BenchReport::new(&self.0, &whole, seconds, threads))
    }
}
