//! Sheep a Sheep: the single-game core of `Tiles-v0`, on the library's
//! [`TilesGame`]. Generated levels are `arcade tiles generate`'s for the same
//! shape, difficulty and seed (the same construction, without the
//! verification search, which only confirms what construction guarantees).

use crate::replay::{self, Reduced, Replay, Saved};
use crate::solvers::tiles_level_text;
use crate::value_error;
use arcade_tiles::Level;
use arcade_tiles::capture::BLOCK;
use arcade_tiles::exact::Limits;
use arcade_tiles::generate::construct;
use arcade_tiles::layout::Classic;
use arcade_tiles::play::{PlayError, TilesGame, TilesStatus};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use std::collections::HashMap;

/// Where each episode's level comes from.
#[derive(Clone)]
enum Source {
    /// `construct` with this shape, tray and difficulty; the seed varies.
    Generated {
        shape: Classic,
        capacity: usize,
        difficulty: f64,
    },
    /// The same level every episode (the captured one or a file's).
    Fixed(Level),
}

impl Source {
    fn level(&self, seed: u64) -> PyResult<(Level, Vec<usize>)> {
        match self {
            Source::Generated {
                shape,
                capacity,
                difficulty,
            } => {
                let g = construct(shape, *capacity, *difficulty, seed).map_err(value_error)?;
                Ok((g.level, g.intended))
            }
            Source::Fixed(level) => Ok((level.clone(), Vec::new())),
        }
    }
}

/// Observation arrays: kinds (N,), coverers (N,), tray (capacity,), mask (N,).
type TilesObs<'py> = (
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i8>>,
);

/// One Sheep a Sheep game (the `Tiles-v0` environment's engine).
#[pyclass(module = "arcadekit._arcadekit")]
#[derive(Clone)]
pub struct TilesCore {
    source: Source,
    game: TilesGame,
    /// Dense type (0-based) of each label of the current level.
    dense: HashMap<u32, usize>,
    intended: Vec<usize>,
    illegal: bool,
    /// Triples cleared so far.
    cleared: usize,
    /// The constructor's arguments, for pickling.
    args: TilesArgs,
    replay: Replay<u64>,
}

/// `TilesCore(level, layers, types, groups, capacity, difficulty)`.
type TilesArgs = (Option<String>, usize, usize, usize, Option<usize>, f64);

fn dense_kinds(level: &Level) -> HashMap<u32, usize> {
    (0..level.kinds()).map(|k| (level.label(k), k)).collect()
}

#[pymethods]
impl TilesCore {
    /// A copy of the game as it stands (`copy.deepcopy(env)`), which a search
    /// can play on without touching the original.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// `level`: `None` for generated levels of the classic layout, `"capture"`
    /// for the captured real level 90031, or a level's JSON text (a capture or
    /// arcade's format). `capacity` overrides a fixed level's tray size.
    #[new]
    #[pyo3(signature = (level=None, layers=26, types=12, groups=10, capacity=None, difficulty=0.5))]
    fn new(
        level: Option<&str>,
        layers: usize,
        types: usize,
        groups: usize,
        capacity: Option<usize>,
        difficulty: f64,
    ) -> PyResult<TilesCore> {
        let args = (
            level.map(str::to_owned),
            layers,
            types,
            groups,
            capacity,
            difficulty,
        );
        let source = match level {
            None => {
                let shape = Classic {
                    layers,
                    types,
                    groups,
                };
                if !(1..=200).contains(&layers) {
                    return Err(value_error(format!(
                        "layers {layers} is out of range (1..=200)"
                    )));
                }
                shape.validate().map_err(value_error)?;
                Source::Generated {
                    shape,
                    capacity: capacity.unwrap_or(7),
                    difficulty,
                }
            }
            Some(text) => Source::Fixed(
                arcade_tiles::load_level(tiles_level_text(text)?, capacity).map_err(value_error)?,
            ),
        };
        // Checks the difficulty and tray on a first level.
        let (level, intended) = source.level(0)?;
        Ok(TilesCore {
            dense: dense_kinds(&level),
            game: TilesGame::new(level),
            source,
            intended,
            illegal: false,
            cleared: 0,
            args,
            replay: Replay::new(0),
        })
    }

