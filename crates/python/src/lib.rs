//! `arcadekit._arcadekit`: the Rust half of the Python package. Each
//! environment has a single-game core (driven by the Gymnasium classes in
//! `python/arcadekit`) and a vector core that steps N games per call on Rust
//! threads with the GIL released; solvers are plain functions. Reports cross
//! over as the JSON of the library's `Serialize` types, errors as
//! `ValueError` with the library's one-line message.

mod ask_tell;
mod battle;
mod flappy;
mod flappy_in_place;
mod jumpin;
mod mines;
mod pool;
mod replay;
mod seeds;
mod shard;
mod solvers;
mod tetris;
mod tiles;
mod vector;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A library error as the `ValueError` Python code expects.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Python's time budget `name` (`seconds`, `verify_seconds`): finite, above
/// 0, at most a year, as the CLI's `--seconds`.
pub(crate) fn check_seconds(name: &str, seconds: f64) -> PyResult<f64> {
    arcade_core::input::check_seconds(seconds).map_err(|e| {
        value_error(format!(
            "{name}: {e}, got {}",
            arcade_core::text::number(seconds)
        ))
    })
}

/// The exact Tiles solver's budget of positions: 1 to the count limit, as
/// the CLI's `--nodes`.
pub(crate) fn check_nodes(nodes: u64) -> PyResult<u64> {
    match nodes {
        1..=arcade_core::input::MAX_COUNT => Ok(nodes),
        _ => Err(value_error(format!(
            "nodes {nodes} is out of range (1 to {})",
            arcade_core::input::MAX_COUNT
        ))),
    }
}

/// A report as JSON text (the Python side turns it into a dict).
pub(crate) fn to_json(report: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(report).map_err(value_error)
}

#[pymodule]
fn _arcadekit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    tetris::register(m)?;
    flappy::register(m)?;
    mines::register(m)?;
    battle::register(m)?;
    solvers::register(m)?;
    tiles::register(m)?;
    jumpin::register(m)?;
    shard::register(m)?;
    ask_tell::register(m)?;
    m.add_function(wrap_pyfunction!(seeds::episode_seed, m)?)?;
    // The workspace's version, which is the package's (pyproject.toml reads it).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_COUNT", arcade_core::input::MAX_COUNT)?;
    Ok(())
}
