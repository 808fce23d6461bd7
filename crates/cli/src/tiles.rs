//! `arcade tiles …`

use crate::exit::{bad_input, stop_on_ctrl_c, stopped_after};
use crate::output::OutputArgs;
use crate::run_options::{RunOptions, count, seconds, unit};
use anyhow::{Context, Result, anyhow};
use arcade_core::checkpoint::check_writable;
use arcade_core::input::display_name;
use arcade_tiles::bench::{self, BenchConfig, Source};
use arcade_tiles::evolve::{self, EvolveConfig};
use arcade_tiles::exact::Limits;
use arcade_tiles::generated::{GenerateConfig, Method, Unproven, VerifyError};
use arcade_tiles::layout::{Classic, LayoutError, MAX_LAYERS};
use arcade_tiles::{
    Level, Solver, check_clicks, generate_verified, load_level, parse_clicks, solve_level,
};
use clap::{Args, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum Command {
    /// Solve a level: a winning click sequence, a proof that none exists, or "unknown".
    ///
    /// LEVEL is a capture of the game's level JSON (with "levelData") or
    /// arcade's format (as written by `generate`). Tile ids are indices in
    /// the file's order (for captures: layers in increasing order, blocks in
    /// file order). "Unsolvable" is an answer (exit 0).
    ///
    /// Example: arcade tiles solve data/sheep/capture-level-90031.json
    Solve(SolveArgs),
    /// Replay a click sequence and say whether it is legal and wins.
    ///
    /// CLICKS_FILE holds tile ids: a JSON list, the JSON output of `solve`
    /// (its "clicks"), a level written by `generate` (its intended clicks),
    /// or numbers separated by spaces, commas or newlines.
    /// Exit status 0 when the clicks win, 1 when they are illegal or do not win.
    ///
    /// Example: arcade tiles check level.json clicks.json
    Check(CheckArgs),
    /// Benchmark players on many levels of the classic layout.
    ///
    /// Classic layout: even layers a 6×6 grid, odd layers a 5×5 grid shifted
    /// by half a tile; TYPES × GROUPS triples placed at random positions.
    /// Level i of a run uses the seed derive(seed, i), whatever the thread count.
    ///
    /// Example: arcade tiles bench --layers 12,14,16 --games 100 --method construct
    Bench(BenchArgs),
    /// Generate a level that is solvable by construction, and verify it.
    ///
    /// The level is built around a random legal removal order (kept in the
    /// file's "meta.intended"); DIFFICULTY (0 to 1) is how often a new triple
    /// is started while the tray has room, so how long tiles must wait in the
    /// tray. `--method de-swap` runs the published approach instead: DE picks
    /// tile swaps on a random deal until the greedy player clears it.
    ///
    /// Example: arcade tiles generate --layers 26 --difficulty 0.7 --seed 3 --out level.json
    Generate(GenerateArgs),
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SolverName {
    /// The usual heuristic: dig for the cheapest triple.
    Greedy,
    /// Search that proves the answer.
    Exact,
}

impl SolverName {
    fn solver(self) -> Solver {
        match self {
            SolverName::Greedy => Solver::Greedy,
            SolverName::Exact => Solver::Exact,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SolverChoice {
    Greedy,
    Exact,
    Both,
}

/// Where `bench`'s levels come from.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MethodName {
    /// Random deals.
    Random,
    /// Solvable by construction around a random removal order.
    Construct,
    /// DE swaps until greedy clears the level (the published approach).
    DeSwap,
}

/// How `generate` makes a level: the methods that make solvable ones.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MakeMethod {
    /// Solvable by construction around a random removal order.
    Construct,
    /// DE swaps until greedy clears the level (the published approach).
    DeSwap,
}

impl From<MakeMethod> for MethodName {
    fn from(m: MakeMethod) -> MethodName {
        match m {
            MakeMethod::Construct => MethodName::Construct,
            MakeMethod::DeSwap => MethodName::DeSwap,
        }
    }
}

/// A de-swap setting within the library's `range`.
fn de_setting(
    range: std::ops::RangeInclusive<usize>,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |s: &str| match s.trim().parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// A layer count, 1 to [`MAX_LAYERS`].
fn layers(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_LAYERS).contains(&n) => Ok(n),
        _ => Err(format!("expected a layer count from 1 to {MAX_LAYERS}")),
    }
}

/// Limits of the exact solver.
#[derive(Args)]
struct SearchArgs {
    /// Time limit of the exact solver, per level.
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = seconds)]
    seconds: f64,
    /// Node limit of the exact solver, per level (none by default).
    #[arg(long, value_name = "N", value_parser = count)]
    nodes: Option<u64>,
}

