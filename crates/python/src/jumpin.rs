//! Jump In': the single-game core of `JumpIn-v0`, on the library's
//! [`JumpinGame`]. An action is `from · 25 + target` over the 25 cells
//! (`y · 5 + x`): the piece on `from` (a rabbit's cell, a fox's top or left
//! cell) moves so that it lands on, or for a fox slides into, `target`.

use crate::replay::{self, Reduced, Replay, Saved};
use crate::solvers::bounded;
use crate::value_error;
use arcade_core::progress::Progress;
use arcade_jumpin::challenges::official;
use arcade_jumpin::geometry::{HOLES, cells, xy};
use arcade_jumpin::play::{JumpinGame, PlayMove};
use arcade_jumpin::{Axis, Fox, Piece, Position, parse_board, parse_code};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

/// A cell as Python sees it, `(x, y)`.
type Cell2 = (u8, u8);

/// Cells of the 5 × 5 board.
const CELLS: usize = 25;
/// Actions: a from cell and a target cell.
pub(crate) const ACTIONS: usize = CELLS * CELLS;
/// Observation planes: rabbits, mushrooms, holes, horizontal and vertical fox cells.
const PLANES: usize = 5;

fn index([x, y]: [u8; 2]) -> usize {
    usize::from(y) * 5 + usize::from(x)
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
    game: JumpinGame,
    illegal: bool,
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

impl JumpinCore {
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

    fn start(&mut self, position: &Position) {
        self.game = JumpinGame::new(position);
        self.illegal = false;
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
        let first = &official()[0].position;
        JumpinCore {
            game: JumpinGame::new(first),
            illegal: false,
            replay: Replay::new(pieces(first)),
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
        py.detach(|| self.start(&p));
        Ok(())
    }

    /// Loads official challenge `number` (1–60).
    fn load_challenge(&mut self, py: Python<'_>, number: u32) -> PyResult<()> {
        let list = official();
        let c = list
            .iter()
            .find(|c| c.number == number)
            .ok_or_else(|| value_error(format!("challenge {number} is out of range (1..=60)")))?;
        py.detach(|| self.start(&c.position));
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
        py.detach(|| {
            let g = arcade_jumpin::generate::generate(pieces, moves, seed, &Progress::hidden())
                .map_err(value_error)?;
            self.start(&g.position);
            Ok(g.exact)
        })
    }

    /// Makes the move `action`: (terminated, illegal). A move the mask does
    /// not allow ends the episode; an action outside `0..625` is an error.
    fn step(&mut self, action: i64) -> PyResult<(bool, bool)> {
        if self.illegal || self.game.is_solved() {
            return Err(value_error("the episode is over"));
        }
        let a = usize::try_from(action)
            .ok()
            .filter(|&a| a < ACTIONS)
            .ok_or_else(|| {
                value_error(format!("action {action} is out of range (0..{ACTIONS})"))
            })?;
        self.replay.record(a as u32); // a < ACTIONS
        match self.moves().into_iter().find(|m| action_of(m) == a) {
            Some(m) => {
                self.game.play(m.step.from, m.target).map_err(value_error)?;
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
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<JumpinObs<'py>> {
        let p = self.game.position();
        let mut planes = vec![0u8; PLANES * CELLS];
        let mut mark = |plane: usize, mask: u32| {
            for c in cells(mask) {
                planes[plane * CELLS + usize::from(c)] = 1;
            }
        };
        mark(0, p.rabbits());
        mark(1, p.mushrooms());
        mark(2, HOLES);
        for f in p.foxes() {
            mark(if f.axis == Axis::Horizontal { 3 } else { 4 }, f.mask());
        }
        let mut mask = vec![0i8; ACTIONS];
        if !self.illegal && !self.game.is_solved() {
            for m in self.moves() {
                mask[action_of(&m)] = 1;
            }
        }
        Ok((
            PyArray1::from_vec(py, planes).reshape([PLANES, 5, 5])?,
            PyArray1::from_vec(py, mask),
        ))
    }

    /// The legal moves: `(action, piece, from, to, target)` with cells as
    /// `(x, y)`; `to` is a fox's top or left cell after the move, as
    /// `arcade jumpin solve` prints it.
    fn legal_moves(&self) -> Vec<(usize, &'static str, Cell2, Cell2, Cell2)> {
        if self.illegal || self.game.is_solved() {
            return Vec::new();
        }
        self.moves()
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
    fn solver_action(&self, py: Python<'_>) -> Option<usize> {
        if self.illegal {
            return None;
        }
        py.detach(|| self.game.hint().next.map(|m| action_of(&m)))
    }

    /// The optimal solution length of the puzzle from its start.
    #[getter]
    fn optimal(&self) -> Option<usize> {
        self.game.view().optimal
    }

    #[getter]
    fn moves_made(&self) -> usize {
        self.game.view().moves
    }

    #[getter]
    fn solved(&self) -> bool {
        self.game.is_solved()
    }

    /// The challenge code of the current position (none with four rabbits).
    #[getter]
    fn code(&self) -> Option<String> {
        self.game.position().to_code()
    }

    /// The board text of `arcade jumpin solve` (`.` empty, `R` rabbit, `F`
    /// fox, `X` mushroom; the holes are the corners and the centre).
    fn text(&self) -> String {
        self.game.position().to_string()
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
    m.add_function(wrap_pyfunction!(jumpin_challenges, m)?)?;
    Ok(())
}
