//! Jump In': the single-game core of `JumpIn-v0`, on the library's
//! [`JumpinGame`]. An action is `from · 25 + target` over the 25 cells
//! (`y · 5 + x`): the piece on `from` (a rabbit's cell, a fox's top or left
//! cell) moves so that it lands on, or for a fox slides into, `target`.

use crate::replay::{self, Reduced, Replay, Saved};
use crate::solvers::bounded;
use crate::value_error;
use crate::vector::{Game, Slots, StepArrays, check_num_envs};
use arcade_core::Rng;
use arcade_core::progress::Progress;
use arcade_jumpin::challenges::{Challenge, official};
use arcade_jumpin::geometry::{self, HOLES, cells, xy};
use arcade_jumpin::hardest::PieceSet;
use arcade_jumpin::play::{JumpinGame, PlayMove};
use arcade_jumpin::{Axis, Fox, Piece, Position, parse_board, parse_code};
use numpy::{PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use std::sync::OnceLock;

/// A cell as Python sees it, `(x, y)`.
type Cell2 = (u8, u8);

/// Cells of the 5 × 5 board.
const CELLS: usize = geometry::CELLS as usize;
/// Actions: a from cell and a target cell.
pub(crate) const ACTIONS: usize = CELLS * CELLS;
/// Observation planes: rabbits, mushrooms, holes, horizontal and vertical fox cells.
const PLANES: usize = 5;

/// The library's cell numbering (`y · 5 + x`), which the actions use.
fn index([x, y]: [u8; 2]) -> usize {
    usize::from(geometry::cell(x, y))
}

fn action_of(m: &PlayMove) -> usize {
    index(m.step.from) * CELLS + index(m.target)
}

/// Observation planes `(5, 5, 5)` and the action mask `(625,)`.
type JumpinObs<'py> = (Bound<'py, PyArray3<u8>>, Bound<'py, PyArray1<i8>>);

/// One Jump In' puzzle in play (the `JumpIn-v0` environment's engine).
#[pyclass(module = "arcadekit._arcadekit")]
#[derive(Clone)]
pub struct JumpinCore {
    play: JumpinPlay,
    /// The puzzle and the moves since, for pickling.
    replay: Replay<Pieces>,
}

/// A position's pieces exactly (a board text can pair fox cells up in more
/// than one way): rabbit and mushroom cell masks, and each fox as (vertical,
/// line, offset).
type Pieces = (u32, u32, Vec<(bool, u8, u8)>);

fn pieces(p: &Position) -> Pieces {
    let foxes = p.foxes().iter();
    let foxes = foxes.map(|f| (f.axis == Axis::Vertical, f.line, f.offset));
    (p.rabbits(), p.mushrooms(), foxes.collect())
}

fn position((rabbits, mushrooms, foxes): Pieces) -> PyResult<Position> {
    let fox = |(vertical, line, offset)| Fox {
        axis: if vertical {
            Axis::Vertical
        } else {
            Axis::Horizontal
        },
        line,
        offset,
    };
    Position::new(rabbits, mushrooms, foxes.into_iter().map(fox).collect()).map_err(value_error)
}

/// A puzzle in play: what the single and the vector cores step.
#[derive(Clone)]
struct JumpinPlay {
    game: JumpinGame,
    /// The episode ended on a move the mask did not allow.
    illegal: bool,
}

impl JumpinPlay {
    fn new(position: &Position) -> JumpinPlay {
        JumpinPlay {
            game: JumpinGame::new(position),
            illegal: false,
        }
    }

    fn over(&self) -> bool {
        self.illegal || self.game.is_solved()
    }

    /// The first move of a shortest solution from here, as an action
    /// (`None` once solved or after an illegal move). It searches only when
    /// play has left the last solution found (`JumpinGame::hint_along`).
    fn solver_move(&mut self) -> Option<usize> {
        if self.illegal {
            return None;
        }
        self.game.hint_along().next.map(|m| action_of(&m))
    }

    /// Every legal move, each once (a fox under its top or left cell).
    fn moves(&self) -> Vec<PlayMove> {
        let p = self.game.position();
        let mut out = Vec::new();
        let pieces = cells(p.rabbits()).chain(p.foxes().iter().map(|f| f.cells()[0]));
        for c in pieces {
            let (x, y) = xy(c);
            out.extend(
                self.game
                    .legal_moves(x, y)
                    .expect("a piece's cell")
                    .into_iter()
                    .filter(|m| m.step.from == [x, y]),
            );
        }
        out
    }

    /// Makes the move `action`: (terminated, illegal). A move the mask does
    /// not allow ends the episode; an action outside `0..625`, or a move
    /// after the end, is an error.
    fn click(&mut self, action: i64) -> Result<(bool, bool), String> {
        if self.over() {
            return Err("the game is over: reset it first".into());
        }
        let a = usize::try_from(action)
            .ok()
            .filter(|&a| a < ACTIONS)
            .ok_or_else(|| format!("action {action} is out of range (0 to {})", ACTIONS - 1))?;
        match self.moves().into_iter().find(|m| action_of(m) == a) {
            Some(m) => {
                let played = self.game.play(m.step.from, m.target);
                played.map_err(|e| e.to_string())?;
                Ok((self.game.is_solved(), false))
            }
            None => {
                self.illegal = true;
                Ok((true, true))
            }
        }
    }

    /// The board as planes (rabbits, mushrooms, holes, horizontal fox cells,
    /// vertical fox cells; 5 × 5, row 0 at the top) and the legal actions.
    fn write_obs(&self, planes: &mut [u8], mask: &mut [i8]) {
        let p = self.game.position();
        planes.fill(0);
        let mut mark = |plane: usize, cells_mask: u32| {
            for c in cells(cells_mask) {
                planes[plane * CELLS + usize::from(c)] = 1;
            }
        };
        mark(0, p.rabbits());
        mark(1, p.mushrooms());
        mark(2, HOLES);
        for f in p.foxes() {
            mark(if f.axis == Axis::Horizontal { 3 } else { 4 }, f.mask());
        }
        mask.fill(0);
        if !self.over() {
            for m in self.moves() {
                mask[action_of(&m)] = 1;
            }
        }
    }
}

/// An official challenge and its game, solved.
struct OfficialPlay {
    number: u32,
    position: Position,
    play: JumpinPlay,
}

/// The official challenges in play, each solved once per process: an
/// episode's start copies one instead of parsing the list and solving its
/// puzzle again (most of a reset's time).
fn official_plays() -> &'static [OfficialPlay] {
    static PLAYS: OnceLock<Vec<OfficialPlay>> = OnceLock::new();
    PLAYS.get_or_init(|| {
        let solved = |c: Challenge| OfficialPlay {
            number: c.number,
            play: JumpinPlay::new(&c.position),
            position: c.position,
        };
        official().into_iter().map(solved).collect()
    })
}

