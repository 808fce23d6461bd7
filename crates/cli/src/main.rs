//! `arcade`: play, solve and generate classic puzzle and arcade games.
//!
//! Argument parsing and printing only; every command is a library call.

mod exit;
mod tetris;
mod watch;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arcade",
    version,
    about = "Play, solve and generate classic puzzle and arcade games",
    long_about = "Play, solve and generate classic puzzle and arcade games with the strongest AIs we can build.\n\n\
                  Every command takes --help. Random things take --seed and are reproducible; \
                  long runs show a progress bar on stderr (hidden with --quiet or when stderr is not a terminal); \
                  --json prints one JSON object on stdout.",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    game: Game,
}

#[derive(Subcommand)]
enum Game {
    /// Tetris: play and watch the classic AIs, benchmark them, tune their weights.
    #[command(subcommand)]
    Tetris(tetris::Command),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return exit::clap_error(e),
    };
    let result = match cli.game {
        Game::Tetris(cmd) => tetris::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::report(&e),
    }
}