    /// Pickles the game as its arguments, start and moves (`replay`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, TilesArgs, u64>> {
        let this = slf.borrow();
        this.replay.reduce(slf, this.args.clone())
    }

    /// Unpickles: the same game, replayed.
    fn __setstate__(&mut self, py: Python<'_>, state: Saved<'_, u64>) -> PyResult<()> {
        let (start, moves) = state;
        self.reset(py, start)?;
        replay::play_back(&moves, |mv| self.step(mv.into()).map(drop))
    }

    /// Starts a new game: generated levels use `seed` as
    /// `arcade tiles generate --seed`; a fixed level ignores it.
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let source = &self.source;
        let (level, intended) = py.detach(|| source.level(seed))?;
        self.dense = dense_kinds(&level);
        self.game = TilesGame::new(level);
        self.intended = intended;
        self.illegal = false;
        self.cleared = 0;
        self.replay.restart(seed);
        Ok(())
    }

    /// Clicks tile `action`: (triples cleared by it, terminated, illegal).
    /// A covered or taken tile ends the game as a loss; an id out of range is
    /// an error.
    fn step(&mut self, action: i64) -> PyResult<(usize, bool, bool)> {
        if self.illegal || self.game.status() != TilesStatus::Playing {
            return Err(value_error(PlayError::Over));
        }
        let n = self.game.level().len();
        let tile = usize::try_from(action)
            .ok()
            .filter(|&t| t < n)
            .ok_or_else(|| value_error(format!("action {action} is out of range (0..{n})")))?;
        let click = self.game.click(tile);
        if matches!(
            click,
            Ok(_) | Err(PlayError::Covered(_) | PlayError::Gone(_))
        ) {
            self.replay.record(tile as u32); // levels hold far fewer than 2^32 tiles
        }
        match click {
            Ok(status) => {
                let view_tray = self.game.view().tray.len();
                let cleared = (self.game.clicks().len() - view_tray) / 3;
                let reward = cleared - self.cleared;
                self.cleared = cleared;
                Ok((reward, status != TilesStatus::Playing, false))
            }
            Err(PlayError::Covered(_) | PlayError::Gone(_)) => {
                self.illegal = true;
                Ok((0, true, true))
            }
            Err(e) => Err(value_error(e)),
        }
    }

    #[getter]
    fn tiles(&self) -> usize {
        self.game.level().len()
    }

    #[getter]
    fn capacity(&self) -> usize {
        self.game.level().capacity()
    }

    /// Tile types of the level.
    #[getter]
    fn kinds(&self) -> usize {
        self.game.level().kinds()
    }

    /// `playing`, `won` or `lost` (a full tray or an illegal click).
    #[getter]
    fn status(&self) -> &'static str {
        match self.game.status() {
            _ if self.illegal => "lost",
            TilesStatus::Playing => "playing",
            TilesStatus::Won => "won",
            TilesStatus::Lost => "lost",
        }
    }

    #[getter]
    fn clicks(&self) -> Vec<usize> {
        self.game.clicks().to_vec()
    }

    #[getter]
    fn cleared(&self) -> usize {
        self.cleared
    }

    /// The winning clicks a generated level was built around (empty for a
    /// fixed level).
    #[getter]
    fn intended(&self) -> Vec<usize> {
        self.intended.clone()
    }

    /// Each tile's type (1-based, 0 once taken), how many tiles still on the
    /// board cover it, the tray (types in the game's order, 0 = empty slot)
    /// and the clickable tiles.
    fn observe<'py>(&self, py: Python<'py>) -> TilesObs<'py> {
        let level = self.game.level();
        let n = level.len();
        let view = self.game.view();
        let mut kind = vec![0i32; n];
        let mut mask = vec![0i8; n];
        let playing = !self.illegal && view.status == TilesStatus::Playing;
        for t in &view.tiles {
            kind[t.id] = level.kind(t.id) as i32 + 1;
            mask[t.id] = i8::from(playing && t.free);
        }
        let covered = (0..n)
            .map(|i| {
                if kind[i] == 0 {
                    return 0;
                }
                let on_board = |&j: &u32| kind[j as usize] != 0;
                level.covered_by(i).iter().filter(|j| on_board(j)).count() as i32
            })
            .collect();
        let mut tray = vec![0i32; level.capacity()];
        for (slot, label) in tray.iter_mut().zip(&view.tray) {
            *slot = self.dense[label] as i32 + 1;
        }
        (
            PyArray1::from_vec(py, kind),
            PyArray1::from_vec(py, covered),
            PyArray1::from_vec(py, tray),
            PyArray1::from_vec(py, mask),
        )
    }

    /// Each tile's `(layer, x, y, w, h)` in the level's units (a tile is
    /// 8 × 8 in the classic layout).
    fn geometry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let tiles = self.game.level().tiles();
        let cells: Vec<i32> = tiles
            .iter()
            .flat_map(|t| [t.layer, t.rect.x, t.rect.y, t.rect.w, t.rect.h])
            .collect();
        PyArray1::from_vec(py, cells).reshape([tiles.len(), 5])
    }

    /// Bounds of [`TilesCore::geometry`] over every level this core can deal:
    /// (low, high) of each column.
    fn geometry_bounds(&self) -> ([i32; 5], [i32; 5]) {
        match &self.source {
            Source::Generated { shape, .. } => (
                [0, 0, 0, BLOCK, BLOCK],
                [shape.layers as i32 - 1, 6 * BLOCK, 6 * BLOCK, BLOCK, BLOCK],
            ),
            Source::Fixed(level) => {
                let mut low = [i32::MAX; 5];
                let mut high = [i32::MIN; 5];
                for t in level.tiles() {
                    for (c, v) in [t.layer, t.rect.x, t.rect.y, t.rect.w, t.rect.h]
                        .into_iter()
                        .enumerate()
                    {
                        low[c] = low[c].min(v);
                        high[c] = high[c].max(v);
                    }
                }
                (low, high)
            }
        }
    }

    /// The next click of a winning line (the exact solver, within `seconds`),
    /// or `None` when the position is lost, over, or the search ran out.
    #[pyo3(signature = (seconds=5.0))]
    fn solver_action(&mut self, py: Python<'_>, seconds: f64) -> PyResult<Option<usize>> {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(value_error("seconds must be a positive number"));
        }
        if self.illegal {
            return Ok(None);
        }
        let game = &mut self.game;
        Ok(py.detach(|| game.verdict(&Limits::seconds(seconds)).hint))
    }

    /// The current level in arcade's JSON format (for `tiles_solve`, or
    /// `arcade tiles check`).
    fn level_json(&self) -> String {
        arcade_tiles::format::to_json(self.game.level(), &serde_json::Value::Null)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TilesCore>()?;
    Ok(())
}
