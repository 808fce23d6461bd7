//! `arcade geek …`: the 2021 Tencent Geek Challenge Tetris.

use crate::exit::{Stopped, bad_input, shell_word, stop_on_ctrl_c};
use crate::output::{self, OutputArgs};
use crate::run_options::{self, RunOptions};
use crate::tuning::{self, Session, TuneOptions};
use crate::watch::draw_rows;
use anyhow::Result;
use arcade_core::checkpoint::{check_writable, same_file};
use arcade_core::input::display_name;
use arcade_core::text::counted;
use arcade_tetris::colours::ColouredBoard;
use arcade_tetris::geek::record::Record;
use arcade_tetris::geek::replay::{self, Frame};
use arcade_tetris::geek::search::{self, MAX_BEAM, Search, SearchConfig, SearchError};
use arcade_tetris::geek::solve::{self, SolveError, SolveOptions};
use arcade_tetris::geek::splice::{self, SpliceError};
use arcade_tetris::geek::tune::{self, GeekTune, GeekTuneSetup, TuneReport};
use arcade_tetris::geek::value::GeekWeights;
use arcade_tetris::geek::{HEIGHT, PIECES, WIDTH};
use arcade_tetris::{MoveMode, Rules};
use clap::{Args, Subcommand, ValueEnum};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use std::time::Instant;

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
    /// search repeats with a doubled beam while the budget allows, then once
    /// more with the widest beam that fits what is left, and keeps the best
    /// record.
    ///
    /// arcade's records were searched with --moves reach --float --reserve 0
    /// (no low fields kept beside the beam: the records' beams, 1,000 and wider,
    /// never needed them).
    ///
    /// Example: arcade geek solve --seconds 3600 --beam 1000 --moves reach --float --reserve 0
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
    /// Join records where they meet: a better record from two or more games.
    ///
    /// The sequence is fixed, so two games that hold the same field after the
    /// same piece can each go on the other's way. Along the records' fields
    /// the best way to each shared field is joined to the best way on from it:
    /// the result scores at least as much as every input, and is replayed by
    /// the reference rules before the score is printed. Records from searches
    /// of different widths or values meet often (a wider search tends to
    /// improve a stretch, then fall back into the same fields).
    ///
    /// Example: arcade geek splice wide.txt crates/tetris/records/geek-1428236.txt --out best.txt
    Splice(SpliceArgs),
    /// Animate a record in the terminal with score and piece count.
    ///
    /// Example: arcade geek watch record.txt --delay 20
    Watch(WatchArgs),
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The record: comma-separated N, Lk, Rk, Dk, Ck tokens (`-`: standard input).
    record: PathBuf,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct SpliceArgs {
    /// Two or more records of whole games (all 10,000 pieces; `-` for one read
    /// from standard input).
    #[arg(required = true, num_args = 2.., value_name = "RECORD")]
    records: Vec<PathBuf>,
    /// Where to write the spliced record.
    #[arg(long, value_name = "FILE", default_value = "geek-record.txt")]
    out: PathBuf,
    #[command(flatten)]
    output: OutputArgs,
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

/// Pieces between checkpoints unless `--checkpoint-every` says otherwise.
const DEFAULT_CHECKPOINT_EVERY: u32 = 500;

#[derive(Args)]
pub struct SolveArgs {
    /// Fields kept per piece (wider: stronger and slower, about linearly).
    #[arg(long, default_value_t = 1000, value_parser = beam)]
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
    /// expected to fit, then with the widest beam that fits the rest (at
    /// least 1.25× the last); keep the best record. The first round always
    /// runs to its end, however long it takes.
    #[arg(long, value_name = "S", value_parser = run_options::seconds)]
    seconds: Option<f64>,
    /// Where to write the best record.
    #[arg(long, value_name = "FILE", default_value = "geek-record.txt")]
    out: PathBuf,
    /// Save the search state here every --checkpoint-every pieces, and where
    /// Ctrl-C stops it (the error line then gives the command to go on).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Pieces between checkpoints.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CHECKPOINT_EVERY, requires = "checkpoint",
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    checkpoint_every: u32,
    /// Continue the search saved in --checkpoint with its saved settings
    /// (a warning names the search options given, which are not used);
    /// --checkpoint-every is not saved, so give it again if not 500.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Board-value weights (JSON from `GeekWeights`), instead of the
    /// built-in ones; a feature the file leaves out weighs 0.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Keep the opening of this record (the first --at pieces) and search
    /// only the rest: a wide beam spent on the end of a good game.
    #[arg(
        long,
        value_name = "RECORD",
        requires = "at",
        conflicts_with = "resume"
    )]
    from: Option<PathBuf>,
    /// Pieces of --from's record to keep (1 to 9999: some must be left).
    #[arg(long, value_name = "N", requires = "from", value_parser = opening_pieces)]
    at: Option<usize>,
    /// Play only the first N pieces (for quick experiments).
    #[arg(long, value_name = "N", default_value_t = PIECES, value_parser = pieces)]
    pieces: usize,
    /// Fields kept beyond the beam each piece: those with the fewest filled
    /// cells, so a narrow beam that fills up everywhere at once has a way
    /// back instead of topping out [default: beam/8, at least 4]
    #[arg(long, value_name = "N", value_parser = reserve)]
    reserve: Option<usize>,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