impl SearchArgs {
    fn limits(&self) -> Limits {
        Limits {
            nodes: self.nodes,
            time: Some(Duration::from_secs_f64(self.seconds)),
            ..Limits::default()
        }
    }
}

/// The classic layout's size.
#[derive(Args)]
struct ShapeArgs {
    /// Tile types.
    #[arg(long, value_name = "T", default_value_t = 12,
          value_parser = clap::value_parser!(u16).range(1..=2000))]
    types: u16,
    /// Triples of each type.
    #[arg(long, value_name = "G", default_value_t = 10,
          value_parser = clap::value_parser!(u16).range(1..=2000))]
    groups: u16,
    /// Tray slots.
    #[arg(long, value_name = "C", default_value_t = 7,
          value_parser = clap::value_parser!(u8).range(3..=64))]
    capacity: u8,
}

impl ShapeArgs {
    fn shape(&self, layers: usize) -> Result<Classic> {
        let shape = Classic {
            layers,
            types: usize::from(self.types),
            groups: usize::from(self.groups),
        };
        shape.validate().map_err(|e| match e {
            LayoutError::TooManyTiles { .. } => bad_input(anyhow!(
                "--types × --groups × 3: {e} (raise --layers, or lower --types or --groups)"
            )),
            e => bad_input(e),
        })?;
        Ok(shape)
    }
}

#[derive(Args)]
pub struct SolveArgs {
    /// Level file (- for stdin).
    #[arg(value_name = "LEVEL")]
    level: PathBuf,
    /// Who plays the level: the exact solver, whose verdict is a proof, or
    /// the greedy player most published solvers use.
    #[arg(long, value_enum, default_value_t = SolverName::Exact)]
    solver: SolverName,
    #[command(flatten)]
    search: SearchArgs,
    /// Tray slots (default: the file's, else 7).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u8).range(3..=64))]
    capacity: Option<u8>,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Level file (- for stdin).
    #[arg(value_name = "LEVEL")]
    level: PathBuf,
    /// Click sequence (- for stdin).
    #[arg(value_name = "CLICKS_FILE")]
    clicks: PathBuf,
    /// Tray slots (default: the file's, else 7).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u8).range(3..=64))]
    capacity: Option<u8>,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Layer counts (1 to 200), one row each (e.g. 12,14,16).
    #[arg(long, value_name = "L", value_delimiter = ',', required = true, value_parser = layers)]
    layers: Vec<usize>,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Levels played per layer count.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = count)]
    games: u64,
    /// The old name of --method, refused with the new one.
    #[arg(long, hide = true, value_name = "G")]
    generator: Option<String>,
    /// Which players to run.
    #[arg(long, value_enum, default_value_t = SolverChoice::Both)]
    solver: SolverChoice,
    #[command(flatten)]
    search: SearchArgs,
    /// Where the levels come from.
    #[arg(long, value_enum, default_value_t = MethodName::Random)]
    method: MethodName,
    #[command(flatten)]
    knobs: MethodArgs,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

/// Settings that only one `--method` uses (rejected with another).
#[derive(Args)]
struct MethodArgs {
    /// construct: how long tiles wait in the tray, 0 to 1 [default: 0.5].
    #[arg(long, value_name = "D", value_parser = unit)]
    difficulty: Option<f64>,
    /// de-swap: generations before giving up [default: 100].
    #[arg(long, value_name = "N", value_parser = de_setting(evolve::GENERATIONS))]
    de_generations: Option<usize>,
    /// de-swap: candidates per generation [default: 40].
    #[arg(long, value_name = "N", value_parser = de_setting(evolve::POPULATION))]
    de_population: Option<usize>,
    /// de-swap: swaps per candidate [default: 20].
    #[arg(long, value_name = "N", value_parser = de_setting(evolve::SWAPS))]
    de_swaps: Option<usize>,
}

impl MethodArgs {
    /// The level source, refusing settings of another method.
    fn source(&self, method: MethodName) -> Result<Source> {
        let de_given = self.de_generations.is_some()
            || self.de_population.is_some()
            || self.de_swaps.is_some();
        let refuse = |what: &str, name: &str| {
            Err(bad_input(anyhow!("{what} only applies to --method {name}")))
        };
        match method {
            _ if de_given && method != MethodName::DeSwap => {
                refuse("--de-generations/--de-population/--de-swaps", "de-swap")
            }
            _ if self.difficulty.is_some() && method != MethodName::Construct => {
                refuse("--difficulty", "construct")
            }
            MethodName::Random => Ok(Source::Random),
            MethodName::Construct => Ok(Source::Construct {
                difficulty: self.difficulty.unwrap_or(0.5),
            }),
            MethodName::DeSwap => {
                let default = EvolveConfig::default();
                Ok(Source::Evolve(EvolveConfig {
                    generations: self.de_generations.unwrap_or(default.generations),
                    population: self.de_population.unwrap_or(default.population),
                    swaps: self.de_swaps.unwrap_or(default.swaps),
                    time: None,
                }))
            }
        }
    }
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Layers of the grid stack (1 to 200).
    #[arg(long, value_name = "L", default_value_t = 26, value_parser = layers)]
    layers: usize,
    #[command(flatten)]
    shape: ShapeArgs,
    /// How to make the level.
    #[arg(long, value_enum, default_value_t = MakeMethod::Construct)]
    method: MakeMethod,
    #[command(flatten)]
    knobs: MethodArgs,
    /// Seed: the same seed gives the same level.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time limit of the exact solver that verifies the level.
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = seconds)]
    verify_seconds: f64,
    /// Where to write the level (arcade's JSON format).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Solve(a) => solve_cmd(a),
        Command::Check(a) => check_cmd(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Generate(a) => generate_cmd(a),
    }
}

