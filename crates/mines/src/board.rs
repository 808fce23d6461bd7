//! Mine layouts: board sizes (levels), first-click rules and seeded generation.

use crate::grid::{Grid, SizeError};
use arcade_core::Rng;
use arcade_core::input::quote;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// What the first click is protected from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// "Safe first action, random": the first cell is never a mine; mines are
    /// uniform over the other cells (Windows XP).
    Sfar,
    /// "Safe neighbourhood, random": the first cell and its 8 neighbours are
    /// mine-free, so the first click opens an area (modern clients).
    Snr,
    /// No protection: the first click can lose.
    None,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Sfar => "sfar",
            Rule::Snr => "snr",
            Rule::None => "none",
        }
    }

    /// The first click the published benchmarks use: the corner (0,0) for
    /// SFAR (and no protection), (3,3) for SNR — clipped to small boards.
    pub fn default_first(self, grid: Grid) -> (usize, usize) {
        match self {
            Rule::Sfar | Rule::None => (0, 0),
            Rule::Snr => (3.min(grid.width() - 1), 3.min(grid.height() - 1)),
        }
    }

    /// The most cells the rule keeps free of mines, over every first click:
    /// an SNR click away from the edges protects a whole 3×3 block.
    fn most_protected(self, grid: Grid) -> usize {
        match self {
            Rule::Sfar => 1,
            Rule::Snr => grid.width().min(3) * grid.height().min(3),
            Rule::None => 0,
        }
    }

    /// Checks that `level`'s mines fit whatever the first click is, for
    /// games whose first click is not known yet (an agent's or a player's):
    /// a level that fits only beside the edges would fail at the click.
    pub fn check_every_first(self, level: Level) -> Result<(), BoardError> {
        let cells = level.width * level.height;
        let room = cells.saturating_sub(self.most_protected(level.grid()));
        if level.mines > room {
            return Err(BoardError::NoRoomForSomeFirst {
                mines: level.mines,
                room,
                rule: self,
                level: level.name(),
            });
        }
        Ok(())
    }

    /// Cells that may hold a mine when the first click is `first`.
    fn allowed(self, grid: Grid, first: usize) -> Vec<usize> {
        let protected: Vec<usize> = match self {
            Rule::Sfar => vec![first],
            Rule::Snr => grid.block(first).collect(),
            Rule::None => Vec::new(),
        };
        (0..grid.len()).filter(|i| !protected.contains(i)).collect()
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;

    fn from_str(s: &str) -> Result<Rule, String> {
        match s.to_ascii_lowercase().as_str() {
            "sfar" => Ok(Rule::Sfar),
            "snr" => Ok(Rule::Snr),
            "none" => Ok(Rule::None),
            _ => Err(format!(
                "unknown rule {} (expected sfar, snr or none)",
                quote(s)
            )),
        }
    }
}

/// A level named in a report: `expert (30x16/99)`, or `10x10/5` alone when
/// its name is its size.
pub fn level_label(name: &str, width: usize, height: usize, mines: usize) -> String {
    let size = format!("{width}x{height}/{mines}");
    match name == size {
        true => size,
        false => format!("{name} ({size})"),
    }
}

/// A board size and mine count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
}

/// A level string that is neither a preset nor `WxH/M`, or a size out of range.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LevelError {
    #[error(
        "unknown level {0} (expected beginner, intermediate, expert or WIDTHxHEIGHT/MINES such as 30x16/99)"
    )]
    /// The level as given, quoted and cut ([`quote`]), and a name it
    /// may be a misspelling of.
    Syntax(String),
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error(
        "{mines} mines do not fit on a {width}x{height} board (at most {}: a game needs a safe cell)",
        width * height - 1
    )]
    TooManyMines {
        width: usize,
        height: usize,
        mines: usize,
    },
}

impl Level {
    pub const BEGINNER: Level = Level::new_unchecked(9, 9, 10);
    pub const INTERMEDIATE: Level = Level::new_unchecked(16, 16, 40);
    pub const EXPERT: Level = Level::new_unchecked(30, 16, 99);

    const fn new_unchecked(width: usize, height: usize, mines: usize) -> Level {
        Level {
            width,
            height,
            mines,
        }
    }

    /// A level whose size the engine accepts and whose mines leave a safe
    /// cell (a board of mines only would be won before the first click).
    pub fn new(width: usize, height: usize, mines: usize) -> Result<Level, LevelError> {
        let grid = Grid::new(width, height)?;
        if mines >= grid.len() {
            return Err(LevelError::TooManyMines {
                width,
                height,
                mines,
            });
        }
        Ok(Level::new_unchecked(width, height, mines))
    }

