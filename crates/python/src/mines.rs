//! Minesweeper: the single-game core, the vector core and the analyser.

use crate::replay::{self, Reduced, Replay, Saved};
use crate::vector::{Game, Slots, StepArrays, check_num_envs};
use crate::{to_json, value_error};
use arcade_mines::game::{Status, release_if_large};
use arcade_mines::play::next_move;
use arcade_mines::solver::Strength;
use arcade_mines::{Board, Cell, Level, Position, Rule, Solver, analyze, analyze_report};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;

/// A hidden cell in the observation.
const HIDDEN: i8 = -1;
/// A known (flagged) mine in an analysed grid.
const FLAGGED: i8 = -2;

#[derive(Clone, Copy)]
struct Config {
    level: Level,
    rule: Rule,
}

fn config(level: &str, rule: &str) -> PyResult<Config> {
    let level: Level = level.parse().map_err(value_error)?;
    let rule: Rule = rule.parse().map_err(value_error)?;
    // The agent's first click is not known yet: the mines must fit at any.
    rule.check_every_first(level).map_err(value_error)?;
    Ok(Config { level, rule })
}

/// A game whose layout is drawn at the first reveal, protecting that cell
/// as the rule says: seed `s` and first cell `(x, y)` give the layout of
/// `arcade mines play --seed s --first x,y`.
#[derive(Clone)]
struct MinesGame {
    config: Config,
    seed: u64,
    game: Option<arcade_mines::Game>,
    opened: Vec<usize>,
    /// Reveals so far, wasted ones included: see [`MinesGame::over`].
    steps: usize,
}

impl MinesGame {
    fn new(config: Config, seed: u64) -> MinesGame {
        MinesGame {
            config,
            seed,
            game: None,
            opened: Vec::new(),
            steps: 0,
        }
    }

    fn cells(&self) -> usize {
        self.config.level.grid().len()
    }

    fn status(&self) -> Status {
        self.game.as_ref().map_or(Status::Playing, |g| g.status())
    }

    /// Won, lost, or truncated: a game may take as many steps as the board
    /// has cells. One that never reveals a revealed cell ends before that
    /// (a board has at most cells − 1 safe cells), so only an agent stuck
    /// on revealed cells is cut off, rather than playing forever.
    fn over(&self) -> bool {
        self.status() != Status::Playing || self.steps >= self.cells()
    }

    /// Reveals `cell`: +1 for the win, −1 for a mine, 0 otherwise; revealing
    /// a revealed cell does nothing but count as a step. Returns (reward,
    /// terminated, truncated).
    fn reveal(&mut self, cell: usize) -> Result<(f64, bool, bool), String> {
        if self.over() {
            return Err("the game is over: reset it first".into());
        }
        self.steps += 1;
        let grid = self.config.level.grid();
        if self.game.is_none() {
            let board = Board::generate(
                self.config.level,
                self.config.rule,
                grid.coords(cell),
                self.seed,
            )
            .map_err(|e| e.to_string())?;
            self.game = Some(arcade_mines::Game::new(board));
        }
        let game = self.game.as_mut().expect("just made");
        self.opened.clear();
        let status = game.reveal(cell, &mut self.opened);
        release_if_large(&mut self.opened);
        Ok(match status {
            Status::Won => (1.0, true, false),
            Status::Lost => (-1.0, true, false),
            Status::Playing => (0.0, false, self.over()),
        })
    }

    /// The solver's move as an action: a safe cell if one is known, else its
    /// guess; before the first reveal, the rule's usual first click; `None`
    /// once the game is over.
    fn solver_move(&self, solver: &Solver) -> Result<Option<usize>, String> {
        let grid = self.config.level.grid();
        if self.game.is_none() {
            let (x, y) = self.config.rule.default_first(grid);
            return Ok(Some(grid.index(x, y)));
        }
        if self.over() {
            return Ok(None);
        }
        let view = self.view();
        let a = analyze(&view).map_err(|e| e.to_string())?;
        next_move(&view, &a, solver).map_err(|e| e.to_string())
    }

    /// What the player sees (all hidden before the first reveal).
    fn view(&self) -> Position {
        match &self.game {
            Some(g) => g.view().clone(),
            None => Position::new(self.config.level.grid(), self.config.level.mines),
        }
    }

