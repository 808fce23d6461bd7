//! Every training method learns, from scratch, to clear pipes, and a run with
//! an iteration budget is the same whatever the number of threads.

use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_flappy::train::{Event, Method, TrainConfig, train};
use arcade_flappy::{Agent, EvalConfig, evaluate};

fn small(method: Method, iterations: usize) -> TrainConfig {
    let mut c = TrainConfig::new(method, 5);
    c.sizes = vec![7, 8, 2];
    c.iterations = Some(iterations);
    c.validation_episodes = 8;
    c.validation_cap = 200;
    c.validation_max_cap = 200;
    c.cem.population = 32;
    c.cem.episodes = 4;
    c.reinforce.batch = 8;
    c.ppo.games = 8;
    c.ppo.steps = 256;
    c.ppo.minibatch = 1024;
    c.imitate.games = 8;
    c.imitate.steps = 256;
    c.imitate.batches = 16;
    c.imitate.minibatch = 512;
    c
}

/// Trains, checks the reported improvements, and returns the best policy's
/// mean pipes on unseen evaluation episodes.
fn learn(config: &TrainConfig) -> f64 {
    let mut improvements = Vec::new();
    let trained = train(config, &Progress::hidden(), |e| {
        if let Event::Improved { report, .. } = e {
            improvements.push(report.best_validation);
        }
    })
    .unwrap();
    assert_eq!(trained.summary.iterations, config.iterations.unwrap());
    assert!(
        improvements.windows(2).all(|w| w[0] < w[1]),
        "{improvements:?}"
    );
    assert_eq!(
        improvements.last().copied(),
        Some(trained.summary.best_validation)
    );
    let eval = EvalConfig {
        policy: "trained".into(),
        episodes: 50,
        seed: 9,
        max_pipes: 200,
        per_episode: false,
    };
    let report = evaluate(&Agent::Mlp(trained.best), &eval, &Progress::hidden());
    println!(
        "{:?}: validation {:.1}, eval mean {:.1}",
        config.method, trained.summary.best_validation, report.mean_pipes
    );
    report.mean_pipes
}

/// Training with `config` reaches at least `floor` mean pipes and beats one
/// iteration of the same training by more than `gain`.
fn assert_learns(config: TrainConfig, floor: f64, gain: f64) {
    let mut one = config.clone();
    one.iterations = Some(1);
    let untrained = learn(&one);
    let trained = learn(&config);
    assert!(
        trained >= floor && trained > untrained + gain,
        "{:?}: {untrained} → {trained}",
        config.method
    );
}

#[test]
fn cem_learns_to_clear_pipes() {
    assert_learns(small(Method::Cem, 60), 10.0, 5.0);
}

#[test]
fn pg_learns_to_clear_pipes() {
    assert_learns(small(Method::Pg, 300), 30.0, 20.0);
}

#[test]
fn imitation_learns_to_clear_pipes() {
    assert_learns(small(Method::Imitate, 300), 30.0, 20.0);
}

#[test]
fn reinforce_learns_to_clear_pipes() {
    let mut config = small(Method::Reinforce, 800);
    config.reinforce.batch = 16;
    assert_learns(config, 5.0, 4.0);
}

#[test]
fn same_seed_same_policy_whatever_the_threads() {
    for method in [Method::Cem, Method::Pg, Method::Reinforce, Method::Imitate] {
        let config = small(method, 4);
        let run = |threads| {
            with_threads(Some(threads), || {
                train(&config, &Progress::hidden(), |_| {}).unwrap().best
            })
        };
        assert_eq!(run(1), run(2), "{method:?}");
    }
}

/// Validation runs every `validation_every` iterations and after the last
/// one, and only validated iterations can improve.
#[test]
fn validation_runs_at_its_interval_and_at_the_end() {
    let mut config = small(Method::Pg, 12);
    config.validation_every = 5;
    let mut validated = Vec::new();
    let mut improved = Vec::new();
    train(&config, &Progress::hidden(), |e| match e {
        Event::Iteration(r) => {
            if r.validated {
                validated.push(r.iteration);
            }
        }
        Event::Improved { report, .. } => improved.push(report.iteration),
    })
    .unwrap();
    assert_eq!(validated, vec![5, 10, 12]);
    assert!(!improved.is_empty());
    assert!(
        improved.iter().all(|i| validated.contains(i)),
        "{improved:?}"
    );
}
