//! The two-player rules ("Minesweeper Flags"): two players share one board
//! and race to *find* mines. Clicking a mine captures it and the same player
//! moves again; clicking a safe cell reveals it (a zero floods as usual) and
//! the turn passes. The first to `target` mines wins.

use crate::board::{Board, Level, LevelError, Rule};
use crate::game::Game;
use crate::position::{Cell, Position};
use arcade_core::input::quote;
use std::str::FromStr;
use thiserror::Error;

/// Board size, mine count and the score that wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub level: Level,
    /// Mines a player needs to win (default: a majority of all mines).
    pub target: usize,
}

/// Rules that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error(transparent)]
    Level(#[from] LevelError),
    #[error(
        "unknown level {0} (expected contest, beginner, intermediate, expert or WIDTHxHEIGHT/MINES such as 30x16/99)"
    )]
    /// The level as given, quoted and cut, as [`LevelError::Syntax`] has
    /// it, with its own suggestion.
    Unknown(String),
    #[error("a battle needs at least one mine")]
    NoMines,
    #[error("target {target} is out of range (1 to the {mines} mines on the board)")]
    Target { target: usize, mines: usize },
}

impl Rules {
    /// The contest board: 16×16 with 51 mines, first to 26.
    pub const CONTEST: Rules = Rules {
        level: Level {
            width: 16,
            height: 16,
            mines: 51,
        },
        target: 26,
    };

    /// `level` played to a majority of its mines.
    pub fn new(level: Level) -> Result<Rules, RulesError> {
        Rules::with_target(level, level.mines / 2 + 1)
    }

    /// `level` played to `target` mines.
    pub fn with_target(level: Level, target: usize) -> Result<Rules, RulesError> {
        if level.mines == 0 {
            return Err(RulesError::NoMines);
        }
        if target == 0 || target > level.mines {
            return Err(RulesError::Target {
                target,
                mines: level.mines,
            });
        }
        Ok(Rules { level, target })
    }

    /// The mine layout of `seed`: uniform, no first-click protection.
    pub fn board(&self, seed: u64) -> Board {
        Board::generate(self.level, Rule::None, (0, 0), seed)
            .expect("mines fit: checked when the level was made")
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::CONTEST
    }
}

/// `WxH/M` (first to a majority); the level presets are accepted too.
impl FromStr for Rules {
    type Err = RulesError;