    /// The exact mine probability of every cell into `out`: revealed cells
    /// hold no mine (0).
    fn write_probabilities(&self, out: &mut [f64]) -> Result<(), String> {
        let view = self.view();
        let a = analyze(&view).map_err(|e| e.to_string())?;
        for (i, p) in out.iter_mut().enumerate() {
            *p = a.probability(i).unwrap_or(0.0);
        }
        Ok(())
    }

    /// The grid and the mask of hidden cells. A truncated game could go on,
    /// so its mask still shows them (a learner bootstraps from it); a won
    /// or lost one has none.
    fn write_obs(&self, grid: &mut [i8], mask: &mut [i8]) {
        let view = self.game.as_ref().map(|g| g.view());
        let playing = self.status() == Status::Playing;
        for i in 0..grid.len() {
            let cell = view.map_or(Cell::Hidden, |v| v.cell(i));
            grid[i] = match cell {
                Cell::Hidden => HIDDEN,
                Cell::Number(n) => n as i8,
                Cell::Mine => FLAGGED,
            };
            mask[i] = i8::from(cell == Cell::Hidden && playing);
        }
    }
}

pub(crate) fn check_cell(cells: usize, action: i64) -> Result<usize, String> {
    usize::try_from(action)
        .ok()
        .filter(|&a| a < cells)
        .ok_or_else(|| format!("action {action} is out of range (0 to {})", cells - 1))
}

/// One Minesweeper game (the `Minesweeper-v0` environment's engine).
#[pyclass(module = "arcadekit._arcadekit")]
#[derive(Clone)]
pub struct MinesCore {
    game: MinesGame,
    /// The constructor's arguments `(level, rule)`, for pickling.
    args: (String, String),
    replay: Replay<u64>,
}

#[pymethods]
impl MinesCore {
    /// A copy of the game as it stands (`copy.deepcopy(env)`), which a search
    /// can play on without touching the original.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    #[new]
    #[pyo3(signature = (level="beginner", rule="sfar"))]
    fn new(level: &str, rule: &str) -> PyResult<MinesCore> {
        Ok(MinesCore {
            game: MinesGame::new(config(level, rule)?, 0),
            args: (level.into(), rule.into()),
            replay: Replay::new(0),
        })
    }

    /// Pickles the game as its arguments, start and moves (`replay`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (String, String), u64>> {
        let this = slf.borrow();
        this.replay.reduce(slf, this.args.clone())
    }

    /// Unpickles: the same game, replayed.
    fn __setstate__(&mut self, state: Saved<'_, u64>) -> PyResult<()> {
        let (start, moves) = state;
        self.reset(start);
        replay::play_back(&moves, |mv| self.step(mv.into()).map(drop))
    }

    fn reset(&mut self, seed: u64) {
        self.game = MinesGame::new(self.game.config, seed);
        self.replay.restart(seed);
    }

    /// Reveals cell `y · width + x`: (reward, terminated, truncated).
    fn step(&mut self, action: i64) -> PyResult<(f64, bool, bool)> {
        let cell = check_cell(self.game.cells(), action).map_err(value_error)?;
        let out = self.game.reveal(cell).map_err(value_error)?;
        self.replay.record(cell as u32); // boards are at most MAX_SIDE² cells
        Ok(out)
    }

    #[getter]
    fn width(&self) -> usize {
        self.game.config.level.width
    }

    #[getter]
    fn height(&self) -> usize {
        self.game.config.level.height
    }

    #[getter]
    fn mines(&self) -> usize {
        self.game.config.level.mines
    }

    /// (grid (H, W) with −1 hidden and 0–8 numbers, mask (H·W,) of hidden cells).
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray2<i8>>, Bound<'py, PyArray1<i8>>)> {
        let n = self.game.cells();
        let (mut grid, mut mask) = (vec![0i8; n], vec![0i8; n]);
        self.game.write_obs(&mut grid, &mut mask);
        let level = self.game.config.level;
        Ok((
            PyArray1::from_vec(py, grid).reshape([level.height, level.width])?,
            PyArray1::from_vec(py, mask),
        ))
    }

    /// "playing", "won" or "lost".
    #[getter]
    fn status(&self) -> &'static str {
        match self.game.status() {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Lost => "lost",
        }
    }

    /// Exact mine probabilities, (H, W): revealed cells hold no mine (0).
    fn probabilities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let mut p = vec![0.0; self.game.cells()];
        crate::pool::detach_serial(py, || self.game.write_probabilities(&mut p))
            .map_err(value_error)?;
        let level = self.game.config.level;
        PyArray1::from_vec(py, p).reshape([level.height, level.width])
    }

    /// The solver's move (a safe cell if one is known, else its guess), as
    /// an action; before the first reveal, the rule's usual first click.
    #[pyo3(signature = (strength="standard"))]
    fn solver_action(&self, py: Python<'_>, strength: &str) -> PyResult<Option<usize>> {
        let solver = Solver::new(parse_strength(strength)?.config());
        crate::pool::detach_serial(py, || self.game.solver_move(&solver)).map_err(value_error)
    }

    /// The position in arcade's text format (`.` hidden).
    fn text(&self) -> String {
        self.game.view().to_text()
    }
}

