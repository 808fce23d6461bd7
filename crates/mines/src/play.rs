//! Playing a whole game: the first click, then local deductions, then the
//! exact engine, then a guess, until the game is won or lost.

use crate::board::{Board, BoardError, Level, Rule};
use crate::deduce::deduce;
use crate::frontier::SolveError;
use crate::game::{Game, Status};
use crate::position::{Cell, Position};
use crate::probability::{Analysis, analyze_settled};
use crate::solver::{Guess, Solver, Strength};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;
use thiserror::Error;

/// Something that happened in a game, for display.
pub enum Event<'a> {
    /// Cells revealed because they were certainly safe.
    Safe {
        cells: &'a [usize],
        view: &'a Position,
    },
    /// A guess, with the probabilities the solver saw.
    Guess {
        guess: Guess,
        analysis: &'a Analysis,
        view: &'a Position,
    },
    /// The game ended.
    End { status: Status, view: &'a Position },
}

/// How a game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Record {
    pub won: bool,
    /// Guesses made after the first click.
    pub guesses: u32,
    /// Times the exact engine ran.
    pub analyses: u32,
    /// Safe cells left unrevealed at the end (0 when won).
    pub safe_left: u32,
}

/// Plays `board` from the first click at `first` (a cell index) and returns
/// how it went; `observe` sees every step.
pub fn play(
    board: Board,
    first: usize,
    solver: &Solver,
    observe: impl FnMut(Event),
) -> Result<Record, SolveError> {
    let mut game = Game::new(board);
    let mut opened = Vec::new();
    game.reveal(first, &mut opened);
    play_on(game, opened, solver, observe)
}

/// Plays on from a game in progress, where `opened` lists every cell
/// revealed so far (the opening moves were someone else's).
pub fn play_on(
    mut game: Game,
    mut opened: Vec<usize>,
    solver: &Solver,
    mut observe: impl FnMut(Event),
) -> Result<Record, SolveError> {
    let mut record = Record::default();
    // The player's own view: the game's numbers plus the mines it proved.
    let mut view = game.view().clone();
    let mut safe = Vec::new();
    // Cells whose state changed since the deductions last stood still.
    let mut changed = opened.clone();
    while game.status() == Status::Playing {
        sync(&mut view, game.view(), &opened);
        safe.clear();
        deduce(&mut view, Some(&changed), &mut safe);
        changed.clear();
        if safe.is_empty() {
            let analysis = analyze_settled(&view)?;
            record.analyses += 1;
            for &m in analysis.mines() {
                view.set(m, Cell::Mine);
                changed.push(m);
            }
            safe.extend_from_slice(analysis.safe());
            if safe.is_empty() {
                let guess = solver.guess(&view, &analysis)?;
                observe(Event::Guess {
                    guess,
                    analysis: &analysis,
                    view: &view,
                });
                record.guesses += 1;
                opened.clear();
                game.reveal(guess.cell, &mut opened);
                changed.extend_from_slice(&opened);
                continue;
            }
        }
        opened.clear();
        for &c in &safe {
            game.reveal(c, &mut opened);
        }
        observe(Event::Safe {
            cells: &safe,
            view: game.view(),
        });
        changed.extend_from_slice(&opened);
    }
    sync(&mut view, game.view(), &opened);
    record.won = game.status() == Status::Won;
    record.safe_left = game.safe_left() as u32;
    observe(Event::End {
        status: game.status(),
        view: &view,
    });
    Ok(record)
}

/// The position with the certain mines flagged, as a player in a game sees
/// it: the solver looks ahead from there.
pub fn flag_certain(pos: &Position, analysis: &Analysis) -> Position {
    let mut view = pos.clone();
    for &m in analysis.mines() {
        view.set(m, Cell::Mine);
    }
    view
}

