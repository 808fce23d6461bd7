//! A puzzle as a person plays it: the legal moves of the piece under a
//! click, moves, undo, and hints (the next move of an optimal solution and
//! how many moves remain). The web arena and the Python environment hold a
//! [`JumpinGame`] per session.

use crate::geometry::{Cell, HOLES, cell, cells, xy};
use crate::position::Position;
use crate::report::Board;
use crate::rules::{Layout, Move, State};
use crate::solve::{Step, describe, solve};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A move a person cannot make.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("cell ({x},{y}) is outside the 5x5 board")]
    Outside { x: u8, y: u8 },
    #[error("no rabbit or fox at ({x},{y})")]
    NoPiece { x: u8, y: u8 },
    #[error("the piece at ({x},{y}) cannot move to ({tx},{ty})")]
    Illegal { x: u8, y: u8, tx: u8, ty: u8 },
    #[error("the puzzle is already solved")]
    Solved,
}

/// A legal move: the [`Step`] and the cell a person clicks to make it (a
/// rabbit's landing cell, the cell a fox slides into).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayMove {
    #[serde(flatten)]
    pub step: Step,
    pub target: [u8; 2],
}

/// The next move of an optimal solution and how many moves remain from here
/// (`None` for both when the position cannot be solved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hint {
    pub next: Option<PlayMove>,
    pub moves_left: Option<usize>,
}

/// The hint of a position without a solution.
const NO_HINT: Hint = Hint {
    next: None,
    moves_left: None,
};

/// What the player sees, for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JumpinView {
    #[serde(flatten)]
    pub board: Board,
    pub rabbits: Vec<[u8; 2]>,
    pub mushrooms: Vec<[u8; 2]>,
    /// Each fox's two cells.
    pub foxes: Vec<[[u8; 2]; 2]>,
    pub holes: Vec<[u8; 2]>,
    /// Moves made so far.
    pub moves: usize,
    /// The optimal solution length from the start.
    pub optimal: Option<usize>,
    pub solved: bool,
    /// The last move made.
    pub last: Option<PlayMove>,
}

/// A puzzle in play.
#[derive(Clone, Debug)]
pub struct JumpinGame {
    layout: Layout,
    start: State,
    state: State,
    history: Vec<(State, PlayMove)>,
    optimal: Option<usize>,
    /// The last shortest solution found, for [`JumpinGame::hint_along`].
    plan: Option<Plan>,
}

/// A shortest solution in the solver's layout (foxes in reading order, as
/// [`Layout::split`] numbers them): the states it passes through, from its
/// start to the solved one, and its moves.
#[derive(Clone, Debug)]
struct Plan {
    layout: Layout,
    states: Vec<State>,
    moves: Vec<Move>,
}

impl Plan {
    /// A shortest solution from `here`, or `None` if it has none.
    fn search(here: &Position) -> Option<Plan> {
        let moves = solve(here).solution?;
        let (layout, mut state) = Layout::split(here);
        let mut states = vec![state];
        for &m in &moves {
            state = layout
                .apply(state, m)
                .expect("a solution's moves are legal");
            states.push(state);
        }
        Some(Plan {
            layout,
            states,
            moves,
        })
    }

    /// The hint at `state` of this plan's layout, if the plan passes there.
    fn hint_at(&self, layout: &Layout, state: State) -> Option<Hint> {
        if *layout != self.layout {
            return None;
        }
        let i = self.states.iter().position(|&s| s == state)?;
        Some(Hint {
            next: self.moves.get(i).map(|&m| play_move(layout, state, m)),
            moves_left: Some(self.moves.len() - i),
        })
    }
}

fn at(c: Cell) -> [u8; 2] {
    let (x, y) = xy(c);
    [x, y]
}

impl JumpinGame {
    /// A game from `start`, solved once to know the optimal length.
    pub fn new(start: &Position) -> JumpinGame {
        let (layout, state) = Layout::split(start);
        let plan = Plan::search(start);
        JumpinGame {
            layout,
            start: state,
            state,
            history: Vec::new(),
            optimal: plan.as_ref().map(|p| p.moves.len()),
            plan,
        }
    }

    pub fn position(&self) -> Position {
        self.layout.position(self.state)
    }

    pub fn is_solved(&self) -> bool {
        self.state.is_goal()
    }

    fn cell(x: u8, y: u8) -> Result<Cell, PlayError> {
        if x >= 5 || y >= 5 {
            return Err(PlayError::Outside { x, y });
        }
        Ok(cell(x, y))
    }

    /// The cells of the piece a legal move `m` moves.
    fn moved_cells(&self, m: Move) -> u32 {
        match m {
            Move::Rabbit { from, .. } => 1 << from,
            Move::Fox { fox, .. } => self.layout.fox(self.state, fox as usize).mask(),
        }
    }

    fn moves_of(&self, x: u8, y: u8) -> Result<Vec<(Move, PlayMove)>, PlayError> {
        let c = Self::cell(x, y)?;
        let piece = self.state.rabbits | self.layout.fox_cells(self.state);
        if piece & (1 << c) == 0 {
            return Err(PlayError::NoPiece { x, y });
        }
        let mut out = Vec::new();
        self.layout.for_each_move(self.state, |m, _| {
            if self.moved_cells(m) & (1 << c) != 0 {
                out.push((m, play_move(&self.layout, self.state, m)));
            }
        });
        Ok(out)
    }

