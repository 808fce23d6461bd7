//! `arcade tetris …`

use crate::exit::bad_input;
use crate::run_options::RunOptions;
use crate::watch::Watch;
use anyhow::{Context, Result};
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_tetris::bench::{self, BenchConfig, BenchReport};
use arcade_tetris::tune::{self, Checkpoint, Method, Start, TuneSetup};
use arcade_tetris::{
    Board, Feature, Limits, MoveMode, PieceSource, Player, Randomizer, Rules, Weights, game,
};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand)]
pub enum Command {
    /// Play one game with an AI and print lines, pieces and time.
    ///
    /// Example: arcade tetris play --ai el-tetris --watch
    Play(PlayArgs),
    /// Play many seeded games in parallel and summarise lines cleared.
    ///
    /// Example: arcade tetris bench --ai bcts --board 10x10 --games 2000 --json
    Bench(BenchArgs),
    /// Tune evaluator weights with CEM, differential evolution or PSO.
    ///
    /// The fitness of a weight vector is the mean lines its player clears over
    /// --games-per-eval games; all candidates of a generation play the same
    /// games. A checkpoint is saved after every generation (--resume continues),
    /// and the result loads with --ai FILE.
    ///
    /// Example: arcade tetris tune --method cem --board 10x10 --generations 40 --out tuned.json
    Tune(TuneArgs),
}