fn parse_strength(s: &str) -> PyResult<Strength> {
    match s {
        "fast" => Ok(Strength::Fast),
        "standard" => Ok(Strength::Standard),
        "strong" => Ok(Strength::Strong),
        _ => Err(value_error(format!(
            "unknown solver strength {s:?} (expected fast, standard or strong)"
        ))),
    }
}

impl Game for MinesGame {
    type Config = Config;
    /// Most reveals open a few cells.
    const PARALLEL_MIN: usize = 256;

    fn start(config: &Config, seed: u64) -> MinesGame {
        MinesGame::new(*config, seed)
    }

    fn check(config: &Config, action: i64) -> Result<(), String> {
        check_cell(config.level.grid().len(), action).map(|_| ())
    }

    fn play(&mut self, action: i64) -> Result<(f64, bool, bool), String> {
        self.reveal(action as usize)
    }
}

/// N Minesweeper games stepped together.
#[pyclass(module = "arcadekit._arcadekit")]
pub struct MinesVectorCore {
    config: Config,
    slots: Slots<MinesGame>,
}

#[pymethods]
impl MinesVectorCore {
    #[new]
    #[pyo3(signature = (num_envs, seed, level="beginner", rule="sfar"))]
    fn new(num_envs: usize, seed: u64, level: &str, rule: &str) -> PyResult<MinesVectorCore> {
        let config = config(level, rule)?;
        check_num_envs(num_envs, config.level.width * config.level.height).map_err(value_error)?;
        Ok(MinesVectorCore {
            slots: Slots::new(&config, num_envs, seed),
            config,
        })
    }

    fn reset(&mut self, py: Python<'_>, seed: u64) {
        self.slots.reset_py(py, &self.config, seed);
    }

    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        self.slots.step_arrays(py, &self.config, actions)
    }

    /// Exact mine probabilities of every game, (N, H, W), computed on Rust
    /// threads: revealed cells hold no mine (0).
    fn probabilities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f64>>> {
        let level = self.config.level;
        let (c, n) = (level.grid().len(), self.slots.slots.len());
        let mut p = vec![0.0; n * c];
        let games = &self.slots.slots;
        crate::pool::detach(py, || {
            p.par_chunks_mut(c)
                .zip(games.par_iter())
                .try_for_each(|(out, s)| s.game.write_probabilities(out))
        })
        .map_err(value_error)?;
        PyArray1::from_vec(py, p).reshape([n, level.height, level.width])
    }

    /// Every game's solver move ([`MinesGame::solver_move`]), 0 for a game
    /// that is over (the next step resets it and ignores its action),
    /// chosen on Rust threads with the GIL released.
    #[pyo3(signature = (strength="standard"))]
    fn solver_actions<'py>(
        &self,
        py: Python<'py>,
        strength: &str,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let solver = Solver::new(parse_strength(strength)?.config());
        let games = &self.slots.slots;
        let actions: Result<Vec<i64>, String> = crate::pool::detach(py, || {
            games
                .par_iter()
                .map(|s| Ok(s.game.solver_move(&solver)?.map_or(0, |a| a as i64)))
                .collect()
        });
        Ok(PyArray1::from_vec(py, actions.map_err(value_error)?))
    }

    /// (grids (N, H, W), masks (N, H·W)).
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray3<i8>>, Bound<'py, PyArray2<i8>>)> {
        let level = self.config.level;
        let c = level.grid().len();
        let n = self.slots.slots.len();
        let (mut grid, mut mask) = (vec![0i8; n * c], vec![0i8; n * c]);
        for (i, s) in self.slots.slots.iter().enumerate() {
            s.game
                .write_obs(&mut grid[i * c..(i + 1) * c], &mut mask[i * c..(i + 1) * c]);
        }
        Ok((
            PyArray1::from_vec(py, grid).reshape([n, level.height, level.width])?,
            PyArray1::from_vec(py, mask).reshape([n, c])?,
        ))
    }
}