    /// The legal moves of the rabbit or fox at `(x, y)`.
    pub fn legal_moves(&self, x: u8, y: u8) -> Result<Vec<PlayMove>, PlayError> {
        Ok(self.moves_of(x, y)?.into_iter().map(|(_, p)| p).collect())
    }

    /// Moves the piece at `from` so that it lands on (or, for a fox, slides
    /// into) `target`.
    pub fn play(&mut self, from: [u8; 2], target: [u8; 2]) -> Result<PlayMove, PlayError> {
        if self.is_solved() {
            return Err(PlayError::Solved);
        }
        let [x, y] = from;
        let [tx, ty] = target;
        Self::cell(tx, ty)?;
        let (m, pm) = self
            .moves_of(x, y)?
            .into_iter()
            .find(|(_, p)| p.target == target)
            .ok_or(PlayError::Illegal { x, y, tx, ty })?;
        let next = self
            .layout
            .apply(self.state, m)
            .expect("a legal move applies");
        self.history.push((self.state, pm));
        self.state = next;
        Ok(pm)
    }

    /// Takes back the last move; `false` at the start.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((s, _)) => {
                self.state = s;
                true
            }
            None => false,
        }
    }

    /// Back to the start.
    pub fn restart(&mut self) {
        self.state = self.start;
        self.history.clear();
    }

    /// The next move of a shortest solution from here and its length, from
    /// a fresh search.
    pub fn hint(&self) -> Hint {
        let here = self.position();
        // The solver numbers the foxes of `here` afresh (in reading order),
        // so its moves are read in its own layout.
        let (layout, state) = Layout::split(&here);
        Plan::search(&here)
            .and_then(|p| p.hint_at(&layout, state))
            .unwrap_or(NO_HINT)
    }

    /// [`JumpinGame::hint`], but while play follows the last solution found,
    /// its next move without a new search: the rest of a shortest solution
    /// is a shortest solution. An agent that follows the hints plays one
    /// solution through for one search (the one [`JumpinGame::new`] made).
    pub fn hint_along(&mut self) -> Hint {
        let here = self.position();
        let (layout, state) = Layout::split(&here);
        if let Some(hint) = self.plan.as_ref().and_then(|p| p.hint_at(&layout, state)) {
            return hint;
        }
        self.plan = Plan::search(&here);
        self.plan
            .as_ref()
            .and_then(|p| p.hint_at(&layout, state))
            .unwrap_or(NO_HINT)
    }

    pub fn view(&self) -> JumpinView {
        let p = self.position();
        JumpinView {
            board: Board::of(&p),
            rabbits: cells(p.rabbits()).map(at).collect(),
            mushrooms: cells(p.mushrooms()).map(at).collect(),
            foxes: p.foxes().iter().map(|f| f.cells().map(at)).collect(),
            holes: cells(HOLES).map(at).collect(),
            moves: self.history.len(),
            optimal: self.optimal,
            solved: self.is_solved(),
            last: self.history.last().map(|&(_, m)| m),
        }
    }
}

/// The legal move `m` in state `s`, as a person sees it.
fn play_move(layout: &Layout, s: State, m: Move) -> PlayMove {
    let step = describe(layout, s, m);
    let target = match m {
        Move::Rabbit { to, .. } => at(to),
        Move::Fox { fox, .. } => {
            let before = layout.fox(s, fox as usize).mask();
            let after = layout
                .apply(s, m)
                .map_or(before, |t| layout.fox(t, fox as usize).mask());
            at((after & !before).trailing_zeros() as Cell)
        }
    };
    PlayMove { step, target }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_code;

    #[test]
    fn a_piece_lists_its_moves_and_plays_one() {
        // Challenge 60: C31B42G34M302203FE11.
        let p = parse_code("C31B42G34M302203FE11").unwrap();
        let mut g = JumpinGame::new(&p);
        let from = g.hint().next.unwrap().step.from;
        let moves = g.legal_moves(from[0], from[1]).unwrap();
        assert!(moves.iter().all(|m| m.step.from == from));
        let m = moves[0];
        assert_eq!(g.play(from, m.target).unwrap(), m);
        assert_eq!(g.view().moves, 1);
        assert!(g.undo());
        assert_eq!(g.position(), p);
        assert!(!g.undo());
    }

    #[test]
    fn bad_clicks_are_errors() {
        let p = parse_code("C31B42G34M302203FE11").unwrap();
        let mut g = JumpinGame::new(&p);
        assert_eq!(g.legal_moves(5, 0), Err(PlayError::Outside { x: 5, y: 0 }));
        assert_eq!(g.legal_moves(0, 0), Err(PlayError::NoPiece { x: 0, y: 0 }));
        assert!(matches!(
            g.play([3, 1], [3, 1]),
            Err(PlayError::Illegal { .. })
        ));
    }
}
