//! Writes the seed corpus of the `checkpoints` target: one tiny, valid
//! checkpoint of each kind, a step or two into its run (so the optimizer
//! state and the beam's parent links are not empty).
//!
//! `cargo run --example make_seeds` (from `fuzz/`).

use arcade_core::progress::Progress;
use arcade_tetris::geek::search::{Search, SearchConfig};
use arcade_tetris::geek::tune::{self as geek_tuning, GeekTune, GeekTuneSetup};
use arcade_tetris::geek::value::GeekWeights;
use arcade_tetris::geek::{PIECES, sequence};
use arcade_tetris::tune::{Checkpoint, Method, Start, TuneSetup, feature_preset};
use arcade_tetris::{MoveMode, Randomizer, Rules};
use std::path::Path;

fn write(name: &str, json: String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/checkpoints");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), json).unwrap();
}

fn main() {
    let hidden = Progress::hidden();
    for (method, population) in [(Method::Cem, 6), (Method::De, 4), (Method::Pso, 4)] {
        let setup = TuneSetup {
            features: feature_preset("dellacherie").unwrap(),
            width: 6,
            height: 8,
            games_per_eval: 1,
            line_cap: Some(5),
            mode: MoveMode::Drop,
            randomizer: Randomizer::Uniform,
        };
        let start = Start {
            method,
            init: vec![0.0; 6],
            spread: 2.0,
            population: Some(population),
            noise: None,
            seed: 1,
        };
        let mut ck = Checkpoint::new(setup, &start, 3).unwrap();
        arcade_tetris::tune::step(&mut ck, &Rules::classic(), &hidden);
        write(
            &format!("tetris-tune-{}.json", method.as_str()),
            serde_json::to_string(&ck).unwrap(),
        );
    }

    let mut search = Search::new(SearchConfig {
        beam: 3,
        mode: MoveMode::Drop,
        float: false,
        pieces: 6,
        weights: GeekWeights::builtin(),
        reserve: 1,
    });
    let pieces = sequence(PIECES);
    for _ in 0..3 {
        search.step(&Rules::geek(), &pieces);
    }
    write("geek-search.json", serde_json::to_string(&search).unwrap());

    let setup = GeekTuneSetup {
        beams: vec![2],
        pieces: 8,
        mode: MoveMode::Drop,
        float: false,
        base: GeekWeights::builtin(),
        reserve: 1,
    };
    let start = geek_tuning::start(&setup, Method::Cem, 0.5, Some(3), 2, 3);
    let mut tune = GeekTune::new(setup, &start, 3).unwrap();
    geek_tuning::step(&mut tune, &Rules::geek(), &hidden);
    write("geek-tune-cem.json", serde_json::to_string(&tune).unwrap());
}
