//! `arcade`: play, solve and generate classic puzzle and arcade games.
//!
//! Argument parsing and printing only; every command is a library call.

mod battle;
mod exit;
mod flappy;
mod geek;
mod jumpin;
mod median;
mod mines;
mod output;
mod resume;
mod run_options;
mod serve;
mod sketch;
mod tetris;
mod tiles;
mod tuning;
mod watch;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arcade",
    version,
    about = "Play, solve and generate classic puzzle and arcade games",
    long_about = "Play, solve and generate classic puzzle and arcade games with the strongest AIs we can build.\n\n\
                  Every command takes --help. Random things take --seed and are reproducible; \
                  long runs show a progress bar on stderr (a line a minute when stderr is a file, nothing with --quiet); \
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
    /// The 2021 Tencent Geek Challenge Tetris: replay records, search for better ones.
    #[command(subcommand)]
    Geek(geek::Command),
    /// Jump In': optimal solver, exhaustive search for the hardest puzzles, generator.
    #[command(subcommand)]
    Jumpin(jumpin::Command),
    /// Minesweeper: exact-probability solver, position analyser, win-rate benchmark, two-player battle.
    #[command(subcommand)]
    Mines(mines::Command),
    /// Sliding-window median of a stream of numbers (one per line or a CSV column).
    ///
    /// One median a line from the K-th value on: line i is the median of values i to i+K-1.
    /// NaN (`nan`) is left out of its windows; blank lines are not values.
    ///
    /// Example: arcade median --window 5 data/examples/prices.csv --column 2 --header
    Median(median::MedianArgs),
    /// Pencil-sketch filter: turn a photo into a hand-drawn look.
    ///
    /// Example: arcade sketch data/examples/photo.png sketch.png --depth 10
    Sketch(sketch::SketchArgs),
    /// Sheep a Sheep (羊了个羊): exact solver, greedy player, generator of solvable levels.
    #[command(subcommand)]
    Tiles(tiles::Command),
    /// Flappy Bird: deterministic environment, heuristic and neural policies, CPU training.
    #[command(subcommand)]
    Flappy(flappy::Command),
    /// The web arena: play the games in a browser, with the solvers beside you.
    ///
    /// Example: arcade serve --port 8080 --open
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    die_quietly_on_closed_pipe();
    let command = command();
    let cli = match command
        .clone()
        .try_get_matches()
        .and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)))
    {
        Ok((cli, matches)) => {
            if let Some(warning) = resume::warning(&resume::unused_options(&command, &matches)) {
                eprintln!("{warning}");
            }
            cli
        }
        Err(e) => return exit::clap_error(e),
    };
    let result = match cli.game {
        Game::Tetris(cmd) => tetris::run(cmd),
        Game::Geek(cmd) => geek::run(cmd),
        Game::Jumpin(cmd) => jumpin::run(cmd),
        Game::Mines(cmd) => mines::run(cmd),
        Game::Median(args) => median::run(args),
        Game::Sketch(args) => sketch::run(args),
        Game::Tiles(cmd) => tiles::run(cmd),
        Game::Flappy(cmd) => flappy::run(cmd),
        Game::Serve(args) => serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::report(&e),
    }
}

/// The command line, with every option that takes a value accepting a
/// negative number (`--azimuth -0.8`; `--seed -1` is then "invalid value",
/// not "unexpected argument").
fn command() -> clap::Command {
    fn negative_numbers(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|a| {
            if a.get_action().takes_values() {
                a.allow_negative_numbers(true)
            } else {
                a
            }
        })
        .mut_subcommands(negative_numbers)
    }
    negative_numbers(Cli::command())
}

/// Restores the default action of SIGPIPE (end the process), which Rust's
/// runtime turns off: otherwise `arcade … | head` panics with "failed
/// printing to stdout: Broken pipe" once `head` has read enough, where a
/// command-line tool is expected to stop silently.
fn die_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists;
    // SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
