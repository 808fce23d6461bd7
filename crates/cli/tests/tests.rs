//! Integration tests, one binary per crate (one module per area), so a
//! test run links one executable instead of one per file.

mod common;
mod battle;
mod cli;
mod flappy;
mod geek;
mod jumpin;
mod median;
mod mines;
mod sketch;
mod tiles;
