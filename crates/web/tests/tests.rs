//! Integration tests, one binary per crate (one module per area).

mod battle;
mod common;
mod flappy;
mod jumpin;
mod mines;
mod routes;
mod tetris;
mod tiles;
mod uploads;
