//! `arcade geek …`: the 2021 Tencent Geek Challenge Tetris.

use crate::exit::bad_input;
use crate::run_options::RunOptions;
use crate::tetris::MethodArg;
use anyhow::{Context, Result};
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_tetris::geek::record::Record;
use arcade_tetris::geek::replay::{self, End, Frame, Replay};
use arcade_tetris::geek::search::{self, Search, SearchConfig, Solution};
use arcade_tetris::geek::tune::{GeekTune, GeekTuneSetup};
use arcade_tetris::geek::value::GeekWeights;
use arcade_tetris::geek::{HEIGHT, PIECES, WIDTH};
use arcade_tetris::{MoveMode, Piece, Rules};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum Command {
    /// Check a record and replay it by the official rules: score, pieces,
    /// how the game ended, line clears.
    ///
    /// Example: arcade geek replay record.txt --json
    Replay(ReplayArgs),
    /// Search the known 10,000-piece sequence for a high-scoring record.
    ///
    /// Beam search: every field in the beam takes every placement of the next
    /// piece, fields are ranked by score plus a board value, equal fields are
    /// merged, the best --beam survive. The record written to --out is replayed
    /// by the reference rules before the score is printed. With --seconds the
    /// search repeats with a doubled beam while the budget allows and keeps the
    /// best record.
    ///
    /// Example: arcade geek solve --beam 1000 --moves drop --out record.txt
    Solve(SolveArgs),
    /// Tune the board-value weights the search ranks fields by.
    ///
    /// The fitness of a weight vector is the score a narrow beam search
    /// reaches with it on the first --pieces pieces (deterministic: the
    /// sequence is fixed). Candidates scale the starting weights per feature.
    /// A checkpoint is saved after every generation; --resume continues.
    ///
    /// Example: arcade geek tune --beam 20 --pieces 3000 --generations 30 --out geek-weights.json
    Tune(TuneArgs),
    /// Animate a record in the terminal with score and piece count.
    ///
    /// Example: arcade geek watch record.txt --delay 20
    Watch(WatchArgs),
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The record: comma-separated N, Lk, Rk, Dk, Ck tokens.
    record: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Moves {
    /// Turn and shift on the spawn row, then fall straight down.
    Drop,
    /// Every resting place reachable by single steps (tucks and slides).
    Reach,
}

impl Moves {
    fn mode(self) -> MoveMode {
        match self {
            Moves::Drop => MoveMode::Drop,
            Moves::Reach => MoveMode::Reach,
        }
    }
}

#[derive(Args)]
pub struct SolveArgs {
    /// Fields kept per piece (wider: stronger and slower, about linearly).
    #[arg(long, default_value_t = 1000)]
    beam: usize,
    /// Placements considered.
    #[arg(long, value_enum, default_value_t = Moves::Drop)]
    moves: Moves,
    /// Also allow placements left floating in the air that complete a row
    /// (the game locks a piece wherever its operations end).
    #[arg(long)]
    float: bool,
    #[command(flatten)]
    run: RunOptions,
    /// Time budget: repeat with a doubled beam while the next run is
    /// expected to fit, keep the best record.
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Where to write the best record.
    #[arg(long, value_name = "FILE", default_value = "geek-record.txt")]
    out: PathBuf,
    /// Save the search state here every --checkpoint-every pieces.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Pieces between checkpoints.
    #[arg(long, value_name = "N", default_value_t = 500, requires = "checkpoint")]
    checkpoint_every: usize,
    /// Continue the search saved in --checkpoint (its settings win).
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Board-value weights (JSON from `GeekWeights`), instead of the built-in ones.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Play only the first N pieces (for quick experiments).
    #[arg(long, value_name = "N", default_value_t = PIECES)]
    pieces: usize,
    /// Fade the board value out over the last N pieces, so the end of the
    /// game cashes cells in (0: never).
    #[arg(long, value_name = "N", default_value_t = 0)]
    horizon: usize,
    /// Most of the beam that fields with the same number of filled cells
    /// (the same stage: rows cleared so far) may take, as a share (1: no limit).
    #[arg(long, value_name = "SHARE", default_value_t = 1.0)]
    stage_share: f64,
    /// Fields kept beyond the beam each piece: those with the fewest filled
    /// cells, so a narrow beam that fills up everywhere at once has a way
    /// back instead of topping out [default: beam/8, at least 4]
    #[arg(long, value_name = "N")]
    reserve: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct TuneArgs {
    /// Optimizer.
    #[arg(long, value_enum, default_value_t = MethodArg::Cem)]
    method: MethodArg,
    /// Beam width of the searches that score candidates.
    #[arg(long, default_value_t = 20)]
    beam: usize,
    /// Pieces of the sequence each search plays.
    #[arg(long, default_value_t = 3000)]
    pieces: usize,
    /// Placements the searches consider.
    #[arg(long, value_enum, default_value_t = Moves::Drop)]
    moves: Moves,
    /// Let the searches use floating placements.
    #[arg(long)]
    float: bool,
    /// End-game fade of the board value, as for `solve --horizon`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    horizon: usize,
    /// Low fields kept beyond the beam, as for `solve --reserve`
    /// [default: beam/8, at least 4]
    #[arg(long, value_name = "N")]
    reserve: Option<usize>,
    /// Generations to run (on --resume: the new target).
    #[arg(long, default_value_t = 30)]
    generations: usize,
    /// Candidates per generation [default: the method's].
    #[arg(long)]
    population: Option<usize>,
    /// Initial spread of the per-feature multipliers (1 = the weight itself).
    #[arg(long, default_value_t = 0.3)]
    spread: f64,
    /// Start from these weights instead of the built-in ones.
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Optimizer seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the best weights found (loads with `solve --weights`).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Continue the run saved next to --out.
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    run: RunOptions,
}

#[derive(Args)]
pub struct WatchArgs {
    /// The record to animate.
    record: PathBuf,
    /// Milliseconds per piece.
    #[arg(long, value_name = "MS", default_value_t = 30)]
    delay: u64,
    /// Start drawing at this piece (the replay runs silently up to it).
    #[arg(long, value_name = "N", default_value_t = 0)]
    from: usize,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Replay(a) => replay_cmd(a),
        Command::Solve(a) => solve_cmd(a),
        Command::Tune(a) => tune_cmd(a),
        Command::Watch(a) => watch_cmd(a),
    }
}

fn read_record(path: &Path) -> Result<Record> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {}", path.display()))
        .map_err(bad_input)?;
    Record::parse(&text).map_err(|e| bad_input(anyhow::anyhow!("{}: {e}", path.display())))
}

