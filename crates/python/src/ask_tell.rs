//! Tuning driven from Python (issue 34): the library's resumable runs
//! (`arcade_core::optim::Run`, the checkpoints `arcade tetris tune` and
//! `arcade geek tune` write) split into ask (the candidates of the next
//! generation and their evaluation seed), fitness (one candidate, GIL
//! released, on any worker) and tell (the scores, in any order, advance the
//! run exactly as the CLI's generation would). Runs cross as JSON text,
//! whose floats are exact.

use crate::shard::from_spec;
use crate::value_error;
use arcade_core::optim::{MAX_GENERATIONS, Method, Run, Setup, Start, check_spread};
use arcade_core::progress::Progress;
use arcade_tetris::geek::search::SearchConfig;
use arcade_tetris::geek::tune::{self as geek_tune, GeekTuneSetup};
use arcade_tetris::geek::value::GeekWeights;
use arcade_tetris::tune::{self as tetris_tune, TuneSetup};
use arcade_tetris::{MoveMode, Randomizer, Rules, Weights};
use pyo3::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;

/// What a tuned setup needs besides the library's [`Setup`].
trait Tuned: Setup + Serialize + DeserializeOwned + Clone + Sync {
    /// The score of candidate `x` on the games of `seed`.
    fn fitness(&self, x: &[f64], seed: u64) -> f64;
    /// The result file the CLI writes for `run`.
    fn result(run: &Run<Self>, name: &str) -> Result<String, String>;
}

impl Tuned for TuneSetup {
    fn fitness(&self, x: &[f64], seed: u64) -> f64 {
        TuneSetup::fitness(self, &Rules::classic(), x, seed)
    }
    fn result(run: &Run<Self>, name: &str) -> Result<String, String> {
        Ok(tetris_tune::weights_file(run, name))
    }
}

impl Tuned for GeekTuneSetup {
    fn fitness(&self, x: &[f64], _seed: u64) -> f64 {
        GeekTuneSetup::fitness(self, &Rules::geek(), x)
    }
    fn result(run: &Run<Self>, _name: &str) -> Result<String, String> {
        serde_json::to_string_pretty(&geek_tune::best(run).0)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    }
}

/// The optimizer options both tuners take, with the CLI's names.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum MethodName {
    Cem,
    De,
    Pso,
}

impl From<MethodName> for Method {
    fn from(m: MethodName) -> Method {
        match m {
            MethodName::Cem => Method::Cem,
            MethodName::De => Method::De,
            MethodName::Pso => Method::Pso,
        }
    }
}

fn cem() -> MethodName {
    MethodName::Cem
}
fn one() -> u64 {
    1
}
fn drop() -> MoveMode {
    MoveMode::Drop
}

/// `arcade tetris tune`'s options, with its defaults.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TetrisSpec {
    #[serde(default = "cem")]
    method: MethodName,
    #[serde(default = "fifty")]
    generations: usize,
    population: Option<usize>,
    #[serde(default = "ten")]
    spread: f64,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default = "ten_by_ten")]
    board: String,
    #[serde(default = "ten_games")]
    games_per_eval: usize,
    max_lines: Option<u64>,
    #[serde(default = "bcts")]
    features: String,
    /// Start from these weights (built-in name or file) instead of zero.
    init: Option<String>,
    #[serde(default = "drop")]
    moves: MoveMode,
}

fn fifty() -> usize {
    50
}
fn ten() -> f64 {
    10.0
}
fn ten_by_ten() -> String {
    "10x10".into()
}
fn ten_games() -> usize {
    10
}
fn bcts() -> String {
    "bcts".into()
}

/// `arcade geek tune`'s options, with its defaults.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GeekSpec {
    #[serde(default = "cem")]
    method: MethodName,
    #[serde(default = "thirty")]
    generations: usize,
    population: Option<usize>,
    #[serde(default = "point_three")]
    spread: f64,
    #[serde(default = "one")]
    seed: u64,
    /// One width or several (the fitness is then their mean).
    #[serde(default = "beam_twenty", deserialize_with = "geek_tune::one_or_many")]
    beam: Vec<usize>,
    #[serde(default = "three_thousand")]
    pieces: usize,
    #[serde(default = "drop")]
    moves: MoveMode,
    #[serde(default)]
    float: bool,
    reserve: Option<usize>,
    /// A weights file to scale instead of the built-in weights.
    init: Option<String>,
}

fn thirty() -> usize {
    30
}
fn point_three() -> f64 {
    0.3
}
fn beam_twenty() -> Vec<usize> {
    vec![20]
}
fn three_thousand() -> usize {
    3000
}

fn check_generations(g: usize) -> Result<usize, String> {
    match (1..=MAX_GENERATIONS).contains(&g) {
        true => Ok(g),
        false => Err(format!(
            "generations must be from 1 to {MAX_GENERATIONS}, found {g}"
        )),
    }
}

