//! The solvers as functions: rolling median, pencil sketch, the Geek
//! Challenge's replay and search, Jump In' and Sheep a Sheep. Long runs
//! release the GIL; reports come back as JSON of the library's types.

use crate::{to_json, value_error};
use arcade_core::input::MAX_INPUT_BYTES;
use arcade_core::progress::Progress;
use arcade_signal::{Algorithm, prefix_medians_append, rolling_median_append};
use arcade_sketch::Light;
use arcade_tiles::evolve::EvolveConfig;
use arcade_tiles::generated::{Method, Unproven, VerifyError};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::time::Duration;

/// Rejects text inputs larger than the CLI accepts from a file.
pub(crate) fn bounded<'a>(what: &str, text: &'a str) -> PyResult<&'a str> {
    if text.len() as u64 > MAX_INPUT_BYTES {
        return Err(value_error(format!(
            "{what} is {} bytes, more than the {MAX_INPUT_BYTES} accepted",
            text.len()
        )));
    }
    Ok(text)
}

/// `bottleneck.move_median` of one row. The full windows come from the
/// batch median (sorted window, heap or Suomela's blocks, each faster than
/// bottleneck's heap where it is picked), which leaves NaNs out as
/// bottleneck does; the shorter windows at the start are the prefixes'
/// medians; then windows with fewer than `min_count` numbers become NaN.
/// Appends the row's `data.len()` values to `out`.
fn move_median_row(
    data: &[f64],
    window: usize,
    min_count: usize,
    algorithm: Algorithm,
    out: &mut Vec<f64>,
) {
    let start = out.len();
    out.reserve(data.len());
    let head = (window - 1).min(data.len());
    prefix_medians_append(&data[..head], out);
    if data.len() >= window {
        rolling_median_append(data, window, algorithm, out);
    }
    // With `min_count` 1 only windows without a number fall short, and
    // both medians already give NaN for those.
    let out = &mut out[start..];
    if min_count > 1 {
        let mut numbers = 0usize;
        for i in 0..data.len() {
            numbers += usize::from(!data[i].is_nan());
            if i >= window && !data[i - window].is_nan() {
                numbers -= 1;
            }
            if numbers < min_count {
                out[i] = f64::NAN;
            }
        }
    }
}

/// `move_median` over the rows of a C-contiguous `(rows, n)` array.
/// `algorithm` ("auto", "sorted", "lanes", "heap", "blocks", "ranks") is for benchmarks.
#[pyfunction]
#[pyo3(signature = (a, window, min_count, algorithm="auto"))]
fn move_median_rows<'py>(
    py: Python<'py>,
    a: PyReadonlyArray2<'py, f64>,
    window: i64,
    min_count: Option<i64>,
    algorithm: &str,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (rows, n) = a.as_array().dim();
    let min_count = min_count.unwrap_or(window);
    // Signed, so that a negative window gets the message below too.
    if window < 1 || window as u64 > n as u64 {
        // bottleneck.move_median's message word for word (its grammar too),
        // so code that matches on it keeps working with the drop-in; as
        // there, an empty axis takes no window.
        return Err(value_error(format!(
            "Moving window (={window}) must between 1 and {n}, inclusive"
        )));
    }
    if min_count < 1 || min_count > window {
        return Err(value_error(format!(
            "min_count (={min_count}) must be between 1 and window (={window})"
        )));
    }
    let (window, min_count) = (window as usize, min_count as usize);
    let algorithm = match algorithm {
        "auto" => Algorithm::Auto,
        "sorted" => Algorithm::Sorted,
        "heap" => Algorithm::Heap,
        "blocks" => Algorithm::Blocks,
        "lanes" => Algorithm::Lanes,
        "ranks" => Algorithm::Ranks,
        other => {
            return Err(value_error(format!(
                "unknown algorithm {other:?} (expected auto, sorted, lanes, heap, blocks or ranks)"
            )));
        }
    };
    let data = a.as_slice().map_err(value_error)?;
    let out = crate::pool::detach(py, || {
        if rows <= 1 || n == 0 {
            // One row on this thread, the medians written once, in place.
            let mut out = Vec::with_capacity(rows * n);
            if rows == 1 {
                move_median_row(data, window, min_count, algorithm, &mut out);
            } else {
                out.resize(rows * n, 0.0);
            }
            out
        } else {
            let mut out = vec![0.0; rows * n];
            data.par_chunks(n).zip(out.par_chunks_mut(n)).for_each_init(
                Vec::new,
                |buf, (row, o)| {
                    buf.clear();
                    move_median_row(row, window, min_count, algorithm, buf);
                    o.copy_from_slice(buf);
                },
            );
            out
        }
    });
    PyArray1::from_vec(py, out).reshape([rows, n])
}

