//! Sheep a Sheep: the single-game core of `Tiles-v0` and the vector core of
//! `TilesVectorEnv`, on the library's [`TilesGame`]. Generated levels are
//! `arcade tiles generate`'s for the same shape, difficulty and seed (the same
//! construction, without the verification search, which only confirms what
//! construction guarantees).

use crate::replay::{self, Reduced, Replay, Saved};
use crate::solvers::tiles_level;
use crate::value_error;
use crate::vector::{Game, Slots, StepArrays, check_num_envs};
use arcade_tiles::Level;
use arcade_tiles::capture::BLOCK;
use arcade_tiles::exact::Limits;
use arcade_tiles::generate::{GenerateError, construct};
use arcade_tiles::layout::Classic;
use arcade_tiles::play::{PlayError, TilesGame, TilesStatus};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use rayon::prelude::*;
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
    /// The source of `TilesCore(level, layers, types, groups, capacity,
    /// difficulty)` and its level of seed 0, which checks it.
    fn new(
        level: Option<&str>,
        (layers, types, groups): (usize, usize, usize),
        capacity: Option<usize>,
        difficulty: f64,
    ) -> PyResult<(Source, (Level, Vec<usize>))> {
        let source = match level {
            None => {
                let shape = Classic {
                    layers,
                    types,
                    groups,
                };
                shape.validate().map_err(value_error)?;
                Source::Generated {
                    shape,
                    capacity: capacity.unwrap_or(7),
                    difficulty,
                }
            }
            Some(text) => Source::Fixed(tiles_level(text, capacity)?),
        };
        let first = source.try_level(0).map_err(value_error)?;
        if first.0.is_empty() {
            return Err(value_error(
                "the level has no tiles: there is nothing to play",
            ));
        }
        Ok((source, first))
    }

    /// Bounds of every tile's `(layer, x, y, w, h)` over the levels this
    /// source deals: (low, high) of each column.
    fn geometry_bounds(&self) -> ([i32; 5], [i32; 5]) {
        match self {
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

    /// The level of `seed` and the clicks it was built around.
    fn try_level(&self, seed: u64) -> Result<(Level, Vec<usize>), GenerateError> {
        match self {
            Source::Generated {
                shape,
                capacity,
                difficulty,
            } => {
                let g = construct(shape, *capacity, *difficulty, seed)?;
                Ok((g.level, g.intended))
            }
            Source::Fixed(level) => Ok((level.clone(), Vec::new())),
        }
    }

    /// [`Source::try_level`] of a source [`Source::new`] made: construction
    /// refuses only a tray or a difficulty, which that checked.
    fn level(&self, seed: u64) -> (Level, Vec<usize>) {
        self.try_level(seed)
            .expect("a checked source constructs every seed")
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
    play: TilesPlay,
    /// The constructor's arguments, for pickling.
    args: TilesArgs,
    replay: Replay<u64>,
}

/// `TilesCore(level, layers, types, groups, capacity, difficulty)`.
type TilesArgs = (Option<String>, usize, usize, usize, Option<usize>, f64);

fn dense_kinds(level: &Level) -> HashMap<u32, usize> {
    (0..level.kinds()).map(|k| (level.label(k), k)).collect()
}

/// One game on one level: what the single and the vector cores step.
#[derive(Clone)]
struct TilesPlay {
    game: TilesGame,
    /// Dense type (0-based) of each label of the level.
    dense: HashMap<u32, usize>,
    intended: Vec<usize>,
    illegal: bool,
    /// Triples cleared so far.
    cleared: usize,
    /// Rewards ±1 at the end (`reward="win"`) rather than +1 a triple (the
    /// vector core's reward; the single core leaves it to Python).
    win_reward: bool,
}

impl TilesPlay {
    fn new((level, intended): (Level, Vec<usize>), win_reward: bool) -> TilesPlay {
        TilesPlay {
            dense: dense_kinds(&level),
            game: TilesGame::new(level),
            intended,
            illegal: false,
            cleared: 0,
            win_reward,
        }
    }

    fn tiles(&self) -> usize {
        self.game.level().len()
    }

    fn playing(&self) -> bool {
        !self.illegal && self.game.status() == TilesStatus::Playing
    }

    /// Clicks tile `action`: (triples cleared by it, terminated, illegal).
    /// A covered or taken tile ends the game as a loss; an id out of range,
    /// or a click after the end, is an error.
    fn click(&mut self, action: i64) -> Result<(usize, bool, bool), String> {
        if !self.playing() {
            return Err("the game is over: reset it first".into());
        }
        let n = self.tiles();
        let tile = usize::try_from(action)
            .ok()
            .filter(|&t| t < n)
            .ok_or_else(|| format!("action {action} is out of range (0 to {})", n - 1))?;
        match self.game.click(tile) {
            Ok(status) => {
                let cleared = (self.game.clicks().len() - self.game.tray().len()) / 3;
                let reward = cleared - self.cleared;
                self.cleared = cleared;
                Ok((reward, status != TilesStatus::Playing, false))
            }
            Err(PlayError::Covered(_) | PlayError::Gone(_)) => {
                self.illegal = true;
                Ok((0, true, true))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// `playing`, `won` or `lost` (a full tray or an illegal click).
    fn status(&self) -> &'static str {
        match self.game.status() {
            _ if self.illegal => "lost",
            TilesStatus::Playing => "playing",
            TilesStatus::Won => "won",
            TilesStatus::Lost => "lost",
        }
    }

    /// Each tile's type (1-based, 0 once taken), how many tiles still on the
    /// board cover it, the tray (types in the game's order, 0 = empty slot)
    /// and the clickable tiles, into slices of the level's sizes.
    fn write_obs(&self, kind: &mut [i32], covered: &mut [i32], tray: &mut [i32], mask: &mut [i8]) {
        let level = self.game.level();
        let board = self.game.position();
        let playing = self.playing();
        for i in 0..level.len() {
            let on_board = !board.gone().contains(i);
            kind[i] = if on_board {
                level.kind(i) as i32 + 1
            } else {
                0
            };
            covered[i] = if on_board {
                board.blockers(i) as i32
            } else {
                0
            };
            mask[i] = i8::from(playing && board.free().contains(i));
        }
        tray.fill(0);
        for (slot, label) in tray.iter_mut().zip(self.game.tray()) {
            *slot = self.dense[label] as i32 + 1;
        }
    }

    /// The exact solver's next click of a winning line within `limits`;
    /// `None` when the game is over or the position is lost or undecided.
    fn solver_move(&mut self, limits: &Limits) -> Option<usize> {
        if self.illegal {
            return None;
        }
        self.game.verdict(limits).hint
    }

    /// The greedy player's next click; `None` when the game is over.
    fn greedy_move(&self) -> Option<usize> {
        if self.illegal {
            return None;
        }
        self.game.greedy_hint()
    }

    /// Each tile's `(layer, x, y, w, h)`, five values a tile.
    fn write_geometry(&self, out: &mut [i32]) {
        let tiles = self.game.level().tiles();
        for (t, o) in tiles.iter().zip(out.chunks_exact_mut(5)) {
            o.copy_from_slice(&[t.layer, t.rect.x, t.rect.y, t.rect.w, t.rect.h]);
        }
    }
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
        let (source, first) = Source::new(level, (layers, types, groups), capacity, difficulty)?;
        Ok(TilesCore {
            play: TilesPlay::new(first, false),
            source,
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
        self.play = TilesPlay::new(crate::pool::detach_serial(py, || source.level(seed)), false);
        self.replay.restart(seed);
        Ok(())
    }

    /// Clicks tile `action`: (triples cleared by it, terminated, illegal).
    /// A covered or taken tile ends the game as a loss; an id out of range is
    /// an error.
    fn step(&mut self, action: i64) -> PyResult<(usize, bool, bool)> {
        let out = self.play.click(action).map_err(value_error)?;
        self.replay.record(action as u32); // a tile id: `click` checked it
        Ok(out)
    }

    #[getter]
    fn tiles(&self) -> usize {
        self.play.tiles()
    }

    #[getter]
    fn capacity(&self) -> usize {
        self.play.game.level().capacity()
    }

    /// Tile types of the level.
    #[getter]
    fn kinds(&self) -> usize {
        self.play.game.level().kinds()
    }

    /// `playing`, `won` or `lost` (a full tray or an illegal click).
    #[getter]
    fn status(&self) -> &'static str {
        self.play.status()
    }

    #[getter]
    fn clicks(&self) -> Vec<usize> {
        self.play.game.clicks().to_vec()
    }

    #[getter]
    fn cleared(&self) -> usize {
        self.play.cleared
    }

    /// The winning clicks a generated level was built around (empty for a
    /// fixed level).
    #[getter]
    fn intended(&self) -> Vec<usize> {
        self.play.intended.clone()
    }

    /// Each tile's type (1-based, 0 once taken), how many tiles still on the
    /// board cover it, the tray (types in the game's order, 0 = empty slot)
    /// and the clickable tiles.
    fn observe<'py>(&self, py: Python<'py>) -> TilesObs<'py> {
        let (n, cap) = (self.play.tiles(), self.play.game.level().capacity());
        let (mut kind, mut covered) = (vec![0i32; n], vec![0i32; n]);
        let (mut tray, mut mask) = (vec![0i32; cap], vec![0i8; n]);
        self.play
            .write_obs(&mut kind, &mut covered, &mut tray, &mut mask);
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
        let n = self.play.tiles();
        let mut cells = vec![0i32; n * 5];
        self.play.write_geometry(&mut cells);
        PyArray1::from_vec(py, cells).reshape([n, 5])
    }

    /// Bounds of [`TilesCore::geometry`] over every level this core can deal:
    /// (low, high) of each column.
    fn geometry_bounds(&self) -> ([i32; 5], [i32; 5]) {
        self.source.geometry_bounds()
    }
    /// The next click of a winning line (the exact solver, within `seconds`
    /// of wall time and `nodes` positions, 5 s when neither is given; a node
    /// budget alone gives the same answer on any machine), or `None` when the
    /// position is lost, over, or the search ran out.
    #[pyo3(signature = (seconds=None, nodes=None))]
    fn solver_action(
        &mut self,
        py: Python<'_>,
        seconds: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Option<usize>> {
        let limits = solver_limits(seconds, nodes)?;
        let play = &mut self.play;
        Ok(crate::pool::detach_serial(py, || play.solver_move(&limits)))
    }

    /// The greedy player's next click (`arcade tiles bench`'s greedy), or
    /// `None` once the game is over.
    fn greedy_action(&self) -> Option<usize> {
        self.play.greedy_move()
    }

    /// The current level in arcade's JSON format (for `tiles_solve`, or
    /// `arcade tiles check`).
    fn level_json(&self) -> String {
        arcade_tiles::format::to_json(self.play.game.level(), &serde_json::Value::Null)
    }
}

/// The exact solver's budget from Python's `seconds` and `nodes` (5 s when
/// neither is given).
fn solver_limits(seconds: Option<f64>, nodes: Option<u64>) -> PyResult<Limits> {
    let mut limits = match seconds {
        Some(s) => Limits::seconds(crate::check_seconds("seconds", s)?),
        None if nodes.is_some() => Limits {
            time: None,
            ..Limits::default()
        },
        None => Limits::seconds(5.0),
    };
    if let Some(n) = nodes {
        limits.nodes = Some(crate::check_nodes(n)?);
    }
    Ok(limits)
}

/// Most tiles the games of one vector environment hold together: a game of
/// 360 tiles keeps about 110 KB (its level, cover graph and play; measured
/// over 2,000 games), far more a cell than the other games, so this bounds
/// the memory to about 2.6 GB (the process may hold twice that after
/// resets: the allocator keeps what the old levels freed).
const MAX_VECTOR_TILES: usize = 1 << 23;

/// What every game of a [`TilesVectorCore`] is made of.
struct TilesConfig {
    source: Source,
    /// Tiles of every level (generated levels all hold the shape's count).
    tiles: usize,
    capacity: usize,
    win_reward: bool,
}

impl Game for TilesPlay {
    type Config = TilesConfig;
    /// A click is cheap, but an episode's start constructs a level.
    const PARALLEL_MIN: usize = 64;

    fn start(config: &TilesConfig, seed: u64) -> TilesPlay {
        TilesPlay::new(config.source.level(seed), config.win_reward)
    }

    fn check(config: &TilesConfig, action: i64) -> Result<(), String> {
        let n = config.tiles;
        match usize::try_from(action) {
            Ok(t) if t < n => Ok(()),
            _ => Err(format!("action {action} is out of range (0 to {})", n - 1)),
        }
    }

    fn play(&mut self, action: i64) -> Result<(f64, bool, bool), String> {
        let (triples, terminated, _) = self.click(action)?;
        let reward = match (self.win_reward, self.status()) {
            (false, _) => triples as f64,
            (true, "won") => 1.0,
            (true, "lost") => -1.0,
            (true, _) => 0.0,
        };
        Ok((reward, terminated, false))
    }
}

/// Observation arrays of N games: kinds and coverers (N, tiles), trays
/// (N, capacity), masks (N, tiles), triples cleared and illegal flags (N,).
type TilesBatch<'py> = (
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<bool>>,
);

/// N Sheep a Sheep games stepped together (the `TilesVectorEnv` engine).
#[pyclass(module = "arcadekit._arcadekit")]
pub struct TilesVectorCore {
    config: TilesConfig,
    slots: Slots<TilesPlay>,
}

#[pymethods]
impl TilesVectorCore {
    /// The options of `TilesCore`, and `win_reward` for ±1 at the end.
    #[new]
    #[pyo3(signature = (num_envs, seed, level=None, layers=26, types=12, groups=10, capacity=None,
                        difficulty=0.5, win_reward=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        seed: u64,
        level: Option<&str>,
        layers: usize,
        types: usize,
        groups: usize,
        capacity: Option<usize>,
        difficulty: f64,
        win_reward: bool,
    ) -> PyResult<TilesVectorCore> {
        let (source, (first, _)) =
            Source::new(level, (layers, types, groups), capacity, difficulty)?;
        // The tighter of the two limits first, so the "at most" it names holds.
        let most = MAX_VECTOR_TILES / first.len().max(1);
        if num_envs > most {
            return Err(value_error(format!(
                "num_envs {num_envs} is too many for levels of {} tiles: at most {most} \
                 (2^23 tiles in all)",
                first.len()
            )));
        }
        check_num_envs(num_envs, first.len()).map_err(value_error)?;
        let config = TilesConfig {
            tiles: first.len(),
            capacity: first.capacity(),
            source,
            win_reward,
        };
        let slots = crate::pool::detach(py, || Slots::new(&config, num_envs, seed));
        Ok(TilesVectorCore { config, slots })
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

    /// Every game's observation arrays ([`TilesCore::observe`]'s, stacked),
    /// its triples cleared and whether it ended on an illegal click.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<TilesBatch<'py>> {
        let (n, t, cap) = (
            self.slots.slots.len(),
            self.config.tiles,
            self.config.capacity,
        );
        let (mut kind, mut covered) = (vec![0i32; n * t], vec![0i32; n * t]);
        let (mut tray, mut mask) = (vec![0i32; n * cap], vec![0i8; n * t]);
        let slots = &self.slots.slots;
        crate::pool::detach(py, || {
            // A game's view costs microseconds: worth the threads.
            kind.par_chunks_mut(t)
                .zip(covered.par_chunks_mut(t))
                .zip(tray.par_chunks_mut(cap).zip(mask.par_chunks_mut(t)))
                .zip(slots.par_iter())
                .for_each(|(((k, c), (tr, m)), s)| s.game.write_obs(k, c, tr, m));
        });
        let games = slots.iter().map(|s| &s.game);
        let cleared = games.clone().map(|g| g.cleared as u64).collect();
        let illegal = games.map(|g| g.illegal).collect();
        Ok((
            PyArray1::from_vec(py, kind).reshape([n, t])?,
            PyArray1::from_vec(py, covered).reshape([n, t])?,
            PyArray1::from_vec(py, tray).reshape([n, cap])?,
            PyArray1::from_vec(py, mask).reshape([n, t])?,
            PyArray1::from_vec(py, cleared),
            PyArray1::from_vec(py, illegal),
        ))
    }

    /// Every game's [`TilesCore::solver_action`] within `nodes` positions,
    /// on Rust threads with the GIL released. Where the solver knows no
    /// winning click (the position is lost or undecided), the greedy
    /// player's click, or −1 with `fallback=None`; 0 for a game that ended
    /// (the next step resets it and ignores its action).
    #[pyo3(signature = (nodes=100_000, fallback=Some("greedy")))]
    fn solver_actions<'py>(
        &mut self,
        py: Python<'py>,
        nodes: u64,
        fallback: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let limits = Limits::nodes(crate::check_nodes(nodes)?);
        let greedy = match fallback {
            Some("greedy") => true,
            None => false,
            Some(other) => {
                return Err(value_error(format!(
                    "unknown fallback {other:?} (expected \"greedy\" or None)"
                )));
            }
        };
        Ok(self.slots.choose_each(py, |g| {
            if !g.playing() {
                return 0;
            }
            let click = g.solver_move(&limits);
            let click = if greedy {
                click.or_else(|| g.greedy_move())
            } else {
                click
            };
            click.map_or(-1, |t| t as i64)
        }))
    }

    /// Every game's greedy click ([`TilesCore::greedy_action`]), 0 for a
    /// game that ended, on Rust threads.
    fn greedy_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.slots
            .choose_each(py, |g| g.greedy_move().map_or(0, |t| t as i64))
    }

    /// Every game's tiles as `(layer, x, y, w, h)`: (N, tiles, 5). A
    /// generated level is new for each episode.
    fn geometry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i32>>> {
        let (n, t) = (self.slots.slots.len(), self.config.tiles);
        let mut cells = vec![0i32; n * t * 5];
        for (s, out) in self.slots.slots.iter().zip(cells.chunks_exact_mut(t * 5)) {
            s.game.write_geometry(out);
        }
        PyArray1::from_vec(py, cells).reshape([n, t, 5])
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TilesCore>()?;
    m.add_class::<TilesVectorCore>()?;
    Ok(())
}
