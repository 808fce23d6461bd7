//! Edited or corrupt checkpoints are errors that say what is wrong, never
//! panics (issue 30 item 6). The fixtures are the reproducers of the issue.

use arcade_core::checkpoint::{self, CheckpointError, Validate};
use arcade_core::progress::Progress;
use arcade_core::rng::Rng;
use arcade_tetris::geek::search::{Search, SearchConfig};
use arcade_tetris::geek::tune::{GeekTune, GeekTuneSetup};
use arcade_tetris::geek::value::GeekWeights;
use arcade_tetris::geek::{self, PIECES, sequence};
use arcade_tetris::tune::{self, Checkpoint, Method, Start, TuneSetup};
use arcade_tetris::{MoveMode, Randomizer, Rules};
use serde_json::Value;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    assert!(path.exists(), "missing fixture {}", path.display());
    path
}

fn invalid_reason(err: CheckpointError) -> String {
    match err {
        CheckpointError::Invalid { reason, .. } => reason,
        other => panic!("expected an invalid checkpoint, got: {other}"),
    }
}

#[test]
fn the_reproducers_are_rejected_with_the_reason() {
    let empty = Search::load(&fixture("geek-solve-resume-empty-beam.json")).unwrap_err();
    let oob = Search::load(&fixture("geek-solve-resume-parent-oob.json")).unwrap_err();
    let height = Checkpoint::load(&fixture("tetris-tune-resume-height.checkpoint.json"));
    let mean = GeekTune::load(&fixture("geek-tune-resume-short-mean.checkpoint.json"));
    let search_reason = |e| match e {
        arcade_tetris::geek::search::SearchError::Checkpoint(c) => invalid_reason(c),
        other => panic!("{other}"),
    };
    assert!(search_reason(empty).contains("the beam is empty"));
    let oob = search_reason(oob);
    assert!(
        oob.contains("parent") && oob.contains("out of range"),
        "{oob}"
    );
    let height = invalid_reason(height.unwrap_err());
    assert!(height.contains("board height 4294967296"), "{height}");
    let mean = invalid_reason(mean.unwrap_err());
    assert!(mean.contains("mean has"), "{mean}");
}

fn leaves(v: &Value, path: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, v)| leaves(v, format!("{path}/{k}"), out)),
        Value::Array(a) if !a.is_empty() => {
            out.push(path.clone());
            a.iter()
                .enumerate()
                .for_each(|(i, v)| leaves(v, format!("{path}/{i}"), out));
        }
        _ => out.push(path),
    }
}

/// Mutates one value of `state` at random: a number, a string, a truncated
/// array.
fn mutate(state: &Value, rng: &mut Rng) -> Value {
    let mut all = Vec::new();
    leaves(state, String::new(), &mut all);
    let mut edited = state.clone();
    let slot = edited.pointer_mut(&all[rng.index(all.len())]).unwrap();
    *slot = match (rng.index(7), slot.clone()) {
        (0, _) => serde_json::json!(rng.normal() * 1e3),
        (1, _) => serde_json::json!(rng.below(40)),
        (2, _) => serde_json::json!("-inf"),
        (3, _) => serde_json::json!(u64::MAX),
        (4, Value::Array(mut a)) => {
            a.truncate(rng.index(a.len().max(1)));
            Value::Array(a)
        }
        (5, Value::Array(mut a)) if !a.is_empty() => {
            let x = a[rng.index(a.len())].clone();
            a.push(x);
            Value::Array(a)
        }
        _ => serde_json::json!(-1),
    };
    edited
}

/// Loads `edited` through the checkpoint loader; `None` when rejected.
fn load<T: serde::de::DeserializeOwned + Validate>(edited: &Value, name: &str) -> Option<T> {
    let path = std::env::temp_dir().join(format!("arcade-fuzz-{}-{name}", std::process::id()));
    std::fs::write(&path, serde_json::to_vec(edited).unwrap()).unwrap();
    let loaded = checkpoint::load::<T>(&path).ok();
    std::fs::remove_file(&path).unwrap();
    loaded
}