fn replay_json(r: &Replay) -> serde_json::Value {
    json!({
        "score": r.score, "pieces": r.pieces, "end": r.end.as_str(),
        "clears": r.clears, "unplayed_pieces": r.unplayed,
    })
}

fn replay_cmd(a: ReplayArgs) -> Result<()> {
    let record = read_record(&a.record)?;
    let r = replay::replay(&record, |_| {});
    if a.json {
        println!("{}", replay_json(&r));
    } else {
        println!(
            "score {}  pieces {}  ended: {}  clears 1/2/3/4: {} {} {} {}",
            r.score,
            r.pieces,
            r.end.as_str(),
            r.clears[0],
            r.clears[1],
            r.clears[2],
            r.clears[3]
        );
        if r.unplayed > 0 {
            println!(
                "({} pieces of the record came after the end of the game)",
                r.unplayed
            );
        }
    }
    Ok(())
}

fn load_weights(path: &Option<PathBuf>) -> Result<GeekWeights> {
    match path {
        None => Ok(GeekWeights::builtin()),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))
                .map_err(bad_input)?;
            serde_json::from_str(&text)
                .map_err(|e| bad_input(anyhow::anyhow!("{}: {e}", p.display())))
        }
    }
}

/// One finished search.
struct Round {
    beam: usize,
    solution: Solution,
    seconds: f64,
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    if a.beam == 0 {
        return Err(bad_input(anyhow::anyhow!("--beam must be at least 1")));
    }
    let rules = Rules::geek();
    let start = Instant::now();
    let mut search = if a.resume {
        let path = a.checkpoint.as_ref().expect("clap requires --checkpoint");
        Search::load(path).map_err(bad_input)?
    } else {
        Search::new(SearchConfig {
            beam: a.beam,
            mode: a.moves.mode(),
            float: a.float,
            pieces: a.pieces.min(PIECES),
            weights: load_weights(&a.weights)?,
            horizon: a.horizon,
            stage_share: a.stage_share,
            reserve: a.reserve.unwrap_or(SearchConfig::default_reserve(a.beam)),
        })
    };
    let progress = Progress::new(search.config.pieces as u64, "pieces", a.run.quiet || a.json);
    let mut rounds: Vec<Round> = Vec::new();
    loop {
        let round_start = Instant::now();
        let beam = search.config.beam;
        progress.reset(search.config.pieces as u64, &format!("beam {beam}"));
        with_threads(a.run.threads(), || {
            search.run(&rules, &progress, a.checkpoint_every, |s| {
                match &a.checkpoint {
                    Some(path) => s.save(path),
                    None => Ok(()),
                }
            })
        })?;
        let round = Round {
            beam,
            solution: search.best(),
            seconds: round_start.elapsed().as_secs_f64(),
        };
        progress.println(format!(
            "beam {:>6}  score {:>9}  {:>8.1} s",
            round.beam, round.solution.score, round.seconds
        ));
        let next_seconds = round.seconds * 2.2;
        rounds.push(round);
        let Some(budget) = a.seconds else { break };
        if start.elapsed().as_secs_f64() + next_seconds > budget {
            break;
        }
        let mut config = search.config.clone();
        config.beam *= 2;
        if a.reserve.is_none() {
            config.reserve = SearchConfig::default_reserve(config.beam);
        }
        search = Search::new(config);
    }
    progress.finish();
    let best = rounds
        .iter()
        .max_by_key(|r| r.solution.score)
        .expect("at least one round ran");
    let record = search::record(&best.solution)?;
    std::fs::write(&a.out, record.to_string() + "\n")
        .with_context(|| format!("writing {}", a.out.display()))?;
    let replayed = replay::replay(&record, |_| {});
    let seconds = start.elapsed().as_secs_f64();
    if replayed.pieces < search.config.pieces {
        eprintln!(
            "warning: every field of the beam topped out after {} of {} pieces; \
             a wider --beam or --reserve gets further",
            replayed.pieces, search.config.pieces
        );
    }
    let mode = match search.config.mode {
        MoveMode::Drop => "drop",
        MoveMode::Reach => "reach",
    };
    if a.json {
        let rounds: Vec<_> = rounds
            .iter()
            .map(|r| json!({"beam": r.beam, "score": r.solution.score, "seconds": r.seconds}))
            .collect();
        let out = json!({
            "score": replayed.score, "seconds": seconds, "beam": best.beam, "moves": mode,
            "float": search.config.float, "record": a.out.display().to_string(),
            "pieces": replayed.pieces, "end": replayed.end.as_str(), "clears": replayed.clears,
            "rounds": rounds,
        });
        println!("{out}");
    } else {
        println!(
            "score {} (replayed) with beam {}, {mode}{} moves, {} pieces, clears 1/2/3/4: {:?}; {:.1} s; record in {}",
            replayed.score,
            best.beam,
            if search.config.float { " + float" } else { "" },
            replayed.pieces,
            replayed.clears,
            seconds,
            a.out.display()
        );
    }
    Ok(())
}

