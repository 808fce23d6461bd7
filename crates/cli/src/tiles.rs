//! `arcade tiles …`

use crate::exit::bad_input;
use anyhow::{Context, Result, anyhow};
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_tiles::bench::{self, BenchConfig, BenchReport, Source};
use arcade_tiles::check::{Ending, Illegal, Replay, replay};
use arcade_tiles::evolve::{EvolveConfig, evolve};
use arcade_tiles::exact::{Limit, Limits, Proof, Verdict, solve};
use arcade_tiles::format::to_json;
use arcade_tiles::generate::{construct, tray_profile};
use arcade_tiles::layout::Classic;
use arcade_tiles::{Level, load_level, play_greedy};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// Example: arcade tiles bench --layers 12,14,16 --games 100
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

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SolverChoice {
    Greedy,
    Exact,
    Both,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LevelSource {
    /// Random deals.
    Random,
    /// Solvable by construction (`generate`).
    Construct,
    /// DE swaps until greedy clears the level.
    DeSwap,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Method {
    Construct,
    DeSwap,
}

/// Limits of the exact solver.
#[derive(Args)]
struct SearchArgs {
    /// Time limit of the exact solver, per level.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    seconds: f64,
    /// Node limit of the exact solver, per level (none by default).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
}

impl SearchArgs {
    fn limits(&self) -> Result<Limits> {
        if !(self.seconds.is_finite() && self.seconds > 0.0) {
            return Err(bad_input(anyhow!(
                "--seconds must be a positive number, got {}",
                self.seconds
            )));
        }
        Ok(Limits {
            nodes: self.nodes,
            time: Some(Duration::from_secs_f64(self.seconds)),
            ..Limits::default()
        })
    }
}

/// The classic layout's size.
#[derive(Args)]
struct ShapeArgs {
    /// Tile types.
    #[arg(long, value_name = "T", default_value_t = 12)]
    types: usize,
    /// Triples of each type.
    #[arg(long, value_name = "G", default_value_t = 10)]
    groups: usize,
    /// Tray slots.
    #[arg(long, value_name = "C", default_value_t = 7)]
    capacity: usize,
}

impl ShapeArgs {
    fn shape(&self, layers: usize) -> Result<Classic> {
        let shape = Classic {
            layers,
            types: self.types,
            groups: self.groups,
        };
        shape.validate().map_err(bad_input)?;
        if !(3..=64).contains(&self.capacity) {
            return Err(bad_input(anyhow!(
                "--capacity must be between 3 and 64, got {}",
                self.capacity
            )));
        }
        Ok(shape)
    }
}

#[derive(Args)]
pub struct SolveArgs {
    /// Level file (- for stdin).
    #[arg(value_name = "LEVEL")]
    level: PathBuf,
    #[arg(long, value_enum, default_value_t = SolverName::Exact)]
    solver: SolverName,
    #[command(flatten)]
    search: SearchArgs,
    /// Tray slots (default: the file's, else 7).
    #[arg(long, value_name = "C")]
    capacity: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Level file.
    #[arg(value_name = "LEVEL")]
    level: PathBuf,
    /// Click sequence (- for stdin).
    #[arg(value_name = "CLICKS_FILE")]
    clicks: PathBuf,
    /// Tray slots (default: the file's, else 7).
    #[arg(long, value_name = "C")]
    capacity: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Layer counts, one row each (e.g. 12,14,16).
    #[arg(long, value_name = "L", value_delimiter = ',', required = true)]
    layers: Vec<usize>,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Levels per row.
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// Which players to run.
    #[arg(long, value_enum, default_value_t = SolverChoice::Both)]
    solver: SolverChoice,
    #[command(flatten)]
    search: SearchArgs,
    /// Where the levels come from.
    #[arg(long, value_enum, default_value_t = LevelSource::Random)]
    generator: LevelSource,
    /// Difficulty of constructed levels (0 to 1).
    #[arg(long, value_name = "D", default_value_t = 0.5)]
    difficulty: f64,
    #[command(flatten)]
    de: DeArgs,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Settings of the DE-swap approach.
#[derive(Args)]
struct DeArgs {
    /// DE-swap: generations before giving up.
    #[arg(long, value_name = "N", default_value_t = 100)]
    de_generations: usize,
    /// DE-swap: candidates per generation.
    #[arg(long, value_name = "N", default_value_t = 40)]
    de_population: usize,
    /// DE-swap: swaps per candidate.
    #[arg(long, value_name = "N", default_value_t = 20)]
    de_swaps: usize,
}

impl DeArgs {
    fn config(&self) -> Result<EvolveConfig> {
        if self.de_generations == 0 || self.de_population < 4 || self.de_swaps == 0 {
            return Err(bad_input(anyhow!(
                "DE-swap needs --de-generations >= 1, --de-population >= 4 and --de-swaps >= 1"
            )));
        }
        Ok(EvolveConfig {
            swaps: self.de_swaps,
            population: self.de_population,
            generations: self.de_generations,
            time: None,
        })
    }
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Layers of the grid stack.
    #[arg(long, value_name = "L", default_value_t = 26)]
    layers: usize,
    #[command(flatten)]
    shape: ShapeArgs,
    /// How hard for a player, 0 to 1 (construct only).
    #[arg(long, value_name = "D", default_value_t = 0.5)]
    difficulty: f64,
    /// How to make the level.
    #[arg(long, value_enum, default_value_t = Method::Construct)]
    method: Method,
    #[command(flatten)]
    de: DeArgs,
    /// Seed: the same seed gives the same level.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time limit of the exact solver that verifies the level.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    verify_seconds: f64,
    /// Where to write the level (arcade's JSON format).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Solve(a) => solve_cmd(a),
        Command::Check(a) => check_cmd(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Generate(a) => generate_cmd(a),
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

fn read_level(path: &Path, capacity: Option<usize>) -> Result<Level> {
    let text = read_input(path)?;
    load_level(&text, capacity).map_err(|e| bad_input(anyhow!("{}: {e}", path.display())))
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

/// Tile ids, 20 to a line.
fn clicks_text(clicks: &[usize]) -> String {
    clicks
        .chunks(20)
        .map(|row| {
            let ids: Vec<String> = row.iter().map(usize::to_string).collect();
            format!("  {}\n", ids.join(" "))
        })
        .collect()
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    let limits = a.search.limits()?;
    let level = read_level(&a.level, a.capacity)?;
    let (verdict, clicks, nodes, seconds, taken, detail) = match a.solver {
        SolverName::Greedy => {
            let start = Instant::now();
            let p = play_greedy(&level);
            let verdict = if p.won { "solved" } else { "unknown" };
            let detail = if p.won {
                json!({})
            } else {
                json!({"note": "greedy lost; it cannot prove a level unsolvable", "lost_after": p.clicks.len()})
            };
            let clicks = if p.won { p.clicks } else { Vec::new() };
            (
                verdict,
                clicks,
                0,
                start.elapsed().as_secs_f64(),
                p.taken,
                detail,
            )
        }
        SolverName::Exact => {
            let out = solve(&level, &limits);
            let detail = match &out.verdict {
                Verdict::Solved(_) => json!({}),
                Verdict::Unsolvable(Proof::TileCounts { label, count }) => {
                    json!({"proof": "tile-counts", "type": label, "count": count})
                }
                Verdict::Unsolvable(Proof::Search) => json!({"proof": "search"}),
                Verdict::Unknown(limit) => json!({"limit": match limit {
                    Limit::Nodes => "nodes",
                    Limit::Time => "time",
                }}),
            };
            let name = out.verdict.name();
            let clicks = match out.verdict {
                Verdict::Solved(c) => c,
                _ => Vec::new(),
            };
            (name, clicks, out.nodes, out.seconds, out.best_taken, detail)
        }
    };
    if !clicks.is_empty() && !replay(&level, &clicks).won() {
        return Err(anyhow!(
            "internal error: the solution does not replay to a win"
        ));
    }
    let solver = match a.solver {
        SolverName::Greedy => "greedy",
        SolverName::Exact => "exact",
    };
    if a.json {
        let mut out = json!({
            "verdict": verdict, "clicks": clicks, "nodes": nodes, "seconds": seconds,
            "solver": solver, "tiles": level.len(), "types": level.kinds(),
            "capacity": level.capacity(), "taken": taken,
        });
        for (k, v) in detail.as_object().expect("object") {
            out[k] = v.clone();
        }
        return emit(&format!("{out}\n"));
    }
    let mut text = format!(
        "{} tiles, {} types, tray of {}: ",
        level.len(),
        level.kinds(),
        level.capacity()
    );
    match verdict {
        "solved" => writeln!(
            text,
            "solved by {solver} in {} clicks ({nodes} nodes, {seconds:.3} s)\nclicks (tile ids):\n{}",
            clicks.len(),
            clicks_text(&clicks)
        )?,
        "unsolvable" => writeln!(
            text,
            "unsolvable ({}; {nodes} nodes, {seconds:.3} s)",
            match detail["proof"].as_str() {
                Some("tile-counts") => format!(
                    "type {} has {} tiles, not a multiple of 3",
                    detail["type"], detail["count"]
                ),
                _ => "every line of play refuted".to_string(),
            }
        )?,
        _ => writeln!(
            text,
            "unknown: {} (at most {taken} of {} tiles taken; {nodes} nodes, {seconds:.3} s)",
            match a.solver {
                SolverName::Greedy => "greedy lost".to_string(),
                SolverName::Exact => format!(
                    "the {} limit ran out",
                    detail["limit"].as_str().unwrap_or("")
                ),
            },
            level.len()
        )?,
    }
    emit(&text)
}

/// Tile ids from a JSON list, a JSON object with "clicks", or plain numbers.
fn parse_clicks(text: &str) -> Result<Vec<usize>, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let list = match &value {
            Value::Object(o) => o
                .get("clicks")
                .or_else(|| o.get("meta").and_then(|m| m.get("intended")))
                .ok_or(
                    "expected \"clicks\" (solve's output) or \"meta.intended\" (a generated level)",
                )?,
            v => v,
        };
        let items = list.as_array().ok_or("\"clicks\" must be a list")?;
        return items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_u64()
                    .map(|n| n as usize)
                    .ok_or(format!("clicks[{i}]: expected a tile id, got {v}"))
            })
            .collect();
    }
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, s)| {
            s.parse()
                .map_err(|_| format!("click {}: expected a tile id, got {s:?}", i + 1))
        })
        .collect()
}

