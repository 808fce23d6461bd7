//! `arcade mines battle` (AI against AI) as shards.

use super::{Sharded, check_count, from_spec, to_json};
use arcade_core::progress::Progress;
use arcade_mines::battle::arena::{self, MatchPartial};
use arcade_mines::battle::{Ai, MatchConfig, MatchReport, Rules};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The options of `arcade mines battle`, with its defaults.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec {
    a: String,
    b: String,
    #[serde(default = "thousand")]
    games: u64,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default = "battle_level")]
    level: String,
    target: Option<usize>,
}

fn thousand() -> u64 {
    1000
}
fn one() -> u64 {
    1
}
fn battle_level() -> String {
    "16x16/51".into()
}

pub(crate) struct MinesBattle(MatchConfig);

impl Sharded for MinesBattle {
    type Spec = Spec;
    type Partial = MatchPartial;

    fn parse(spec: &str) -> Result<Self, String> {
        let s: Spec = from_spec("mines-battle", spec)?;
        // As the CLI's --level: `contest` or a single-player level.
        let level = s
            .level
            .parse::<Rules>()
            .map_err(|e| format!("level: {e}"))?
            .level;
        let rules = match s.target {
            Some(t) => Rules::with_target(level, t),
            None => Rules::new(level),
        }
        .map_err(|e| format!("level/target: {e}"))?;
        let ai = |who: &str, name: &str| name.parse::<Ai>().map_err(|e| format!("{who}: {e}"));
        let games = check_count("games", s.games)?;
        if games % 2 == 1 {
            return Err(format!(
                "games must be a positive even number (each layout is played once with each AI first), found {games}"
            ));
        }
        Ok(MinesBattle(MatchConfig {
            rules,
            a: ai("a", &s.a)?,
            b: ai("b", &s.b)?,
            games,
            seed: s.seed,
        }))
    }

    fn units(&self) -> u64 {
        self.0.games
    }

    fn run(&self, range: Range<u64>) -> Result<MatchPartial, String> {
        arena::run_range(&self.0, range, &Progress::hidden()).map_err(|e| e.to_string())
    }

    fn merge(into: &mut MatchPartial, later: &MatchPartial) {
        into.merge(later);
    }

    fn report(&self, whole: MatchPartial, seconds: f64, threads: usize) -> Result<String, String> {
        to_json(&MatchReport::new(&self.0, &whole, seconds, threads))
    }
}