fn tune_cmd(a: TuneArgs) -> Result<()> {
    let rules = Rules::geek();
    let checkpoint = a.out.with_extension("checkpoint.json");
    let mut run = if a.resume {
        let mut run = GeekTune::load(&checkpoint).map_err(bad_input)?;
        run.generations = a.generations;
        run
    } else {
        let setup = GeekTuneSetup {
            beam: a.beam.max(1),
            pieces: a.pieces.clamp(1, PIECES),
            mode: a.moves.mode(),
            float: a.float,
            base: load_weights(&a.init)?,
            horizon: a.horizon,
            reserve: a
                .reserve
                .unwrap_or(SearchConfig::default_reserve(a.beam.max(1))),
        };
        GeekTune::new(
            setup,
            a.method.into(),
            a.spread,
            a.population,
            a.seed,
            a.generations,
        )
        .map_err(bad_input)?
    };
    let per_gen = run.optimizer.evaluations_per_generation() as u64;
    let progress = Progress::new(per_gen, "evals", a.run.quiet);
    progress.println(format!(
        "tuning with {}: {} searches per generation (beam {}, {} pieces); checkpoint {}",
        run.method.as_str(),
        per_gen,
        run.setup.beam,
        run.setup.pieces,
        checkpoint.display()
    ));
    while !run.is_done() {
        let t = Instant::now();
        progress.reset(
            per_gen,
            &format!("gen {}/{}", run.history.len() + 1, run.generations),
        );
        let g = with_threads(a.run.threads(), || run.step(&rules, &progress));
        run.save(&checkpoint)?;
        let (best, _) = run.best();
        std::fs::write(&a.out, serde_json::to_string_pretty(&best)? + "\n")
            .with_context(|| format!("writing {}", a.out.display()))?;
        progress.println(format!(
            "gen {:>3}/{}  best {:>9.0}  mean {:>9.0}  best ever {:>9.0}  ({:.1} s)",
            g.index + 1,
            run.generations,
            g.best,
            g.mean,
            g.best_ever,
            t.elapsed().as_secs_f64()
        ));
    }
    progress.finish();
    let (best, score) = run.best();
    println!(
        "wrote {}: score {score:.0} on the first {} pieces at beam {}\n{}",
        a.out.display(),
        run.setup.pieces,
        run.setup.beam,
        serde_json::to_string_pretty(&best)?
    );
    Ok(())
}

