//! Integration tests, one binary per crate (one module per area), so a
//! test run links one executable instead of one per file.

mod battle;
mod cli;
mod common;
mod docs;
mod flappy;
mod geek;
mod jumpin;
mod median;
mod mines;
mod serve;
mod sketch;
mod tiles;