/// The pencil sketch of a grey `(H, W)`, RGB `(H, W, 3)` or RGBA
/// `(H, W, 4)` `uint8` image (alpha is dropped, as `arcade sketch` does).
#[pyfunction]
#[pyo3(signature = (image, depth=10.0, elevation=std::f64::consts::PI / 2.2, azimuth=std::f64::consts::PI / 4.0))]
fn sketch<'py>(
    py: Python<'py>,
    image: PyReadonlyArrayDyn<'py, u8>,
    depth: f64,
    elevation: f64,
    azimuth: f64,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let light = Light {
        depth,
        elevation,
        azimuth,
    };
    light.check().map_err(value_error)?;
    let shape = image.as_array().shape().to_vec();
    let (h, w) = match shape[..] {
        [h, w] | [h, w, 3 | 4] => (h, w),
        _ => {
            return Err(value_error(format!(
                "image shape {shape:?}: expected (height, width) grey, (height, width, 3) RGB \
                 or (height, width, 4) RGBA"
            )));
        }
    };
    let max = arcade_sketch::MAX_SIDE as usize;
    if h == 0 || w == 0 || h > max || w > max {
        return Err(value_error(format!(
            "image is {w}x{h}: each side must be 1 to {max} pixels"
        )));
    }
    let pixels = image.as_array().iter().copied().collect::<Vec<u8>>();
    let out = crate::pool::detach(py, || {
        let (w, h) = (w as u32, h as u32);
        let decoded = match shape.len() {
            2 => image::GrayImage::from_raw(w, h, pixels).map(image::DynamicImage::ImageLuma8),
            _ if shape[2] == 3 => {
                image::RgbImage::from_raw(w, h, pixels).map(image::DynamicImage::ImageRgb8)
            }
            _ => image::RgbaImage::from_raw(w, h, pixels).map(image::DynamicImage::ImageRgba8),
        }
        .expect("buffer size matches the shape");
        let grey = arcade_sketch::into_grey(decoded);
        arcade_sketch::pencil_sketch(&grey, &light).into_raw()
    });
    PyArray1::from_vec(py, out).reshape([h, w])
}

/// Replays a Geek Challenge record (its text): `arcade geek replay`.
#[pyfunction]
fn geek_replay(py: Python<'_>, record: &str) -> PyResult<String> {
    let record = arcade_tetris::geek::record::Record::parse(bounded("the record", record)?)
        .map_err(value_error)?;
    to_json(&crate::pool::detach_serial(py, || {
        arcade_tetris::geek::replay::replay(&record, |_| {})
    }))
}

/// Runs `job` on a thread of its own while this one calls `progress(done,
/// total)` every 0.2 s (with the GIL), and once more when the job has
/// ended so that a bar ends where the job did, and runs Python's signal
/// handlers between calls. A KeyboardInterrupt (or an exception from the
/// callback) cancels `bar`, so a job that polls it stops early, and is
/// raised when the job has ended.
pub(crate) fn with_progress<T: Send>(
    py: Python<'_>,
    bar: &Progress,
    callback: Option<Py<PyAny>>,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    const POLL: Duration = Duration::from_millis(10);
    const CALLS_EVERY: u32 = 20;
    let mut failure = None;
    // The polling thread is not one of the pool's: the job gets all of them.
    let result = py.detach(|| {
        std::thread::scope(|s| {
            let handle = s.spawn(|| crate::pool::install(job));
            let mut polls = 0u32;
            while !handle.is_finished() {
                std::thread::sleep(POLL);
                polls += 1;
                if failure.is_some() {
                    continue;
                }
                Python::attach(|py| {
                    let call = match &callback {
                        Some(f) if polls.is_multiple_of(CALLS_EVERY) => {
                            f.call1(py, (bar.position(), bar.length())).map(drop)
                        }
                        _ => Ok(()),
                    };
                    if let Err(e) = call.and_then(|()| py.check_signals()) {
                        bar.cancel();
                        failure = Some(e);
                    }
                });
            }
            handle.join().expect("the solver does not panic")
        })
    });
    if let (None, Some(f)) = (&failure, &callback) {
        f.call1(py, (bar.position(), bar.length()))?;
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(result),
    }
}

