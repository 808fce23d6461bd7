//! `arcade tiles bench` as shards: one row per layer count, so game index
//! `i` of the run is level `i % games` of row `i / games`.

use super::{MAX_COUNT, Sharded, check_count, from_spec, to_json};
use arcade_core::input::check_seconds;
use arcade_core::progress::Progress;
use arcade_tiles::bench::{self, BenchConfig, BenchReport, BenchTable, Partial, Source};
use arcade_tiles::evolve::{self, EvolveConfig};
use arcade_tiles::exact::Limits;
use arcade_tiles::layout::{Classic, MAX_LAYERS};
use serde::{Deserialize, Serialize};
use std::ops::{Range, RangeInclusive};
use std::time::Duration;

/// The options of `arcade tiles bench`, with its defaults.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spec {
    /// Layer counts, one row each.
    layers: Vec<usize>,
    #[serde(default = "twelve")]
    types: usize,
    #[serde(default = "ten")]
    groups: usize,
    #[serde(default = "seven")]
    capacity: usize,
    /// Levels per row.
    #[serde(default = "hundred")]
    games: u64,
    #[serde(default = "both")]
    solver: String,
    /// The exact solver's time limit per level.
    #[serde(default = "ten_seconds")]
    seconds: f64,
    nodes: Option<u64>,
    #[serde(default = "random")]
    method: String,
    difficulty: Option<f64>,
    de_generations: Option<usize>,
    de_population: Option<usize>,
    de_swaps: Option<usize>,
    #[serde(default = "one")]
    seed: u64,
}

fn twelve() -> usize {
    12
}
fn ten() -> usize {
    10
}
fn seven() -> usize {
    7
}
fn hundred() -> u64 {
    100
}
fn both() -> String {
    "both".into()
}
fn ten_seconds() -> f64 {
    10.0
}
fn random() -> String {
    "random".into()
}
fn one() -> u64 {
    1
}

fn in_range(what: &str, v: usize, range: RangeInclusive<usize>) -> Result<usize, String> {
    match range.contains(&v) {
        true => Ok(v),
        false => Err(format!(
            "{what} must be from {} to {}, found {v}",
            range.start(),
            range.end()
        )),
    }
}

impl Spec {
    /// The level source, refusing settings of another method (as the CLI).
    fn source(&self) -> Result<Source, String> {
        let de_given = self.de_generations.is_some()
            || self.de_population.is_some()
            || self.de_swaps.is_some();
        if de_given && self.method != "de-swap" {
            return Err(
                "de_generations/de_population/de_swaps only apply to method de-swap".into(),
            );
        }
        if self.difficulty.is_some() && self.method != "construct" {
            return Err("difficulty only applies to method construct".into());
        }
        match self.method.as_str() {
            "random" => Ok(Source::Random),
            "construct" => Ok(Source::Construct {
                difficulty: self.difficulty.unwrap_or(0.5),
            }),
            "de-swap" => {
                let default = EvolveConfig::default();
                let setting = |what, given: Option<usize>, default, range| {
                    in_range(what, given.unwrap_or(default), range)
                };
                Ok(Source::Evolve(EvolveConfig {
                    generations: setting(
                        "de_generations",
                        self.de_generations,
                        default.generations,
                        evolve::GENERATIONS,
                    )?,
                    population: setting(
                        "de_population",
                        self.de_population,
                        default.population,
                        evolve::POPULATION,
                    )?,
                    swaps: setting("de_swaps", self.de_swaps, default.swaps, evolve::SWAPS)?,
                    time: None,
                }))
            }
            m => Err(format!(
                "unknown method {m:?} (expected random, construct or de-swap)"
            )),
        }
    }

    fn players(&self) -> Result<(bool, bool), String> {
        match self.solver.as_str() {
            "greedy" => Ok((true, false)),
            "exact" => Ok((false, true)),
            "both" => Ok((true, true)),
            s => Err(format!(
                "unknown solver {s:?} (expected greedy, exact or both)"
            )),
        }
    }
}

pub(crate) struct TilesBench {
    rows: Vec<BenchConfig>,
    games: u64,
}

/// The partial of one row's levels.
#[derive(Serialize, Deserialize)]
pub(crate) struct RowPartial {
    row: usize,
    partial: Partial,
}