/// The official challenge an episode of `seed` plays (uniformly drawn).
fn official_for(seed: u64) -> &'static OfficialPlay {
    let plays = official_plays();
    &plays[Rng::new(seed).index(plays.len())]
}

/// Official challenge `number` (1–60).
fn official_number(number: u32) -> PyResult<&'static OfficialPlay> {
    let plays = official_plays();
    plays
        .iter()
        .find(|c| c.number == number)
        .ok_or_else(|| value_error(format!("challenge {number} is out of range (1 to 60)")))
}

impl JumpinCore {
    fn start(&mut self, position: &Position) {
        self.restart(position, JumpinPlay::new(position));
    }

    /// Starts `play`, `position` with no move made.
    fn restart(&mut self, position: &Position, play: JumpinPlay) {
        self.play = play;
        self.replay.restart(pieces(position));
    }
}

/// A puzzle from a challenge code or board text (5 lines).
fn parse(puzzle: &str) -> PyResult<Position> {
    let puzzle = bounded("the puzzle", puzzle)?;
    if puzzle.contains('\n') {
        parse_board(puzzle)
    } else {
        parse_code(puzzle)
    }
    .map_err(value_error)
}

#[pymethods]
impl JumpinCore {
    /// A copy of the game as it stands (`copy.deepcopy(env)`), which a search
    /// can play on without touching the original.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Starts on official challenge 1.
    #[new]
    fn new() -> JumpinCore {
        let first = &official_plays()[0];
        JumpinCore {
            play: first.play.clone(),
            replay: Replay::new(pieces(&first.position)),
        }
    }

