//! `arcade flappy …`

use crate::exit::{bad_input, exit_on_ctrl_c, stop_on_ctrl_c, stopped_after};
use crate::output::{self, OutputArgs};
use crate::run_options::RunOptions;
use anyhow::{Result, anyhow};
use arcade_core::checkpoint::check_writable;
use arcade_core::progress::human_duration;
use arcade_core::runner::effective_threads;
use arcade_flappy::overrides::Overrides;
use arcade_flappy::render::{Cell, grid};
use arcade_flappy::report::{self, PolicyAbout, TrainReport};
use arcade_flappy::train::{self, Event, IterationReport, Method, TrainConfig};
use arcade_flappy::{Agent, Env, EvalConfig, evaluate, file};
use clap::{Args, Subcommand, ValueEnum};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum Command {
    /// Train a network policy: neuroevolution (CEM), policy gradient (PPO,
    /// REINFORCE) or imitation of the exact oracle (DAgger).
    ///
    /// Prints progress (iteration, mean pipes, best) and rewrites --out each
    /// time the policy improves on the validation episodes.
    ///
    /// Example: arcade flappy train --method cem --minutes 5 --out policy.json
    Train(Box<TrainArgs>),
    /// Evaluate a policy on seeds never used in training.
    ///
    /// Example: arcade flappy eval --policy policy.json --episodes 100 --json
    Eval(EvalArgs),
    /// Watch a policy play in the terminal.
    ///
    /// Example: arcade flappy play --policy heuristic --seed 3
    Play(PlayArgs),
    /// Measure environment speed (frames per second on one thread).
    ///
    /// Example: arcade flappy bench --frames 100000000
    Bench(BenchArgs),
    /// Prove the game can be played without a crash: the exact sets of
    /// bird states that survive every sequence of gaps (viability kernels),
    /// for the real walls and for walls moved M pixels closer.
    ///
    /// A non-empty kernel for every gap means a player who sees the pipe
    /// ahead and the next one (the seven-number observation) never has to
    /// crash; the largest margin with one is how much slack perfect play has.
    /// The `oracle` policy plays by these kernels.
    ///
    /// Example: arcade flappy kernel --json
    Kernel(KernelArgs),
}

#[derive(Args)]
pub struct KernelArgs {
    /// Largest wall margin to compute (stops at the first with an empty kernel).
    #[arg(long, value_name = "PX", default_value_t = arcade_flappy::viability::MAX_MARGIN as u32,
          value_parser = clap::value_parser!(u32).range(0..=1_000))]
    max_margin: u32,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum MethodArg {
    /// Noisy cross-entropy method over the weights (arcade-core).
    Cem,
    /// Policy gradient: PPO with a learned value baseline (GAE).
    Pg,
    /// REINFORCE with a batch baseline (the simpler policy gradient).
    Reinforce,
    /// Imitation (DAgger) of the exact viability oracle: the network plays,
    /// the oracle labels every frame with the better action.
    Imitate,
}

/// Hidden layer sizes (a newtype so clap takes the list as one value).
#[derive(Clone)]
struct Hidden(Vec<usize>);

/// Parses a comma list of hidden layer sizes such as `16,64,16` (`none`: linear).
/// `--inputs`: 5 or 7, which `--help` lists.
fn inputs() -> impl clap::builder::TypedValueParser<Value = usize> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(["5", "7"]).map(|s| if s == "5" { 5 } else { 7 })
}

fn parse_hidden(s: &str) -> Result<Hidden, String> {
    // An empty value is more likely an unset shell variable than a choice.
    if s.trim() == "none" {
        return Ok(Hidden(Vec::new()));
    }
    if s.trim().is_empty() {
        return Err("expected layer sizes such as 16,64,16, or none for a linear policy".into());
    }
    s.split(',')
        .map(|t| match t.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!(
                "{t:?} is not a positive layer size (expected a comma list such as 16,64,16)"
            )),
        })
        .collect::<Result<_, _>>()
        .map(Hidden)
}

