//! Integration tests, one binary per crate (one module per area), so a
//! test run links one executable instead of one per file.

mod battle;
mod common;
mod deduce;
mod endgame;
mod fifty;
mod probability;
mod solver;