/// A position from a grid (−1 hidden, −2 known mine, 0–8 numbers) and the
/// board's mine count.
fn position(grid: &PyReadonlyArray2<'_, i64>, mines: usize) -> PyResult<Position> {
    let cells = grid.as_array();
    let (h, w) = cells.dim();
    let g = arcade_mines::Grid::new(w, h).map_err(value_error)?;
    let mut pos = Position::new(g, mines);
    for y in 0..h {
        for x in 0..w {
            let cell = match cells[[y, x]] {
                -1 => Cell::Hidden,
                -2 => Cell::Mine,
                n @ 0..=8 => Cell::Number(n as u8),
                v => {
                    return Err(value_error(format!(
                        "cell ({x},{y}) is {v}: expected -1 (hidden), -2 (mine) or 0-8"
                    )));
                }
            };
            pos.set(g.index(x, y), cell);
        }
    }
    if mines > g.len() {
        return Err(value_error(format!(
            "{mines} mines do not fit on a {w}x{h} board"
        )));
    }
    Ok(pos)
}

/// `arcade mines analyze` on a grid: the report as JSON.
#[pyfunction]
#[pyo3(signature = (grid, mines, strength="standard"))]
fn mines_analyze(
    py: Python<'_>,
    grid: PyReadonlyArray2<'_, i64>,
    mines: usize,
    strength: &str,
) -> PyResult<String> {
    let pos = position(&grid, mines)?;
    let config = parse_strength(strength)?.config();
    let report =
        crate::pool::detach_serial(py, || analyze_report(&pos, &config)).map_err(value_error)?;
    to_json(&report)
}

/// `arcade mines analyze` on a position in arcade's text format.
#[pyfunction]
#[pyo3(signature = (text, strength="standard"))]
fn mines_analyze_text(py: Python<'_>, text: &str, strength: &str) -> PyResult<String> {
    if text.len() as u64 > arcade_mines::position::MAX_POSITION_BYTES {
        return Err(value_error("the position is larger than 16 MiB"));
    }
    let pos = Position::parse(text).map_err(value_error)?;
    let config = parse_strength(strength)?.config();
    let report =
        crate::pool::detach_serial(py, || analyze_report(&pos, &config)).map_err(value_error)?;
    to_json(&report)
}

/// One seeded game played by the solver, as `arcade mines play --json`.
#[pyfunction]
#[pyo3(signature = (level="expert", rule="sfar", seed=1, first=None, strength="standard"))]
fn mines_play(
    py: Python<'_>,
    level: &str,
    rule: &str,
    seed: u64,
    first: Option<(usize, usize)>,
    strength: &str,
) -> PyResult<String> {
    let c = config(level, rule)?;
    let first = first.unwrap_or_else(|| c.rule.default_first(c.level.grid()));
    let strength = parse_strength(strength)?;
    let report = crate::pool::detach_serial(py, || {
        arcade_mines::play::play_seeded(c.level, c.rule, first, seed, strength, |_| {})
    })
    .map_err(value_error)?;
    to_json(&report)
}

/// Refuses a grid of `height` × `width` the analyser cannot take, before
/// Python converts a huge array to int64 only to have it refused.
#[pyfunction]
fn mines_check_size(height: usize, width: usize) -> PyResult<()> {
    arcade_mines::Grid::new(width, height)
        .map(|_| ())
        .map_err(value_error)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mines_check_size, m)?)?;
    m.add_class::<MinesCore>()?;
    m.add_class::<MinesVectorCore>()?;
    m.add_function(wrap_pyfunction!(mines_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(mines_analyze_text, m)?)?;
    m.add_function(wrap_pyfunction!(mines_play, m)?)?;
    Ok(())
}
