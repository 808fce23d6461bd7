//! `arcade jumpin …`

use crate::exit::bad_input;
use crate::run_options::RunOptions;
use anyhow::{Context, Result, anyhow};
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_jumpin::bench::{BenchReport, bench};
use arcade_jumpin::challenges::parse_challenges;
use arcade_jumpin::generate::{Generated, generate};
use arcade_jumpin::hardest::{HardestReport, PieceSet, hardest};
use arcade_jumpin::solve::{Outcome, Step, replay};
use arcade_jumpin::{Piece, Position, parse_board, parse_code, solve};
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand)]
pub enum Command {
    /// Find a shortest solution and print it move by move.
    ///
    /// The puzzle is a board file (5 lines of 5 characters: . empty, R rabbit,
    /// F fox cell, X mushroom; - reads stdin) or a challenge code such as
    /// C31B42G34M302203FE11. Coordinates are (column, row) from 0 at the top
    /// left; a fox is named by its top or left cell. "No solution" is an
    /// answer, not an error.
    ///
    /// Example: arcade jumpin solve --code C31B42G34M302203FE11
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
    /// Board file (- for stdin).
    #[arg(
        value_name = "FILE",
        required_unless_present = "code",
        conflicts_with = "code"
    )]
    file: Option<PathBuf>,
    /// Challenge code instead of a file.
    #[arg(long, value_name = "CODE")]
    code: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The piece set of `hardest` and `generate` (default: the largest official
/// one).
#[derive(Args)]
struct PieceArgs {
    /// Rabbits (1-4).
    #[arg(long, default_value_t = 3)]
    rabbits: usize,
    /// Foxes (0-3).
    #[arg(long, default_value_t = 2)]
    foxes: usize,
    /// Mushrooms (0-12).
    #[arg(long, default_value_t = 3)]
    mushrooms: usize,
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
    /// How many of the hardest positions to report (distinct up to symmetry).
    #[arg(long, value_name = "K", default_value_t = 5)]
    top: usize,
    #[command(flatten)]
    run: RunOptions,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Optimal solution length wanted.
    #[arg(long, value_name = "N")]
    moves: u32,
    #[command(flatten)]
    pieces: PieceArgs,
    /// Seed: the same seed gives the same puzzle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Challenge list: `<code> <number> <minimum moves>` per line.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Times to solve the whole list.
    #[arg(long, value_name = "N", default_value_t = 20)]
    passes: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Solve(a) => solve_cmd(a),
        Command::Hardest(a) => hardest_cmd(a),
        Command::Generate(a) => generate_cmd(a),
        Command::Bench(a) => bench_cmd(a),
    }
}

/// Reads a file, or stdin for `-`; a missing file is bad input.
fn read_input(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        return std::io::read_to_string(std::io::stdin()).context("reading stdin");
    }
    std::fs::read_to_string(path)
        .map_err(|e| bad_input(anyhow!("cannot read {}: {e}", path.display())))
}

fn load_puzzle(a: &SolveArgs) -> Result<Position> {
    match (&a.code, &a.file) {
        (Some(code), _) => parse_code(code).map_err(|e| bad_input(anyhow!("--code {code}: {e}"))),
        (None, Some(path)) => {
            let text = read_input(path)?;
            parse_board(&text).map_err(|e| bad_input(anyhow!("{}: {e}", path.display())))
        }
        (None, None) => Err(bad_input(anyhow!("give a board FILE or --code CODE"))),
    }
}

/// A position as JSON: the board lines and the challenge code.
fn position_json(p: &Position) -> Value {
    json!({ "board": p.to_string().lines().collect::<Vec<_>>(), "code": p.to_code() })
}

fn step_text(s: &Step) -> String {
    let piece = match s.piece {
        Piece::Rabbit => "rabbit",
        Piece::Fox => "fox",
    };
    format!(
        "{piece} ({},{}) -> ({},{})",
        s.from[0], s.from[1], s.to[0], s.to[1]
    )
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    let start_position = load_puzzle(&a)?;
    let start = Instant::now();
    let Outcome {
        solution,
        states_explored,
    } = solve(&start_position);
    let seconds = start.elapsed().as_secs_f64();
    let steps = match &solution {
        Some(moves) => Some(replay(&start_position, moves).context("replaying the solution")?),
        None => None,
    };
    if a.json {
        let out = json!({
            "start": position_json(&start_position),
            "solvable": steps.is_some(),
            "moves": steps.as_ref().map(Vec::len),
            "solution": steps.as_ref().map(|s| s.iter().map(|(step, _)| step).collect::<Vec<_>>()),
            "states_explored": states_explored,
            "seconds": seconds,
        });
        return emit(&format!("{out}\n"));
    }
    let mut out = start_position.to_string();
    let Some(steps) = steps else {
        writeln!(
            out,
            "No solution ({states_explored} states explored, {seconds:.4} s)."
        )?;
        return emit(&out);
    };
    if steps.is_empty() {
        writeln!(out, "Already solved: every rabbit is in a hole.")?;
        return emit(&out);
    }
    writeln!(
        out,
        "Shortest solution: {} moves ({states_explored} states explored, {seconds:.4} s).",
        steps.len()
    )?;
    for (i, (step, after)) in steps.iter().enumerate() {
        write!(out, "\n{}. {}\n{after}", i + 1, step_text(step))?;
    }
    emit(&out)
}

/// Prints to stdout; a closed pipe (`| head`) ends the output quietly.
fn emit(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

fn describe_pieces(p: PieceSet) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        plural(p.rabbits, "rabbit", "rabbits"),
        plural(p.foxes, "fox", "foxes"),
        plural(p.mushrooms, "mushroom", "mushrooms")
    )
}