impl Sharded for TilesBench {
    type Spec = Spec;
    type Partial = Vec<RowPartial>;

    fn parse(spec: &str) -> Result<Self, String> {
        let s: Spec = from_spec("tiles-bench", spec)?;
        if s.layers.is_empty() {
            return Err("layers: give at least one layer count".into());
        }
        let source = s.source()?;
        let (greedy, exact) = s.players()?;
        let seconds = check_seconds(s.seconds).map_err(|e| {
            format!(
                "seconds: {e}, found {}",
                arcade_core::text::number(s.seconds)
            )
        })?;
        let limits = Limits {
            nodes: s.nodes,
            time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        };
        let games = check_count("games", s.games)?;
        if games.saturating_mul(s.layers.len() as u64) > MAX_COUNT {
            return Err(format!("layers × games must be at most {MAX_COUNT}"));
        }
        let rows = s
            .layers
            .iter()
            .map(|&layers| {
                let config = BenchConfig {
                    shape: Classic {
                        layers: in_range("layers", layers, 1..=MAX_LAYERS)?,
                        types: in_range("types", s.types, 1..=2000)?,
                        groups: in_range("groups", s.groups, 1..=2000)?,
                    },
                    capacity: in_range("capacity", s.capacity, 3..=64)?,
                    levels: games,
                    seed: s.seed,
                    source,
                    greedy,
                    exact: exact.then_some(limits),
                };
                config.validate().map_err(|e| e.to_string())?;
                Ok(config)
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(TilesBench { rows, games })
    }

    fn units(&self) -> u64 {
        self.games * self.rows.len() as u64
    }

    /// The rows `range` touches, each played over its part of the range.
    fn run(&self, range: Range<u64>) -> Result<Vec<RowPartial>, String> {
        let mut out = Vec::new();
        let mut i = range.start;
        while i < range.end {
            let row = (i / self.games) as usize;
            let row_end = ((row as u64 + 1) * self.games).min(range.end);
            let levels = i % self.games..i % self.games + (row_end - i);
            let partial = bench::run_range(&self.rows[row], levels, &Progress::hidden())
                .map_err(|e| e.to_string())?;
            out.push(RowPartial { row, partial });
            i = row_end;
        }
        Ok(out)
    }

    /// The rows must be those `run` makes of `range`, each with its levels.
    fn check_partial(&self, range: Range<u64>, partial: &Vec<RowPartial>) -> Result<(), String> {
        let mut i = range.start;
        for r in partial {
            let row = i / self.games;
            let row_end = ((row + 1) * self.games).min(range.end);
            if i >= range.end || r.row as u64 != row || r.partial.levels != row_end - i {
                return Err(format!(
                    "its rows are not those of games {}..{} (row {} with {} levels)",
                    range.start, range.end, r.row, r.partial.levels
                ));
            }
            i = row_end;
        }
        match i == range.end {
            true => Ok(()),
            false => Err(format!("its rows end at game {i}, not at {}", range.end)),
        }
    }

    fn merge(into: &mut Vec<RowPartial>, later: &Vec<RowPartial>) {
        for r in later {
            match into.last_mut() {
                Some(last) if last.row == r.row => last.partial.merge(&r.partial),
                _ => into.push(RowPartial {
                    row: r.row,
                    partial: r.partial.clone(),
                }),
            }
        }
    }

    /// The table of every row; each row's `seconds` is the run's wall time
    /// shared evenly (the shards of a row ran on many machines at once).
    fn report(
        &self,
        whole: Vec<RowPartial>,
        seconds: f64,
        threads: usize,
    ) -> Result<String, String> {
        let per_row = seconds / self.rows.len() as f64;
        let rows: Vec<BenchReport> = whole
            .iter()
            .map(|r| BenchReport::new(&self.rows[r.row], &r.partial, per_row))
            .collect();
        let first = &self.rows[0];
        to_json(&BenchTable {
            rows,
            games: self.games,
            seed: first.seed,
            method: first.source.name().to_string(),
            seconds_limit: first.exact.and_then(|l| l.time).map(|t| t.as_secs_f64()),
            threads,
        })
    }
}
