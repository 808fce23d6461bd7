//! `arcade mines …`

use crate::exit::{bad_input, stop_on_ctrl_c, stopped_after};
use crate::output::{self, OutputArgs, print};
use crate::run_options::RunOptions;
use anyhow::{Result, anyhow};
use arcade_core::input::{display_name, read_text};
use arcade_mines::bench::{self, BenchConfig};
use arcade_mines::board::BoardError;
use arcade_mines::play::{Event, PlayError, play_seeded};
use arcade_mines::position::MAX_POSITION_BYTES;
use arcade_mines::report::percent;
use arcade_mines::{
    Analysis, Board, Cell, Config, Level, Position, Rule, SolveError, Status, analyze_report,
};
use clap::{Args, Subcommand, ValueEnum};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum Command {
    /// Exact mine probability of every hidden cell of a position, the
    /// certain cells and the recommended move.
    ///
    /// FILE (- for stdin): `#` starts a comment; the first line is
    /// `<width> <height> <mines>` (mines on the whole board), then `height`
    /// rows of `width` characters: `.` hidden, `0`-`8` a revealed number, `*`
    /// a known mine. Coordinates are (x, y) = (column, row) from 0.
    ///
    /// Example: arcade mines analyze data/examples/mines-position.txt --json
    #[command(alias = "analyse")]
    Analyze(AnalyzeArgs),
    /// Play many seeded games in parallel and report the win rate with a
    /// Wilson 95% interval.
    ///
    /// Example: arcade mines bench --level expert --rule sfar --games 10000
    Bench(BenchArgs),
    /// Play one game: its layout and how it ended (a lost game names the
    /// guess that hit a mine); --watch shows it move by move with the
    /// probabilities the solver saw.
    ///
    /// Example: arcade mines play --level expert --seed 7 --watch
    Play(PlayArgs),
    /// Two-player Minesweeper: the players race to find mines (a capture
    /// moves again, first to a majority wins). AI against AI over many
    /// seeded games with seats alternating, or play an AI with `human`.
    ///
    /// Example: arcade mines battle --a ev --b greedy --games 1000
    Battle(crate::battle::BattleArgs),
}

/// How hard the solver thinks.
#[derive(Clone, Copy, ValueEnum)]
enum Strength {
    /// Lowest mine probability, ties to likely openings; no lookahead.
    Fast,
    /// Forced 50/50s first, one reveal of lookahead on up to 16 candidates
    /// (frontier cells and the one outside cell likeliest to open an area),
    /// and a small endgame search.
    Standard,
    /// As standard, plus two reveals ahead on the closest candidates and a
    /// larger endgame search (slower).
    Strong,
}

impl Strength {
    fn lib(self) -> arcade_mines::solver::Strength {
        match self {
            Strength::Fast => arcade_mines::solver::Strength::Fast,
            Strength::Standard => arcade_mines::solver::Strength::Standard,
            Strength::Strong => arcade_mines::solver::Strength::Strong,
        }
    }

    fn config(self) -> Config {
        self.lib().config()
    }
}

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Position file (- for stdin).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Solver strength for the recommended move.
    #[arg(long, value_enum, default_value_t = Strength::Standard)]
    solver: Strength,
    #[command(flatten)]
    output: OutputArgs,
}

/// Board, first-click rule and first click.
#[derive(Args)]
struct GameArgs {
    /// beginner (9x9/10), intermediate (16x16/40), expert (30x16/99) or
    /// WIDTHxHEIGHT/MINES.
    #[arg(long, value_parser = parse_level, default_value = "expert", allow_hyphen_values = true)]
    level: Level,
    /// First-click rule: sfar (first cell safe), snr (first cell and its
    /// neighbours safe), none.
    #[arg(long, value_enum, default_value_t = RuleArg::Sfar, ignore_case = true)]
    rule: RuleArg,
    /// First click X,Y [default: 0,0 for sfar and none, 3,3 for snr].
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true, value_parser = parse_xy)]
    first: Option<(usize, usize)>,
    /// Solver strength.
    #[arg(long, value_enum, default_value_t = Strength::Standard)]
    solver: Strength,
}

impl GameArgs {
    fn rule(&self) -> Rule {
        match self.rule {
            RuleArg::Sfar => Rule::Sfar,
            RuleArg::Snr => Rule::Snr,
            RuleArg::None => Rule::None,
        }
    }

    fn first(&self) -> (usize, usize) {
        self.first
            .unwrap_or_else(|| self.rule().default_first(self.level.grid()))
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum RuleArg {
    Sfar,
    Snr,
    None,
}

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of games.
    #[arg(long, default_value_t = 1000, value_parser = crate::run_options::count)]
    games: u64,
    /// Master seed: game i plays the layout of seed derive(S, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed of the mine layout.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play game I (from 0) of `mines bench` with the same --seed: its
    /// layout, so a lost bench game can be studied (the report gives that
    /// game's own seed).
    #[arg(long = "game", value_name = "I")]
    bench_game: Option<u64>,
    /// Show every move in the terminal.
    #[arg(long)]
    watch: bool,
    /// Milliseconds per move when watching.
    #[arg(long, value_name = "MS", default_value_t = 300, requires = "watch",
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    delay: u64,
    #[command(flatten)]
    output: OutputArgs,
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse::<Level>().map_err(|e| e.to_string())
}

fn parse_xy(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected X,Y such as 3,3, found {s:?}");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Analyze(a) => analyze_cmd(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Play(a) => play_cmd(a),
        Command::Battle(a) => crate::battle::run(a),
    }
}

