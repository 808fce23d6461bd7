//! `arcade tetris …`

use crate::exit::{self, Stopped, bad_input, stop_on_ctrl_c};
use crate::output::OutputArgs;
use crate::run_options::{self, RunOptions};
use crate::tuning::{self, Session, TuneOptions};
use crate::watch::Watch;
use anyhow::Result;
use arcade_core::progress::Progress;
use arcade_core::runner::effective_threads;
use arcade_core::text::counted;
use arcade_tetris::bench::{self, BenchConfig};
use arcade_tetris::game::{End, PlayReport};
use arcade_tetris::tune::{self, Checkpoint, Start, TuneAbout, TuneReport, TuneSetup};
use arcade_tetris::{
    Board, Feature, Limits, MoveMode, PieceSource, Player, Randomizer, Rules, Weights, game,
};
use clap::{Args, Subcommand, ValueEnum};
use std::path::Path;
use std::time::Instant;

/// Candidates per generation, as an option: 1 to the optimizers' limit.
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
    /// AI: dellacherie, el-tetris, bcts, arcade-tuned (tuned on 10×10, where it beats bcts;
    /// weaker on 10×20), bcts-expect (the strongest on 10×20), or a weights JSON file
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
    /// Without preview: once the stack is HEIGHT rows high, choose by the
    /// expected value over the unknown next piece (the mean, over the seven
    /// it may be, of its best placement). Still one piece, no preview;
    /// about 200× slower on the pieces where it applies, far safer near the
    /// top. 0 = always.
    #[arg(long, value_name = "HEIGHT", conflicts_with = "preview")]
    expect_from: Option<usize>,
}

impl AiArgs {
    /// Refuses options that would silently change the player: preview for
    /// one built to average over the unknown next piece instead, and an
    /// expectation height the stack of a `height`-row board never reaches
    /// (a built-in's or a file's gets a note instead).
    fn check(&self, weights: &Weights, height: usize) -> Result<()> {
        use arcade_tetris::player::{OptionError, check_options};
        check_options(weights, self.preview, self.expect_from, height).map_err(|e| {
            bad_input(match e {
                OptionError::PreviewReplacesExpectation(_) => {
                    anyhow::anyhow!("--preview: {e}; use --ai bcts --preview")
                }
                OptionError::ExpectationAboveBoard(..) => anyhow::anyhow!("--expect-from {e}"),
            })
        })?;
        // A built-in or a file was not asked for this board: it plays, and
        // the note says how.
        if let Some(h) = weights.expect_from.filter(|&h| h > height)
            && self.expect_from.is_none()
            && !self.preview
        {
            eprintln!(
                "note: {} averages over the next piece from stack height {h}, above the \
                 board's {height} rows: here it plays by its weights alone",
                weights.name
            );
        }
        Ok(())
    }

