//! `arcade flappy eval` as shards.

use super::{Sharded, check_count, from_spec, to_json};
use arcade_core::progress::Progress;
use arcade_flappy::eval::{self, Agent, EvalConfig, EvalPartial, EvalReport};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The options of `arcade flappy eval`, with its defaults.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec {
    /// `heuristic`, `oracle` or a policy file (which must exist on every node).
    policy: String,
    #[serde(default = "hundred")]
    episodes: u64,
    #[serde(default = "ten_thousand")]
    max_pipes: u64,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default)]
    per_episode: bool,
}

fn hundred() -> u64 {
    100
}
fn ten_thousand() -> u64 {
    10_000
}
fn one() -> u64 {
    1
}

pub(crate) struct FlappyEval {
    config: EvalConfig,
    agent: Agent,
}

impl Sharded for FlappyEval {
    type Spec = Spec;
    type Partial = EvalPartial;

    fn parse(spec: &str) -> Result<Self, String> {
        let s: Spec = from_spec("flappy-eval", spec)?;
        let config = EvalConfig {
            policy: s.policy,
            episodes: check_count("episodes", s.episodes)?,
            seed: s.seed,
            max_pipes: check_count("max_pipes", s.max_pipes)?,
            per_episode: s.per_episode,
        };
        config.check().map_err(|e| e.to_string())?;
        let agent = Agent::resolve(&config.policy).map_err(|e| format!("policy: {e}"))?;
        Ok(FlappyEval { config, agent })
    }

    fn units(&self) -> u64 {
        self.config.episodes
    }

    fn run(&self, range: Range<u64>) -> Result<EvalPartial, String> {
        Ok(eval::run_range(
            &self.agent,
            &self.config,
            range,
            &Progress::hidden(),
        ))
    }

    fn merge(into: &mut EvalPartial, later: &EvalPartial) {
        into.merge(later);
    }

    fn report(&self, whole: EvalPartial, seconds: f64, threads: usize) -> Result<String, String> {
        to_json(&EvalReport::new(&self.config, whole, seconds, threads))
    }
}
