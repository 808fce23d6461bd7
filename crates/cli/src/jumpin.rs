//! `arcade jumpin …`

use crate::exit::bad_input;
use crate::output::OutputArgs;
use crate::run_options::{RunOptions, count};
use anyhow::{Result, anyhow};
use arcade_core::input::{display_name, quote};
use arcade_jumpin::challenges::parse_challenges;
use arcade_jumpin::hardest::{self, PieceSet};
use arcade_jumpin::{
    Position, bench_report, generate_report, hardest_report, parse_board, parse_code, solve_report,
};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum Command {
    /// Find a shortest solution and print it move by move.
    ///
    /// The puzzle is a board file (5 lines of 5 characters: . empty, R rabbit,
    /// F fox cell, X mushroom, and H or V for the cells of a horizontal or
    /// vertical fox where F cells would pair up two ways; - reads stdin) or a
    /// challenge code such as C31B42G34M302203FE11 (C, B, G and W for up to
    /// four rabbits). Coordinates are (column, row) from 0 at the top
    /// left; a fox is named by its top or left cell. "No solution" is an
    /// answer, not an error.
    ///
    /// Example: arcade jumpin solve C31B42G34M302203FE11
    Solve(SolveArgs),
    /// Search every starting position of a piece set for the hardest puzzles.
    ///
    /// Mushroom layouts are taken up to the board's 8 symmetries; for each
    /// layout and each choice of fox lines, one breadth-first search from all
    /// goal positions gives the optimal move count of every position. Counts
    /// are over all positions (symmetric images counted apart).
    ///
    /// Example: arcade jumpin hardest --rabbits 3 --foxes 1 --mushrooms 3 --top 3
    Hardest(HardestArgs),
    /// Generate a puzzle whose optimal solution takes exactly N moves.
    ///
    /// If no position of the piece set needs N moves, prints one of the
    /// longest below N, with a note.
    ///
    /// Example: arcade jumpin generate --moves 40 --seed 7
    Generate(GenerateArgs),
    /// Time the solver on a list of challenges (`<code> <number> <minimum>`
    /// per line) and check every answer against the listed minimum.
    ///
    /// Example: arcade jumpin bench data/jumpin/challenges.txt
    Bench(BenchArgs),
}

#[derive(Args)]
pub struct SolveArgs {
    /// Board file (- for stdin), or a challenge code if no such file exists.
    // Neither is required by clap: the error says both ways.
    #[arg(value_name = "FILE", conflicts_with = "code")]
    file: Option<PathBuf>,
    /// Challenge code instead of a file.
    #[arg(long, value_name = "CODE")]
    code: Option<String>,
    #[command(flatten)]
    output: OutputArgs,
}

/// The piece set of `hardest` and `generate` (default: the largest official
/// one).
#[derive(Args)]
struct PieceArgs {
    /// Rabbits (1-4).
    #[arg(long, default_value_t = 3, value_parser = piece_count(1, hardest::MAX_RABBITS))]
    rabbits: usize,
    /// Foxes (0-3).
    #[arg(long, default_value_t = 2, value_parser = piece_count(0, hardest::MAX_FOXES))]
    foxes: usize,
    /// Mushrooms (0-12).
    #[arg(long, default_value_t = 3, value_parser = piece_count(0, hardest::MAX_MUSHROOMS))]
    mushrooms: usize,
}

/// A count of pieces from `low` to `high`, refused by clap (naming the
/// option) rather than later by the piece set.
fn piece_count(low: usize, high: usize) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(low as u64..=high as u64)
}

impl PieceArgs {
    fn pieces(&self) -> Result<PieceSet> {
        PieceSet {
            rabbits: self.rabbits,
            foxes: self.foxes,
            mushrooms: self.mushrooms,
        }
        .validate()
        .map_err(bad_input)
    }
}

#[derive(Args)]
pub struct HardestArgs {
    #[command(flatten)]
    pieces: PieceArgs,
    /// How many of the hardest positions to report (distinct up to
    /// symmetry), 0 to 10000.
    #[arg(long, value_name = "K", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    top: u32,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Optimal solution length wanted.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(arcade_jumpin::generate::MAX_MOVES)))]
    moves: u32,
    #[command(flatten)]
    pieces: PieceArgs,
    /// Seed: the same seed gives the same puzzle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Challenge list: `<code> <number> <minimum moves>` per line.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Times to solve the whole list.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = count)]
    passes: u64,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Solve(a) => solve_cmd(a),
        Command::Hardest(a) => hardest_cmd(a),
        Command::Generate(a) => generate_cmd(a),
        Command::Bench(a) => bench_cmd(a),
    }
}

/// Codes start with a piece letter and hold only letters and digits.
fn looks_like_code(text: &str) -> bool {
    text.starts_with(['C', 'B', 'G', 'M', 'F'])
        && text.chars().any(|c| c.is_ascii_digit())
        && text.chars().all(|c| c.is_ascii_alphanumeric())
}

fn load_puzzle(a: &SolveArgs) -> Result<Position> {
    match (&a.code, &a.file) {
        (Some(code), _) => {
            parse_code(code).map_err(|e| bad_input(anyhow!("--code {}: {e}", quote(code))))
        }
        (None, Some(path)) => {
            // A challenge code where the file goes: no file has that name, so
            // the user meant the code.
            if let Some(code) = path
                .to_str()
                .filter(|c| looks_like_code(c) && !path.exists())
            {
                return parse_code(code).map_err(|e| {
                    bad_input(anyhow!(
                        "{}: no such file, and as a challenge code: {e}",
                        quote(code)
                    ))
                });
            }
            let text = crate::exit::read_input(path)?;
            parse_board(&text).map_err(|e| bad_input(anyhow!("{}: {e}", display_name(path))))
        }
        (None, None) => Err(bad_input(anyhow!("give a board FILE or --code CODE"))),
    }
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    let report = solve_report(&load_puzzle(&a)?)?;
    a.output.emit(&report)
}

fn hardest_cmd(a: HardestArgs) -> Result<()> {
    let pieces = a.pieces.pieces()?;
    let output = a.output;
    let progress = output.progress(0, "layouts");
    let report = a
        .run
        .install(|| hardest_report(pieces, a.top as usize, &progress));
    progress.finish();
    output.emit(&report)
}

fn generate_cmd(a: GenerateArgs) -> Result<()> {
    let pieces = a.pieces.pieces()?;
    let output = a.output;
    let progress = output.progress(0, "components");
    let report = a
        .run
        .install(|| generate_report(pieces, a.moves, a.seed, &progress));
    progress.finish();
    output.emit(&report.map_err(bad_input)?)
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let text = crate::exit::read_input(&a.file)?;
    let list = parse_challenges(&text)
        .map_err(|e| bad_input(anyhow!("{}: {e}", display_name(&a.file))))?;
    let report = bench_report(&list, a.passes);
    a.output.emit(&report)?;
    match report.mismatches.first() {
        None => Ok(()),
        Some(m) => Err(anyhow!(
            "{} challenge(s) differ from the listed minimum; first: challenge {} lists {} moves, the solver found {}",
            report.mismatches.len(),
            m.number,
            m.expected,
            m.found
                .map_or("no solution".to_string(), |n| format!("{n} moves"))
        )),
    }
}