/// A solver error is the position's fault (a contradiction, exit status 2),
/// except when the position is merely too complex to count (status 1).
fn solve_error(path: &Path, e: SolveError) -> anyhow::Error {
    let too_complex = matches!(e, SolveError::TooComplex { .. });
    let e = anyhow!("{}: {e}", display_name(path));
    if too_complex { e } else { bad_input(e) }
}

fn analyze_cmd(a: AnalyzeArgs) -> Result<()> {
    let text = read_text(&a.file, MAX_POSITION_BYTES).map_err(bad_input)?;
    let pos =
        Position::parse(&text).map_err(|e| bad_input(anyhow!("{}: {e}", display_name(&a.file))))?;
    let report = analyze_report(&pos, &a.solver.config()).map_err(|e| solve_error(&a.file, e))?;
    a.output.emit(&report)
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let cfg = BenchConfig {
        level: a.game.level,
        rule: a.game.rule(),
        first: a.game.first(),
        games: a.games,
        seed: a.seed,
        strength: a.game.solver.lib(),
    };
    Board::generate(cfg.level, cfg.rule, cfg.first, 0).map_err(board_error)?;
    let output = a.output;
    let progress = output.progress(a.games, "games");
    stop_on_ctrl_c(&progress);
    let report = a.run.install(|| bench::run(&cfg, &progress))?;
    progress.finish();
    output.emit(&report)?;
    stopped_after(&progress, report.games, a.games, "game")
}

fn play_cmd(a: PlayArgs) -> Result<()> {
    if a.watch && a.output.json {
        return Err(bad_input(anyhow!(
            "--watch and --json cannot be used together"
        )));
    }
    let mut watch = a.watch.then(|| Watch::new(a.delay));
    let report = play_seeded(
        a.game.level,
        a.game.rule(),
        a.game.first(),
        crate::run_options::bench_game_seed(a.seed, a.bench_game),
        a.game.solver.lib(),
        |event| {
            if let Some(w) = watch.as_mut() {
                w.show(event);
            }
        },
    );
    let report = report.map_err(|e| match e {
        PlayError::Board(b) => board_error(b),
        e => e.into(),
    })?;
    match watch {
        Some(w) => w
            .error
            .map_or(Ok(()), Err)
            .and_then(|()| print(format_args!("{}\n", report.summary()))),
        None => a.output.emit(&report),
    }
}

/// A layout the options cannot make, as bad input naming those options.
fn board_error(e: BoardError) -> anyhow::Error {
    let options = match e {
        BoardError::FirstOutside { .. } => "--first",
        BoardError::NoRoom { .. } | BoardError::NoRoomForSomeFirst { .. } => "--level and --rule",
    };
    bad_input(anyhow!("{options}: {e}"))
}

/// Redraws the board after every move; the first failed write stops it and
/// is reported at the end.
struct Watch {
    delay: Duration,
    step: usize,
    error: Option<anyhow::Error>,
}

impl Watch {
    fn new(delay_ms: u64) -> Watch {
        Watch {
            delay: Duration::from_millis(delay_ms),
            step: 0,
            error: output::frame("\x1b[2J").err(),
        }
    }

    fn show(&mut self, event: &Event) {
        if self.error.is_some() {
            return;
        }
        self.step += 1;
        let board = match event {
            Event::Guess {
                guess,
                analysis,
                view,
            } => frame(view, Some(analysis), Some(guess.cell)),
            Event::Safe { view, .. } | Event::End { view, .. } => frame(view, None, None),
        };
        let out = format!("\x1b[H {}\x1b[K\n{board}", headline(self.step, event));
        self.error = output::frame(out).err();
        std::thread::sleep(self.delay);
    }
}

/// The line above the board: what move `step` did.
fn headline(step: usize, event: &Event) -> String {
    match event {
        Event::Guess { guess, view, .. } => {
            let (x, y) = view.grid().coords(guess.cell);
            let endgame = guess
                .win_probability
                .map(|w| format!(", endgame search: wins {:.1}%", 100.0 * w))
                .unwrap_or_default();
            format!(
                "move {step}: guess ({x},{y}), mine probability {:.1}%{endgame}",
                100.0 * guess.mine_probability
            )
        }
        Event::Safe { cells, .. } => {
            let s = if cells.len() == 1 { "" } else { "s" };
            format!("move {step}: {} safe cell{s}", cells.len())
        }
        Event::End { status, .. } if *status == Status::Won => "won".into(),
        Event::End { .. } => "lost".into(),
    }
}

/// The board in colour: numbers, known mines, and hidden cells with their
/// mine probability in percent when the solver computed them.
fn frame(view: &Position, analysis: Option<&Analysis>, guess: Option<usize>) -> String {
    let grid = view.grid();
    let mut out = String::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let i = grid.index(x, y);
            let cell = match view.cell(i) {
                Cell::Number(0) => "   ".to_string(),
                Cell::Number(n) => format!("\x1b[1;3{}m {n} \x1b[0m", (n % 7) + 1),
                Cell::Mine => "\x1b[31m * \x1b[0m".to_string(),
                Cell::Hidden => match analysis.and_then(|a| a.probability(i)) {
                    Some(p) => {
                        let colour = if p < 0.1 {
                            32
                        } else if p < 0.3 {
                            33
                        } else {
                            31
                        };
                        format!("\x1b[{colour};100m{:>3}\x1b[0m", percent(p))
                    }
                    None => "\x1b[100m · \x1b[0m".to_string(),
                },
            };
            if Some(i) == guess {
                let _ = write!(out, "\x1b[7m{cell}\x1b[0m");
            } else {
                out.push_str(&cell);
            }
        }
        out.push_str("\x1b[K\n");
    }
    out
}