#[command(mut_arg("spread", |a| a.default_value("0.3").required(false)))]
#[command(mut_arg("generations", |a| a.help("Generations to run [default: 30; on --resume: the checkpoint's target]")))]
pub struct TuneArgs {
    #[command(flatten)]
    tune: TuneOptions,
    /// Beam width of the searches that score candidates. Several, separated
    /// by commas (`--beam 200,250,300`), score a candidate by the mean: one
    /// width's score jumps by thousands of points from the next width's.
    #[arg(long, value_name = "BEAM", default_value = "20", value_delimiter = ',',
          num_args = 1, value_parser = beam)]
    beam: Vec<usize>,
    /// Pieces of the sequence each search plays.
    #[arg(long, default_value_t = 3000, value_parser = pieces)]
    pieces: usize,
    /// Placements the searches consider.
    #[arg(long, value_enum, default_value_t = Moves::Drop)]
    moves: Moves,
    /// Let the searches use floating placements.
    #[arg(long)]
    float: bool,
    /// Low fields kept beyond the beam, as for `solve --reserve`
    /// [default: the first beam/8, at least 4]
    #[arg(long, value_name = "N", value_parser = reserve)]
    reserve: Option<usize>,
    /// Start from these weights instead of the built-in ones (candidates
    /// are multipliers of them, so --spread 0.3 is ±30%).
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct WatchArgs {
    /// The record to animate (`-`: standard input).
    record: PathBuf,
    /// Milliseconds per piece.
    #[arg(long, value_name = "MS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    delay: u64,
    /// Start drawing after the first N pieces, which the replay places
    /// silently: the first frame drawn is piece N + 1, as `solve --at N`
    /// keeps N pieces. (`--from N` is an old name for it.)
    #[arg(long, value_name = "N", default_value_t = 0, alias = "from")]
    at: usize,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Replay(a) => replay_cmd(a),
        Command::Solve(a) => solve_cmd(a),
        Command::Tune(a) => tune_cmd(a),
        Command::Splice(a) => splice_cmd(a),
        Command::Watch(a) => watch_cmd(a),
    }
}

/// A beam width from 1 to the library's limit.
fn beam(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_BEAM).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {MAX_BEAM}")),
    }
}

/// A reserve from 0 to the beam limit.
fn reserve(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n <= MAX_BEAM => Ok(n),
        _ => Err(format!("expected a whole number from 0 to {MAX_BEAM}")),
    }
}

/// A piece count from 1 to the length of the sequence.
fn pieces(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=PIECES).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {PIECES}")),
    }
}

/// Checks that a record can be written to `out` (a file: standard output
/// carries the report), before any work.
fn check_record_out(out: &Path) -> Result<()> {
    if out == Path::new("-") {
        return Err(bad_input(anyhow::anyhow!(
            "--out -: a record is written to a file (standard output carries the report)"
        )));
    }
    check_writable(out).map_err(bad_input)
}

/// Pieces an opening keeps: at least one, and one fewer than the game.
fn opening_pieces(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..PIECES).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number from 1 to {} (some pieces must be left to search)",
            PIECES - 1
        )),
    }
}

fn read_record(path: &Path) -> Result<Record> {
    Record::load(path).map_err(bad_input)
}

fn replay_cmd(a: ReplayArgs) -> Result<()> {
    let record = read_record(&a.record)?;
    a.output.emit(&replay::replay(&record, |_| {}))
}

