//! `arcade flappy …`

use crate::exit::bad_input;
use crate::run_options::RunOptions;
use anyhow::{Result, anyhow};
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_flappy::bench::frames_per_second;
use arcade_flappy::episode::eval_seed;
use arcade_flappy::policy::{Greedy, Heuristic, Oracle};
use arcade_flappy::render::{Cell, grid};
use arcade_flappy::train::{self, Event, Method, TrainConfig};
use arcade_flappy::viability::{Depths, HEIGHTS, SPEEDS};
use arcade_flappy::{Agent, Env, EvalReport, evaluate, file};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
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
    #[arg(long, value_name = "PX", default_value_t = arcade_flappy::viability::MAX_MARGIN)]
    max_margin: i32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
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
fn parse_hidden(s: &str) -> Result<Hidden, String> {
    if s.trim().is_empty() || s.trim() == "none" {
        return Ok(Hidden(Vec::new()));
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
    /// Wall-clock budget in minutes.
    #[arg(long, default_value_t = 5.0)]
    minutes: f64,
    /// Stop after this many generations (cem) or updates (pg) instead of
    /// by the clock: the same seed then gives the same policy.
    #[arg(long, value_name = "N")]
    iterations: Option<usize>,
    /// Where to write the policy (rewritten whenever it improves).
    #[arg(long, value_name = "FILE", default_value = "flappy-policy.json")]
    out: PathBuf,
    /// Hidden layer sizes, or `none` for a linear policy [default: 16, and
    /// 64,64 for imitate] (the published hobby network is `--inputs 5 --hidden 16,64,16`).
    #[arg(long, value_name = "SIZES", value_parser = parse_hidden)]
    hidden: Option<Hidden>,
    /// Observation: 5 (the published five numbers) or 7 (plus the next pipe's gap).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["5", "7"]), default_value = "7")]
    inputs: String,
    /// Share of training gaps placed at an end of their range, so the
    /// hardest climbs and drops are practised (validation and eval use the real game).
    #[arg(long, value_name = "P")]
    extreme_gaps: Option<f64>,
    /// CEM: candidates per generation.
    #[arg(long, value_name = "P")]
    population: Option<usize>,
    /// CEM: training episodes per candidate.
    #[arg(long, value_name = "E")]
    episodes_per_eval: Option<usize>,
    /// PG, REINFORCE and imitate: Adam learning rate.
    #[arg(long, value_name = "LR")]
    learning_rate: Option<f64>,
    /// PG and REINFORCE: discount per frame.
    #[arg(long, value_name = "G")]
    gamma: Option<f64>,
    /// PG and REINFORCE: weight of the entropy bonus.
    #[arg(long, value_name = "W")]
    entropy: Option<f64>,
    /// PG and imitate: games played side by side.
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// PG and imitate: frames each game plays per update.
    #[arg(long, value_name = "N")]
    steps: Option<usize>,
    /// PG: passes over each update's frames.
    #[arg(long, value_name = "N")]
    epochs: Option<usize>,
    /// PG and imitate: frames per gradient step.
    #[arg(long, value_name = "N")]
    minibatch: Option<usize>,
    /// PG: GAE's lambda (0: one-step advantages, 1: full returns).
    #[arg(long, value_name = "L")]
    lambda: Option<f64>,
    /// REINFORCE: episodes per update.
    #[arg(long, value_name = "B")]
    batch: Option<usize>,
    /// Imitate: chance of a random action on a frame (exploration).
    #[arg(long, value_name = "P")]
    explore: Option<f64>,
    /// Imitate: gradient steps per update.
    #[arg(long, value_name = "N")]
    batches: Option<usize>,
    /// Validation episodes per check (the best policy is the one with the
    /// most pipes on them; all reaching 10,000 pipes, and the confirmation
    /// episodes too, ends training).
    #[arg(long, value_name = "N")]
    validation_episodes: Option<usize>,
    /// Iterations between validation checks.
    #[arg(long, value_name = "N")]
    validate_every: Option<usize>,
    /// Further episodes a policy perfect on the validation episodes at
    /// 10,000 pipes must also clear before training stops [default: 0, and
    /// 192 for imitate].
    #[arg(long, value_name = "N")]
    validation_confirm: Option<usize>,
    #[command(flatten)]
    run: RunOptions,
    /// Print a JSON summary at the end instead of text.
    #[arg(long)]
    json: bool,
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
    /// Number of episodes.
    #[arg(long, default_value_t = 100)]
    episodes: usize,
    /// End each episode (as capped, not crashed) after this many pipes.
    #[arg(long, value_name = "P", default_value_t = 10_000)]
    max_pipes: u64,
    /// Master seed of the evaluation episodes (disjoint from every training seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    run: RunOptions,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Include every episode's pipe count in the JSON output.
    #[arg(long, requires = "json")]
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
    #[arg(long, value_name = "P")]
    max_pipes: Option<u64>,
    /// Milliseconds per frame (the original runs at 30 frames per second).
    #[arg(long, value_name = "MS", default_value_t = 33)]
    delay: u64,
    /// Do not draw: print the result only.
    #[arg(long)]
    no_render: bool,
    /// Print one JSON object with the result (implies --no-render).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Frames to play.
    #[arg(long, default_value_t = 100_000_000)]
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Train(a) => train_cmd(*a),
        Command::Eval(a) => eval_cmd(a),
        Command::Play(a) => play_cmd(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Kernel(a) => kernel_cmd(a),
    }
}

fn load_agent(spec: &str) -> Result<Agent> {
    Agent::resolve(spec).map_err(|e| bad_input(anyhow!("--policy: {e} (expected {POLICY_HELP})")))
}

fn train_config(a: &TrainArgs) -> Result<TrainConfig> {
    let method = match a.method {
        MethodArg::Cem => Method::Cem,
        MethodArg::Pg => Method::Pg,
        MethodArg::Reinforce => Method::Reinforce,
        MethodArg::Imitate => Method::Imitate,
    };
    if !(a.minutes.is_finite() && a.minutes > 0.0) {
        return Err(bad_input(anyhow!(
            "--minutes must be a positive number, got {}",
            a.minutes
        )));
    }
    let mut config = TrainConfig::new(method, a.seed);
    let inputs: usize = a.inputs.parse().expect("clap checked 5 or 7");
    config.sizes[0] = inputs;
    if let Some(hidden) = &a.hidden {
        config.sizes = std::iter::once(inputs)
            .chain(hidden.0.iter().copied())
            .chain(std::iter::once(2))
            .collect();
    }
    config.seconds = a.minutes * 60.0;
    config.iterations = a.iterations;
    if let Some(p) = a.extreme_gaps {
        config.extreme_gaps = p;
    }
    if let Some(n) = a.validation_episodes {
        config.validation_episodes = n;
    }
    if let Some(n) = a.validate_every {
        config.validation_every = n;
    }
    if let Some(n) = a.validation_confirm {
        config.validation_confirm = n;
    }
    if let Some(p) = a.population {
        config.cem.population = p;
    }
    if let Some(e) = a.episodes_per_eval {
        config.cem.episodes = e;
    }
    apply_gradient_options(a, &mut config);
    Ok(config)
}

/// The gradient methods' options, onto the settings of the methods they name.
fn apply_gradient_options(a: &TrainArgs, config: &mut TrainConfig) {
    let (ppo, rf) = (&mut config.ppo, &mut config.reinforce);
    let set = |target: &mut f64, value: Option<f64>| {
        if let Some(v) = value {
            *target = v;
        }
    };
    set(&mut ppo.learning_rate, a.learning_rate);
    set(&mut rf.learning_rate, a.learning_rate);
    set(&mut ppo.gamma, a.gamma);
    set(&mut rf.gamma, a.gamma);
    set(&mut ppo.entropy, a.entropy);
    set(&mut rf.entropy, a.entropy);
    set(&mut ppo.lambda, a.lambda);
    ppo.games = a.games.unwrap_or(ppo.games);
    ppo.steps = a.steps.unwrap_or(ppo.steps);
    ppo.epochs = a.epochs.unwrap_or(ppo.epochs);
    ppo.minibatch = a.minibatch.unwrap_or(ppo.minibatch);
    rf.batch = a.batch.unwrap_or(rf.batch);
    let im = &mut config.imitate;
    set(&mut im.learning_rate, a.learning_rate);
    set(&mut im.explore, a.explore);
    im.games = a.games.unwrap_or(im.games);
    im.steps = a.steps.unwrap_or(im.steps);
    im.minibatch = a.minibatch.unwrap_or(im.minibatch);
    im.batches = a.batches.unwrap_or(im.batches);
}

fn train_cmd(a: TrainArgs) -> Result<()> {
    let config = train_config(&a)?;
    let progress = Progress::counter(
        match config.method {
            Method::Cem => "gens",
            Method::Pg | Method::Reinforce | Method::Imitate => "updates",
        },
        a.run.quiet || a.json,
    );
    progress.println(format!(
        "training {:?} with {} on {} thread(s), {}; policy → {}",
        config.sizes,
        config.method.as_str(),
        a.run.threads().unwrap_or_else(rayon_threads),
        match config.iterations {
            Some(n) => format!("{n} iterations"),
            None => format!("{} minutes", a.minutes),
        },
        a.out.display()
    ));
    let mut write_error = None;
    let mut last_line = Instant::now();
    let trained = with_threads(a.run.threads(), || {
        train::train(&config, &progress, |event| match event {
            Event::Improved { mlp, report } => {
                let about = json!({
                    "made_by": "arcade flappy train",
                    "config": config,
                    "iteration": report.iteration,
                    "validation_mean_pipes": report.best_validation,
                    "validation_cap": report.validation_cap,
                    "seconds": report.seconds,
                });
                if let Err(e) = file::save(mlp, about, &a.out) {
                    write_error.get_or_insert(e);
                }
                progress.println(format!(
                    "{:>6} {:>4.0}s  train mean {:>8.1} best {:>8.1} (cap {})  validation {:>8.1} / {} → saved",
                    report.iteration,
                    report.seconds,
                    report.mean_pipes,
                    report.best_pipes,
                    report.train_cap,
                    report.best_validation,
                    report.validation_cap
                ));
                last_line = Instant::now();
            }
            Event::Iteration(report) => {
                progress.set_message(format!(
                    "train mean {:.1} best {:.1}, validation {:.1} (best {:.1} / {})",
                    report.mean_pipes,
                    report.best_pipes,
                    report.validation,
                    report.best_validation,
                    report.validation_cap
                ));
                if last_line.elapsed() >= Duration::from_secs(15) {
                    progress.println(format!(
                        "{:>6} {:>4.0}s  train mean {:>8.1} best {:>8.1} (cap {})  validation {:>8.1} / {}",
                        report.iteration,
                        report.seconds,
                        report.mean_pipes,
                        report.best_pipes,
                        report.train_cap,
                        report.validation,
                        report.validation_cap
                    ));
                    last_line = Instant::now();
                }
            }
        })
    })
    .map_err(bad_input)?;
    progress.finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let s = &trained.summary;
    if a.json {
        println!(
            "{}",
            json!({
                "method": config.method, "seed": config.seed, "sizes": config.sizes,
                "out": a.out.display().to_string(), "iterations": s.iterations,
                "best_validation": s.best_validation, "validation_cap": s.validation_cap,
                "validation_episodes": config.validation_episodes,
                "validation_confirm": config.validation_confirm,
                "solved": s.solved, "frames": s.frames, "seconds": s.seconds,
            })
        );
    } else {
        println!(
            "{} after {} iterations in {:.0} s ({} frames): best validation mean {:.1} pipes over {} episodes capped at {}{}; policy in {}",
            config.method.as_str(),
            s.iterations,
            s.seconds,
            s.frames,
            s.best_validation,
            config.validation_episodes,
            s.validation_cap,
            if s.solved {
                format!(
                    " (all of them and {} confirmation episodes reached the cap)",
                    config.validation_confirm
                )
            } else {
                String::new()
            },
            a.out.display()
        );
    }
    Ok(())
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn eval_cmd(a: EvalArgs) -> Result<()> {
    let agent = load_agent(&a.policy)?;
    if a.episodes == 0 {
        return Err(bad_input(anyhow!("--episodes must be at least 1")));
    }
    if a.max_pipes == 0 {
        return Err(bad_input(anyhow!("--max-pipes must be at least 1")));
    }
    let progress = Progress::new(a.episodes as u64, "episodes", a.run.quiet || a.json);
    let threads = a.run.threads().unwrap_or_else(rayon_threads);
    let report = with_threads(a.run.threads(), || {
        evaluate(&agent, a.episodes, a.seed, Some(a.max_pipes), &progress)
    });
    progress.finish();
    if a.json {
        let mut v = serde_json::to_value(&report)?;
        let obj = v.as_object_mut().expect("report is an object");
        obj.insert("policy".into(), json!(a.policy));
        obj.insert("threads".into(), json!(threads));
        if !a.per_episode {
            obj.remove("pipes");
        }
        println!("{v}");
    } else {
        print_eval(&a.policy, &report, threads);
    }
    Ok(())
}

fn print_eval(policy: &str, r: &EvalReport, threads: usize) {
    println!(
        "{policy}: {} episodes (seed {}, cap {} pipes)",
        r.episodes,
        r.seed,
        r.cap.map_or("none".into(), |c| c.to_string())
    );
    println!(
        "  pipes   mean {:.1}  95% CI [{:.1}, {:.1}]  median {:.1}  min {}  max {}",
        r.mean_pipes, r.ci95[0], r.ci95[1], r.median_pipes, r.min_pipes, r.max_pipes
    );
    println!(
        "  ends    {} crashed, {} reached the cap",
        r.crashes, r.capped
    );
    println!(
        "  speed   {} frames in {:.2} s: {:.0} frames/s on {threads} thread{}",
        r.frames,
        r.seconds,
        r.frames_per_sec,
        if threads == 1 { "" } else { "s" }
    );
}

fn play_cmd(a: PlayArgs) -> Result<()> {
    let agent = load_agent(&a.policy)?;
    let seed = eval_seed(a.seed, 0);
    let render = !(a.no_render || a.json);
    let delay = Duration::from_millis(a.delay);
    if render {
        print!("\x1b[2J");
    }
    let start = Instant::now();
    let outcome = agent.play(seed, a.max_pipes, |env| {
        if render {
            draw(&a.policy, env);
            std::thread::sleep(delay);
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        println!(
            "{}",
            json!({
                "policy": a.policy, "seed": a.seed, "pipes": outcome.pipes,
                "frames": outcome.frames, "crashed": outcome.crashed,
                "reward": outcome.reward, "seconds": seconds,
            })
        );
    } else {
        println!(
            "{}: {} pipes in {} frames, {} (reward {})",
            a.policy,
            outcome.pipes,
            outcome.frames,
            if outcome.crashed {
                "crashed"
            } else {
                "stopped at the cap"
            },
            outcome.reward
        );
    }
    Ok(())
}

/// Redraws the frame from the top-left corner, in colour.
fn draw(name: &str, env: &Env) {
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
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let agent = load_agent(&a.policy)?;
    if a.frames == 0 {
        return Err(bad_input(anyhow!("--frames must be at least 1")));
    }
    let r = match &agent {
        Agent::Heuristic => frames_per_second(&mut Heuristic, a.frames, a.seed),
        Agent::Oracle => frames_per_second(&mut Oracle::new(Depths::shared()), a.frames, a.seed),
        Agent::Mlp(mlp) => frames_per_second(&mut Greedy::new(mlp), a.frames, a.seed),
    };
    if a.json {
        let mut v = serde_json::to_value(&r)?;
        v.as_object_mut()
            .expect("report is an object")
            .insert("policy".into(), json!(a.policy));
        println!("{v}");
    } else {
        println!(
            "{}: {} frames ({} episodes) in {:.2} s on one thread: {:.1} M frames/s",
            a.policy,
            r.frames,
            r.episodes,
            r.seconds,
            r.frames_per_sec / 1e6
        );
    }
    Ok(())
}

fn kernel_cmd(a: KernelArgs) -> Result<()> {
    if a.max_margin < 0 {
        return Err(bad_input(anyhow!(
            "--max-margin must be at least 0, got {}",
            a.max_margin
        )));
    }
    let start = Instant::now();
    let depths = Depths::compute(a.max_margin);
    let rows: Vec<_> = depths
        .kernels()
        .iter()
        .map(|k| {
            let (gap, states) = k.narrowest();
            json!({"margin": k.margin(), "rounds": k.rounds, "narrowest_gap_top": gap, "narrowest_states": states})
        })
        .collect();
    let safe = depths
        .kernels()
        .iter()
        .filter(|k| k.narrowest().1 > 0)
        .map(|k| k.margin())
        .max();
    if a.json {
        println!(
            "{}",
            json!({"kernels": rows, "largest_safe_margin": safe, "states": HEIGHTS * SPEEDS, "seconds": start.elapsed().as_secs_f64()})
        );
        return Ok(());
    }
    println!(
        "bird states: {} heights x {} speeds = {}",
        HEIGHTS,
        SPEEDS,
        HEIGHTS * SPEEDS
    );
    println!("margin  rounds  smallest kernel (gap top)");
    for k in depths.kernels() {
        let (gap, states) = k.narrowest();
        println!("{:>6}  {:>6}  {states:>7} ({gap})", k.margin(), k.rounds);
    }
    match safe {
        Some(m) => println!(
            "perfect play never crashes, even with every wall {m} px closer ({:.1} s)",
            start.elapsed().as_secs_f64()
        ),
        None => println!("some gap has an empty kernel: a crash can be forced"),
    }
    Ok(())
}