/// The Geek Challenge beam search (`arcade geek solve`): writes the
/// record to `out` and returns the report. `moves`, `floating` and
/// `reserve` are the CLI's `--moves`, `--float` and `--reserve`.
#[pyfunction]
#[pyo3(signature = (out, beam=1000, pieces=10_000, seconds=None, progress=None, moves="reach", floating=true, reserve=None))]
#[allow(clippy::too_many_arguments)] // the CLI's options, one by one
fn geek_solve(
    py: Python<'_>,
    out: std::path::PathBuf,
    beam: usize,
    pieces: usize,
    seconds: Option<f64>,
    progress: Option<Py<PyAny>>,
    moves: &str,
    floating: bool,
    reserve: Option<usize>,
) -> PyResult<String> {
    use arcade_tetris::geek::search::{MAX_BEAM, Search, SearchConfig};
    use arcade_tetris::geek::solve::{SolveOptions, solve};
    if beam == 0 || beam > MAX_BEAM {
        return Err(value_error(format!(
            "beam {beam} is out of range (1 to {MAX_BEAM})"
        )));
    }
    if pieces == 0 || pieces > arcade_tetris::geek::PIECES {
        return Err(value_error(format!(
            "pieces {pieces} is out of range (1 to {})",
            arcade_tetris::geek::PIECES
        )));
    }
    if let Some(s) = seconds {
        crate::check_seconds("seconds", s)?;
    }
    let mode = match moves {
        "drop" => arcade_tetris::MoveMode::Drop,
        "reach" => arcade_tetris::MoveMode::Reach,
        other => {
            return Err(value_error(format!(
                "unknown moves {other:?} (expected drop or reach)"
            )));
        }
    };
    if let Some(r) = reserve.filter(|&r| r > MAX_BEAM) {
        return Err(value_error(format!(
            "reserve {r} is out of range (0 to {MAX_BEAM})"
        )));
    }
    arcade_core::checkpoint::check_writable(&out).map_err(value_error)?;
    let search = Search::new(SearchConfig {
        beam,
        mode,
        float: floating,
        pieces,
        weights: arcade_tetris::geek::value::GeekWeights::builtin(),
        reserve: reserve.unwrap_or(SearchConfig::default_reserve(beam)),
    });
    let max_beam = arcade_tetris::geek::solve::memory_limit(beam, search.config.reserve)
        .map_err(value_error)?;
    let options = SolveOptions {
        seconds,
        // As the CLI: a reserve asked for is kept in every wider round.
        fixed_reserve: reserve.is_some(),
        out,
        max_beam,
        ..SolveOptions::default()
    };
    let bar = Progress::hidden();
    let report = with_progress(py, &bar, progress, || solve(search, &options, &bar))?
        .map_err(value_error)?;
    to_json(&report)
}

/// Jump In': the shortest solution of a challenge code or board text.
#[pyfunction]
fn jumpin_solve(py: Python<'_>, puzzle: &str) -> PyResult<String> {
    let puzzle = bounded("the puzzle", puzzle)?;
    let position = if puzzle.contains('\n') {
        arcade_jumpin::parse_board(puzzle)
    } else {
        arcade_jumpin::parse_code(puzzle)
    }
    .map_err(value_error)?;
    let report = crate::pool::detach_serial(py, || arcade_jumpin::solve_report(&position))
        .map_err(value_error)?;
    to_json(&report)
}