    /// Pickles the game as its puzzle and moves (`replay`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (), Pieces>> {
        slf.borrow().replay.reduce(slf, ())
    }

    /// Unpickles: the same puzzle, replayed.
    fn __setstate__(&mut self, state: Saved<'_, Pieces>) -> PyResult<()> {
        let (start, moves) = state;
        self.start(&position(start)?);
        replay::play_back(&moves, |mv| self.step(mv.into()).map(drop))
    }

    /// Loads a challenge code (`C31B42G34M302203FE11`) or a board text.
    fn load(&mut self, py: Python<'_>, puzzle: &str) -> PyResult<()> {
        let p = parse(puzzle)?;
        crate::pool::detach_serial(py, || self.start(&p));
        Ok(())
    }

    /// Loads the official challenge of `seed` (drawn uniformly), as the
    /// vector environment's episode of that seed does.
    fn load_official(&mut self, seed: u64) {
        let c = official_for(seed);
        self.restart(&c.position, c.play.clone());
    }

    /// Loads official challenge `number` (1–60).
    fn load_challenge(&mut self, number: u32) -> PyResult<()> {
        let c = official_number(number)?;
        self.restart(&c.position, c.play.clone());
        Ok(())
    }

    /// Loads the puzzle `arcade jumpin generate --moves M --seed S` makes for
    /// the same piece set: returns whether it needs exactly `moves` moves
    /// (else it is one of the longest below).
    fn generate(
        &mut self,
        py: Python<'_>,
        moves: u32,
        rabbits: usize,
        foxes: usize,
        mushrooms: usize,
        seed: u64,
    ) -> PyResult<bool> {
        let pieces = crate::solvers::jumpin_generator(moves, rabbits, foxes, mushrooms)?;
        crate::pool::detach(py, || {
            let g = arcade_jumpin::generate::generate(pieces, moves, seed, &Progress::hidden())
                .map_err(value_error)?;
            self.start(&g.position);
            Ok(g.exact)
        })
    }

    /// Makes the move `action`: (terminated, illegal). A move the mask does
    /// not allow ends the episode; an action outside `0..625` is an error.
    fn step(&mut self, action: i64) -> PyResult<(bool, bool)> {
        let out = self.play.click(action).map_err(value_error)?;
        self.replay.record(action as u32); // below ACTIONS: `click` checked it
        Ok(out)
    }

    /// The board as planes (rabbits, mushrooms, holes, horizontal fox cells,
    /// vertical fox cells; 5 × 5, row 0 at the top) and the legal actions.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<JumpinObs<'py>> {
        let (mut planes, mut mask) = (vec![0u8; PLANES * CELLS], vec![0i8; ACTIONS]);
        self.play.write_obs(&mut planes, &mut mask);
        Ok((
            PyArray1::from_vec(py, planes).reshape([PLANES, 5, 5])?,
            PyArray1::from_vec(py, mask),
        ))
    }

    /// The legal moves: `(action, piece, from, to, target)` with cells as
    /// `(x, y)`; `to` is a fox's top or left cell after the move, as
    /// `arcade jumpin solve` prints it.
    fn legal_moves(&self) -> Vec<(usize, &'static str, Cell2, Cell2, Cell2)> {
        if self.play.over() {
            return Vec::new();
        }
        self.play
            .moves()
            .iter()
            .map(|m| {
                let piece = match m.step.piece {
                    Piece::Rabbit => "rabbit",
                    Piece::Fox => "fox",
                };
                let pair = |[x, y]: [u8; 2]| (x, y);
                (
                    action_of(m),
                    piece,
                    pair(m.step.from),
                    pair(m.step.to),
                    pair(m.target),
                )
            })
            .collect()
    }

    /// The first move of a shortest solution from here, as an action.
    fn solver_action(&mut self, py: Python<'_>) -> Option<usize> {
        crate::pool::detach_serial(py, || self.play.solver_move())
    }

    /// The optimal solution length of the puzzle from its start.
    #[getter]
    fn optimal(&self) -> Option<usize> {
        self.play.game.view().optimal
    }

    #[getter]
    fn moves_made(&self) -> usize {
        self.play.game.view().moves
    }

    #[getter]
    fn solved(&self) -> bool {
        self.play.game.is_solved()
    }

    /// The challenge code of the current position (none with four rabbits).
    #[getter]
    fn code(&self) -> Option<String> {
        self.play.game.position().to_code()
    }

    /// The board text of `arcade jumpin solve` (`.` empty, `R` rabbit, `F`
    /// fox, `X` mushroom; the holes are the corners and the centre).
    fn text(&self) -> String {
        self.play.game.position().to_string()
    }
}

