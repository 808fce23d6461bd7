//! `arcade mines …`

use crate::exit::bad_input;
use crate::run_options::RunOptions;
use anyhow::{Context, Result, anyhow};
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_mines::bench::{self, BenchConfig, BenchReport};
use arcade_mines::fifty::forced_guess;
use arcade_mines::play::{Event, play};
use arcade_mines::{
    Analysis, Board, Cell, Config, Level, Position, Rule, SolveError, Solver, Status, analyze,
};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// Example: arcade mines analyze position.txt --json
    Analyze(AnalyzeArgs),
    /// Play many seeded games in parallel and report the win rate with a
    /// Wilson 95% interval.
    ///
    /// Example: arcade mines bench --level expert --rule sfar --games 10000
    Bench(BenchArgs),
    /// Play one game and show it move by move with the probabilities the
    /// solver saw.
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
    fn config(self) -> Config {
        match self {
            Strength::Fast => Config::fast(),
            Strength::Standard => Config::standard(),
            Strength::Strong => Config::strong(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Strength::Fast => "fast",
            Strength::Standard => "standard",
            Strength::Strong => "strong",
        }
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Board, first-click rule and first click.
#[derive(Args)]
struct GameArgs {
    /// beginner (9x9/10), intermediate (16x16/40), expert (30x16/99) or
    /// WIDTHxHEIGHT/MINES.
    #[arg(long, value_parser = parse_level, default_value = "expert")]
    level: Level,
    /// First-click rule: sfar (first cell safe), snr (first cell and its
    /// neighbours safe), none.
    #[arg(long, value_enum, default_value_t = RuleArg::Sfar)]
    rule: RuleArg,
    /// First click X,Y [default: 0,0 for sfar and none, 3,3 for snr].
    #[arg(long, value_name = "X,Y", value_parser = parse_xy)]
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
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Master seed: game i plays the layout of seed derive(S, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed of the mine layout.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Show every move in the terminal.
    #[arg(long)]
    watch: bool,
    /// Milliseconds per move when watching.
    #[arg(long, value_name = "MS", default_value_t = 300, requires = "watch")]
    delay: u64,
    /// Print one JSON object instead of text.
    #[arg(long, conflicts_with = "watch")]
    json: bool,
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

/// Reads a file, or stdin for `-`; a missing file is bad input.
fn read_input(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        return std::io::read_to_string(std::io::stdin()).context("reading stdin");
    }
    std::fs::read_to_string(path)
        .map_err(|e| bad_input(anyhow!("cannot read {}: {e}", path.display())))
}

/// A solver error is the position's fault (a contradiction, exit status 2),
/// except when the position is merely too complex to count (status 1).
fn solve_error(path: &Path, e: SolveError) -> anyhow::Error {
    let too_complex = matches!(e, SolveError::TooComplex { .. });
    let e = anyhow!("{}: {e}", path.display());
    if too_complex { e } else { bad_input(e) }
}

fn xy(pos: &Position, cell: usize) -> [usize; 2] {
    let (x, y) = pos.grid().coords(cell);
    [x, y]
}

/// The position with the certain mines flagged, as a player in a game sees
/// it: the solver looks ahead from there.
fn flagged(pos: &Position, analysis: &Analysis) -> Position {
    let mut view = pos.clone();
    for &m in analysis.mines() {
        view.set(m, Cell::Mine);
    }
    view
}

/// The move to play: a certainly safe cell if there is one, else the guess.
fn recommend(
    pos: &Position,
    analysis: &Analysis,
    solver: &Solver,
) -> Result<Option<usize>, SolveError> {
    if let Some(&s) = analysis.safe().first() {
        return Ok(Some(s));
    }
    if analysis.hidden().all(|(_, p)| p >= 1.0) {
        return Ok(None);
    }
    Ok(Some(solver.guess(&flagged(pos, analysis), analysis)?.cell))
}

fn analyze_cmd(a: AnalyzeArgs) -> Result<()> {
    let text = read_input(&a.file)?;
    let pos =
        Position::parse(&text).map_err(|e| bad_input(anyhow!("{}: {e}", a.file.display())))?;
    let start = Instant::now();
    let analysis = analyze(&pos).map_err(|e| solve_error(&a.file, e))?;
    let solver = Solver::new(a.solver.config());
    let best = recommend(&pos, &analysis, &solver).map_err(|e| solve_error(&a.file, e))?;
    let forced = forced_guess(&flagged(&pos, &analysis), &analysis)
        .map_err(|e| solve_error(&a.file, e))?
        .map(|f| f.cells);
    let seconds = start.elapsed().as_secs_f64();
    let grid = pos.grid();
    if a.json {
        let probabilities: Vec<Vec<Option<f64>>> = (0..grid.height())
            .map(|y| {
                (0..grid.width())
                    .map(|x| analysis.probability(grid.index(x, y)))
                    .collect()
            })
            .collect();
        let cells = |v: &[usize]| v.iter().map(|&c| xy(&pos, c)).collect::<Vec<_>>();
        let out = json!({
            "width": grid.width(),
            "height": grid.height(),
            "mines": pos.mines(),
            "probabilities": probabilities,
            "safe": cells(analysis.safe()),
            "mines_certain": cells(analysis.mines()),
            "best": best.map(|b| xy(&pos, b)),
            "best_probability": best.and_then(|b| analysis.probability(b)),
            "forced_fifty_fifty": forced.as_deref().map(cells),
            "arrangements_ln": analysis.ln_arrangements(),
            "seconds": seconds,
        });
        println!("{out}");
        return Ok(());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}x{}, {} mines ({} known), {} hidden cells: {} certainly safe, {} certain mines; about 10^{:.1} arrangements",
        grid.width(),
        grid.height(),
        pos.mines(),
        pos.known_mines(),
        pos.hidden(),
        analysis.safe().len(),
        analysis.mines().len(),
        analysis.ln_arrangements() / std::f64::consts::LN_10
    );
    match best {
        Some(b) => {
            let [x, y] = xy(&pos, b);
            let p = analysis.probability(b).unwrap_or(0.0);
            let _ = writeln!(
                out,
                "best move: ({x},{y}), mine probability {:.4}{}",
                p,
                if p == 0.0 { " (certainly safe)" } else { "" }
            );
        }
        None => {
            let _ = writeln!(out, "best move: none (no hidden cell is safe to try)");
        }
    }
    let list = |v: &[usize]| {
        v.iter()
            .map(|&c| {
                let [x, y] = xy(&pos, c);
                format!("({x},{y})")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    if let Some(cells) = &forced {
        let _ = writeln!(
            out,
            "forced 50/50: {} (no later reveal can tell how their mines lie: guess one now)",
            list(cells)
        );
    }
    let _ = writeln!(out, "mine probabilities in % (numbers and * as given):");
    out.push_str(&probability_grid(&pos, &analysis, best));
    if !analysis.safe().is_empty() {
        let _ = writeln!(out, "safe: {}", list(analysis.safe()));
    }
    if !analysis.mines().is_empty() {
        let _ = writeln!(out, "mines: {}", list(analysis.mines()));
    }
    print!("{out}");
    Ok(())
}

/// The board with each hidden cell's mine probability in percent (4
/// characters a cell; `[..]` marks the recommended move).
fn probability_grid(pos: &Position, analysis: &Analysis, best: Option<usize>) -> String {
    let grid = pos.grid();
    let mut out = String::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let i = grid.index(x, y);
            let text = match pos.cell(i) {
                Cell::Number(n) => format!("{n}"),
                Cell::Mine => "*".to_string(),
                Cell::Hidden => percent(analysis.probability(i).unwrap_or(f64::NAN)),
            };
            if Some(i) == best {
                let _ = write!(out, "[{text:>3}]");
            } else {
                let _ = write!(out, " {text:>3} ");
            }
        }
        out.push('\n');
    }
    out
}

/// A probability as a whole percentage, never rounding an uncertain cell to
/// 0 or 100.
fn percent(p: f64) -> String {
    if p == 0.0 || p == 1.0 || p.is_nan() {
        return format!("{:.0}", p * 100.0);
    }
    format!("{:.0}", (p * 100.0).clamp(1.0, 99.0))
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    if a.games == 0 {
        return Err(bad_input(anyhow!("--games must be at least 1")));
    }
    let cfg = BenchConfig {
        level: a.game.level,
        rule: a.game.rule(),
        first: a.game.first(),
        games: a.games,
        seed: a.seed,
        solver: a.game.solver.config(),
    };
    Board::generate(cfg.level, cfg.rule, cfg.first, 0).map_err(bad_input)?;
    let progress = Progress::new(a.games as u64, "games", a.run.quiet || a.json);
    let report = with_threads(a.run.threads(), || bench::run(&cfg, &progress));
    progress.finish();
    let report = report?;
    if a.json {
        let mut v = serde_json::to_value(&report)?;
        v["strength"] = json!(a.game.solver.name());
        println!("{v}");
    } else {
        print_bench(&report, a.game.solver.name());
    }
    Ok(())
}

fn print_bench(r: &BenchReport, strength: &str) {
    println!(
        "{} ({}x{}/{}), rule {}, first click ({},{}), solver {strength}, {} games, seed {}",
        r.level, r.width, r.height, r.mines, r.rule, r.first[0], r.first[1], r.games, r.seed
    );
    println!(
        "  wins    {} / {} = {:.2}%  95% CI [{:.2}%, {:.2}%] (Wilson)",
        r.wins,
        r.games,
        100.0 * r.win_rate,
        100.0 * r.ci95[0],
        100.0 * r.ci95[1]
    );
    println!(
        "  guesses {:.2} per game, {:.2} per won game (after the first click)",
        r.guesses_per_game, r.guesses_per_win
    );
    println!(
        "  speed   {} games in {:.2} s: {:.0} games/s on {} thread{}",
        r.games,
        r.seconds,
        r.games_per_sec,
        r.threads,
        if r.threads == 1 { "" } else { "s" }
    );
}

fn play_cmd(a: PlayArgs) -> Result<()> {
    let level = a.game.level;
    let rule = a.game.rule();
    let first = a.game.first();
    let board = Board::generate(level, rule, first, a.seed).map_err(bad_input)?;
    let grid = level.grid();
    let solver = Solver::new(a.game.solver.config());
    let mut watch = a.watch.then(|| Watch::new(a.delay));
    let mut last_guess: Option<(usize, f64)> = None;
    let start = Instant::now();
    let record = play(
        board.clone(),
        grid.index(first.0, first.1),
        &solver,
        |event| {
            if let Event::Guess { guess, .. } = &event {
                last_guess = Some((guess.cell, guess.mine_probability));
            }
            if let Some(w) = watch.as_mut() {
                w.show(&event);
            }
        },
    )
    .map_err(|e| anyhow!("the solver failed: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        let out = json!({
            "level": level.name(), "width": level.width, "height": level.height,
            "mines": level.mines, "rule": rule.name(), "first": [first.0, first.1],
            "seed": a.seed, "won": record.won, "guesses": record.guesses,
            "safe_left": record.safe_left, "seconds": seconds,
            "last_guess": last_guess.map(|(c, p)| json!({"cell": [c % grid.width(), c / grid.width()], "mine_probability": p})),
        });
        println!("{out}");
        return Ok(());
    }
    if !a.watch {
        print!("{}", board.to_text());
    }
    println!(
        "{} ({}x{}/{}), rule {rule}, seed {}: {} after {} guess{}{}",
        level.name(),
        level.width,
        level.height,
        level.mines,
        a.seed,
        if record.won { "won" } else { "lost" },
        record.guesses,
        if record.guesses == 1 { "" } else { "es" },
        if record.won {
            String::new()
        } else {
            format!(" ({} safe cells left)", record.safe_left)
        }
    );
    Ok(())
}

/// Redraws the board after every move.
struct Watch {
    delay: Duration,
    step: usize,
}

impl Watch {
    fn new(delay_ms: u64) -> Watch {
        print!("\x1b[2J");
        Watch {
            delay: Duration::from_millis(delay_ms),
            step: 0,
        }
    }

    fn show(&mut self, event: &Event) {
        self.step += 1;
        let mut out = String::from("\x1b[H");
        match event {
            Event::Guess {
                guess,
                analysis,
                view,
            } => {
                let (x, y) = view.grid().coords(guess.cell);
                let _ = writeln!(
                    out,
                    " move {}: guess ({x},{y}), mine probability {:.1}%{}\x1b[K",
                    self.step,
                    100.0 * guess.mine_probability,
                    guess
                        .win_probability
                        .map(|w| format!(", endgame search: wins {:.1}%", 100.0 * w))
                        .unwrap_or_default()
                );
                out.push_str(&frame(view, Some(analysis), Some(guess.cell)));
            }
            Event::Safe { cells, view } => {
                let _ = writeln!(
                    out,
                    " move {}: {} safe cell{}\x1b[K",
                    self.step,
                    cells.len(),
                    if cells.len() == 1 { "" } else { "s" }
                );
                out.push_str(&frame(view, None, None));
            }
            Event::End { status, view } => {
                let _ = writeln!(
                    out,
                    " {}\x1b[K",
                    if *status == Status::Won {
                        "won"
                    } else {
                        "lost"
                    }
                );
                out.push_str(&frame(view, None, None));
            }
        }
        print!("{out}");
        let _ = std::io::stdout().flush();
        std::thread::sleep(self.delay);
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