/// Jump In': a puzzle whose shortest solution takes `moves` moves.
#[pyfunction]
#[pyo3(signature = (moves, rabbits=3, foxes=2, mushrooms=3, seed=1))]
fn jumpin_generate(
    py: Python<'_>,
    moves: u32,
    rabbits: usize,
    foxes: usize,
    mushrooms: usize,
    seed: u64,
) -> PyResult<String> {
    let pieces = jumpin_generator(moves, rabbits, foxes, mushrooms)?;
    let report = crate::pool::detach(py, || {
        arcade_jumpin::generate_report(pieces, moves, seed, &Progress::hidden())
    })
    .map_err(value_error)?;
    to_json(&report)
}

/// Refuses generator options (`moves` and the piece set) at construction,
/// before a reset with `moves` would need them.
#[pyfunction]
fn jumpin_check_generator(
    moves: u32,
    rabbits: usize,
    foxes: usize,
    mushrooms: usize,
) -> PyResult<()> {
    jumpin_generator(moves, rabbits, foxes, mushrooms).map(|_| ())
}

/// Checks the settings of a Jump In' generation (shared with `JumpIn-v0`):
/// the move count, and the piece set as the library validates it.
pub(crate) fn jumpin_generator(
    moves: u32,
    rabbits: usize,
    foxes: usize,
    mushrooms: usize,
) -> PyResult<arcade_jumpin::hardest::PieceSet> {
    let most = arcade_jumpin::generate::MAX_MOVES;
    if !(1..=most).contains(&moves) {
        return Err(value_error(format!(
            "moves {moves} is out of range (1 to {most})"
        )));
    }
    arcade_jumpin::hardest::PieceSet {
        rabbits,
        foxes,
        mushrooms,
    }
    .validate()
    .map_err(value_error)
}

/// A level's JSON text, or `"capture"` for the captured real level 90031.
pub(crate) fn tiles_level_text(level: &str) -> PyResult<&str> {
    if level == "capture" {
        Ok(arcade_tiles::capture::LEVEL_90031)
    } else {
        bounded("the level", level)
    }
}

/// A level from its JSON text (or `"capture"`). A file's path given
/// instead (the CLI takes paths) is named as such.
pub(crate) fn tiles_level(level: &str, capacity: Option<usize>) -> PyResult<arcade_tiles::Level> {
    arcade_tiles::load_level(tiles_level_text(level)?, capacity).map_err(|e| {
        let a_path = !level.trim_start().starts_with('{') && std::path::Path::new(level).is_file();
        match a_path {
            true => value_error(format!(
                "{e} ({level:?} is a file's path: pass the level's JSON text, open(path).read())"
            )),
            false => value_error(e),
        }
    })
}

/// Sheep a Sheep: solve a level (JSON text or `"capture"`) with the exact or
/// greedy solver.
#[pyfunction]
#[pyo3(signature = (level, solver="exact", seconds=10.0, nodes=None, capacity=None))]
fn tiles_solve(
    py: Python<'_>,
    level: &str,
    solver: &str,
    seconds: f64,
    nodes: Option<u64>,
    capacity: Option<usize>,
) -> PyResult<String> {
    let level = tiles_level(level, capacity)?;
    let solver = match solver {
        "exact" => arcade_tiles::Solver::Exact,
        "greedy" => arcade_tiles::Solver::Greedy,
        s => {
            return Err(value_error(format!(
                "unknown solver {s:?} (expected exact or greedy)"
            )));
        }
    };
    crate::check_seconds("seconds", seconds)?;
    let nodes = nodes.map(crate::check_nodes).transpose()?;
    let limits = arcade_tiles::Limits {
        nodes,
        ..arcade_tiles::Limits::seconds(seconds)
    };
    let report =
        crate::pool::detach_serial(py, || arcade_tiles::solve_level(&level, solver, &limits))
            .map_err(value_error)?;
    to_json(&report)
}

/// Sheep a Sheep: replays clicks (tile ids) on a level.
#[pyfunction]
#[pyo3(signature = (level, clicks, capacity=None))]
fn tiles_check(level: &str, clicks: Vec<usize>, capacity: Option<usize>) -> PyResult<String> {
    let level = tiles_level(level, capacity)?;
    to_json(&arcade_tiles::check_clicks(&level, &clicks))
}