/// Where a vector core's episodes take their puzzles.
enum Puzzles {
    /// An official challenge drawn uniformly from the episode's seed.
    Official,
    /// `arcade jumpin generate --moves M --seed S` for the episode's seed.
    Generated { pieces: PieceSet, moves: u32 },
    /// The same puzzle every episode, solved once.
    Fixed(JumpinPlay),
}

impl Puzzles {
    /// `"official"`, `"generated"` (with the piece set and `moves`), a
    /// challenge number, or a challenge code or board text.
    fn new(
        puzzles: &Bound<'_, PyAny>,
        moves: u32,
        set: (usize, usize, usize),
    ) -> PyResult<Puzzles> {
        if let Ok(number) = puzzles.extract::<u32>() {
            return Ok(Puzzles::Fixed(official_number(number)?.play.clone()));
        }
        let text: String = puzzles.extract().map_err(|_| {
            value_error(format!(
                "puzzles {puzzles} is not \"official\", \"generated\", a challenge number, code or board"
            ))
        })?;
        match text.as_str() {
            "official" => Ok(Puzzles::Official),
            "generated" => {
                let pieces = crate::solvers::jumpin_generator(moves, set.0, set.1, set.2)?;
                // Generation refuses only a piece set or a length, never a
                // seed: checked once here.
                crate::pool::install(|| {
                    arcade_jumpin::generate::generate(pieces, moves, 0, &Progress::hidden())
                })
                .map_err(value_error)?;
                Ok(Puzzles::Generated { pieces, moves })
            }
            _ => Ok(Puzzles::Fixed(JumpinPlay::new(&parse(&text)?))),
        }
    }

    /// The puzzle of the episode of `seed`, in play.
    fn play(&self, seed: u64) -> JumpinPlay {
        match self {
            Puzzles::Official => official_for(seed).play.clone(),
            Puzzles::Generated { pieces, moves } => {
                // Episodes start on all threads: each searches on its own.
                let generated = arcade_jumpin::generate::generate_serial(*pieces, *moves, seed)
                    .expect("Puzzles::new checked the piece set and length");
                JumpinPlay::new(&generated.position)
            }
            Puzzles::Fixed(play) => play.clone(),
        }
    }
}

/// What every game of a [`JumpinVectorCore`] is made of.
struct JumpinConfig {
    puzzles: Puzzles,
    /// Moves after which an episode is truncated.
    max_moves: u32,
}

/// One sub-environment of the vector core: a puzzle and the moves made.
struct JumpinSlot {
    play: JumpinPlay,
    moves: u32,
    max_moves: u32,
}

impl Game for JumpinSlot {
    type Config = JumpinConfig;
    /// A move is cheap; a generated episode's start searches for a puzzle.
    const PARALLEL_MIN: usize = 64;

    fn start(config: &JumpinConfig, seed: u64) -> JumpinSlot {
        JumpinSlot {
            play: config.puzzles.play(seed),
            moves: 0,
            max_moves: config.max_moves,
        }
    }