#[derive(Args)]
pub struct TrainArgs {
    /// Training method.
    #[arg(long, value_enum, default_value_t = MethodArg::Cem)]
    method: MethodArg,
    /// Master seed (initial weights, training and validation episodes).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Wall-clock budget in minutes (at most a year).
    #[arg(long, default_value_t = 5.0, value_parser = minutes)]
    minutes: f64,
    /// Stop after this many generations (cem) or updates (pg, reinforce,
    /// imitate) instead of by the clock: the same seed then gives the same
    /// policy.
    #[arg(long, value_name = "N", value_parser = crate::run_options::count)]
    iterations: Option<u64>,
    /// Where to write the policy (rewritten whenever it improves).
    #[arg(long, value_name = "FILE", default_value = "flappy-policy.json")]
    out: PathBuf,
    /// Hidden layer sizes, or `none` for a linear policy [default: 16, and
    /// 64,64 for imitate] (the published hobby network is `--inputs 5 --hidden 16,64,16`).
    #[arg(long, value_name = "SIZES", allow_hyphen_values = true, value_parser = parse_hidden)]
    hidden: Option<Hidden>,
    /// Observation: 5 (the published five numbers) or 7 (plus the next pipe's gap).
    #[arg(long, value_parser = inputs(), default_value = "7")]
    inputs: usize,
    /// Share of training gaps placed at an end of their range, so the
    /// hardest climbs and drops are practised (validation and eval use the real game).
    #[arg(long, value_name = "P", value_parser = crate::run_options::unit)]
    extreme_gaps: Option<f64>,
    /// CEM: candidates per generation.
    #[arg(long, value_name = "P", value_parser = positive)]
    population: Option<usize>,
    /// CEM: training episodes per candidate.
    #[arg(long, value_name = "E", value_parser = positive)]
    episodes_per_eval: Option<usize>,
    /// PG, REINFORCE and imitate: Adam learning rate.
    #[arg(long, value_name = "LR", value_parser = learning_rate)]
    learning_rate: Option<f64>,
    /// PG and REINFORCE: discount per frame.
    #[arg(long, value_name = "G", value_parser = crate::run_options::unit)]
    gamma: Option<f64>,
    /// PG and REINFORCE: weight of the entropy bonus.
    #[arg(long, value_name = "W", value_parser = entropy)]
    entropy: Option<f64>,
    /// PG and imitate: games played side by side, each carrying on across
    /// updates (environments, not games played in all).
    #[arg(long, value_name = "N", value_parser = positive)]
    envs: Option<usize>,
    /// The old name of --envs, refused with the new one.
    #[arg(long, hide = true, value_name = "N")]
    games: Option<String>,
    /// PG and imitate: frames each game plays per update.
    #[arg(long, value_name = "N", value_parser = positive)]
    steps: Option<usize>,
    /// PG: passes over each update's frames.
    #[arg(long, value_name = "N", value_parser = positive)]
    epochs: Option<usize>,
    /// PG and imitate: frames per gradient step.
    #[arg(long, value_name = "N", value_parser = positive)]
    minibatch: Option<usize>,
    /// PG: GAE's lambda (0: one-step advantages, 1: full returns).
    #[arg(long, value_name = "L", value_parser = crate::run_options::unit)]
    lambda: Option<f64>,
    /// REINFORCE: episodes per update.
    #[arg(long, value_name = "B", value_parser = positive)]
    batch: Option<usize>,
    /// Imitate: chance of a random action on a frame (exploration).
    #[arg(long, value_name = "P", value_parser = crate::run_options::unit)]
    explore: Option<f64>,
    /// Imitate: gradient steps per update.
    #[arg(long, value_name = "N", value_parser = positive)]
    batches: Option<usize>,
    /// Validation episodes per check (the best policy is the one with the
    /// most pipes on them; all reaching 10,000 pipes, and the confirmation
    /// episodes too, ends training) [default: 16, and 64 for imitate].
    #[arg(long, value_name = "N", value_parser = positive)]
    validation_episodes: Option<usize>,
    /// Iterations between validation checks [default: 1 for cem and
    /// reinforce, 5 for pg, 100 for imitate].
    #[arg(long, value_name = "N", value_parser = positive)]
    validate_every: Option<usize>,
    /// Further episodes a policy perfect on the validation episodes at
    /// 10,000 pipes must also clear before training stops [default: 0, and
    /// 192 for imitate].
    #[arg(long, value_name = "N")]
    validation_confirm: Option<usize>,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
}

