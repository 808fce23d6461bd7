//! The two-player Minesweeper battle (the PettingZoo environment's engine):
//! a capture moves again, a safe click passes the turn, first to the target wins.

use crate::replay::{self, Reduced, Replay, Saved};
use crate::value_error;
use arcade_core::Rng;
use arcade_mines::Cell;
use arcade_mines::battle::arena::{layout_seed, play_game, seat_rngs};
use arcade_mines::battle::{Ai, Battle, MoveError, Rules};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

/// Observation codes besides hidden (−1) and the numbers 0–8.
const MINE_MINE: i8 = -2;
const MINE_THEIRS: i8 = -3;

fn rules(level: &str, target: Option<usize>) -> PyResult<Rules> {
    let rules: Rules = level.parse().map_err(value_error)?;
    match target {
        None => Ok(rules),
        Some(t) => Rules::with_target(rules.level, t).map_err(value_error),
    }
}

fn ai(name: &str) -> PyResult<Ai> {
    name.parse().map_err(value_error)
}

/// One battle: seat 0 moves first on the layout of the seed, and each seat's
/// built-in AI draws from its own random stream, as in `arcade mines battle`.
#[pyclass(module = "arcadekit._arcadekit")]
#[derive(Clone)]
pub struct BattleCore {
    rules: Rules,
    battle: Battle,
    rngs: [Rng; 2],
    /// The constructor's arguments `(level, target)`, for pickling.
    args: (String, Option<usize>),
    /// The clicks since the reset, and where an AI drew from its seat's
    /// random stream ([`ai_draw`]).
    replay: Replay<u64>,
}

/// How the replay notes that `ai` chose a move: from the top of the `u32`s,
/// far above any cell.
fn ai_draw(ai: Ai) -> u32 {
    u32::MAX
        - match ai {
            Ai::Rule => 0,
            Ai::Greedy => 1,
            Ai::Ev => 2,
        }
}

#[pymethods]
impl BattleCore {
    /// A copy of the game as it stands (`copy.deepcopy(env)`), which a search
    /// can play on without touching the original.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    #[new]
    #[pyo3(signature = (level="contest", target=None))]
    fn new(level: &str, target: Option<usize>) -> PyResult<BattleCore> {
        let rules = rules(level, target)?;
        Ok(BattleCore {
            battle: Battle::new(rules, rules.board(0)),
            rngs: seat_rngs(0),
            rules,
            args: (level.into(), target),
            replay: Replay::new(0),
        })
    }

