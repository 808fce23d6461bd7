//! `arcade serve`: the web arena. The browser sends moves as JSON, the
//! server holds each game in a session and answers with the library's own
//! serialised types (the views, the analyser's and solvers' reports).
//!
//! - [`server`]: the router, limits (body size, requests in flight) and
//!   [`serve`];
//! - [`sessions`]: games by id, idle expiry, a cap;
//! - [`error`]: the one error policy (a 4xx with `{"error": "..."}`);
//! - [`assets`]: the embedded pages, styles and scripts;
//! - [`mines`]: the Minesweeper routes (play, overlay, hint, AI, analyse);
//! - [`jumpin`]: the Jump In' routes (challenges, generated puzzles, moves,
//!   hints, the optimal solution);
//! - [`tiles`]: the Sheep a Sheep routes (generated or captured levels,
//!   clicks, undo, the solver's verdict and its line);
//! - [`battle`]: two-player Minesweeper (a person against an AI, or two AIs);
//! - [`tetris`]: classic Tetris played in real time (ticks), an AI's ghost,
//!   an AI watched at any speed;
//! - [`flappy`]: Flappy Bird played or watched frame by frame, with the
//!   viability margin;
//! - [`geek`]: Geek Challenge records replayed piece by piece;
//! - [`sketch`], [`median`]: the two tools on uploads.
//!
//! The protocol is documented in `docs/web.md`.

pub mod assets;
pub mod battle;
pub mod error;
pub mod flappy;
pub mod geek;
pub mod jumpin;
pub mod median;
pub mod mines;
pub mod server;
pub mod sessions;
pub mod sketch;
pub mod tetris;
pub mod tiles;

pub use server::{AppState, ServeConfig, app, serve};