/// The move to play in `pos`: the first certainly safe cell if there is one,
/// else the solver's guess; `None` when every hidden cell is a mine. A game
/// ([`play_on`]) makes the same choice, revealing every safe cell at once.
pub fn next_move(
    pos: &Position,
    analysis: &Analysis,
    solver: &Solver,
) -> Result<Option<usize>, SolveError> {
    if let Some(&s) = analysis.safe().first() {
        return Ok(Some(s));
    }
    if analysis.hidden().all(|(_, p)| p >= 1.0) {
        return Ok(None);
    }
    Ok(Some(
        solver.guess(&flag_certain(pos, analysis), analysis)?.cell,
    ))
}

/// Copies newly revealed numbers from the game into the player's view.
fn sync(view: &mut Position, game: &Position, opened: &[usize]) {
    for &c in opened {
        view.set(c, game.cell(c));
    }
}

/// One seeded game, as `arcade mines play --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayReport {
    pub level: String,
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    pub rule: Rule,
    pub first: [usize; 2],
    pub seed: u64,
    pub won: bool,
    pub guesses: u32,
    pub safe_left: u32,
    pub seconds: f64,
    /// The last guess of the game, if any.
    pub last_guess: Option<LastGuess>,
    /// The layout as text (not serialised; the text form shows it).
    #[serde(skip)]
    pub layout: String,
}

/// A guess: the cell `[x, y]` and its mine probability.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LastGuess {
    pub cell: [usize; 2],
    pub mine_probability: f64,
}

/// Plays the layout of `seed` from the first click `first` (`(x, y)`);
/// `observe` sees every step (a terminal animation, a web stream).
pub fn play_seeded(
    level: Level,
    rule: Rule,
    first: (usize, usize),
    seed: u64,
    strength: Strength,
    mut observe: impl FnMut(&Event),
) -> Result<PlayReport, PlayError> {
    let board = Board::generate(level, rule, first, seed)?;
    let grid = level.grid();
    let layout = board.to_text();
    let mut last_guess = None;
    let start = Instant::now();
    let solver = Solver::new(strength.config());
    let record = play(board, grid.index(first.0, first.1), &solver, |event| {
        if let Event::Guess { guess, .. } = &event {
            let (x, y) = grid.coords(guess.cell);
            last_guess = Some(LastGuess {
                cell: [x, y],
                mine_probability: guess.mine_probability,
            });
        }
        observe(&event);
    })?;
    Ok(PlayReport {
        level: level.name(),
        width: level.width,
        height: level.height,
        mines: level.mines,
        rule,
        first: [first.0, first.1],
        seed,
        won: record.won,
        guesses: record.guesses,
        safe_left: record.safe_left,
        seconds: start.elapsed().as_secs_f64(),
        last_guess,
        layout,
    })
}

/// Why a game could not be played.
#[derive(Debug, Error)]
pub enum PlayError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("the solver failed: {0}")]
    Solve(#[from] SolveError),
}

impl PlayReport {
    /// The one-line outcome.
    pub fn summary(&self) -> String {
        format!(
            "{}, rule {}, seed {}: {} after {} guess{}{}",
            crate::board::level_label(&self.level, self.width, self.height, self.mines),
            self.rule,
            self.seed,
            if self.won { "won" } else { "lost" },
            self.guesses,
            if self.guesses == 1 { "" } else { "es" },
            if self.won {
                String::new()
            } else {
                format!(
                    " ({} safe cells left){}",
                    self.safe_left,
                    self.fatal_guess()
                )
            }
        )
    }

    /// The guess that lost the game, as a clause of the summary.
    fn fatal_guess(&self) -> String {
        self.last_guess.map_or(String::new(), |g| {
            format!(
                ": the last, ({},{}), a {}% chance of a mine, hit one",
                g.cell[0],
                g.cell[1],
                crate::report::percent(g.mine_probability)
            )
        })
    }
}

/// The layout, then the outcome.
impl fmt::Display for PlayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.layout)?;
        writeln!(f, "{}", self.summary())
    }
}