    /// `contest` (the default, 16×16 with 51 mines, first to 26) or a
    /// level as the single-player commands take it.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        if s.trim().eq_ignore_ascii_case("contest") {
            return Ok(Rules::CONTEST);
        }
        match s.parse::<Level>() {
            Ok(level) => Rules::new(level),
            // The battle knows one more name than the single-player levels.
            Err(LevelError::Syntax(_)) => {
                let names = ["contest", "beginner", "intermediate", "expert"];
                let hint = arcade_core::text::did_you_mean(&s.trim().to_ascii_lowercase(), names);
                Err(RulesError::Unknown(format!("{}{hint}", quote(s))))
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A mine: the mover scores and moves again.
    Captured,
    /// Safe: these cells were revealed (more than one when a zero flooded)
    /// and the turn passed.
    Revealed(Vec<usize>),
}

/// A move that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("({x},{y}) is outside the {width}x{height} board")]
    Outside {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    #[error("({x},{y}) is already open")]
    NotHidden { x: usize, y: usize },
    #[error("({x},{y}) is a mine already captured")]
    Captured { x: usize, y: usize },
}

/// A battle in progress.
#[derive(Clone, Debug)]
pub struct Battle {
    rules: Rules,
    game: Game,
    /// What both players see: numbers, and captured mines as known mines.
    view: Position,
    /// Who captured each captured mine.
    owner: Vec<Option<u8>>,
    scores: [usize; 2],
    to_move: usize,
    opened: Vec<usize>,
}

impl Battle {
    /// Player 0 moves first.
    pub fn new(rules: Rules, board: Board) -> Battle {
        let game = Game::new(board);
        let view = game.view().clone();
        Battle {
            owner: vec![None; view.grid().len()],
            rules,
            game,
            view,
            scores: [0, 0],
            to_move: 0,
            opened: Vec::new(),
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The shared view: the only thing a player may base a move on.
    pub fn view(&self) -> &Position {
        &self.view
    }

    /// The player (0 or 1) who moves next.
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    pub fn scores(&self) -> [usize; 2] {
        self.scores
    }

    /// The player who captured the mine at `cell`, if any.
    pub fn owner(&self, cell: usize) -> Option<usize> {
        self.owner[cell].map(usize::from)
    }

    /// Mines nobody has captured yet.
    pub fn mines_left(&self) -> usize {
        self.rules.level.mines - self.scores[0] - self.scores[1]
    }

    /// The player who reached the target.
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| self.scores[p] >= self.rules.target)
    }

    /// Over when someone reached the target or every mine is taken (a draw
    /// is possible only when the target is at most half the mines).
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.mines_left() == 0
    }

    /// Plays `cell` for the player to move.
    pub fn play(&mut self, cell: usize) -> Result<Turn, MoveError> {
        let grid = self.view.grid();
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if cell >= grid.len() {
            return Err(MoveError::Outside {
                x: cell % grid.width(),
                y: cell / grid.width(),
                width: grid.width(),
                height: grid.height(),
            });
        }
        if !self.view.is_hidden(cell) {
            let (x, y) = grid.coords(cell);
            return Err(if self.view.cells()[cell] == Cell::Mine {
                MoveError::Captured { x, y }
            } else {
                MoveError::NotHidden { x, y }
            });
        }
        if self.game.board().is_mine(cell) {
            self.view.set(cell, Cell::Mine);
            self.owner[cell] = Some(self.to_move as u8);
            self.scores[self.to_move] += 1;
            return Ok(Turn::Captured);
        }
        self.opened.clear();
        self.game.reveal(cell, &mut self.opened);
        for &c in &self.opened {
            self.view.set(c, self.game.view().cell(c));
        }
        self.to_move = 1 - self.to_move;
        Ok(Turn::Revealed(self.opened.clone()))
    }

    /// The cell a click at `(x, y)` plays: refused once the game is over
    /// or off the board.
    pub fn cell_at(&self, x: usize, y: usize) -> Result<usize, MoveError> {
        let grid = self.view.grid();
        match grid.checked_index(x, y) {
            _ if self.is_over() => Err(MoveError::GameOver),
            Some(cell) => Ok(cell),
            None => Err(MoveError::Outside {
                x,
                y,
                width: grid.width(),
                height: grid.height(),
            }),
        }
    }

    /// The board as text: `.` hidden, digits, `A`/`B` mines captured by
    /// player 0/1; with `reveal`, uncaptured mines show as `*`.
    pub fn to_text(&self, reveal: bool) -> String {
        let grid = self.view.grid();
        let mut s = String::with_capacity(grid.len() + grid.height());
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let i = grid.index(x, y);
                s.push(match (self.owner[i], self.view.cell(i)) {
                    (Some(p), _) => char::from(b'A' + p),
                    (None, Cell::Hidden) if reveal && self.board().is_mine(i) => '*',
                    (None, c) => c.to_char(),
                });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn battle(w: usize, h: usize, mines: &[usize], target: usize) -> Battle {
        let grid = Grid::new(w, h).unwrap();
        let level = Level::new(w, h, mines.len()).unwrap();
        let rules = Rules::with_target(level, target).unwrap();
        Battle::new(rules, Board::from_mines(grid, mines.iter().copied()))
    }

    #[test]
    fn defaults_are_the_contest_rules() {
        assert_eq!(Rules::default(), "16x16/51".parse().unwrap());
        assert_eq!(Rules::default().target, 26);
        assert_eq!("9x9/10".parse::<Rules>().unwrap().target, 6);
        assert_eq!("Contest".parse::<Rules>().unwrap(), Rules::CONTEST);
        assert_eq!(
            "huge".parse::<Rules>().unwrap_err().to_string(),
            "unknown level \"huge\" (expected contest, beginner, intermediate, expert or WIDTHxHEIGHT/MINES such as 30x16/99)"
        );
        assert!("9x9/0".parse::<Rules>().is_err());
        assert!(Rules::with_target(Level::BEGINNER, 11).is_err());
        assert!(Rules::with_target(Level::BEGINNER, 0).is_err());
    }

    #[test]
    fn capture_moves_again_safe_passes_the_turn() {
        // 4x1: mines at 0 and 3.
        let mut b = battle(4, 1, &[0, 3], 2);
        assert_eq!(b.play(0), Ok(Turn::Captured));
        assert_eq!((b.to_move(), b.scores()), (0, [1, 0]));
        assert_eq!(b.play(0), Err(MoveError::Captured { x: 0, y: 0 }));
        assert_eq!(b.play(1), Ok(Turn::Revealed(vec![1])));
        assert_eq!(b.to_move(), 1);
        assert_eq!(b.play(1), Err(MoveError::NotHidden { x: 1, y: 0 }));
        assert_eq!(b.play(3), Ok(Turn::Captured));
        assert_eq!(b.scores(), [1, 1]);
        // Target 2 of 2 mines: all taken, nobody reached it, a draw.
        assert!(b.is_over());
        assert_eq!(b.winner(), None);
        assert_eq!(b.play(2), Err(MoveError::GameOver));
        assert_eq!(b.to_text(false), "A1.B\n");
    }

    #[test]
    fn zeros_flood_and_the_target_ends_the_game() {
        // 5x1 with a mine at 4: clicking 0 floods 0..=3.
        let mut b = battle(5, 1, &[4], 1);
        let Ok(Turn::Revealed(mut opened)) = b.play(0) else {
            panic!("safe click")
        };
        opened.sort_unstable();
        assert_eq!(opened, vec![0, 1, 2, 3]);
        assert_eq!(b.view().cell(3), Cell::Number(1));
        assert_eq!(b.play(4), Ok(Turn::Captured));
        assert_eq!(b.winner(), Some(1));
        assert_eq!(b.cell_at(9, 0), Err(MoveError::GameOver));
    }

    #[test]
    fn moves_outside_the_board_are_rejected() {
        let mut b = battle(3, 2, &[0], 1);
        assert!(matches!(b.cell_at(3, 0), Err(MoveError::Outside { .. })));
        assert_eq!(b.cell_at(2, 1), Ok(5));
        assert!(matches!(b.play(6), Err(MoveError::Outside { .. })));
        assert_eq!(b.to_text(true), "*..\n...\n");
    }
}