    fn check(_: &JumpinConfig, action: i64) -> Result<(), String> {
        match usize::try_from(action) {
            Ok(a) if a < ACTIONS => Ok(()),
            _ => Err(format!(
                "action {action} is out of range (0 to {})",
                ACTIONS - 1
            )),
        }
    }

    /// −1 a move; truncated after `max_moves`, as `JumpIn-v0`.
    fn play(&mut self, action: i64) -> Result<(f64, bool, bool), String> {
        let (terminated, _) = self.play.click(action)?;
        self.moves += 1;
        Ok((
            -1.0,
            terminated,
            !terminated && self.moves >= self.max_moves,
        ))
    }
}

/// Planes (N, 5, 5, 5), masks (N, 625), moves made, solved and illegal (N,).
type JumpinBatch<'py> = (
    Bound<'py, PyArray4<u8>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// N Jump In' puzzles stepped together (the `JumpInVectorEnv` engine).
#[pyclass(module = "arcadekit._arcadekit")]
pub struct JumpinVectorCore {
    config: JumpinConfig,
    slots: Slots<JumpinSlot>,
}

#[pymethods]
impl JumpinVectorCore {
    #[new]
    #[pyo3(signature = (num_envs, seed, puzzles, moves=10, rabbits=3, foxes=2, mushrooms=3, max_moves=200))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        seed: u64,
        puzzles: &Bound<'_, PyAny>,
        moves: u32,
        rabbits: usize,
        foxes: usize,
        mushrooms: usize,
        max_moves: u32,
    ) -> PyResult<JumpinVectorCore> {
        if max_moves == 0 {
            return Err(value_error(format!(
                "max_moves 0 is out of range (1 to {})",
                u32::MAX
            )));
        }
        check_num_envs(num_envs, CELLS).map_err(value_error)?;
        let config = JumpinConfig {
            puzzles: Puzzles::new(puzzles, moves, (rabbits, foxes, mushrooms))?,
            max_moves,
        };
        let slots = crate::pool::detach(py, || Slots::new(&config, num_envs, seed));
        Ok(JumpinVectorCore { config, slots })
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

    /// Every game's [`JumpinPlay::solver_move`], 0 for a game that ended
    /// (the next step resets it and ignores its action), on Rust threads
    /// with the GIL released.
    fn solver_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.slots.choose_each(py, |g| {
            let ended = g.play.over() || g.moves >= g.max_moves;
            let next = if ended { None } else { g.play.solver_move() };
            next.map_or(0, |a| a as i64)
        })
    }

    /// Every game's planes and mask ([`JumpinCore::observe`]'s, stacked),
    /// its moves made, whether it is solved and whether it ended on an
    /// illegal move.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<JumpinBatch<'py>> {
        let n = self.slots.slots.len();
        let (mut planes, mut mask) = (vec![0u8; n * PLANES * CELLS], vec![0i8; n * ACTIONS]);
        let games = self.slots.slots.iter().map(|s| &s.game);
        for ((g, p), m) in games
            .clone()
            .zip(planes.chunks_exact_mut(PLANES * CELLS))
            .zip(mask.chunks_exact_mut(ACTIONS))
        {
            g.play.write_obs(p, m);
        }
        let moves = games.clone().map(|g| g.moves).collect();
        let solved = games.clone().map(|g| g.play.game.is_solved()).collect();
        let illegal = games.map(|g| g.play.illegal).collect();
        Ok((
            PyArray1::from_vec(py, planes).reshape([n, PLANES, 5, 5])?,
            PyArray1::from_vec(py, mask).reshape([n, ACTIONS])?,
            PyArray1::from_vec(py, moves),
            PyArray1::from_vec(py, solved),
            PyArray1::from_vec(py, illegal),
        ))
    }
}

/// The official challenges: `(number, code, minimum moves)`.
#[pyfunction]
fn jumpin_challenges() -> Vec<(u32, String, u32)> {
    official()
        .into_iter()
        .map(|c| (c.number, c.code, c.minimum))
        .collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<JumpinCore>()?;
    m.add_class::<JumpinVectorCore>()?;
    m.add_function(wrap_pyfunction!(jumpin_challenges, m)?)?;
    Ok(())
}