fn watch_cmd(a: WatchArgs) -> Result<()> {
    let record = read_record(&a.record)?;
    print!("\x1b[2J");
    let delay = Duration::from_millis(a.delay);
    // Colours follow the cells: rows shift down when rows clear.
    let mut colours: Vec<[Option<Piece>; WIDTH]> = vec![[None; WIDTH]; HEIGHT];
    let r = replay::replay(&record, |f: &Frame| {
        for &(x, y) in f.cells {
            colours[y as usize][x as usize] = Some(f.piece);
        }
        if f.index >= a.from {
            draw(f, &colours);
            std::thread::sleep(delay);
        }
        colours.retain(|row| row.iter().any(Option::is_none));
        while colours.len() < HEIGHT {
            colours.insert(0, [None; WIDTH]);
        }
    });
    println!(
        "\nscore {}  pieces {}  ended: {}",
        r.score,
        r.pieces,
        match r.end {
            End::PieceLimit => "piece limit",
            End::TopOut => "top out",
            End::SpawnBlocked => "spawn blocked",
            End::RecordEnd => "end of record",
        }
    );
    Ok(())
}

fn draw(f: &Frame, colours: &[[Option<Piece>; WIDTH]]) {
    let mut out = String::from("\x1b[H");
    let _ = writeln!(
        out,
        " piece {:>5}/{PIECES}  score {:>8}  {}\x1b[K",
        f.index + 1,
        f.score,
        if f.lines > 0 {
            format!("+{} rows", f.lines)
        } else {
            String::new()
        }
    );
    for (y, row) in f.grid.iter().enumerate() {
        out.push_str(" |");
        for x in 0..WIDTH {
            match (row[x], colours[y][x]) {
                (true, Some(p)) => {
                    let _ = write!(out, "\x1b[38;5;{}m██\x1b[0m", crate::watch::colour(p));
                }
                (true, None) => out.push_str("██"),
                (false, _) => out.push_str(" ."),
            }
        }
        out.push_str("|\x1b[K\n");
    }
    let _ = writeln!(out, " +{}+\x1b[K", "--".repeat(WIDTH));
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
}
