//! Jump In' puzzles: rules, optimal solver, exhaustive search, generator.
//!
//! "Jump In'" (SmartGames) is a 5×5 board with five holes (the corners and the
//! centre). Rabbits jump in straight lines over occupied cells, foxes slide
//! along their length, mushrooms never move; the goal is every rabbit in a hole.
//!
//! - [`geometry`]: cells as bitmasks, holes, jump rays, the 8 symmetries;
//! - [`position`], [`parse`]: positions, the board and challenge-code formats;
//! - [`rules`]: the moves on a compact state (rabbit cells + fox offsets);
//! - [`index`]: dense numbering of states, for flat visited marks;
//! - [`solve`](mod@solve): shortest solutions by breadth-first search;
//! - [`retrograde`]: optimal move counts of every state of a layout at once;
//! - [`hardest`]: exhaustive search of a piece set for the longest puzzles;
//! - [`generate`]: new puzzles with a chosen optimal solution length;
//! - [`challenges`], [`bench`](mod@bench): lists of challenges with known minimum move
//!   counts, and timing the solver on them;
//! - [`report`]: what each command answers, as typed, serialisable reports;
//! - [`play`]: a puzzle as a person plays it (legal moves of a piece, undo,
//!   hints).

pub mod bench;
pub mod challenges;
pub mod generate;
pub mod geometry;
pub mod hardest;
pub mod index;
pub mod parse;
pub mod play;
pub mod position;
pub mod report;
pub mod retrograde;
pub mod rules;
pub mod solve;

pub use parse::{ParseError, parse_board, parse_code};
pub use position::{Axis, Fox, Position, PositionError};
pub use report::{
    BenchSummary, GenerateReport, HardestSummary, SolveReport, bench_report, generate_report,
    hardest_report, solve_report,
};
pub use rules::{Layout, Move, State};
pub use solve::{Outcome, Piece, Step, solve};
