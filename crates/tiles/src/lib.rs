//! Layered triple-tile games (Sheep a Sheep, 羊了个羊): engine, exact solver,
//! generator.
//!
//! - [`level`]: tiles, layers, who covers whom; [`load`] reads the game's
//!   captured JSON ([`capture`]) and arcade's own format ([`format`](mod@format));
//!   [`layout`] makes the classic two-grid levels;
//! - [`board`]: the rules (free tiles, the tray, triples vanishing);
//!   [`check`]: an independent replay of a click sequence;
//! - [`greedy`]: the usual heuristic player; [`exact`]: a solver that proves
//!   a level solvable or not;
//! - [`generate`]: levels solvable by construction, with a difficulty knob;
//!   [`evolve`]: the published DE-swap approach, for comparison;
//! - [`report`]: what `solve` and `check` answer, as typed reports;
//!   [`generated`]: generate-then-verify and the generated level's `meta`;
//! - [`play`]: a level as a person plays it (clicks, tray, undo, the
//!   solver's verdict and hint after every click);
//! - [`bench`](mod@bench): many classic levels through the players and the generators,
//!   streamed and shardable.

pub mod bench;
pub mod bitset;
pub mod board;
pub mod capture;
pub mod check;
pub mod evolve;
pub mod exact;
pub mod format;
pub mod generate;
pub mod generated;
pub mod greedy;
pub mod layout;
pub mod level;
pub mod load;
pub mod play;
pub mod report;
#[cfg(test)]
mod rng_walk;
mod table;

pub use board::{Board, Click};
pub use check::{Ending, Replay, replay};
pub use exact::{Limits, Outcome, Verdict, solve, solve_from};
pub use generated::{GenerateConfig, GeneratedLevel, generate_verified};
pub use greedy::{Playout, play_greedy};
pub use level::{Level, Rect, Tile};
pub use load::{LoadError, load_level};
pub use report::{CheckReport, SolveReport, Solver, check_clicks, parse_clicks, solve_level};
