//! `arcade tetris bench` as shards.

use super::{Sharded, check_count, from_spec, to_json};
use arcade_core::progress::Progress;
use arcade_tetris::bench::{self, BenchConfig, BenchPartial, BenchReport};
use arcade_tetris::player::{OptionError, check_options};
use arcade_tetris::{Board, Limits, MoveMode, Randomizer, Rules, Weights};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The options of `arcade tetris bench`, with its defaults.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec {
    /// A built-in AI or a weights file (which must exist on every node).
    ai: String,
    #[serde(default = "drop")]
    moves: MoveMode,
    #[serde(default)]
    preview: bool,
    /// `--expect-from`: overrides the AI's own.
    expect_from: Option<usize>,
    /// `WIDTHxHEIGHT`.
    #[serde(default = "ten_by_ten")]
    board: String,
    #[serde(default = "hundred")]
    games: u64,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default = "uniform")]
    pieces: Randomizer,
    max_lines: Option<u64>,
    max_pieces: Option<u64>,
}

fn drop() -> MoveMode {
    MoveMode::Drop
}
fn ten_by_ten() -> String {
    "10x10".into()
}
fn hundred() -> u64 {
    100
}
fn one() -> u64 {
    1
}
fn uniform() -> Randomizer {
    Randomizer::Uniform
}

/// `WIDTHxHEIGHT`, within the engine's limits.
fn board(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("board: expected WIDTHxHEIGHT such as 10x20, found {s:?}");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w = w.trim().parse().map_err(|_| bad())?;
    let h = h.trim().parse().map_err(|_| bad())?;
    Board::new(w, h).map_err(|e| format!("board: {e}"))?;
    Ok((w, h))
}

pub(crate) struct TetrisBench {
    cfg: BenchConfig,
    weights: Weights,
}

impl Sharded for TetrisBench {
    type Spec = Spec;
    type Partial = BenchPartial;

    fn parse(spec: &str) -> Result<Self, String> {
        let s: Spec = from_spec("tetris-bench", spec)?;
        let (width, height) = board(&s.board)?;
        let weights = Weights::resolve(&s.ai).map_err(|e| format!("ai: {e}"))?;
        check_options(&weights, s.preview, s.expect_from, height).map_err(|e| match e {
            OptionError::PreviewReplacesExpectation(_) => {
                format!("preview: {e}; use \"ai\": \"bcts\" with preview")
            }
            OptionError::ExpectationAboveBoard(..) => format!("expect_from {e}"),
        })?;
        if s.preview && s.expect_from.is_some() {
            return Err("expect_from: not with preview (as --expect-from on the CLI)".into());
        }
        let cfg = BenchConfig {
            width,
            height,
            games: check_count("games", s.games)?,
            seed: s.seed,
            limits: Limits {
                max_pieces: s.max_pieces,
                max_lines: s.max_lines,
            },
            mode: s.moves,
            preview: s.preview,
            expect_from: s.expect_from.or(weights.expect_from),
            randomizer: s.pieces,
        };
        Ok(TetrisBench { cfg, weights })
    }

    fn units(&self) -> u64 {
        self.cfg.games
    }

    fn run(&self, range: Range<u64>) -> Result<BenchPartial, String> {
        let rules = Rules::classic();
        Ok(bench::run_range(
            &rules,
            &self.weights,
            &self.cfg,
            range,
            &Progress::hidden(),
        ))
    }

    fn merge(into: &mut BenchPartial, later: &BenchPartial) {
        into.merge(later);
    }

    fn report(&self, whole: BenchPartial, seconds: f64, threads: usize) -> Result<String, String> {
        let name = &self.weights.name;
        to_json(&BenchReport::new(name, &self.cfg, &whole, seconds, threads))
    }
}
