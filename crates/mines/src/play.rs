//! Playing a whole game: the first click, then local deductions, then the
//! exact engine, then a guess, until the game is won or lost.

use crate::board::Board;
use crate::deduce::deduce;
use crate::frontier::SolveError;
use crate::game::{Game, Status};
use crate::position::{Cell, Position};
use crate::probability::{Analysis, analyze_settled};
use crate::solver::{Guess, Solver};

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

/// Copies newly revealed numbers from the game into the player's view.
fn sync(view: &mut Position, game: &Position, opened: &[usize]) {
    for &c in opened {
        view.set(c, game.cell(c));
    }
}