    pub fn grid(&self) -> Grid {
        Grid::new(self.width, self.height).expect("levels hold valid sizes")
    }

    /// `beginner`, `intermediate`, `expert` or `WxH/M` such as `30x16/99`.
    pub fn name(&self) -> String {
        match *self {
            Level::BEGINNER => "beginner".into(),
            Level::INTERMEDIATE => "intermediate".into(),
            Level::EXPERT => "expert".into(),
            Level {
                width,
                height,
                mines,
            } => format!("{width}x{height}/{mines}"),
        }
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        match s.to_ascii_lowercase().as_str() {
            "beginner" => return Ok(Level::BEGINNER),
            "intermediate" => return Ok(Level::INTERMEDIATE),
            "expert" => return Ok(Level::EXPERT),
            _ => {}
        }
        let syntax = || {
            let names = ["beginner", "intermediate", "expert"];
            let hint = arcade_core::text::did_you_mean(&s.trim().to_ascii_lowercase(), names);
            LevelError::Syntax(format!("{}{hint}", quote(s)))
        };
        let (size, mines) = s.split_once('/').ok_or_else(syntax)?;
        let (w, h) = size.split_once(['x', 'X']).ok_or_else(syntax)?;
        let num = |t: &str| t.trim().parse::<usize>().map_err(|_| syntax());
        Level::new(num(w)?, num(h)?, num(mines)?)
    }
}

/// A layout cannot be generated as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("first click ({x},{y}) is outside the {width}x{height} board")]
    FirstOutside {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    #[error("{mines} mines do not fit in the {room} cells rule {rule} leaves free")]
    NoRoom {
        mines: usize,
        room: usize,
        rule: Rule,
    },
    #[error(
        "{mines} mines do not fit on level {level} under rule {rule}: a first click can leave as few as {room} cells free"
    )]
    NoRoomForSomeFirst {
        mines: usize,
        room: usize,
        rule: Rule,
        level: String,
    },
}

/// Where the mines are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    mine: Vec<bool>,
    mines: usize,
}

impl Board {
    /// A uniformly random layout under `rule` for a first click at `first`:
    /// the same seed always gives the same layout.
    pub fn generate(
        level: Level,
        rule: Rule,
        first: (usize, usize),
        seed: u64,
    ) -> Result<Board, BoardError> {
        let grid = level.grid();
        let first = grid
            .checked_index(first.0, first.1)
            .ok_or(BoardError::FirstOutside {
                x: first.0,
                y: first.1,
                width: grid.width(),
                height: grid.height(),
            })?;
        let mut cells = rule.allowed(grid, first);
        if level.mines > cells.len() {
            return Err(BoardError::NoRoom {
                mines: level.mines,
                room: cells.len(),
                rule,
            });
        }
        // Partial Fisher–Yates: the first `mines` entries are a uniform
        // subset of the allowed cells.
        let mut rng = Rng::new(seed);
        let mut mine = vec![false; grid.len()];
        for i in 0..level.mines {
            let j = i + rng.index(cells.len() - i);
            cells.swap(i, j);
            mine[cells[i]] = true;
        }
        Ok(Board {
            grid,
            mine,
            mines: level.mines,
        })
    }

    /// A board with mines exactly at the given cells.
    pub fn from_mines(grid: Grid, cells: impl IntoIterator<Item = usize>) -> Board {
        let mut mine = vec![false; grid.len()];
        for c in cells {
            mine[c] = true;
        }
        let mines = mine.iter().filter(|&&m| m).count();
        Board { grid, mine, mines }
    }

    #[inline]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Total number of mines.
    #[inline]
    pub fn mines(&self) -> usize {
        self.mines
    }

    #[inline]
    pub fn is_mine(&self, i: usize) -> bool {
        self.mine[i]
    }

    /// Mines among the neighbours of `i`: the number a revealed `i` shows.
    pub fn adjacent(&self, i: usize) -> u8 {
        self.grid.neighbours(i).filter(|&n| self.mine[n]).count() as u8
    }

