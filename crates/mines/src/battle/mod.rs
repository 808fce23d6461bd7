//! Two-player Minesweeper ("Minesweeper Flags"): the players share one board
//! and race to find mines.
//!
//! - [`rules`]: the game (capture moves again, a safe click passes the turn,
//!   first to a majority wins);
//! - [`ai`]: the players `rule`, `greedy` and `ev`;
//! - [`ev`]: the expected-value search behind `ev`, built on the
//!   crate's exact probabilities ([`crate::analyze`], [`crate::outcomes`]);
//! - [`arena`]: seeded matches with alternating seats;
//! - [`live`]: one battle driven move by move (people and AIs), for front ends.

pub mod ai;
pub mod arena;
pub mod ev;
pub mod live;
pub mod rules;

pub use ai::Ai;
pub use arena::{GameResult, MatchConfig, MatchReport, play_game, play_game_until, run_match};
pub use rules::{Battle, MoveError, Rules, Turn};