    /// The player these options describe.
    fn player(&self, weights: &Weights) -> Player {
        let player = Player::new(
            Rules::classic(),
            weights.clone(),
            self.moves.into(),
            self.preview,
        );
        match self.expect_from {
            Some(h) => player.with_expectation(h),
            None => player,
        }
    }
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

/// `tetris bench`'s and `tune`'s board (the tuned weights' 10×10).
const BENCH_BOARD: (usize, usize) = (10, 10);

/// Parses `WIDTHxHEIGHT`, checking the engine's limits.
fn parse_board(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| "expected WIDTHxHEIGHT such as 10x20".to_string())?;
    // A number too large for usize is as wrong as any other size out of
    // range, not "not a number".
    let size = |text: &str, what: &str| -> Result<usize, String> {
        let text = text.trim();
        match text.parse::<usize>() {
            Ok(n) => Ok(n),
            Err(_) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => Err(format!(
                "{what} {text} is out of range (widths are 4 to 16, heights 4 to 32)"
            )),
            Err(_) => Err(format!(
                "{what} {text:?} is not a whole number (expected WIDTHxHEIGHT such as 10x20)"
            )),
        }
    };
    let (w, h) = (size(w, "width")?, size(h, "height")?);
    Board::new(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    ai: AiArgs,
    /// Board size, WIDTHxHEIGHT (width 4-16, height 4-32) [default: 10x20;
    /// with --game, 10x10 as `tetris bench`, so its game I is replayed].
    #[arg(long, value_name = "WxH", allow_hyphen_values = true, value_parser = parse_board)]
    board: Option<(usize, usize)>,
    /// Seed of the piece sequence.
    #[arg(long, default_value_t = 1, conflicts_with = "sequence")]
    seed: u64,
    /// Play game I (from 0) of `tetris bench` with the same --seed: its
    /// pieces, so a bench game can be watched or studied (the report gives
    /// that game's own seed).
    #[arg(long, value_name = "I", conflicts_with = "sequence")]
    game: Option<u64>,
    /// Piece randomizer.
    #[arg(long, value_enum, default_value_t = Pieces::Uniform)]
    pieces: Pieces,
    /// Play this explicit piece sequence instead (letters IOTSZJL).
    #[arg(long, value_name = "LETTERS", conflicts_with = "pieces")]
    sequence: Option<String>,
    /// Stop after this many pieces.
    #[arg(long, value_name = "N", value_parser = run_options::count)]
    max_pieces: Option<u64>,
    /// Stop after this many lines.
    #[arg(long, value_name = "N", value_parser = run_options::count)]
    max_lines: Option<u64>,
    /// Animate the board in the terminal.
    #[arg(long, conflicts_with = "json")]
    watch: bool,
    /// Milliseconds per piece when watching.
    #[arg(long, value_name = "MS", default_value_t = 40, requires = "watch",
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    delay: u64,
    /// List every placement (rotation, col, row of the piece's box) in the
    /// JSON output.
    #[arg(long, requires = "json")]
    placements: bool,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    ai: AiArgs,
    /// Board size, WIDTHxHEIGHT (width 4-16, height 4-32).
    #[arg(long, value_name = "WxH", allow_hyphen_values = true, value_parser = parse_board, default_value = "10x10")]
    board: (usize, usize),
    /// Number of games (results stream into the statistics).
    #[arg(long, default_value_t = 100, value_parser = run_options::count)]
    games: u64,
    /// Master seed: game i plays the pieces of seed derive(S, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Piece randomizer.
    #[arg(long, value_enum, default_value_t = Pieces::Uniform)]
    pieces: Pieces,
    /// Stop each game after this many lines (reported as capped games).
    #[arg(long, value_name = "L", value_parser = run_options::count)]
    max_lines: Option<u64>,
    /// Stop each game after this many pieces.
    #[arg(long, value_name = "N", value_parser = run_options::count)]
    max_pieces: Option<u64>,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
    /// Include every game's line count in the JSON output (up to 2^20
    /// games). `--per-episode`, as `flappy eval` names it, is the same.
    #[arg(long, requires = "json", alias = "per-episode")]
    per_game: bool,
}

#[derive(Args)]
#[command(mut_arg("spread", |a| a.default_value("10").required(false)))]
#[command(mut_arg("generations", |a| a.help("Generations to run [default: 50; on --resume: the checkpoint's target]")))]
pub struct TuneArgs {
    #[command(flatten)]
    tune: TuneOptions,
    /// Board size, WIDTHxHEIGHT (width 4-16, height 4-32).
    #[arg(long, value_name = "WxH", allow_hyphen_values = true, value_parser = parse_board, default_value = "10x10")]
    board: (usize, usize),
    /// Games per fitness evaluation.
    #[arg(long, value_name = "E", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games_per_eval: u32,
    /// Stop each tuning game at this many lines.
    #[arg(long, value_name = "L", value_parser = run_options::count)]
    max_lines: Option<u64>,
    /// Features to weigh: those of a built-in AI (dellacherie, el-tetris,
    /// bcts, arcade-tuned, bcts-expect), all, or a comma list of feature names.
    #[arg(long, default_value = "bcts")]
    features: String,
    /// Start from these weights (built-in name or file) instead of zero
    /// (only the weights: an `expect_from` is not tuned or kept).
    #[arg(long, value_name = "NAME|FILE")]
    init: Option<String>,
    /// Placement generation used in the tuning games.
    #[arg(long = "moves", value_enum, default_value_t = Moves::Drop)]
    moves: Moves,
    /// Name stored in the weights file [default: the file stem].
    #[arg(long)]
    name: Option<String>,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
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
    let (width, height) = a.board.unwrap_or(match a.game {
        Some(_) => BENCH_BOARD,
        None => (10, 20),
    });
    a.ai.check(&weights, height)?;
    let rules = Rules::classic();
    let mut player = a.ai.player(&weights);
    let mut source = piece_source(&a)?;
    let limits = Limits {
        max_pieces: a.max_pieces,
        max_lines: a.max_lines,
    };
    let board = Board::new(width, height).map_err(bad_input)?;
    let mut placements = Vec::new();
    let start = Instant::now();
    // A watched game draws its own frames: no bar under them.
    let progress = match a.watch {
        true => Progress::hidden(),
        false => a.output.counter("pieces"),
    };
    stop_on_ctrl_c(&progress);
    let mut view = match a.watch {
        true => Some(Watch::new(&weights.name, rules, board, a.delay)?),
        false => None,
    };
    let result = game::play_while(&mut player, board, &mut source, limits, |s| {
        if a.placements {
            placements.push(s.placement);
        }
        if let Some(view) = &mut view {
            view.show(s);
            return !progress.is_cancelled();
        }
        if s.pieces % 4096 == 0 {
            progress.set_position(s.pieces);
            progress.set_message(format!("pieces, {} lines", s.lines));
            return !progress.is_cancelled();
        }
        true
    });
    progress.finish();
    if let Some(view) = view {
        view.finish()?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let seed = run_options::bench_game_seed(a.seed, a.game);
    let mut report = PlayReport::new(&weights.name, &board, seed, &result, seconds);
    if a.placements {
        report.placements = Some(placements);
    }
    a.output.emit(&report)?;
    match result.end {
        End::Stopped => {
            Err(Stopped("stopped by Ctrl-C: the report covers the game so far".into()).into())
        }
        _ => Ok(()),
    }
}

/// The pieces `play` deals: `--sequence`, or random from `--seed`.
fn piece_source(a: &PlayArgs) -> Result<PieceSource> {
    Ok(match &a.sequence {
        Some(text) => PieceSource::sequence(
            PieceSource::parse_sequence(text)
                .map_err(|e| bad_input(anyhow::anyhow!("--sequence: {e}")))?,
        ),
        None => PieceSource::random(
            a.pieces.into(),
            run_options::bench_game_seed(a.seed, a.game),
        ),
    })
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    run_options::check_per_game_list("--per-game", a.per_game, a.games)?;
    let weights = load_ai(&a.ai.ai)?;
    a.ai.check(&weights, a.board.1)?;
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
        expect_from: a.ai.expect_from.or(weights.expect_from),
        randomizer: a.pieces.into(),
    };
    let output = a.output;
    let progress = output.progress(a.games, "games");
    stop_on_ctrl_c(&progress);
    let rules = Rules::classic();
    let start = Instant::now();
    let partial = a
        .run
        .install(|| bench::run_range(&rules, &weights, &cfg, 0..cfg.games, &progress));
    progress.finish();
    let threads = effective_threads(a.run.threads());
    let seconds = start.elapsed().as_secs_f64();
    let report = bench::BenchReport::new(&weights.name, &cfg, &partial, seconds, threads);
    let (started, stopped) = (report.games, report.stopped_games);
    match a.per_game {
        true => output.emit(&report.with_games(&partial))?,
        false => output.emit(&report)?,
    }
    // A game stopped where it stood was not played to its end.
    if progress.is_cancelled() && (stopped > 0 || started < a.games) {
        return Err(exit::stopped(started, a.games, "game"));
    }
    Ok(())
}

fn parse_features(spec: &str) -> Result<Vec<Feature>> {
    tune::parse_features(spec).map_err(|e| bad_input(anyhow::anyhow!("--features: {e}")))
}

/// The run `tune` continues or starts.
fn tune_run(a: &TuneArgs, checkpoint: &Path) -> Result<Checkpoint> {
    if a.tune.resume {
        return a.tune.resume(checkpoint);
    }
    let init = match &a.init {
        Some(spec) => load_ai(spec)?,
        None => Weights::from_pairs("zero", &[]),
    };
    if let Some(h) = init.expect_from {
        eprintln!(
            "note: {} also averages over the next piece from stack height {h}; tuning plays and \
             writes the weights alone",
            init.name
        );
    }
    let setup = TuneSetup {
        features: parse_features(&a.features)?,
        width: a.board.0,
        height: a.board.1,
        games_per_eval: a.games_per_eval as usize,
        line_cap: a.max_lines,
        mode: a.moves.into(),
        randomizer: Randomizer::Uniform,
    };
    let start = Start {
        method: a.tune.method.into(),
        init: setup.vector(&init),
        spread: a.tune.spread,
        population: a.tune.population,
        noise: None,
        seed: a.tune.seed,
    };
    let generations = a.tune.generations.unwrap_or(50) as usize;
    Checkpoint::new(setup, &start, generations).map_err(bad_input)
}

fn tune_cmd(a: TuneArgs) -> Result<()> {
    let checkpoint = a.tune.checkpoint();
    a.tune.check_population()?;
    // A new run's options are checked before its files, so a bad one is
    // said before a clash; a resumed run has only its files to check.
    let check_paths = || tuning::check_paths(&a.tune.out, &checkpoint, a.tune.resume);
    if a.tune.resume {
        check_paths()?;
    }
    let mut run = tune_run(&a, &checkpoint)?;
    if !a.tune.resume {
        check_paths()?;
    }
    tuning::resume_on_ctrl_c("tetris tune", &a.tune.out, &checkpoint);
    let name = a.name.clone().unwrap_or_else(|| {
        a.tune
            .out
            .file_stem()
            .map_or("tuned".into(), |s| s.to_string_lossy().into_owned())
    });
    let progress = a.output.progress(0, "evals");
    progress.println(format!(
        "tuning {} with {}: {} per generation; checkpoint {}",
        counted(run.setup.features.len(), "weight"),
        run.method.as_str(),
        counted(run.optimizer.evaluations_per_generation(), "evaluation"),
        checkpoint.display()
    ));
    let started = Instant::now();
    let rules = Rules::classic();
    let session = Session {
        out: &a.tune.out,
        checkpoint: &checkpoint,
        threads: &a.run,
        progress: &progress,
    };
    let file = |run: &Checkpoint| Ok(tune::weights_file(run, &name));
    session.run(&mut run, |run, p| tune::step(run, &rules, p), file)?;
    a.output.emit(&TuneReport {
        out: a.tune.out.display().to_string(),
        generations: run.history.len(),
        seconds: started.elapsed().as_secs_f64(),
        weights: tune::recommended(&run, &name),
        about: TuneAbout::of(&run),
    })
}