/// Which AI plays: a built-in weight set or a weights file.
#[derive(Args, Clone)]
struct AiArgs {
    /// AI: dellacherie, el-tetris, bcts, arcade-tuned, or a weights JSON file
    /// ({"features": {"holes": -7.9, ...}}).
    #[arg(long, value_name = "NAME|FILE")]
    ai: String,
    /// Placement generation: hard drops only, or every reachable resting
    /// place (tucks and slides).
    #[arg(long = "moves", value_enum, default_value_t = Moves::Drop)]
    moves: Moves,
    /// Also look at the next piece (best pair of placements).
    #[arg(long)]
    preview: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Moves {
    Drop,
    Reach,
}

impl From<Moves> for MoveMode {
    fn from(m: Moves) -> MoveMode {
        match m {
            Moves::Drop => MoveMode::Drop,
            Moves::Reach => MoveMode::Reach,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Pieces {
    /// Independent uniform pieces (the classic AI benchmark).
    Uniform,
    /// The 7-bag randomizer of modern Tetris.
    Bag,
}

impl From<Pieces> for Randomizer {
    fn from(p: Pieces) -> Randomizer {
        match p {
            Pieces::Uniform => Randomizer::Uniform,
            Pieces::Bag => Randomizer::Bag,
        }
    }
}

/// Parses `WIDTHxHEIGHT`, checking the engine's limits.
fn parse_board(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| "expected WIDTHxHEIGHT such as 10x20".to_string())?;
    let w: usize = w.trim().parse().map_err(|_| {
        format!("width {w:?} is not a number (expected WIDTHxHEIGHT such as 10x20)")
    })?;
    let h: usize = h.trim().parse().map_err(|_| {
        format!("height {h:?} is not a number (expected WIDTHxHEIGHT such as 10x20)")
    })?;
    Board::new(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    ai: AiArgs,
    /// Board size, WIDTHxHEIGHT (width 4-16, height 4-32).
    #[arg(long, value_name = "WxH", value_parser = parse_board, default_value = "10x20")]
    board: (usize, usize),
    /// Seed of the piece sequence.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Piece randomizer.
    #[arg(long, value_enum, default_value_t = Pieces::Uniform)]
    pieces: Pieces,
    /// Play this explicit piece sequence instead (letters IOTSZJL).
    #[arg(long, value_name = "LETTERS", conflicts_with = "pieces")]
    sequence: Option<String>,
    /// Stop after this many pieces.
    #[arg(long, value_name = "N")]
    max_pieces: Option<u64>,
    /// Stop after this many lines.
    #[arg(long, value_name = "N")]
    max_lines: Option<u64>,
    /// Animate the board in the terminal.
    #[arg(long)]
    watch: bool,
    /// Milliseconds per piece when watching.
    #[arg(long, value_name = "MS", default_value_t = 40, requires = "watch")]
    delay: u64,
    /// Print one JSON object instead of text.
    #[arg(long, conflicts_with = "watch")]
    json: bool,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    ai: AiArgs,
    /// Board size, WIDTHxHEIGHT (width 4-16, height 4-32).
    #[arg(long, value_name = "WxH", value_parser = parse_board, default_value = "10x10")]
    board: (usize, usize),
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Master seed: game i plays the pieces of seed derive(S, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Piece randomizer.
    #[arg(long, value_enum, default_value_t = Pieces::Uniform)]
    pieces: Pieces,
    /// Stop each game after this many lines (reported as capped games).
    #[arg(long, value_name = "L")]
    max_lines: Option<u64>,
    /// Stop each game after this many pieces.
    #[arg(long, value_name = "N")]
    max_pieces: Option<u64>,
    #[command(flatten)]
    run: RunOptions,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Include every game's line count in the JSON output.
    #[arg(long, requires = "json")]
    per_game: bool,
}

#[derive(Args)]
pub struct TuneArgs {
    /// Optimizer: noisy cross-entropy (Szita & Lőrincz 2006), differential
    /// evolution (DE/rand/1/bin) or particle swarm.
    #[arg(long, value_enum, default_value_t = MethodArg::Cem)]
    method: MethodArg,
    /// Board size, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", value_parser = parse_board, default_value = "10x10")]
    board: (usize, usize),
    /// Generations to run (on --resume: the new target) [default: 50].
    #[arg(long, value_name = "G")]
    generations: Option<usize>,
    /// Candidates per generation [default: CEM 100, DE 10 per weight, PSO 30].
    #[arg(long, value_name = "P")]
    population: Option<usize>,
    /// Games per fitness evaluation.
    #[arg(long, value_name = "E", default_value_t = 10)]
    games_per_eval: usize,
    /// Stop each tuning game at this many lines.
    #[arg(long, value_name = "L")]
    max_lines: Option<u64>,
    /// Features to weigh: those of a built-in AI (dellacherie, el-tetris,
    /// bcts, arcade-tuned), all, or a comma list of feature names.
    #[arg(long, default_value = "bcts")]
    features: String,
    /// Start from these weights (built-in name or file) instead of zero.
    #[arg(long, value_name = "NAME|FILE")]
    init: Option<String>,
    /// Initial standard deviation (CEM) or box half-width (DE, PSO).
    #[arg(long, default_value_t = 10.0)]
    spread: f64,
    /// Placement generation used in the tuning games.
    #[arg(long = "moves", value_enum, default_value_t = Moves::Drop)]
    moves: Moves,
    /// Master seed of the optimizer and of the tuning games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the tuned weights (JSON, loads with --ai FILE).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Name stored in the weights file [default: the file stem].
    #[arg(long)]
    name: Option<String>,
    /// Checkpoint file [default: OUT with extension .checkpoint.json].
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue the run saved in the checkpoint (its setup wins over flags).
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    run: RunOptions,
}

/// The optimizers of arcade-core, as a command-line choice.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum MethodArg {
    Cem,
    De,
    Pso,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Cem => Method::Cem,
            MethodArg::De => Method::De,
            MethodArg::Pso => Method::Pso,
        }
    }
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Play(a) => play(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Tune(a) => tune_cmd(a),
    }
}

fn load_ai(spec: &str) -> Result<Weights> {
    Weights::resolve(spec).map_err(bad_input)
}

fn play(a: PlayArgs) -> Result<()> {
    let weights = load_ai(&a.ai.ai)?;
    let rules = Rules::classic();
    let (w, h) = a.board;
    let mut player = Player::new(
        rules.clone(),
        weights.clone(),
        a.ai.moves.into(),
        a.ai.preview,
    );
    let mut source = match &a.sequence {
        Some(text) => PieceSource::sequence(
            PieceSource::parse_sequence(text)
                .map_err(|e| bad_input(anyhow::anyhow!("--sequence: {e}")))?,
        ),
        None => PieceSource::random(a.pieces.into(), a.seed),
    };
    let limits = Limits {
        max_pieces: a.max_pieces,
        max_lines: a.max_lines,
    };
    let board = Board::new(w, h).map_err(bad_input)?;
    let start = Instant::now();
    let result = if a.watch {
        let mut view = Watch::new(&weights.name, rules, board, a.delay);
        let r = game::play(&mut player, board, &mut source, limits, |s| view.show(s));
        view.finish();
        r
    } else {
        let progress = Progress::counter("pieces", a.quiet || a.json);
        let r = game::play(&mut player, board, &mut source, limits, |s| {
            if s.pieces % 4096 == 0 {
                progress.set_position(s.pieces);
                progress.set_message(format!("pieces, {} lines", s.lines));
            }
        });
        progress.finish();
        r
    };
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        let out = json!({
            "ai": weights.name, "board": format!("{w}x{h}"), "seed": a.seed,
            "lines": result.lines, "pieces": result.pieces, "clears": result.clears,
            "end": result.end, "seconds": seconds,
            "pieces_per_sec": result.pieces as f64 / seconds,
        });
        println!("{out}");
    } else {
        println!(
            "{} on {w}x{h}: {} lines, {} pieces in {:.2} s ({:.0} pieces/s); clears 1/2/3/4: {:?}; ended: {}",
            weights.name,
            result.lines,
            result.pieces,
            seconds,
            result.pieces as f64 / seconds,
            result.clears,
            result.end.as_str()
        );
    }
    Ok(())
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let weights = load_ai(&a.ai.ai)?;
    if a.games == 0 {
        return Err(bad_input(anyhow::anyhow!("--games must be at least 1")));
    }
    let cfg = BenchConfig {
        width: a.board.0,
        height: a.board.1,
        games: a.games,
        seed: a.seed,
        limits: Limits {
            max_pieces: a.max_pieces,
            max_lines: a.max_lines,
        },
        mode: a.ai.moves.into(),
        preview: a.ai.preview,
        randomizer: a.pieces.into(),
    };
    let progress = Progress::new(a.games as u64, "games", a.run.quiet || a.json);
    let report = with_threads(a.run.threads(), || {
        bench::run(&Rules::classic(), &weights, &cfg, &progress)
    });
    progress.finish();
    if a.json {
        let mut v = serde_json::to_value(&report)?;
        if !a.per_game {
            v.as_object_mut()
                .expect("report is an object")
                .remove("lines_per_game");
        }
        println!("{v}");
    } else {
        print_bench(&report);
    }
    Ok(())
}

fn print_bench(r: &BenchReport) {
    let mode = match r.mode {
        MoveMode::Drop => "drop",
        MoveMode::Reach => "reach",
    };
    println!(
        "{} on {} ({mode}{}, {} pieces), {} games, seed {}",
        r.ai,
        r.board,
        if r.preview { " + preview" } else { "" },
        r.randomizer,
        r.games,
        r.seed
    );
    println!(
        "  lines   mean {:.1}  95% CI [{:.1}, {:.1}]  median {:.1}  sd {:.1}  min {}  max {}",
        r.mean_lines, r.ci95[0], r.ci95[1], r.median_lines, r.std_lines, r.min_lines, r.max_lines
    );
    if r.capped_games > 0 {
        println!(
            "  {} of {} games stopped at the cap",
            r.capped_games, r.games
        );
    }
    println!(
        "  speed   {} pieces in {:.2} s: {:.0} pieces/s on {} thread{}",
        r.pieces,
        r.seconds,
        r.pieces_per_sec,
        r.threads,
        if r.threads == 1 { "" } else { "s" }
    );
}

fn parse_features(spec: &str) -> Result<Vec<Feature>> {
    if let Some(preset) = tune::feature_preset(spec) {
        return Ok(preset);
    }
    spec.split(',')
        .map(|name| {
            Feature::from_name(name.trim()).ok_or_else(|| {
                bad_input(anyhow::anyhow!(
                    "--features: unknown feature {name:?}; expected a built-in AI's set (dellacherie, el-tetris, bcts, arcade-tuned), all, or names among: {}",
                    Feature::ALL.map(Feature::name).join(", ")
                ))
            })
        })
        .collect()
}

fn default_checkpoint(out: &Path) -> PathBuf {
    out.with_extension("checkpoint.json")
}

fn tune_cmd(a: TuneArgs) -> Result<()> {
    let rules = Rules::classic();
    let checkpoint_path = a
        .checkpoint
        .clone()
        .unwrap_or_else(|| default_checkpoint(&a.out));
    let mut run = if a.resume {
        let mut ck = Checkpoint::load(&checkpoint_path).map_err(bad_input)?;
        if let Some(g) = a.generations {
            ck.generations = g;
        }
        ck
    } else {
        let features = parse_features(&a.features)?;
        let init = match &a.init {
            Some(spec) => load_ai(spec)?,
            None => Weights::from_pairs("zero", &[]),
        };
        let setup = TuneSetup {
            features,
            width: a.board.0,
            height: a.board.1,
            games_per_eval: a.games_per_eval,
            line_cap: a.max_lines,
            mode: a.moves.into(),
            randomizer: Randomizer::Uniform,
        };
        let start = Start {
            method: a.method.into(),
            init: setup.vector(&init),
            spread: a.spread,
            population: a.population,
            noise: None,
            seed: a.seed,
        };
        Checkpoint::new(setup, &start, a.generations.unwrap_or(50)).map_err(bad_input)?
    };
    let name = a.name.clone().unwrap_or_else(|| {
        a.out
            .file_stem()
            .map_or("tuned".into(), |s| s.to_string_lossy().into_owned())
    });
    let per_gen = run.optimizer.evaluations_per_generation() as u64;
    let progress = Progress::new(per_gen, "evals", a.run.quiet);
    progress.println(format!(
        "tuning {} weights with {} on {}x{}: {} evaluations per generation, {} games each; checkpoint {}",
        run.setup.features.len(),
        run.method.as_str(),
        run.setup.width,
        run.setup.height,
        per_gen,
        run.setup.games_per_eval,
        checkpoint_path.display()
    ));
    let started = Instant::now();
    while !run.is_done() {
        let gen_start = Instant::now();
        progress.reset(
            per_gen,
            &format!("gen {}/{}", run.history.len() + 1, run.generations),
        );
        let g = with_threads(a.run.threads(), || run.step(&rules, &progress));
        run.save(&checkpoint_path)?;
        write_weights(&run, &name, &a.out)?;
        progress.println(format!(
            "gen {:>3}/{}  best {:>10.1}  mean {:>10.1}  best ever {:>10.1}  ({:.1} s)",
            g.index + 1,
            run.generations,
            g.best,
            g.mean,
            g.best_ever,
            gen_start.elapsed().as_secs_f64()
        ));
    }
    progress.finish();
    write_weights(&run, &name, &a.out)?;
    let weights = run.weights(&name);
    println!(
        "wrote {} after {} generations ({:.1} s this session):\n{}",
        a.out.display(),
        run.history.len(),
        started.elapsed().as_secs_f64(),
        weights.describe()
    );
    Ok(())
}

/// Writes the current recommendation with how it was made.
fn write_weights(run: &Checkpoint, name: &str, out: &Path) -> Result<()> {
    let about = json!({
        "made_by": "arcade tetris tune",
        "method": run.method,
        "board": format!("{}x{}", run.setup.width, run.setup.height),
        "generations": run.history.len(),
        "games_per_eval": run.setup.games_per_eval,
        "line_cap": run.setup.line_cap,
        "moves": run.setup.mode,
        "last_generation": run.history.last(),
    });
    let text = run.weights(name).to_json(about);
    std::fs::write(out, text).with_context(|| format!("writing {}", out.display()))
}