fn splice_cmd(a: SpliceArgs) -> Result<()> {
    // Standard input can be read once: a second `-` would read nothing.
    if a.records
        .iter()
        .filter(|p| p.as_path() == Path::new("-"))
        .count()
        > 1
    {
        return Err(bad_input(anyhow::anyhow!(
            "only one RECORD can be - (standard input)"
        )));
    }
    check_record_out(&a.out)?;
    // `geek-record.txt` is both solve's and splice's default: never replace an input.
    if let Some(input) = a.records.iter().find(|p| same_file(&a.out, p)) {
        return Err(bad_input(anyhow::anyhow!(
            "--out names {}, one of the records spliced: write the splice to a file of its own \
             (--out FILE)",
            input.display()
        )));
    }
    let records = a
        .records
        .iter()
        .map(|p| read_record(p))
        .collect::<Result<Vec<_>>>()?;
    let names: Vec<String> = a.records.iter().map(|p| display_name(p)).collect();
    let spliced = splice::splice(&records).map_err(|e| match e {
        SpliceError::Incomplete { index, .. } => {
            bad_input(anyhow::anyhow!("{}: {e}", names[index]))
        }
        e => bad_input(e),
    })?;
    let replayed = replay::replay(&spliced.record, |_| {});
    anyhow::ensure!(
        replayed.score == spliced.score,
        "internal error: the spliced record replays to {}, not {}",
        replayed.score,
        spliced.score
    );
    solve::save_record(&spliced.record, &a.out)?;
    a.output
        .emit(&spliced.report(&names, &a.out.display().to_string()))
}

fn load_weights(path: &Option<PathBuf>) -> Result<GeekWeights> {
    match path {
        None => Ok(GeekWeights::builtin()),
        // A bare name such as `bcts` is a Tetris AI's, which Geek has none of.
        Some(p) if !p.exists() && p.extension().is_none() && p.components().count() == 1 => {
            Err(bad_input(anyhow::anyhow!(
                "no weights file {:?}: Geek weights are a JSON file written by `arcade geek \
                 tune`, and leaving the option out uses the built-in ones",
                p.display().to_string()
            )))
        }
        Some(p) => GeekWeights::load(p).map_err(|e| bad_input(anyhow::anyhow!(e))),
    }
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    check_solve_files(&a)?;
    // The --from record's own score, to say so if the new game scores less.
    let (search, from_score) = start_search(&a)?;
    // After loading: a missing checkpoint to resume is a read error.
    if let Some(path) = &a.checkpoint {
        check_writable(path).map_err(bad_input)?;
    }
    let options = solve_options(&a, &search)?;
    let output = a.output;
    let progress = output.progress(search.config.pieces as u64, "pieces");
    stop_on_ctrl_c(&progress);
    let solved = a.run.install(|| solve::solve(search, &options, &progress));
    progress.finish();
    let report = match solved {
        Err(SolveError::Search(e @ SearchError::Interrupted { .. })) => {
            let resume = resume_hint(&a.checkpoint, a.checkpoint_every, &a.out);
            return Err(Stopped(format!("{e}; {resume}")).into());
        }
        solved => solved?,
    };
    output.emit(&report)?;
    if let Some(from) = from_score.filter(|&from| report.score < from) {
        progress.println(format!(
            "note: this game scores {}, less than the --from record's {from}: a search \
             from one of its fields lacks the other fields that its own search held there",
            report.score
        ));
    }
    match report.interrupted {
        Some(cut) => Err(Stopped(interrupted_round(&a, &report.record, cut.beam)).into()),
        None => Ok(()),
    }
}

/// Refuses files that would clash: `--out` over the `--checkpoint` or the
/// `--from` record, or a saved run that `--resume` was not asked to keep.
fn check_solve_files(a: &SolveArgs) -> Result<()> {
    check_record_out(&a.out)?;
    if let Some(checkpoint) = &a.checkpoint {
        crate::tuning::check_apart(&a.out, checkpoint)?;
        crate::tuning::keep_saved_run(checkpoint, a.resume)?;
    }
    if let Some(from) = a.from.as_deref().filter(|from| same_file(&a.out, from)) {
        return Err(bad_input(anyhow::anyhow!(
            "--out and --from name the same file ({}): a search from a record may score less \
             than it, so write the new game to a file of its own",
            from.display()
        )));
    }
    Ok(())
}