    /// Pickles the game as its arguments, seed and moves (`replay`).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<Reduced<'py, (String, Option<usize>), u64>> {
        let this = slf.borrow();
        this.replay.reduce(slf, this.args.clone())
    }

    /// Unpickles: the same game, replayed (the AIs' draws included).
    fn __setstate__(&mut self, py: Python<'_>, state: Saved<'_, u64>) -> PyResult<()> {
        let (start, moves) = state;
        self.reset(start);
        replay::play_back(&moves, |mv| {
            match Ai::ALL.into_iter().find(|&a| ai_draw(a) == mv) {
                Some(ai) => self.ai_action(py, ai.name()).map(drop),
                None => self.play(i64::from(mv)).map(drop),
            }
        })
    }

    /// Game 0 of a match with master `seed`: the game `arcade mines battle
    /// --seed seed` plays first and the web arena plays for `seed`.
    fn reset(&mut self, seed: u64) {
        let layout = layout_seed(seed, 0);
        self.battle = Battle::new(self.rules, self.rules.board(layout));
        self.rngs = seat_rngs(layout);
        self.replay.restart(seed);
    }

    /// Clicks `cell` for the player to move: True if it captured a mine,
    /// None (and nothing played) if the cell is not hidden, the illegal move
    /// the environment ends the game on. A cell off the board is an error,
    /// worded as every core words it.
    fn play(&mut self, cell: i64) -> PyResult<Option<bool>> {
        let cells = self.rules.level.width * self.rules.level.height;
        let cell = crate::mines::check_cell(cells, cell).map_err(value_error)?;
        let turn = match self.battle.play(cell) {
            Ok(turn) => turn,
            Err(MoveError::NotHidden { .. } | MoveError::Captured { .. }) => return Ok(None),
            Err(e) => return Err(value_error(e)),
        };
        self.replay.record(cell as u32); // a cell of the board
        Ok(Some(turn == arcade_mines::battle::Turn::Captured))
    }

    /// The cell the built-in AI (`rule`, `greedy` or `ev`) clicks for the
    /// player to move, drawing from that seat's random stream.
    fn ai_action(&mut self, py: Python<'_>, ai_name: &str) -> PyResult<usize> {
        let ai = ai(ai_name)?;
        if self.battle.is_over() {
            return Err(value_error("the game is over: reset it first"));
        }
        let seat = self.battle.to_move();
        let (view, rng) = (self.battle.view(), &mut self.rngs[seat]);
        let choice = crate::pool::detach_serial(py, || ai.choose(view, rng));
        self.replay.record(ai_draw(ai));
        choice.map_err(value_error)
    }

    /// (grid (H, W), mask (H·W,)) as `seat` sees it: −1 hidden, 0–8 numbers,
    /// −2 mines it captured, −3 mines the other captured.
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<(Bound<'py, PyArray2<i8>>, Bound<'py, PyArray1<i8>>)> {
        let view = self.battle.view();
        let g = view.grid();
        let over = self.battle.is_over();
        let mut grid = Vec::with_capacity(g.len());
        let mut mask = Vec::with_capacity(g.len());
        for i in 0..g.len() {
            grid.push(match view.cell(i) {
                Cell::Hidden => -1,
                Cell::Number(n) => n as i8,
                Cell::Mine if self.battle.owner(i) == Some(seat) => MINE_MINE,
                Cell::Mine => MINE_THEIRS,
            });
            mask.push(i8::from(!over && view.is_hidden(i)));
        }
        Ok((
            PyArray1::from_vec(py, grid).reshape([g.height(), g.width()])?,
            PyArray1::from_vec(py, mask),
        ))
    }

    #[getter]
    fn to_move(&self) -> usize {
        self.battle.to_move()
    }

    #[getter]
    fn scores(&self) -> (usize, usize) {
        let s = self.battle.scores();
        (s[0], s[1])
    }

    #[getter]
    fn winner(&self) -> Option<usize> {
        self.battle.winner()
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.battle.is_over()
    }

    #[getter]
    fn width(&self) -> usize {
        self.rules.level.width
    }

    #[getter]
    fn height(&self) -> usize {
        self.rules.level.height
    }

    #[getter]
    fn target(&self) -> usize {
        self.rules.target
    }

    /// The board as text (`A`/`B` mines captured by seat 0/1).
    #[pyo3(signature = (reveal=false))]
    fn text(&self, reveal: bool) -> String {
        self.battle.to_text(reveal)
    }
}

/// Game 0 of `arcade mines battle --seed seed` (`first` moving first):
/// (scores, winner, moves).
#[pyfunction]
#[pyo3(signature = (first, second, seed, level="contest", target=None))]
fn battle_game(
    py: Python<'_>,
    first: &str,
    second: &str,
    seed: u64,
    level: &str,
    target: Option<usize>,
) -> PyResult<((usize, usize), Option<usize>, usize)> {
    let rules = rules(level, target)?;
    let players = [ai(first)?, ai(second)?];
    let r = crate::pool::detach_serial(py, || {
        play_game(rules, players, layout_seed(seed, 0), |_, _, _| {})
    })
    .map_err(value_error)?;
    Ok(((r.scores[0], r.scores[1]), r.winner, r.moves))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BattleCore>()?;
    m.add_function(wrap_pyfunction!(battle_game, m)?)?;
    Ok(())
}