fn hardest_cmd(a: HardestArgs) -> Result<()> {
    let pieces = a.pieces.pieces()?;
    let progress = Progress::new(0, "layouts", a.run.quiet || a.json);
    let start = Instant::now();
    let report = with_threads(a.run.threads(), || hardest(pieces, a.top, &progress));
    let seconds = start.elapsed().as_secs_f64();
    progress.finish();
    if a.json {
        emit(&format!("{}\n", hardest_json(&report, seconds)))
    } else {
        emit(&hardest_text(&report, seconds)?)
    }
}

fn hardest_json(r: &HardestReport, seconds: f64) -> Value {
    let c = &r.counts;
    json!({
        "rabbits": r.pieces.rabbits, "foxes": r.pieces.foxes, "mushrooms": r.pieces.mushrooms,
        "max_moves": r.max_moves(),
        "hardest": r.hardest.iter().map(|h| {
            let mut v = position_json(&h.position);
            v["moves"] = json!(h.moves);
            v
        }).collect::<Vec<_>>(),
        "positions": c.positions, "solvable": c.solvable(), "unsolvable": c.unsolvable(),
        "solved": c.solved(), "histogram": c.histogram,
        "layouts": r.layouts, "components": r.components, "states_reached": r.states_reached,
        "seconds": seconds, "threads": r.threads,
    })
}

fn hardest_text(r: &HardestReport, seconds: f64) -> Result<String, std::fmt::Error> {
    let (c, threads) = (&r.counts, r.threads);
    let mut out = String::new();
    writeln!(
        out,
        "{}: {} mushroom layouts up to symmetry, {} components, {} states searched in {seconds:.1} s on {threads} thread{}",
        describe_pieces(r.pieces),
        r.layouts,
        r.components,
        r.states_reached,
        if threads == 1 { "" } else { "s" }
    )?;
    writeln!(
        out,
        "  positions {}: solvable {}, already solved {}, unsolvable {}",
        c.positions,
        c.solvable(),
        c.solved(),
        c.unsolvable()
    )?;
    let Some(max) = r.max_moves() else {
        writeln!(out, "  no position can be solved")?;
        return Ok(out);
    };
    writeln!(
        out,
        "  longest optimal solution: {max} moves ({} positions, symmetric images counted apart)",
        c.histogram[max as usize]
    )?;
    for (i, h) in r.hardest.iter().enumerate() {
        let code = h.position.to_code().unwrap_or_default();
        write!(
            out,
            "\n#{} {} moves  {code}\n{}",
            i + 1,
            h.moves,
            h.position
        )?;
    }
    Ok(out)
}

fn generate_cmd(a: GenerateArgs) -> Result<()> {
    let pieces = a.pieces.pieces()?;
    let progress = Progress::new(0, "components", a.run.quiet || a.json);
    let start = Instant::now();
    let generated = with_threads(a.run.threads(), || {
        generate(pieces, a.moves, a.seed, &progress)
    });
    progress.finish();
    let Generated {
        position,
        moves,
        exact,
        components_searched,
    } = generated.map_err(bad_input)?;
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        let mut out = position_json(&position);
        let extra = json!({
            "moves": moves, "requested": a.moves, "exact": exact, "seed": a.seed,
            "rabbits": pieces.rabbits, "foxes": pieces.foxes, "mushrooms": pieces.mushrooms,
            "components_searched": components_searched, "seconds": seconds,
        });
        for (k, v) in extra.as_object().expect("object") {
            out[k] = v.clone();
        }
        return emit(&format!("{out}\n"));
    }
    let mut out = String::new();
    if !exact {
        writeln!(
            out,
            "note: no position with {} needs exactly {} moves; this is one of the longest, {moves} moves",
            describe_pieces(pieces),
            a.moves
        )?;
    }
    write!(out, "{position}")?;
    writeln!(
        out,
        "code {}, optimal solution {moves} moves (seed {}, {components_searched} components searched, {seconds:.2} s)",
        position.to_code().unwrap_or_default(),
        a.seed
    )?;
    emit(&out)
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    if a.passes == 0 {
        return Err(bad_input(anyhow!("--passes must be at least 1")));
    }
    let text = read_input(&a.file)?;
    let list =
        parse_challenges(&text).map_err(|e| bad_input(anyhow!("{}: {e}", a.file.display())))?;
    let report = bench(&list, a.passes);
    if a.json {
        emit(&format!("{}\n", bench_json(&report)))?;
    } else {
        emit(&bench_text(&report))?;
    }
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

fn bench_json(r: &BenchReport) -> Value {
    json!({
        "challenges": r.challenges, "passes": r.pass_seconds.len(),
        "mean_seconds": r.seconds.mean, "ci95": r.seconds.ci95.as_array(),
        "min_seconds": r.seconds.min, "median_seconds": r.seconds.median,
        "states_explored": r.states_explored, "total_moves": r.total_moves,
        "mismatches": r.mismatches.iter().map(|m| json!({
            "number": m.number, "expected": m.expected, "found": m.found
        })).collect::<Vec<_>>(),
        "threads": 1,
    })
}

fn bench_text(r: &BenchReport) -> String {
    let s = &r.seconds;
    format!(
        "{} challenges, {} passes on one thread: {:.4} s per pass (95% CI [{:.4}, {:.4}], median {:.4}, best {:.4})\n",
        r.challenges, s.n, s.mean, s.ci95.low, s.ci95.high, s.median, s.min
    ) + &format!(
        "  {} optimal moves in total, {} states explored per pass, {} mismatches with the listed minimums\n",
        r.total_moves,
        r.states_explored,
        r.mismatches.len()
    )
}