/// The search to run: resumed from a checkpoint, started after a record's
/// first `--at` pieces (with that record's score), or new.
fn start_search(a: &SolveArgs) -> Result<(Search, Option<u64>)> {
    let config = || -> Result<SearchConfig> {
        Ok(SearchConfig {
            beam: a.beam,
            mode: a.moves.mode(),
            float: a.float,
            pieces: a.pieces,
            weights: load_weights(&a.weights)?,
            reserve: a.reserve.unwrap_or(SearchConfig::default_reserve(a.beam)),
        })
    };
    match (&a.checkpoint, a.resume, &a.from, a.at) {
        (Some(path), true, _, _) => Ok((Search::load(path).map_err(bad_input)?, None)),
        (_, _, Some(path), Some(at)) => {
            if at >= a.pieces {
                return Err(bad_input(anyhow::anyhow!(
                    "--at must be less than --pieces ({}), not {at}: some pieces must be left to \
                     search",
                    a.pieces
                )));
            }
            let record = Record::load(path).map_err(bad_input)?;
            let opening = search::opening(&record, at)
                .map_err(|e| bad_input(anyhow::anyhow!("{}: {e}", display_name(path))))?;
            let from_score = replay::replay(&record, |_| {}).score;
            let search = Search::after_opening(config()?, opening).map_err(bad_input)?;
            Ok((search, Some(from_score)))
        }
        _ => Ok((Search::new(config()?), None)),
    }
}

/// How `solve` runs `search`: its time budget, the widest beam memory
/// allows, and where it saves.
fn solve_options(a: &SolveArgs, search: &Search) -> Result<SolveOptions> {
    let max_beam = solve::memory_limit(search.config.beam, search.config.reserve)
        .map_err(|e| bad_input(anyhow::anyhow!("{e}: use a narrower --beam or --reserve")))?;
    Ok(SolveOptions {
        seconds: a.seconds,
        // A resumed search keeps its saved reserve if it was not the default.
        fixed_reserve: if a.resume {
            search.config.reserve != SearchConfig::default_reserve(search.config.beam)
        } else {
            a.reserve.is_some()
        },
        max_beam,
        checkpoint: a.checkpoint.clone(),
        checkpoint_every: a.checkpoint_every as usize,
        out: a.out.clone(),
    })
}

/// What to say when a widening round at `beam` was cut: `record` holds the
/// best finished round, and the cut round goes on alone, into a file of
/// its own (a wider beam does not always score more).
fn interrupted_round(a: &SolveArgs, record: &str, beam: usize) -> String {
    let resume = match a.checkpoint {
        Some(_) => format!(
            "{} (the round at beam {beam} alone; compare its score with this one's)",
            resume_hint(&a.checkpoint, a.checkpoint_every, &round_file(&a.out, beam)),
        ),
        None => resume_hint(&None, a.checkpoint_every, &a.out),
    };
    format!("interrupted: {record} holds the best finished round's record; {resume}")
}

/// `out` with `-beamB` before its extension: where a resumed round goes.
fn round_file(out: &Path, beam: usize) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or("record".into(), |s| s.to_string_lossy());
    let name = match out.extension() {
        Some(ext) => format!("{stem}-beam{beam}.{}", ext.to_string_lossy()),
        None => format!("{stem}-beam{beam}"),
    };
    out.with_file_name(name)
}

/// How to go on after a stopped search: the command, ready to paste.
fn resume_hint(checkpoint: &Option<PathBuf>, every: u32, out: &Path) -> String {
    let Some(path) = checkpoint else {
        return "nothing was saved (with --checkpoint FILE a stopped search can be resumed)".into();
    };
    let (path, out) = (shell_word(path), shell_word(out));
    // The interval is not in the checkpoint.
    let every = match every {
        DEFAULT_CHECKPOINT_EVERY => String::new(),
        n => format!(" --checkpoint-every {n}"),
    };
    format!(
        "the search is saved in {path}: continue it with \
         `arcade geek solve --checkpoint {path} --resume{every} --out {out}`"
    )
}