fn read_level(path: &Path, capacity: Option<u8>) -> Result<Level> {
    let text = crate::exit::read_input(path)?;
    load_level(&text, capacity.map(usize::from))
        .map_err(|e| bad_input(anyhow!("{}: {e}", display_name(path))))
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    let level = read_level(&a.level, a.capacity)?;
    let report = solve_level(&level, a.solver.solver(), &a.search.limits())?;
    a.output.emit(&report)
}

fn check_cmd(a: CheckArgs) -> Result<()> {
    if a.level == Path::new("-") && a.clicks == Path::new("-") {
        return Err(bad_input(anyhow!(
            "only one of LEVEL and CLICKS_FILE can be -"
        )));
    }
    let level = read_level(&a.level, a.capacity)?;
    let clicks = parse_clicks(&crate::exit::read_input(&a.clicks)?)
        .map_err(|e| bad_input(anyhow!("{}: {e}", display_name(&a.clicks))))?;
    let report = check_clicks(&level, &clicks);
    a.output.emit(&report)?;
    if report.won {
        Ok(())
    } else {
        Err(anyhow!("the clicks do not win"))
    }
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    if a.generator.is_some() {
        return Err(bad_input(anyhow!(
            "--generator is now --method (random, construct or de-swap)"
        )));
    }
    let output = a.output;
    let source = a.knobs.source(a.method)?;
    let configs = a
        .layers
        .iter()
        .map(|&l| {
            Ok(BenchConfig {
                shape: a.shape.shape(l)?,
                capacity: usize::from(a.shape.capacity),
                levels: a.games,
                seed: a.seed,
                source,
                greedy: a.solver != SolverChoice::Exact,
                exact: (a.solver != SolverChoice::Greedy).then(|| a.search.limits()),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let asked = a.games * configs.len() as u64;
    let progress = output.progress(asked, "levels");
    stop_on_ctrl_c(&progress);
    let table = a
        .run
        .install(|| bench::run_table(&configs, &progress, |row| progress.println(row.row_line())))
        .map_err(bad_input)?;
    progress.finish();
    output.emit(&table)?;
    match table.replay_failures() {
        0 => {
            let played = table.rows.iter().map(|r| r.levels).sum();
            stopped_after(&progress, played, asked, "level")
        }
        n => Err(anyhow!("{n} exact solutions did not replay to a win")),
    }
}

/// Which options to raise when de-swap's level is not known solvable.
fn unproven_advice(why: Unproven) -> &'static str {
    match why {
        Unproven::Refuted => "raise --de-generations, or try another --seed or a larger tray",
        Unproven::Undecided => "raise --verify-seconds or --de-generations",
    }
}

fn generate_cmd(a: GenerateArgs) -> Result<()> {
    let method = match a.knobs.source(a.method.into())? {
        Source::Evolve(de) => Method::DeSwap(de),
        Source::Construct { difficulty } => Method::Construct { difficulty },
        // Not a MakeMethod: clap refused it.
        Source::Random => return Err(bad_input(anyhow!("--method random is for bench"))),
    };
    check_writable(&a.out).map_err(bad_input)?;
    let config = GenerateConfig {
        shape: a.shape.shape(a.layers)?,
        capacity: usize::from(a.shape.capacity),
        method,
        seed: a.seed,
    };
    let limits = Limits::seconds(a.verify_seconds);
    let (level, mut report) = generate_verified(&config, &limits).map_err(|e| match e {
        VerifyError::Generate(_) => bad_input(e),
        VerifyError::DeSwapUnproven(why) => {
            anyhow!("{e}; nothing was written ({})", unproven_advice(why))
        }
        _ => e.into(),
    })?;
    std::fs::write(&a.out, level.to_json())
        .with_context(|| format!("writing {}", a.out.display()))?;
    report.out = Some(a.out.display().to_string());
    a.output.emit(&report)
}