fn check_cmd(a: CheckArgs) -> Result<()> {
    let level = read_level(&a.level, a.capacity)?;
    let text = read_input(&a.clicks)?;
    let clicks =
        parse_clicks(&text).map_err(|e| bad_input(anyhow!("{}: {e}", a.clicks.display())))?;
    let r = replay(&level, &clicks);
    let legal = !matches!(r.ending, Ending::Illegal { .. });
    if a.json {
        let out = json!({
            "legal": legal, "won": r.won(), "ending": r.ending, "clicks": clicks.len(),
            "legal_clicks": r.clicks, "taken": r.taken, "tiles": level.len(), "tray": r.tray,
        });
        emit(&format!("{out}\n"))?;
    } else {
        emit(&check_text(&r, &level, clicks.len()))?;
    }
    if r.won() {
        Ok(())
    } else {
        Err(anyhow!("the clicks do not win"))
    }
}

fn check_text(r: &Replay, level: &Level, given: usize) -> String {
    let n = level.len();
    match &r.ending {
        Ending::Won => format!(
            "legal, wins: all {n} tiles cleared in {} clicks\n",
            r.clicks
        ),
        Ending::Lost { at } => format!(
            "legal, loses: the tray fills at click {} ({} of {n} tiles taken), tray {:?}{}\n",
            at + 1,
            r.taken,
            r.tray,
            match given - r.clicks {
                0 => String::new(),
                more => format!("; {more} later clicks ignored"),
            }
        ),
        Ending::Unfinished { remaining } => format!(
            "legal, unfinished: {remaining} of {n} tiles still on the board, tray {:?}\n",
            r.tray
        ),
        Ending::Illegal { at, tile, why } => {
            let why = match why {
                Illegal::NoSuchTile => format!("there is no tile {tile} (ids are 0..{n})"),
                Illegal::AlreadyTaken => format!("tile {tile} was already taken"),
                Illegal::Covered { by } => format!("tile {tile} is covered by tile {by}"),
            };
            format!("illegal: click {} — {why}\n", at + 1)
        }
    }
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    if a.games == 0 {
        return Err(bad_input(anyhow!("--games must be at least 1")));
    }
    if !(0.0..=1.0).contains(&a.difficulty) {
        return Err(bad_input(anyhow!(
            "--difficulty must be between 0 and 1, got {}",
            a.difficulty
        )));
    }
    let limits = a.search.limits()?;
    let source = match a.generator {
        LevelSource::Random => Source::Random,
        LevelSource::Construct => Source::Construct {
            difficulty: a.difficulty,
        },
        LevelSource::DeSwap => Source::Evolve(a.de.config()?),
    };
    let shapes = a
        .layers
        .iter()
        .map(|&l| a.shape.shape(l))
        .collect::<Result<Vec<_>>>()?;
    let progress = Progress::new((a.games * shapes.len()) as u64, "levels", a.quiet || a.json);
    let mut rows = Vec::new();
    for shape in shapes {
        let config = BenchConfig {
            shape,
            capacity: a.shape.capacity,
            levels: a.games,
            seed: a.seed,
            source,
            greedy: a.solver != SolverChoice::Exact,
            exact: (a.solver != SolverChoice::Greedy).then_some(limits),
        };
        let report =
            with_threads(a.threads, || bench::run(&config, &progress)).map_err(bad_input)?;
        if !a.json {
            progress.println(row_text(&report));
        }
        rows.push(report);
    }
    progress.finish();
    if a.json {
        let out = json!({
            "rows": rows, "games": a.games, "seed": a.seed, "generator": source.name(),
            "seconds_limit": a.search.seconds, "threads": a.threads,
        });
        emit(&format!("{out}\n"))?;
    } else {
        emit(&bench_text(&rows))?;
    }
    let failures: usize = rows
        .iter()
        .filter_map(|r| r.exact.as_ref())
        .map(|e| e.replay_failures)
        .sum();
    if failures > 0 {
        return Err(anyhow!(
            "{failures} exact solutions did not replay to a win"
        ));
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// One progress line per finished row.
fn row_text(r: &BenchReport) -> String {
    let mut s = format!("{} layers:", r.layers);
    if let Some(g) = &r.greedy {
        write!(s, " greedy {}/{}", g.wins, r.levels).ok();
    }
    if let Some(e) = &r.exact {
        write!(
            s,
            " exact {} solved, {} unsolvable, {} unknown",
            e.solved, e.unsolvable, e.unknown
        )
        .ok();
    }
    s
}

fn bench_text(rows: &[BenchReport]) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let mut out = format!(
        "{} levels per row, {} types × {} groups = {} tiles, tray {}, levels: {}{}, seed {}\n",
        first.levels,
        first.types,
        first.groups,
        first.tiles,
        first.capacity,
        first.source,
        first
            .difficulty
            .map_or(String::new(), |d| format!(" (difficulty {d})")),
        first.seed
    );
    out.push_str(
        "layers | greedy wins [95% CI]   cleared | exact solved/unsolvable/unknown  cleared  s/level (max) | make s/level\n",
    );
    for r in rows {
        let greedy = r.greedy.as_ref().map_or("-".to_string(), |g| {
            format!(
                "{:>3} {:>4} [{}, {}]  {:>4}",
                g.wins,
                pct(g.win_rate),
                pct(g.ci95[0]),
                pct(g.ci95[1]),
                pct(g.mean_share)
            )
        });
        let exact = r.exact.as_ref().map_or("-".to_string(), |e| {
            format!(
                "{:>3}/{}/{}  {:>4}  {:.3} ({:.2})",
                e.solved,
                e.unsolvable,
                e.unknown,
                pct(e.mean_share),
                e.mean_seconds,
                e.max_seconds
            )
        });
        let make = if r.source == "random" {
            "-".to_string()
        } else {
            format!(
                "{:.4} ({}/{} made)",
                r.make.mean_seconds, r.make.made, r.levels
            )
        };
        writeln!(out, "{:>6} | {greedy:<30} | {exact:<40} | {make}", r.layers).ok();
    }
    out
}

fn generate_cmd(a: GenerateArgs) -> Result<()> {
    let shape = a.shape.shape(a.layers)?;
    if !(0.0..=1.0).contains(&a.difficulty) {
        return Err(bad_input(anyhow!(
            "--difficulty must be between 0 and 1, got {}",
            a.difficulty
        )));
    }
    let limits = SearchArgs {
        seconds: a.verify_seconds,
        nodes: None,
    }
    .limits()?;
    let capacity = a.shape.capacity;
    let start = Instant::now();
    let (level, mut meta) = match a.method {
        Method::Construct => {
            let g = construct(&shape, capacity, a.difficulty, a.seed).map_err(bad_input)?;
            // The intended clicks are the certificate: the independent replay checks them.
            if !replay(&g.level, &g.intended).won() {
                return Err(anyhow!(
                    "internal error: the intended clicks of a constructed level do not win"
                ));
            }
            let meta = json!({
                "generator": "construct", "difficulty": a.difficulty,
                "intended": g.intended, "peak_tray": g.peak_tray, "mean_tray": g.mean_tray,
            });
            (g.level, meta)
        }
        Method::DeSwap => {
            let e = evolve(&shape, capacity, &a.de.config()?, a.seed).map_err(bad_input)?;
            let meta = json!({
                "generator": "de-swap", "greedy_clears": e.won, "greedy_share": e.best_share,
                "generations": e.generations, "evaluations": e.evaluations,
            });
            (e.level, meta)
        }
    };
    let make_seconds = start.elapsed().as_secs_f64();
    let verified = solve(&level, &limits);
    let greedy = play_greedy(&level);
    let seconds = start.elapsed().as_secs_f64();
    for (k, v) in [
        ("layers", json!(a.layers)),
        ("types", json!(shape.types)),
        ("groups", json!(shape.groups)),
        ("seed", json!(a.seed)),
    ] {
        meta[k] = v;
    }
    std::fs::write(&a.out, to_json(&level, &meta))
        .with_context(|| format!("writing {}", a.out.display()))?;
    let solution_tray = match &verified.verdict {
        Verdict::Solved(clicks) => Some(tray_profile(&level, clicks)),
        _ => None,
    };
    if a.json {
        let mut out = meta.clone();
        if let Some(o) = out.as_object_mut() {
            o.remove("intended");
        }
        for (k, v) in [
            ("out", json!(a.out.display().to_string())),
            ("tiles", json!(level.len())),
            ("verdict", json!(verified.verdict.name())),
            ("verify_nodes", json!(verified.nodes)),
            ("verify_seconds", json!(verified.seconds)),
            ("greedy_wins", json!(greedy.won)),
            (
                "greedy_share",
                json!(greedy.taken as f64 / level.len() as f64),
            ),
            ("make_seconds", json!(make_seconds)),
            ("seconds", json!(seconds)),
        ] {
            out[k] = v;
        }
        emit(&format!("{out}\n"))?;
    } else {
        let mut text = format!(
            "wrote {} ({} tiles, {} layers, {} types × {} groups, tray {})\n",
            a.out.display(),
            level.len(),
            a.layers,
            shape.types,
            shape.groups,
            capacity
        );
        match a.method {
            Method::Construct => writeln!(
                text,
                "  construct, difficulty {}: intended path holds up to {} tiles in the tray (mean {:.2}); made in {:.4} s",
                a.difficulty,
                meta["peak_tray"],
                meta["mean_tray"].as_f64().unwrap_or(0.0),
                make_seconds
            )?,
            Method::DeSwap => writeln!(
                text,
                "  de-swap: greedy {} after {} generations ({} evaluations, {:.3} s)",
                if meta["greedy_clears"] == true {
                    "clears it"
                } else {
                    "still fails"
                },
                meta["generations"],
                meta["evaluations"],
                make_seconds
            )?,
        }
        writeln!(
            text,
            "  exact solver: {} ({} nodes, {:.4} s{}); greedy player: {} ({} of {} tiles)",
            verified.verdict.name(),
            verified.nodes,
            verified.seconds,
            solution_tray.map_or(String::new(), |t| format!(
                ", its solution peaks at {} in the tray",
                t.peak
            )),
            if greedy.won { "wins" } else { "loses" },
            greedy.taken,
            level.len()
        )?;
        emit(&text)?;
    }
    match verified.verdict {
        Verdict::Unsolvable(_) if a.method == Method::Construct => Err(anyhow!(
            "internal error: a constructed level was refuted by the exact solver"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_clicks;

    #[test]
    fn clicks_come_as_lists_objects_or_plain_numbers() {
        assert_eq!(parse_clicks("[3, 1, 2]").unwrap(), vec![3, 1, 2]);
        assert_eq!(
            parse_clicks(r#"{"verdict":"solved","clicks":[5,0]}"#).unwrap(),
            vec![5, 0]
        );
        assert_eq!(parse_clicks("4 5,6\n7").unwrap(), vec![4, 5, 6, 7]);
        assert!(parse_clicks("[1, -2]").unwrap_err().contains("clicks[1]"));
        assert!(parse_clicks("1 x").unwrap_err().contains("click 2"));
        assert_eq!(
            parse_clicks(r#"{"meta":{"intended":[2,1]},"tiles":[]}"#).unwrap(),
            vec![2, 1]
        );
        assert!(parse_clicks(r#"{"moves":[]}"#).is_err());
    }
}