/// The run `tune` continues or starts.
fn tune_run(a: &TuneArgs, checkpoint: &Path) -> Result<GeekTune> {
    if a.tune.resume {
        return a.tune.resume(checkpoint);
    }
    let setup = GeekTuneSetup {
        beams: a.beam.clone(),
        pieces: a.pieces,
        mode: a.moves.mode(),
        float: a.float,
        base: load_weights(&a.init)?,
        reserve: a
            .reserve
            .unwrap_or(SearchConfig::default_reserve(a.beam[0])),
    };
    setup.check().map_err(|e| bad_input(anyhow::anyhow!(e)))?;
    let t = &a.tune;
    let generations = t.generations.unwrap_or(30) as usize;
    let start = tune::start(
        &setup,
        t.method.into(),
        t.spread,
        t.population,
        t.seed,
        generations,
    );
    GeekTune::new(setup, &start, generations).map_err(bad_input)
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
    tuning::resume_on_ctrl_c("geek tune", &a.tune.out, &checkpoint);
    let rules = Rules::geek();
    let progress = a.output.progress(0, "evals");
    progress.println(format!(
        "tuning with {}: {} per generation ({}; {}); checkpoint {}",
        run.method.as_str(),
        counted(run.optimizer.evaluations_per_generation(), "candidate"),
        tune::widths(&run.setup.beams),
        counted(run.setup.pieces, "piece"),
        checkpoint.display()
    ));
    let started = Instant::now();
    let session = Session {
        out: &a.tune.out,
        checkpoint: &checkpoint,
        threads: &a.run,
        progress: &progress,
    };
    let file = |run: &GeekTune| {
        let best = tune::best(run).0;
        // Scaled far enough, a weight leaves the range a weights file may
        // hold: say so rather than write a file nothing can read.
        best.check().map_err(|e| {
            bad_input(anyhow::anyhow!(
                "the tuned {e}: start from smaller --init weights or a smaller --spread"
            ))
        })?;
        Ok(serde_json::to_string_pretty(&best)? + "\n")
    };
    session.run(&mut run, |run, p| tune::step(run, &rules, p), file)?;
    let out = a.tune.out.display().to_string();
    a.output.emit(&TuneReport::new(
        &run,
        &out,
        started.elapsed().as_secs_f64(),
    ))
}

fn watch_cmd(a: WatchArgs) -> Result<()> {
    let record = read_record(&a.record)?;
    if a.at >= record.pieces.len() {
        return Err(bad_input(anyhow::anyhow!(
            "--at must be at most {} (the record has {}), not {}",
            record.pieces.len() - 1,
            counted(record.pieces.len(), "piece"),
            a.at
        )));
    }
    output::frame("\x1b[2J")?;
    let delay = Duration::from_millis(a.delay);
    let mut colours = ColouredBoard::new(WIDTH, HEIGHT);
    let mut failed = None;
    let r = replay::replay(&record, |f: &Frame| {
        let cells = f
            .cells
            .iter()
            .map(|&(x, y)| (x as usize, HEIGHT - 1 - y as usize));
        colours.fill(f.piece, cells);
        if f.index >= a.at && failed.is_none() {
            match output::frame(frame(f, &colours)) {
                Ok(()) => std::thread::sleep(delay),
                Err(e) => failed = Some(e),
            }
        }
        colours.clear_full_rows();
    });
    if let Some(e) = failed {
        return Err(e);
    }
    output::print(format_args!("\n{r}"))
}

/// One frame of the Geek view: the header and the coloured field.
fn frame(f: &Frame, colours: &ColouredBoard) -> String {
    let mut out = String::from("\x1b[H");
    let rows = if f.lines > 0 {
        format!("+{} rows", f.lines)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        " piece {:>5}/{PIECES}  score {:>8}  {rows}\x1b[K",
        f.index + 1,
        f.score
    );
    draw_rows(colours, &mut out, |_| String::new());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resume_command_can_be_pasted() {
        let hint = |ck: &str, every, out: &str| {
            resume_hint(&Some(PathBuf::from(ck)), every, Path::new(out))
        };
        assert!(
            hint("runs/a.json", 500, "rec.txt")
                .ends_with("`arcade geek solve --checkpoint runs/a.json --resume --out rec.txt`")
        );
        assert!(
            hint("my run's.json", 250, "out dir/r.txt").ends_with(
                r"`arcade geek solve --checkpoint 'my run'\''s.json' --resume --checkpoint-every 250 --out 'out dir/r.txt'`"
            )
        );
        let none = resume_hint(&None, 500, Path::new("r.txt"));
        assert!(none.starts_with("nothing was saved"), "{none}");
    }
}
