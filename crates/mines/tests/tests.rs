//! Integration tests, one binary per crate (one module per area), so a
//! test run links one executable instead of one per file.

mod battle;
mod bench;
mod big_boards;
mod common;
mod deduce;
mod endgame;
mod fifty;
mod human;
mod live_battle;
mod probability;
mod solver;