/// A count of a training setting (games, steps, epochs, candidates...),
/// from 1 up.
fn positive(s: &str) -> Result<usize, String> {
    crate::run_options::count(s).map(|n| n as usize)
}

/// Largest Adam learning rate accepted: far beyond any that trains, and
/// small enough that the weights stay numbers for a while.
const MAX_LEARNING_RATE: f64 = 10.0;

/// An Adam learning rate: above 0, at most [`MAX_LEARNING_RATE`].
fn learning_rate(s: &str) -> Result<f64, String> {
    crate::run_options::positive_at_most(s, MAX_LEARNING_RATE, &MAX_LEARNING_RATE.to_string())
}

/// Largest entropy weight accepted: the bonus then swamps any reward.
const MAX_ENTROPY: f64 = 100.0;

/// An entropy weight, from 0 to [`MAX_ENTROPY`].
fn entropy(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=MAX_ENTROPY).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to {MAX_ENTROPY}")),
    }
}

/// A built-in policy name or a policy file.
const POLICY_HELP: &str =
    "heuristic, oracle, or a policy JSON file written by `arcade flappy train`";

#[derive(Args)]
pub struct EvalArgs {
    /// Policy: heuristic (flap below a target height), oracle (perfect play
    /// from the exact viability analysis, computed at start in seconds), or a
    /// policy JSON file written by `arcade flappy train`.
    #[arg(long, value_name = "FILE|heuristic|oracle")]
    policy: String,
    /// Number of episodes (results stream into their statistics).
    #[arg(long, default_value_t = 100, value_parser = crate::run_options::count)]
    episodes: u64,
    /// End each episode (as capped, not crashed) after this many pipes.
    #[arg(long, value_name = "P", default_value_t = 10_000, value_parser = crate::run_options::count)]
    max_pipes: u64,
    /// Master seed of the evaluation episodes (disjoint from every training seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    #[command(flatten)]
    output: OutputArgs,
    /// Include every episode's pipe count in the JSON output (up to 2^20
    /// episodes). `--per-game`, as `tetris bench` names it, is the same.
    #[arg(long, requires = "json", alias = "per-game")]
    per_episode: bool,
}

#[derive(Args)]
pub struct PlayArgs {
    /// Policy: heuristic (flap below a target height), oracle (perfect play
    /// from the exact viability analysis, computed at start in seconds), or a
    /// policy JSON file written by `arcade flappy train`.
    #[arg(long, value_name = "FILE|heuristic|oracle")]
    policy: String,
    /// Seed of the game (an evaluation seed: never seen in training).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many pipes.
    #[arg(long, value_name = "P", value_parser = crate::run_options::count)]
    max_pipes: Option<u64>,
    /// Milliseconds per frame (the original runs at 30 frames per second).
    #[arg(long, value_name = "MS", default_value_t = 33,
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    delay: u64,
    /// Do not draw: print the result only.
    #[arg(long)]
    no_render: bool,
    /// Print one JSON object with the result (implies --no-render).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    run: RunOptions,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Frames to play.
    #[arg(long, default_value_t = 100_000_000, value_parser = crate::run_options::count)]
    frames: u64,
    /// Policy in the loop (the heuristic costs one comparison, so it
    /// measures the environment itself).
    #[arg(
        long,
        value_name = "FILE|heuristic|oracle",
        default_value = "heuristic"
    )]
    policy: String,
    /// Seed of the episodes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Train(a) => train_cmd(*a),
        Command::Eval(a) => eval_cmd(a),
        Command::Play(a) => play_cmd(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Kernel(a) => a
            .output
            .emit(&a.run.install(|| report::kernels(a.max_margin))),
    }
}

