//! Integration tests, one binary per crate (one module per area), so a
//! test run links one executable instead of one per file.

mod common;
mod challenges;
mod hardest;
mod parse;
mod rules;
