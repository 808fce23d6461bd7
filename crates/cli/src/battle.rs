//! `arcade mines battle …`: two-player Minesweeper, AI against AI or a
//! person at the terminal.

use crate::exit::{bad_input, stop_on_ctrl_c, stopped_after};
use crate::output::{OutputArgs, print};
use crate::run_options::RunOptions;
use anyhow::{Result, anyhow, bail};
use arcade_mines::Level;
use arcade_mines::battle::live::{LiveBattle, Player};
use arcade_mines::battle::{Ai, Battle, MatchConfig, Rules, Turn, run_match};
use clap::Args;
use std::fmt::Write as _;
use std::io::BufRead;

#[derive(Args)]
pub struct BattleArgs {
    /// Player A, who moves first in a game with a person: rule (basic
    /// deductions, else random), greedy (the likeliest mine), ev (expected
    /// captures less the opponent's on the reply) or human.
    #[arg(long, value_parser = parse_player, value_name = "AI")]
    a: Player,
    /// Player B: rule, greedy, ev or human.
    #[arg(long, value_parser = parse_player, value_name = "AI")]
    b: Player,
    /// Games to play (even) between two AIs; each layout is played twice,
    /// once with each AI first [default: 1000]. A draw (all mines taken,
    /// neither at the target) is no win; an AI against itself wins exactly
    /// half, since both seatings of a layout are then the same game.
    #[arg(long, value_parser = even_count)]
    games: Option<u64>,
    /// Master seed: game 0 (and 1, the seats swapped) is the web arena's
    /// and Python's game of seed S; each pair of games after it gets a seed
    /// derived from S, so the match is the same on any thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// contest (16x16/51, first to 26), beginner (9x9/10), intermediate
    /// (16x16/40), expert (30x16/99) or WIDTHxHEIGHT/MINES.
    #[arg(long, value_name = "WxH/M", default_value = "16x16/51", allow_hyphen_values = true,
          value_parser = parse_level)]
    level: Level,
    /// Mines needed to win [default: a majority of the mines].
    #[arg(long, value_name = "N")]
    target: Option<usize>,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse::<Rules>()
        .map(|r| r.level)
        .map_err(|e| e.to_string())
}

fn parse_player(s: &str) -> Result<Player, String> {
    Player::parse(s)
}

pub fn run(a: BattleArgs) -> Result<()> {
    let level = a.level;
    let rules = match a.target {
        Some(t) => Rules::with_target(level, t),
        None => Rules::new(level),
    }
    .map_err(|e| bad_input(anyhow!("--level/--target: {e}")))?;
    match (a.a, a.b) {
        (Player::Ai(x), Player::Ai(y)) => arena(&a, rules, x, y),
        (x, y) => {
            // A person plays one game at the terminal: these would be ignored.
            let given = match (a.games.is_some(), a.output.json) {
                (true, true) => Some("--games and --json are"),
                (true, false) => Some("--games is"),
                (false, true) => Some("--json is"),
                (false, false) => None,
            };
            if let Some(given) = given {
                return Err(bad_input(anyhow!(
                    "{given} for a match between two AIs; a game with a human is one game at the terminal"
                )));
            }
            interactive(rules, [x, y], a.seed)
        }
    }
}

/// `--games`: an even count, since each layout is played once with each AI
/// first (`--games 0` was told "a whole number from 1", then 1 "even").
fn even_count(s: &str) -> Result<u64, String> {
    let wanted = || {
        format!(
            "expected an even number from 2 to {} (each layout is played once with each AI first)",
            crate::run_options::MAX_COUNT
        )
    };
    match crate::run_options::count(s) {
        Ok(n) if n % 2 == 0 => Ok(n),
        _ => Err(wanted()),
    }
}

fn arena(args: &BattleArgs, rules: Rules, a: Ai, b: Ai) -> Result<()> {
    let games = args.games.unwrap_or(1000);
    let cfg = MatchConfig {
        rules,
        a,
        b,
        games,
        seed: args.seed,
    };
    let output = args.output;
    let progress = output.progress(games, "games");
    stop_on_ctrl_c(&progress);
    let report = args.run.install(|| run_match(&cfg, &progress));
    progress.finish();
    let report = report.map_err(|e| anyhow!("an AI failed: {e}"))?;
    output.emit(&report)?;
    stopped_after(&progress, report.games, games, "game")
}

