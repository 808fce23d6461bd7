//! A game as a person plays it: the board is laid at the first click (so the
//! rule can protect it), flags, chords on numbers, and the player's view as a
//! serialisable value. The timer is the front end's. The web arena and the
//! Python environment hold a [`HumanGame`] per session.

use crate::board::{Board, BoardError, Level, Rule};
use crate::frontier::SolveError;
use crate::game::{Game, Status};
use crate::position::{Cell, Position};
use crate::report::{AnalyzeReport, Xy, analyze_report};
use crate::solver::Config;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A move a person cannot make.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HumanError {
    #[error("cell ({x},{y}) is outside the {width}x{height} board")]
    Outside {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// Where a person's game stands; `Ready` until the first click lays the mines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HumanStatus {
    Ready,
    Playing,
    Won,
    Lost,
}

/// A game with the player's flags.
#[derive(Clone, Debug)]
pub struct HumanGame {
    level: Level,
    rule: Rule,
    seed: u64,
    game: Option<Game>,
    flags: Vec<bool>,
    /// The mine that ended the game.
    exploded: Option<usize>,
    /// Cells revealed so far (clicks, chords and flood fill).
    opened: Vec<usize>,
}

/// What the player sees, for display. `rows[y]` has one character per cell:
/// `.` hidden, `F` flagged, `0`–`8` revealed; after a loss `*` a mine, `!`
/// the mine that exploded and `x` a wrong flag; after a win every mine is `F`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HumanView {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    pub rule: Rule,
    pub seed: u64,
    pub status: HumanStatus,
    pub rows: Vec<String>,
    pub flags: usize,
    /// The mine counter: mines less flags (negative when over-flagged).
    pub mines_left: i64,
    /// Safe cells not yet revealed.
    pub safe_left: usize,
}