/// Hundreds of random edits of a valid checkpoint of each kind: loading
/// never panics, and every accepted checkpoint runs a step (settings that
/// only make the step slow are cut down first).
#[test]
fn mutated_checkpoints_load_or_fail_cleanly_and_accepted_ones_run() {
    let mut rng = Rng::new(30);
    let geek = Rules::geek();
    let classic = Rules::classic();
    let pieces = sequence(PIECES);

    let mut search = Search::new(SearchConfig {
        beam: 4,
        mode: MoveMode::Drop,
        float: false,
        pieces: 40,
        weights: GeekWeights::builtin(),
        reserve: 2,
    });
    for _ in 0..12 {
        search.step(&geek, &pieces);
    }
    let search = serde_json::to_value(&search).unwrap();

    let setup = TuneSetup {
        features: tune::feature_preset("dellacherie").unwrap(),
        width: 6,
        height: 6,
        games_per_eval: 2,
        line_cap: Some(20),
        mode: MoveMode::Drop,
        randomizer: Randomizer::Uniform,
    };
    let mut tetris = Vec::new();
    for method in [Method::Cem, Method::De, Method::Pso] {
        let start = Start {
            method,
            init: vec![-1.0; 6],
            spread: 2.0,
            population: Some(6),
            noise: None,
            seed: 1,
        };
        let mut run = Checkpoint::new(setup.clone(), &start, 3).unwrap();
        tune::step(&mut run, &classic, &Progress::hidden());
        tetris.push(serde_json::to_value(&run).unwrap());
    }

    let geek_setup = GeekTuneSetup {
        beams: vec![2],
        pieces: 20,
        mode: MoveMode::Drop,
        float: false,
        base: GeekWeights::builtin(),
        reserve: 1,
    };
    let geek_start = geek::tune::start(&geek_setup, Method::Cem, 0.3, Some(4), 1, 3);
    let mut geek_tune = GeekTune::new(geek_setup, &geek_start, 3).unwrap();
    geek::tune::step(&mut geek_tune, &geek, &Progress::hidden());
    let geek_tune = serde_json::to_value(&geek_tune).unwrap();

    let (mut accepted, mut rejected) = (0, 0);
    let mut count = |ok: bool| if ok { accepted += 1 } else { rejected += 1 };
    for _ in 0..300 {
        if let Some(mut s) = load::<Search>(&mutate(&search, &mut rng), "search") {
            count(true);
            s.config.pieces = s.config.pieces.min(s.depth() + 1);
            s.config.beam = s.config.beam.min(8);
            let _ = s.best();
            if !s.is_done() {
                s.step(&geek, &pieces);
            }
        } else {
            count(false);
        }
    }
    for state in &tetris {
        for _ in 0..100 {
            if let Some(mut run) = load::<Checkpoint>(&mutate(state, &mut rng), "tune") {
                count(true);
                run.setup.line_cap = Some(20);
                run.setup.games_per_eval = run.setup.games_per_eval.min(2);
                tune::step(&mut run, &classic, &Progress::hidden());
                let _ = tune::recommended(&run, "x");
            } else {
                count(false);
            }
        }
    }
    for _ in 0..150 {
        if let Some(mut run) = load::<GeekTune>(&mutate(&geek_tune, &mut rng), "geek-tune") {
            count(true);
            run.setup.beams.iter_mut().for_each(|b| *b = (*b).min(2));
            run.setup.pieces = run.setup.pieces.min(20);
            geek::tune::step(&mut run, &geek, &Progress::hidden());
            let _ = geek::tune::best(&run);
        } else {
            count(false);
        }
    }
    assert!(
        accepted > 100 && rejected > 100,
        "{accepted} accepted, {rejected} rejected"
    );
}