/// A time budget in minutes: finite, above 0, at most a year.
fn minutes(s: &str) -> Result<f64, String> {
    let m: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a number of minutes".to_string())?;
    crate::run_options::seconds(&(m * 60.0).to_string())
        .map(|_| m)
        .map_err(|_| "expected a number of minutes above 0 and at most a year".to_string())
}

fn load_agent(spec: &str) -> Result<Agent> {
    Agent::resolve(spec).map_err(|e| bad_input(anyhow!("--policy: {e} (expected {POLICY_HELP})")))
}

/// Says why nothing shows for a few seconds: the oracle first computes the
/// analysis it plays by.
fn note_oracle(agent: &Agent, quiet: bool) {
    if matches!(agent, Agent::Oracle) && !quiet {
        eprintln!("computing the viability analysis the oracle plays by (a few seconds)");
    }
}

fn train_config(a: &TrainArgs) -> Result<TrainConfig> {
    let method = match a.method {
        MethodArg::Cem => Method::Cem,
        MethodArg::Pg => Method::Pg,
        MethodArg::Reinforce => Method::Reinforce,
        MethodArg::Imitate => Method::Imitate,
    };
    let mut config = TrainConfig::new(method, a.seed);
    let inputs = a.inputs;
    config.sizes[0] = inputs;
    if let Some(hidden) = &a.hidden {
        config.sizes = std::iter::once(inputs)
            .chain(hidden.0.iter().copied())
            .chain(std::iter::once(2))
            .collect();
    }
    config.seconds = a.minutes * 60.0;
    config.iterations = a.iterations.map(|n| n as usize);
    config.extreme_gaps = a.extreme_gaps.unwrap_or(config.extreme_gaps);
    config.validation_episodes = a.validation_episodes.unwrap_or(config.validation_episodes);
    config.validation_every = a.validate_every.unwrap_or(config.validation_every);
    config.validation_confirm = a.validation_confirm.unwrap_or(config.validation_confirm);
    let overrides = Overrides {
        population: a.population,
        episodes_per_eval: a.episodes_per_eval,
        learning_rate: a.learning_rate,
        gamma: a.gamma,
        entropy: a.entropy,
        envs: a.envs,
        steps: a.steps,
        epochs: a.epochs,
        minibatch: a.minibatch,
        lambda: a.lambda,
        batch: a.batch,
        explore: a.explore,
        batches: a.batches,
    };
    overrides.apply(&mut config).map_err(bad_input)?;
    Ok(config)
}