fn spread(s: f64) -> Result<f64, String> {
    check_spread(s).map_err(|e| format!("spread: {e}"))
}

/// A new tuning run as `arcade tetris tune` starts it.
fn tetris_new(spec: &str) -> Result<String, String> {
    let s: TetrisSpec = from_spec("tetris tune", spec)?;
    let (w, h) = s
        .board
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or_else(|| {
            format!(
                "board: expected WIDTHxHEIGHT such as 10x10, found {:?}",
                s.board
            )
        })?;
    let init = match &s.init {
        Some(spec) => Weights::resolve(spec).map_err(|e| format!("init: {e}"))?,
        None => Weights::from_pairs("zero", &[]),
    };
    let setup = TuneSetup {
        features: tetris_tune::parse_features(&s.features).map_err(|e| format!("features: {e}"))?,
        width: w,
        height: h,
        games_per_eval: s.games_per_eval,
        line_cap: s.max_lines,
        mode: s.moves,
        randomizer: Randomizer::Uniform,
    };
    setup.check()?;
    let start = Start {
        method: s.method.into(),
        init: setup.vector(&init),
        spread: spread(s.spread)?,
        population: s.population,
        noise: None,
        seed: s.seed,
    };
    let run = Run::new(setup, &start, check_generations(s.generations)?).map_err(|e| e.0)?;
    crate::shard::to_json(&run)
}

/// A new tuning run as `arcade geek tune` starts it.
fn geek_new(spec: &str) -> Result<String, String> {
    let s: GeekSpec = from_spec("geek tune", spec)?;
    let base = match &s.init {
        Some(path) => {
            GeekWeights::load(std::path::Path::new(path)).map_err(|e| format!("init: {e}"))?
        }
        None => GeekWeights::builtin(),
    };
    let first = s.beam.first().copied().unwrap_or(0);
    let setup = GeekTuneSetup {
        reserve: s.reserve.unwrap_or(SearchConfig::default_reserve(first)),
        beams: s.beam,
        pieces: s.pieces,
        mode: s.moves,
        float: s.float,
        base,
    };
    setup.check()?;
    let generations = check_generations(s.generations)?;
    let start = geek_tune::start(
        &setup,
        s.method.into(),
        spread(s.spread)?,
        s.population,
        s.seed,
        generations,
    );
    let run = Run::new(setup, &start, generations).map_err(|e| e.0)?;
    crate::shard::to_json(&run)
}

/// A run from JSON text, checked in full as a loaded checkpoint is.
fn parse_run<S: Tuned>(text: &str) -> Result<Run<S>, String> {
    let run: Run<S> = from_spec("run", text)?;
    arcade_core::checkpoint::Validate::validate(&run)?;
    Ok(run)
}