/// Sheep a Sheep: a level made by `method` ("construct", solvable by
/// construction, or "de-swap", the published approach) and verified by the
/// exact solver: (level JSON, report JSON).
#[pyfunction]
#[pyo3(signature = (layers=26, types=12, groups=10, capacity=7, difficulty=None, seed=1, verify_seconds=10.0, method="construct", de_generations=None, de_population=None, de_swaps=None))]
#[allow(clippy::too_many_arguments)]
fn tiles_generate(
    py: Python<'_>,
    layers: usize,
    types: usize,
    groups: usize,
    capacity: usize,
    difficulty: Option<f64>,
    seed: u64,
    verify_seconds: f64,
    method: &str,
    de_generations: Option<usize>,
    de_population: Option<usize>,
    de_swaps: Option<usize>,
) -> PyResult<(String, String)> {
    let shape = arcade_tiles::layout::Classic {
        layers,
        types,
        groups,
    };
    shape.validate().map_err(value_error)?;
    arcade_tiles::generated::check_capacity(capacity).map_err(value_error)?;
    crate::check_seconds("verify_seconds", verify_seconds)?;
    let method = tiles_method(method, difficulty, de_generations, de_population, de_swaps)?;
    let config = arcade_tiles::GenerateConfig {
        shape,
        capacity,
        method,
        seed,
    };
    let limits = arcade_tiles::Limits::seconds(verify_seconds);
    let (level, report) =
        crate::pool::detach(py, || arcade_tiles::generate_verified(&config, &limits)).map_err(
            |e| match e {
                VerifyError::DeSwapUnproven(why) => {
                    value_error(format!("{e}; nothing was made ({})", unproven_advice(why)))
                }
                _ => value_error(e),
            },
        )?;
    Ok((level.to_json(), to_json(&report)?))
}

/// The generator `method` names, refusing the other method's settings as
/// the CLI refuses them.
fn tiles_method(
    method: &str,
    difficulty: Option<f64>,
    de_generations: Option<usize>,
    de_population: Option<usize>,
    de_swaps: Option<usize>,
) -> PyResult<Method> {
    let de_given = de_generations.is_some() || de_population.is_some() || de_swaps.is_some();
    match method {
        "construct" if de_given => Err(value_error(
            "de_generations, de_population and de_swaps only apply to method=\"de-swap\"",
        )),
        "construct" => Ok(Method::Construct {
            difficulty: difficulty.unwrap_or(0.5),
        }),
        "de-swap" if difficulty.is_some() => Err(value_error(
            "difficulty only applies to method=\"construct\"",
        )),
        "de-swap" => {
            let de = de_settings(de_generations, de_population, de_swaps);
            de.validate().map_err(value_error)?;
            Ok(Method::DeSwap(de))
        }
        other => Err(value_error(format!(
            "unknown method {other:?} (expected \"construct\" or \"de-swap\")"
        ))),
    }
}

/// De-swap's settings: those given, the CLI's defaults for the rest, and no
/// time limit (the generations bound the run, as in the CLI).
fn de_settings(
    generations: Option<usize>,
    population: Option<usize>,
    swaps: Option<usize>,
) -> EvolveConfig {
    let default = EvolveConfig::default();
    EvolveConfig {
        generations: generations.unwrap_or(default.generations),
        population: population.unwrap_or(default.population),
        swaps: swaps.unwrap_or(default.swaps),
        time: None,
    }
}

/// Which arguments to raise when de-swap's level is not known solvable.
fn unproven_advice(why: Unproven) -> &'static str {
    match why {
        Unproven::Refuted => "raise de_generations, or try another seed or a larger capacity",
        Unproven::Undecided => "raise verify_seconds or de_generations",
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(move_median_rows, m)?)?;
    m.add_function(wrap_pyfunction!(sketch, m)?)?;
    m.add_function(wrap_pyfunction!(geek_replay, m)?)?;
    m.add_function(wrap_pyfunction!(geek_solve, m)?)?;
    m.add_function(wrap_pyfunction!(jumpin_solve, m)?)?;
    m.add_function(wrap_pyfunction!(jumpin_generate, m)?)?;
    m.add_function(wrap_pyfunction!(jumpin_check_generator, m)?)?;
    m.add_function(wrap_pyfunction!(tiles_solve, m)?)?;
    m.add_function(wrap_pyfunction!(tiles_check, m)?)?;
    m.add_function(wrap_pyfunction!(tiles_generate, m)?)?;
    Ok(())
}
