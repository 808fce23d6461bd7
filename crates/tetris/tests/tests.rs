//! Integration tests, one binary per crate (one module per area), so a
//! test run links one executable instead of one per file.

mod checkpoints;
mod env;
mod geek_record;
mod strength;
