//! Both training methods learn, from scratch, to clear pipes, and a run with
//! an iteration budget is the same whatever the number of threads.

use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_flappy::train::{Event, Method, TrainConfig, train};
use arcade_flappy::{Agent, evaluate};

fn small(method: Method, iterations: usize) -> TrainConfig {
    let mut c = TrainConfig::new(method, 5);
    c.sizes = vec![7, 8, 2];
    c.iterations = Some(iterations);
    c.validation_episodes = 8;
    c.validation_cap = 200;
    c.validation_max_cap = 200;
    c.cem.population = 32;
    c.cem.episodes = 4;
    c.pg.batch = 8;
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
    let report = evaluate(
        &Agent::Mlp(trained.best),
        50,
        9,
        Some(200),
        &Progress::hidden(),
    );
    println!(
        "{:?}: validation {:.1}, eval mean {:.1}",
        config.method, trained.summary.best_validation, report.mean_pipes
    );
    report.mean_pipes
}

#[test]
fn cem_learns_to_clear_pipes() {
    let untrained = learn(&small(Method::Cem, 1));
    let trained = learn(&small(Method::Cem, 60));
    assert!(
        trained >= 10.0 && trained > untrained + 5.0,
        "{untrained} → {trained}"
    );
}

#[test]
fn pg_learns_to_clear_pipes() {
    let untrained = learn(&small(Method::Pg, 1));
    let mut config = small(Method::Pg, 800);
    config.pg.batch = 16;
    let trained = learn(&config);
    assert!(
        trained >= 5.0 && trained > untrained + 4.0,
        "{untrained} → {trained}"
    );
}

#[test]
fn same_seed_same_policy_whatever_the_threads() {
    for method in [Method::Cem, Method::Pg] {
        let config = small(method, 4);
        let run = |threads| {
            with_threads(Some(threads), || {
                train(&config, &Progress::hidden(), |_| {}).unwrap().best
            })
        };
        assert_eq!(run(1), run(2), "{method:?}");
    }
}