    /// The board as rows of `*` (mine) and digits.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.grid.len() + self.grid.height());
        for y in 0..self.grid.height() {
            for x in 0..self.grid.width() {
                let i = self.grid.index(x, y);
                s.push(if self.mine[i] {
                    '*'
                } else {
                    char::from(b'0' + self.adjacent(i))
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

    #[test]
    fn every_first_check_agrees_with_generating_at_every_click() {
        // The naive reference: the level fits iff every first click generates.
        let mut only_some_clicks = 0;
        for (width, height) in (1..=5).flat_map(|w| (1..=5).map(move |h| (w, h))) {
            for mines in 0..width * height {
                let level = Level::new(width, height, mines).unwrap();
                for rule in [Rule::Sfar, Rule::Snr, Rule::None] {
                    let clicks: Vec<bool> = (0..width)
                        .flat_map(|x| (0..height).map(move |y| (x, y)))
                        .map(|first| Board::generate(level, rule, first, 7).is_ok())
                        .collect();
                    let every = clicks.iter().all(|&ok| ok);
                    assert_eq!(
                        rule.check_every_first(level).is_ok(),
                        every,
                        "{level:?} {rule}"
                    );
                    only_some_clicks += usize::from(!every && clicks.iter().any(|&ok| ok));
                }
            }
        }
        // Levels that fit beside an edge but not in the middle: the case the
        // check exists for.
        assert!(only_some_clicks >= 20, "{only_some_clicks}");
        // A board of mines only would be won before the first click.
        assert_eq!(
            "2x2/4".parse::<Level>().unwrap_err().to_string(),
            "4 mines do not fit on a 2x2 board (at most 3: a game needs a safe cell)"
        );
        let err = Rule::Snr.check_every_first("4x4/8".parse().unwrap());
        assert_eq!(
            err.unwrap_err().to_string(),
            "8 mines do not fit on level 4x4/8 under rule snr: a first click can leave as few as 7 cells free"
        );
    }

    #[test]
    fn levels_parse() {
        assert_eq!("expert".parse::<Level>().unwrap(), Level::EXPERT);
        assert_eq!(
            "30x16/99".parse::<Level>().unwrap().name(),
            "expert".to_string()
        );
        assert_eq!(
            "100x100/2000".parse::<Level>().unwrap(),
            Level::new(100, 100, 2000).unwrap()
        );
        assert!("9x9".parse::<Level>().is_err());
        assert!("9x9/82".parse::<Level>().is_err());
        assert!("0x9/1".parse::<Level>().is_err());
    }

    #[test]
    fn same_seed_same_layout() {
        let a = Board::generate(Level::EXPERT, Rule::Sfar, (0, 0), 5).unwrap();
        let b = Board::generate(Level::EXPERT, Rule::Sfar, (0, 0), 5).unwrap();
        let c = Board::generate(Level::EXPERT, Rule::Sfar, (0, 0), 6).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.mines(), 99);
    }

    #[test]
    fn first_click_rules_hold() {
        let grid = Level::EXPERT.grid();
        for seed in 0..200 {
            let sfar = Board::generate(Level::EXPERT, Rule::Sfar, (0, 0), seed).unwrap();
            assert!(!sfar.is_mine(0));
            let snr = Board::generate(Level::EXPERT, Rule::Snr, (3, 3), seed).unwrap();
            assert!(grid.block(grid.index(3, 3)).all(|c| !snr.is_mine(c)));
        }
        let crowded = Level::new(3, 3, 8).unwrap();
        assert!(Board::generate(crowded, Rule::Sfar, (1, 1), 1).is_ok());
        assert!(matches!(
            Board::generate(crowded, Rule::Snr, (1, 1), 1),
            Err(BoardError::NoRoom { .. })
        ));
        assert!(Board::generate(crowded, Rule::Sfar, (3, 0), 1).is_err());
    }

    /// Under SFAR with a corner start every other cell is equally likely to
    /// hold a mine: 4x4 with 3 mines gives each of the 15 cells 1/5.
    #[test]
    fn layouts_are_uniform() {
        let level = Level::new(4, 4, 3).unwrap();
        let n = 60_000;
        let mut counts = [0u32; 16];
        for seed in 0..n {
            let b = Board::generate(level, Rule::Sfar, (0, 0), seed).unwrap();
            for (i, c) in counts.iter_mut().enumerate() {
                *c += u32::from(b.is_mine(i));
            }
        }
        assert_eq!(counts[0], 0);
        let expected = n as f64 / 5.0;
        for &c in &counts[1..] {
            assert!(
                (c as f64 - expected).abs() < 5.0 * (expected * 0.8).sqrt(),
                "{counts:?}"
            );
        }
    }
}
