//! Sharded benchmarks for a cluster (Ray, issue 34): a run of the CLI's
//! `bench`/`eval`/`battle` is split into ranges of game indices, each range
//! played by [`shard_run`] into the library's exactly mergeable partial, and
//! [`shard_report`] merges the ranges in order into the report the CLI's
//! `--json` prints for the whole run. Specs are JSON objects named after the
//! CLI's options; partials cross as JSON (integer sums, never averages).

mod battle;
mod flappy;
mod mines;
mod tetris;
mod tiles;

use crate::value_error;
use pyo3::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::ops::Range;

pub(crate) use arcade_core::input::MAX_COUNT;

/// Largest spec or shard text accepted (a shard of a Tally keeps up to
/// 2^20 values, about 8 MB of JSON).
const MAX_TEXT: usize = 64 << 20;

/// One benchmark that can be played in ranges and merged.
pub(crate) trait Sharded: Sized + Sync {
    /// The options as the spec's JSON object holds them, defaults filled in.
    type Spec: Serialize + DeserializeOwned;
    /// The library's exactly mergeable result of a range.
    type Partial: Serialize + DeserializeOwned + Send;
    /// The spec, checked as the CLI checks its options.
    fn parse(spec: &str) -> Result<Self, String>;
    /// Game indices of the whole run (`0..units`).
    fn units(&self) -> u64;
    /// Plays `range` on the current rayon pool.
    fn run(&self, range: Range<u64>) -> Result<Self::Partial, String>;
    /// Refuses a stored `partial` that cannot be `range`'s (a store is a
    /// file a person may edit), where [`Sharded::report`] would trust it.
    fn check_partial(&self, _range: Range<u64>, _partial: &Self::Partial) -> Result<(), String> {
        Ok(())
    }
    /// Appends `later`, the partial of the range right after `into`'s.
    fn merge(into: &mut Self::Partial, later: &Self::Partial);
    /// The CLI's report of the whole run, as JSON.
    fn report(&self, whole: Self::Partial, seconds: f64, threads: usize) -> Result<String, String>;
}

/// A spec's JSON object, with the kind's name on errors.
pub(crate) fn from_spec<T: DeserializeOwned>(kind: &str, spec: &str) -> Result<T, String> {
    if spec.len() > MAX_TEXT {
        return Err(format!("{kind} spec: longer than {MAX_TEXT} bytes"));
    }
    arcade_core::json::parse_with_path(spec).map_err(|e| format!("{kind} spec: {e}"))
}

/// A count option: 1 to [`MAX_COUNT`].
pub(crate) fn check_count(what: &str, n: u64) -> Result<u64, String> {
    if n == 0 || n > MAX_COUNT {
        return Err(format!(
            "{what} must be a whole number from 1 to {MAX_COUNT}, found {n}"
        ));
    }
    Ok(n)
}

pub(crate) fn to_json(v: &impl Serialize) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

/// A played range and its partial: what a worker returns and a run stores.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Shard<P> {
    kind: String,
    start: u64,
    end: u64,
    partial: P,
}

/// `spec` checked, with every option spelled out.
fn canonical<B: Sharded>(kind: &str, spec: &str) -> Result<String, String> {
    B::parse(spec)?;
    to_json(&from_spec::<B::Spec>(kind, spec)?)
}

fn units<B: Sharded>(spec: &str) -> Result<u64, String> {
    B::parse(spec).map(|b| b.units())
}

fn run<B: Sharded>(
    py: Python<'_>,
    kind: &str,
    spec: &str,
    range: Range<u64>,
    threads: Option<usize>,
) -> Result<String, String> {
    let bench = B::parse(spec)?;
    let total = bench.units();
    if range.start >= range.end || range.end > total {
        return Err(format!(
            "shard {}..{} is not a non-empty range within 0..{total}",
            range.start, range.end
        ));
    }
    let partial = crate::pool::detach(py, || {
        arcade_core::runner::with_threads(threads, || bench.run(range.clone()))
    })?;
    to_json(&Shard {
        kind: kind.to_string(),
        start: range.start,
        end: range.end,
        partial,
    })
}

/// One shard's text read as `kind`'s: its partial parsed, its range
/// non-empty and within `bench`'s games, and the partial one of that range.
fn parse_shard<B: Sharded>(kind: &str, bench: &B, text: &str) -> Result<Shard<B::Partial>, String> {
    let units = bench.units();
    if text.len() > MAX_TEXT {
        return Err(format!("longer than {MAX_TEXT} bytes"));
    }
    let s: Shard<B::Partial> = arcade_core::json::parse_with_path(text)?;
    if s.kind != kind {
        return Err(format!("a shard of {:?}, not {kind:?}", s.kind));
    }
    if s.start >= s.end || s.end > units {
        return Err(format!(
            "games {}..{} are not a non-empty range within 0..{units}",
            s.start, s.end
        ));
    }
    bench.check_partial(s.start..s.end, &s.partial)?;
    Ok(s)
}

