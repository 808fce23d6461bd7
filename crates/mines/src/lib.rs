//! Minesweeper: engine, exact-probability solver, analyser, battle mode.
//!
//! - [`grid`]: cell indices, coordinates and neighbourhoods;
//! - [`board`]: levels, first-click rules, seeded mine layouts;
//! - [`game`]: reveals with flood fill, win and loss;
//! - [`position`]: what a player sees, and its text format;
//! - [`deduce`]: cheap local deductions (trivial and pair rules);
//! - [`probability`]: exact mine probabilities of every hidden cell
//!   ([`analyze`]); [`outcome`]: the numbers a cell may show and the
//!   analysis after each ([`outcomes`]) — the API other modes build on;
//! - [`solver`]: the guess policy (lookahead, progress tie-breaks),
//!   [`fifty`], forced 50/50s to guess at once, and [`endgame`], exhaustive
//!   search for the move most likely to win;
//! - [`report`]: one position analysed for display ([`analyze_report`]);
//! - [`play`]: a whole game; [`human`]: a game as a person plays it (flags,
//!   chords); [`bench`](mod@bench): seeded win-rate benchmarks;
//! - [`battle`]: the two-player race for mines, its AIs and matches;
//! - [`reference`](mod@reference): brute-force enumeration the engine is tested against.

pub mod battle;
pub mod bench;
pub mod board;
mod count;
pub mod deduce;
pub mod endgame;
pub mod fifty;
mod frontier;
pub mod game;
pub mod grid;
pub mod human;
pub mod outcome;
pub mod play;
pub mod position;
pub mod probability;
pub mod reference;
pub mod report;
pub mod solver;

pub use board::{Board, Level, Rule};
pub use frontier::SolveError;
pub use game::{Game, Status};
pub use grid::Grid;
pub use outcome::{Outcome, outcomes};
pub use position::{Cell, Position};
pub use probability::{Analysis, analyze};
pub use report::{AnalyzeReport, analyze_report};
pub use solver::{Config, Guess, Solver};
