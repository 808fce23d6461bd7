//! Integration tests, one binary per crate (one module per area).

mod battle;
mod common;
mod jumpin;
mod mines;
mod routes;
mod tiles;