fn check<B: Sharded>(kind: &str, spec: &str, shard: &str) -> Result<(u64, u64), String> {
    parse_shard(kind, &B::parse(spec)?, shard).map(|s| (s.start, s.end))
}

fn report<B: Sharded>(
    kind: &str,
    spec: &str,
    shards: &[String],
    seconds: f64,
    threads: usize,
) -> Result<String, String> {
    let bench = B::parse(spec)?;
    let mut parsed = shards
        .iter()
        .enumerate()
        .map(|(i, text)| parse_shard(kind, &bench, text).map_err(|e| format!("shard {i}: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    parsed.sort_by_key(|s| s.start);
    let mut next = 0;
    let mut whole: Option<B::Partial> = None;
    for s in parsed {
        if s.start != next {
            return Err(format!(
                "the shards do not tile 0..{}: expected one starting at {next}, found {}..{}",
                bench.units(),
                s.start,
                s.end
            ));
        }
        match &mut whole {
            None => whole = Some(s.partial),
            Some(w) => B::merge(w, &s.partial),
        }
        next = s.end;
    }
    match whole {
        Some(w) if next == bench.units() => bench.report(w, seconds, threads),
        _ => Err(format!(
            "the shards cover 0..{next}, not the whole run 0..{}",
            bench.units()
        )),
    }
}

/// Calls `$f::<Type>` for the benchmark named `$kind`.
macro_rules! by_kind {
    ($kind:expr, $f:ident ( $($arg:expr),* )) => {
        match $kind {
            "mines-bench" => $f::<mines::MinesBench>($($arg),*),
            "tetris-bench" => $f::<tetris::TetrisBench>($($arg),*),
            "tiles-bench" => $f::<tiles::TilesBench>($($arg),*),
            "flappy-eval" => $f::<flappy::FlappyEval>($($arg),*),
            "mines-battle" => $f::<battle::MinesBattle>($($arg),*),
            other => Err(format!(
                "unknown benchmark {other:?} (expected mines-bench, tetris-bench, tiles-bench, flappy-eval or mines-battle)"
            )),
        }
    };
}

/// Checks `spec` and returns it with every option spelled out (the defaults
/// filled in), so that two specs of one run compare equal.
#[pyfunction]
fn shard_spec(kind: &str, spec: &str) -> PyResult<String> {
    by_kind!(kind, canonical(kind, spec)).map_err(value_error)
}

/// Checks `spec` and returns the number of games (levels, episodes) of the run.
#[pyfunction]
fn shard_units(kind: &str, spec: &str) -> PyResult<u64> {
    by_kind!(kind, units(spec)).map_err(value_error)
}

/// Plays games `start..end` of the run with the GIL released, on `threads`
/// threads (all cores when None); returns the shard as JSON.
#[pyfunction]
#[pyo3(signature = (kind, spec, start, end, threads=None))]
fn shard_run(
    py: Python<'_>,
    kind: &str,
    spec: &str,
    start: u64,
    end: u64,
    threads: Option<usize>,
) -> PyResult<String> {
    if threads == Some(0) {
        return Err(value_error("threads must be at least 1"));
    }
    by_kind!(kind, run(py, kind, spec, start..end, threads)).map_err(value_error)
}

/// Merges shards that tile the whole run (in any order) into the report the
/// CLI prints with `--json`; `seconds` and `threads` fill its timing fields.
#[pyfunction]
fn shard_report(
    kind: &str,
    spec: &str,
    shards: Vec<String>,
    seconds: f64,
    threads: usize,
) -> PyResult<String> {
    by_kind!(kind, report(kind, spec, &shards, seconds, threads)).map_err(value_error)
}

/// Reads one stored shard of the run: its `(start, end)`, or a one-line
/// error saying why it is not a shard of this run.
#[pyfunction]
fn shard_check(kind: &str, spec: &str, shard: &str) -> PyResult<(u64, u64)> {
    by_kind!(kind, check(kind, spec, shard)).map_err(value_error)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shard_check, m)?)?;
    m.add_function(wrap_pyfunction!(shard_spec, m)?)?;
    m.add_function(wrap_pyfunction!(shard_units, m)?)?;
    m.add_function(wrap_pyfunction!(shard_run, m)?)?;
    m.add_function(wrap_pyfunction!(shard_report, m)?)?;
    Ok(())
}