/// One game with at least one person typing moves on stdin; A moves first.
/// It is game 0 of an arena match with the same seed (`LiveBattle`).
fn interactive(rules: Rules, players: [Player; 2], seed: u64) -> Result<()> {
    let mut live = LiveBattle::new(rules, players, seed);
    let label = |p: usize| format!("{} ({})", ['A', 'B'][p], players[p].name());
    let mut lines = std::io::stdin().lock().lines();
    print(format_args!(
        "Minesweeper battle on {}x{} with {} mines: first to {} mines wins. Clicking a mine scores and moves again.\n\
         Type a move as `X Y` (column, row from 0), or `quit`.\n",
        rules.level.width, rules.level.height, rules.level.mines, rules.target
    ))?;
    print(show(live.battle(), false))?;
    while let Some(player) = live.to_move() {
        let seat = live.battle().to_move();
        let (x, y, turn) = match player {
            Player::Ai(_) => {
                let ([x, y], turn) = live.ai_turn()?;
                (x, y, describe(&turn))
            }
            Player::Human => {
                let Some(cell) = human_move(live.battle(), &label(seat), &mut lines)? else {
                    return print(format_args!(
                        "{} resigns. {} wins.\n",
                        label(seat),
                        label(1 - seat)
                    ));
                };
                let (x, y) = live.battle().view().grid().coords(cell);
                let turn = live.human_move(x, y)?;
                (x, y, describe(&turn))
            }
        };
        print(format_args!("{} clicks ({x},{y}): {turn}\n", label(seat)))?;
        print(show(live.battle(), live.battle().is_over()))?;
    }
    match live.battle().winner() {
        Some(p) => print(format_args!("{} wins.\n", label(p))),
        None => print("A draw.\n"),
    }
}

/// Asks `who` for a move until a legal one is typed; `None` when they quit.
fn human_move(
    battle: &Battle,
    who: &str,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Option<usize>> {
    loop {
        print(format_args!("{who} to move:\n"))?;
        let Some(line) = lines.next() else {
            bail!("standard input ended before the game did (a human player types moves there)");
        };
        let line = line?;
        let text = line.trim();
        if text.eq_ignore_ascii_case("quit") || text.eq_ignore_ascii_case("q") {
            return Ok(None);
        }
        match read_move(battle, text) {
            Ok(cell) => return Ok(Some(cell)),
            Err(why) => print(format_args!("bad move: {why}\n"))?,
        }
    }
}

/// What a click did, for the move log.
fn describe(turn: &Turn) -> String {
    match turn {
        Turn::Captured => "a mine! moves again".to_string(),
        Turn::Revealed(opened) if opened.len() > 1 => format!("safe, {} cells open", opened.len()),
        Turn::Revealed(_) => "safe".to_string(),
    }
}

/// A hidden cell from `X Y` or `X,Y`, or why not.
fn read_move(battle: &Battle, text: &str) -> Result<usize, String> {
    let fields: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|f| !f.is_empty())
        .collect();
    let [x, y] = fields[..] else {
        return Err(format!("expected two numbers `X Y`, found {text:?}"));
    };
    let num = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("{s:?} is not a column or row number"))
    };
    let (x, y) = (num(x)?, num(y)?);
    let grid = battle.view().grid();
    let cell = grid.checked_index(x, y).ok_or_else(|| {
        format!(
            "({x},{y}) is off the board (columns 0-{}, rows 0-{})",
            grid.width() - 1,
            grid.height() - 1
        )
    })?;
    if !battle.view().is_hidden(cell) {
        return Err(format!("({x},{y}) is already open"));
    }
    Ok(cell)
}

/// The board with coordinates, then the score and whose turn it is.
fn show(battle: &Battle, reveal: bool) -> String {
    let grid = battle.view().grid();
    let text = battle.to_text(reveal);
    let mut out = String::from("    ");
    for x in 0..grid.width() {
        let _ = write!(out, "{x:>3}");
    }
    out.push('\n');
    for (y, row) in text.lines().enumerate() {
        let _ = write!(out, "{y:>4}");
        for ch in row.chars() {
            let _ = write!(out, "{ch:>3}");
        }
        out.push('\n');
    }
    let [a, b] = battle.scores();
    let _ = write!(
        out,
        "score A {a} - B {b} (first to {}), {} mines left",
        battle.rules().target,
        battle.mines_left()
    );
    if !battle.is_over() {
        let _ = write!(out, "; {} to move", ['A', 'B'][battle.to_move()]);
    }
    out.push('\n');
    out
}