impl HumanGame {
    /// A game on `level` whose mines are laid under `rule` by `seed` at the
    /// first click: the same seed and first click give the same board.
    pub fn new(level: Level, rule: Rule, seed: u64) -> HumanGame {
        HumanGame {
            level,
            rule,
            seed,
            game: None,
            flags: vec![false; level.width * level.height],
            exploded: None,
            opened: Vec::new(),
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn status(&self) -> HumanStatus {
        match self.game.as_ref().map(Game::status) {
            None => HumanStatus::Ready,
            Some(Status::Playing) => HumanStatus::Playing,
            Some(Status::Won) => HumanStatus::Won,
            Some(Status::Lost) => HumanStatus::Lost,
        }
    }

    fn index(&self, x: usize, y: usize) -> Result<usize, HumanError> {
        self.level
            .grid()
            .checked_index(x, y)
            .ok_or(HumanError::Outside {
                x,
                y,
                width: self.level.width,
                height: self.level.height,
            })
    }

    /// What the player knows as a position (flags left out: they may be
    /// wrong), the input of the analyser.
    pub fn position(&self) -> Position {
        match &self.game {
            Some(g) => g.view().clone(),
            None => Position::new(self.level.grid(), self.level.mines),
        }
    }

    /// Reveals `(x, y)`; the first reveal lays the mines. A flagged cell, a
    /// revealed one or a finished game is left as it is.
    pub fn reveal(&mut self, x: usize, y: usize) -> Result<HumanStatus, HumanError> {
        let cell = self.index(x, y)?;
        if self.flags[cell] {
            return Ok(self.status());
        }
        if self.game.is_none() {
            let board = Board::generate(self.level, self.rule, (x, y), self.seed)?;
            self.game = Some(Game::new(board));
        }
        self.open(&[cell]);
        Ok(self.status())
    }

    /// Flags or unflags a hidden cell while the game is on.
    pub fn toggle_flag(&mut self, x: usize, y: usize) -> Result<HumanStatus, HumanError> {
        let cell = self.index(x, y)?;
        let hidden = self.game.as_ref().is_none_or(|g| g.view().is_hidden(cell));
        if hidden && matches!(self.status(), HumanStatus::Ready | HumanStatus::Playing) {
            self.flags[cell] = !self.flags[cell];
        }
        Ok(self.status())
    }

    /// Chords on a revealed number: when as many neighbours are flagged as it
    /// shows, every other hidden neighbour is revealed (a wrong flag loses).
    pub fn chord(&mut self, x: usize, y: usize) -> Result<HumanStatus, HumanError> {
        let cell = self.index(x, y)?;
        let Some(game) = &self.game else {
            return Ok(self.status());
        };
        let Cell::Number(n) = game.view().cell(cell) else {
            return Ok(self.status());
        };
        let grid = self.level.grid();
        let flagged = grid.neighbours(cell).filter(|&c| self.flags[c]).count();
        if flagged == usize::from(n) {
            let view = game.view();
            let targets: Vec<usize> = grid
                .neighbours(cell)
                .filter(|&c| !self.flags[c] && view.is_hidden(c))
                .collect();
            self.open(&targets);
        }
        Ok(self.status())
    }

    fn open(&mut self, cells: &[usize]) {
        let Some(game) = &mut self.game else { return };
        for &c in cells {
            if game.status() != Status::Playing {
                break;
            }
            let before = self.opened.len();
            if game.reveal(c, &mut self.opened) == Status::Lost {
                self.exploded = Some(c);
            }
            // Flood fill may open a cell the player had flagged.
            for &o in &self.opened[before..] {
                self.flags[o] = false;
            }
        }
    }

    /// The analyser's report on what the player sees: exact probabilities,
    /// certain cells and the solver's move.
    pub fn analyze(&self, config: &Config) -> Result<AnalyzeReport, SolveError> {
        analyze_report(&self.position(), config)
    }

    /// The move to play: before the first click the rule's default first
    /// click, then the analyser's best move; `None` once the game is over.
    pub fn hint(&self, config: &Config) -> Result<Option<Xy>, SolveError> {
        match self.status() {
            HumanStatus::Ready => {
                let (x, y) = self.rule.default_first(self.level.grid());
                Ok(Some([x, y]))
            }
            HumanStatus::Playing => Ok(self.analyze(config)?.best),
            HumanStatus::Won | HumanStatus::Lost => Ok(None),
        }
    }

    /// The player's view, for display.
    pub fn view(&self) -> HumanView {
        let grid = self.level.grid();
        let status = self.status();
        // A won game shows every mine flagged (see `shown`), so its counter
        // reads 0, not the mines the player left unflagged.
        let flags = match status {
            HumanStatus::Won => self.level.mines,
            _ => self.flags.iter().filter(|&&f| f).count(),
        };
        let rows = (0..grid.height())
            .map(|y| {
                (0..grid.width())
                    .map(|x| self.shown(grid.index(x, y), status))
                    .collect()
            })
            .collect();
        HumanView {
            width: self.level.width,
            height: self.level.height,
            mines: self.level.mines,
            rule: self.rule,
            seed: self.seed,
            status,
            rows,
            flags,
            mines_left: self.level.mines as i64 - flags as i64,
            safe_left: self.game.as_ref().map_or(
                self.level.width * self.level.height - self.level.mines,
                Game::safe_left,
            ),
        }
    }

    fn shown(&self, cell: usize, status: HumanStatus) -> char {
        let Some(game) = &self.game else {
            return if self.flags[cell] { 'F' } else { '.' };
        };
        let mine = game.board().is_mine(cell);
        match game.view().cell(cell) {
            Cell::Number(n) => char::from(b'0' + n),
            _ if status == HumanStatus::Lost && self.exploded == Some(cell) => '!',
            _ if status == HumanStatus::Lost && self.flags[cell] && !mine => 'x',
            _ if status == HumanStatus::Lost && mine && !self.flags[cell] => '*',
            _ if status == HumanStatus::Won && mine => 'F',
            _ if self.flags[cell] => 'F',
            _ => '.',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_click_is_safe_and_opens_under_snr() {
        for seed in 0..20 {
            let mut g = HumanGame::new(Level::EXPERT, Rule::Snr, seed);
            assert_eq!(g.status(), HumanStatus::Ready);
            assert_eq!(g.reveal(10, 7).unwrap(), HumanStatus::Playing);
            assert_eq!(g.view().rows[7].as_bytes()[10], b'0');
        }
    }

    #[test]
    fn outside_cells_are_errors() {
        let mut g = HumanGame::new(Level::BEGINNER, Rule::Sfar, 1);
        let e = g.reveal(9, 0).unwrap_err();
        assert_eq!(e.to_string(), "cell (9,0) is outside the 9x9 board");
        assert!(g.toggle_flag(0, 9).is_err());
        assert!(g.chord(100, 100).is_err());
    }
}