fn train_cmd(a: TrainArgs) -> Result<()> {
    if a.games.is_some() {
        return Err(bad_input(anyhow::anyhow!(
            "--games is now --envs (games played side by side)"
        )));
    }
    let config = train_config(&a)?;
    check_writable(&a.out).map_err(bad_input)?;
    let what = if config.method == Method::Cem {
        "gens"
    } else {
        "updates"
    };
    let output = a.output;
    // Inside the pool: the imitation's oracle analysis runs here, on --threads.
    let training = a
        .run
        .install(|| train::Training::new(&config))
        .map_err(bad_input)?;
    // A fixed number of iterations is a bar with its time left; a clock
    // budget is a counter whose message says how much of it is left.
    let progress = match config.iterations {
        Some(n) => output.progress(n as u64, what),
        None => output.counter(what),
    };
    let budget_left = |report: &IterationReport| match config.iterations {
        Some(_) => String::new(),
        None => {
            let left = Duration::from_secs_f64((config.seconds - report.seconds).max(0.0));
            format!(" · {} left", human_duration(left))
        }
    };
    progress.println(training_banner(&a, &config));
    // Each improvement is written whole as it is found.
    let shown_out = a.out.display().to_string();
    exit_on_ctrl_c(move || {
        format!("interrupted: the best policy found so far, if any, is in {shown_out}")
    });
    let mut write_error = None;
    let mut last_line = Instant::now();
    let trained = a.run.install(|| {
        training.run(&progress, |event| match event {
            Event::Improved { mlp, report } => {
                if let Err(e) = save_policy(mlp, &config, report, &a.out) {
                    write_error.get_or_insert(e);
                }
                progress.println(report.status_line(true));
                last_line = Instant::now();
            }
            Event::Iteration(report) => {
                progress.set_message(report.status_line(false) + &budget_left(report));
                if last_line.elapsed() >= Duration::from_secs(15) {
                    progress.println(report.status_line(false));
                    last_line = Instant::now();
                }
            }
        })
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let out = a.out.display().to_string();
    output.emit(&TrainReport::new(&config, &trained.summary, &out))
}

/// The status line a training run starts with.
fn training_banner(a: &TrainArgs, config: &TrainConfig) -> String {
    let budget = match config.iterations {
        Some(n) => format!("{n} iterations"),
        None => format!("{} minutes", a.minutes),
    };
    format!(
        "training {:?} with {} on {} thread(s), {budget}; policy → {}",
        config.sizes,
        config.method.as_str(),
        effective_threads(a.run.threads()),
        a.out.display()
    )
}

/// Writes a new best policy with the notes on how it was made.
fn save_policy(
    mlp: &arcade_flappy::Mlp,
    config: &TrainConfig,
    report: &IterationReport,
    out: &std::path::Path,
) -> Result<(), file::PolicyFileError> {
    let about = PolicyAbout {
        made_by: "arcade flappy train",
        config,
        iteration: report.iteration,
        validation_mean_pipes: report.best_validation,
        validation_cap: report.validation_cap,
        seconds: report.seconds,
    };
    let about = serde_json::to_value(&about).expect("the notes serialise");
    file::save(mlp, about, out)
}

fn eval_cmd(a: EvalArgs) -> Result<()> {
    crate::run_options::check_per_game_list("--per-episode", a.per_episode, a.episodes)?;
    let agent = load_agent(&a.policy)?;
    let config = EvalConfig {
        policy: agent.name(&a.policy),
        episodes: a.episodes,
        seed: a.seed,
        max_pipes: a.max_pipes,
        per_episode: a.per_episode,
    };
    config.check().map_err(bad_input)?;
    note_oracle(&agent, a.output.quiet);
    let output = a.output;
    let progress = output.progress(config.episodes, "episodes");
    stop_on_ctrl_c(&progress);
    let report = a.run.install(|| evaluate(&agent, &config, &progress));
    progress.finish();
    output.emit(&report)?;
    stopped_after(&progress, report.episodes, config.episodes, "episode")
}

fn play_cmd(a: PlayArgs) -> Result<()> {
    let agent = load_agent(&a.policy)?;
    let name = agent.name(&a.policy);
    let render = !(a.no_render || a.json);
    let delay = Duration::from_millis(a.delay);
    if render {
        output::frame("\x1b[2J")?;
    }
    note_oracle(&agent, a.json);
    let mut draw_error = None;
    // In the pool: the oracle's analysis, at its first move, runs on --threads.
    let report = a.run.install(|| {
        report::play(&agent, &name, a.seed, a.max_pipes, |env| {
            if render && draw_error.is_none() {
                draw_error = draw(&name, env).err();
                std::thread::sleep(delay);
            }
        })
    });
    if let Some(e) = draw_error {
        return Err(e);
    }
    OutputArgs {
        json: a.json,
        quiet: false,
    }
    .emit(&report)
}

/// Redraws the frame from the top-left corner, in colour.
fn draw(name: &str, env: &Env) -> Result<()> {
    let mut out = String::from("\x1b[H");
    let _ = writeln!(
        out,
        " {name}  pipes {}  frame {}\x1b[K",
        env.pipes(),
        env.frames()
    );
    for row in grid(env) {
        out.push(' ');
        for cell in row {
            match cell {
                Cell::Sky => out.push(' '),
                Cell::Pipe => out.push_str("\x1b[32m█\x1b[0m"),
                Cell::Bird => out.push_str("\x1b[33;1m@\x1b[0m"),
                Cell::Ground => out.push_str("\x1b[33m=\x1b[0m"),
            }
        }
        out.push_str("\x1b[K\n");
    }
    output::frame(out)
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let agent = load_agent(&a.policy)?;
    a.output
        .emit(&report::bench(&agent, &a.policy, a.frames, a.seed))
}