/// Bit patterns of a candidate, to find its score again.
fn key(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// The next generation's candidates and evaluation seed: the generation is
/// run on a copy of the optimizer with a recording fitness (candidates are
/// drawn before any is scored, so they are those the real step will draw).
fn ask<S: Tuned>(text: &str) -> Result<(Vec<Vec<f64>>, u64), String> {
    let mut run = parse_run::<S>(text)?;
    if run.is_done() {
        return Err(format!("the run is done ({} generations)", run.generations));
    }
    let seen = Mutex::new((Vec::new(), 0));
    arcade_core::runner::with_threads(Some(1), || {
        run.optimizer.step(
            &|x: &[f64], seed: u64| {
                let mut s = seen.lock().expect("no panics while held");
                s.0.push(x.to_vec());
                s.1 = seed;
                0.0
            },
            &Progress::hidden(),
        )
    });
    Ok(seen.into_inner().expect("no panics while held"))
}

/// Advances the run one generation with `scores[i]` the fitness of the
/// `i`th candidate [`ask`] gave; returns the run and the generation's report.
fn tell<S: Tuned>(text: &str, scores: &[f64]) -> Result<(String, String), String> {
    let (candidates, _) = ask::<S>(text)?;
    if candidates.len() != scores.len() {
        return Err(format!(
            "expected {} scores (one per candidate), found {}",
            candidates.len(),
            scores.len()
        ));
    }
    let table: HashMap<Vec<u64>, f64> = candidates
        .iter()
        .map(|x| key(x))
        .zip(scores.iter().copied())
        .collect();
    let mut run = parse_run::<S>(text)?;
    let missing = Mutex::new(false);
    let generation = run.step(
        |_, x, _| {
            table.get(&key(x)).copied().unwrap_or_else(|| {
                *missing.lock().expect("no panics while held") = true;
                f64::NAN
            })
        },
        &Progress::hidden(),
    );
    if missing.into_inner().expect("no panics while held") {
        return Err("the run drew candidates that ask did not give".into());
    }
    Ok((
        crate::shard::to_json(&run)?,
        crate::shard::to_json(&generation)?,
    ))
}

fn fitness<S: Tuned>(setup: &str, x: &[f64], seed: u64) -> Result<f64, String> {
    let setup: S = from_spec("setup", setup)?;
    setup.check()?;
    if x.len() != setup.dimension() {
        return Err(format!(
            "a candidate has {} numbers, not {}",
            x.len(),
            setup.dimension()
        ));
    }
    Ok(setup.fitness(x, seed))
}

fn save<S: Tuned>(text: &str, path: &str) -> Result<(), String> {
    parse_run::<S>(text)?
        .save(std::path::Path::new(path))
        .map_err(|e| e.to_string())
}

fn load<S: Tuned>(path: &str) -> Result<String, String> {
    let run = Run::<S>::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
    crate::shard::to_json(&run)
}

fn recommendation<S: Tuned>(text: &str) -> Result<Vec<f64>, String> {
    Ok(parse_run::<S>(text)?.optimizer.recommendation())
}

fn result<S: Tuned>(text: &str, name: &str) -> Result<String, String> {
    S::result(&parse_run::<S>(text)?, name)
}

/// Calls `$f::<Setup>` for the tuner named `$kind`.
macro_rules! by_tuner {
    ($kind:expr, $f:ident ( $($arg:expr),* )) => {
        match $kind {
            "tetris" => $f::<TuneSetup>($($arg),*),
            "geek" => $f::<GeekTuneSetup>($($arg),*),
            other => Err(format!("unknown tuner {other:?} (expected tetris or geek)")),
        }
    };
}

/// A new run (`kind` "tetris" or "geek") from a spec of the CLI's options.
#[pyfunction]
fn tune_new(kind: &str, spec: &str) -> PyResult<String> {
    match kind {
        "tetris" => tetris_new(spec),
        "geek" => geek_new(spec),
        other => Err(format!("unknown tuner {other:?} (expected tetris or geek)")),
    }
    .map_err(value_error)
}

/// The next generation's candidates and their evaluation seed.
#[pyfunction]
fn tune_ask(kind: &str, run: &str) -> PyResult<(Vec<Vec<f64>>, u64)> {
    by_tuner!(kind, ask(run)).map_err(value_error)
}

/// The fitness of candidate `x` on the games of `seed` (GIL released).
#[pyfunction]
#[pyo3(signature = (kind, setup, x, seed, threads=None))]
fn tune_fitness(
    py: Python<'_>,
    kind: &str,
    setup: &str,
    x: Vec<f64>,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<f64> {
    if threads == Some(0) {
        return Err(value_error("threads must be at least 1"));
    }
    crate::pool::detach(py, || {
        arcade_core::runner::with_threads(threads, || by_tuner!(kind, fitness(setup, &x, seed)))
    })
    .map_err(value_error)
}

/// The run after one generation scored by `scores` (in ask's order), and
/// that generation's report.
#[pyfunction]
fn tune_tell(
    py: Python<'_>,
    kind: &str,
    run: &str,
    scores: Vec<f64>,
) -> PyResult<(String, String)> {
    crate::pool::detach(py, || by_tuner!(kind, tell(run, &scores))).map_err(value_error)
}

/// Saves the run as the CLI's checkpoint (atomically).
#[pyfunction]
fn tune_save(kind: &str, run: &str, path: &str) -> PyResult<()> {
    by_tuner!(kind, save(run, path)).map_err(value_error)
}

/// Loads a checkpoint (the CLI's or [`tune_save`]'s), checked in full.
#[pyfunction]
fn tune_load(kind: &str, path: &str) -> PyResult<String> {
    by_tuner!(kind, load(path)).map_err(value_error)
}

/// The optimizer's recommendation: CEM's mean, DE's or PSO's best.
#[pyfunction]
fn tune_recommendation(kind: &str, run: &str) -> PyResult<Vec<f64>> {
    by_tuner!(kind, recommendation(run)).map_err(value_error)
}

/// The result file the CLI writes: weights named `name` (Tetris), or the
/// best board value (Geek).
#[pyfunction]
fn tune_result(kind: &str, run: &str, name: &str) -> PyResult<String> {
    by_tuner!(kind, result(run, name)).map_err(value_error)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tune_new, m)?)?;
    m.add_function(wrap_pyfunction!(tune_ask, m)?)?;
    m.add_function(wrap_pyfunction!(tune_fitness, m)?)?;
    m.add_function(wrap_pyfunction!(tune_tell, m)?)?;
    m.add_function(wrap_pyfunction!(tune_save, m)?)?;
    m.add_function(wrap_pyfunction!(tune_load, m)?)?;
    m.add_function(wrap_pyfunction!(tune_result, m)?)?;
    m.add_function(wrap_pyfunction!(tune_recommendation, m)?)?;
    Ok(())
}
