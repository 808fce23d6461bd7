//! `--resume` of `arcade tetris tune`, `geek solve` and `geek tune`: the
//! three checkpoint types, each tried on the same JSON text.
//! Property: a checkpoint that deserialises and passes
//! `Validate::validate` can be used: one more step of the run (on the
//! checkpoint's own settings when they are tiny; bigger ones are skipped to
//! keep runs fast) never panics, and what it reports stays consistent.
#![no_main]

use arcade_core::checkpoint::Validate;
use arcade_core::progress::Progress;
use arcade_tetris::Rules;
use arcade_tetris::geek::search::{Search, record};
use arcade_tetris::geek::tune::{self as geek_tuning, GeekTune};
use arcade_tetris::geek::{PIECES, sequence};
use arcade_tetris::tune::{self, Checkpoint};
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 64 * 1024;

/// The Tetris tuner: one generation, games capped at a few lines.
fn tetris_tune(mut ck: Checkpoint) {
    // No `is_done` check: `--resume --generations N` extends a finished run.
    if ck.optimizer.evaluations_per_generation() > 64 || ck.setup.games_per_eval > 4 {
        return;
    }
    ck.setup.line_cap = Some(ck.setup.line_cap.unwrap_or(10).min(10));
    let before = ck.history.len();
    let g = tune::step(&mut ck, &Rules::classic(), &Progress::hidden());
    assert_eq!(ck.history.len(), before + 1, "one generation recorded");
    assert!(!g.best.is_nan() && !g.mean.is_nan(), "{g:?}");
    let _ = tune::recommended(&ck, "fuzz");
}

/// The Geek beam search: one piece, then the best game as a record.
fn geek_search(mut search: Search) {
    if search.is_done() || search.config.beam > 64 || search.config.reserve > 64 {
        return;
    }
    let depth = search.depth();
    search.step(&Rules::geek(), &sequence(PIECES));
    assert!(
        search.depth() == depth + 1 || search.is_done(),
        "one piece placed"
    );
    let best = search.best();
    assert!(
        best.placements.len() <= search.depth(),
        "one placement per piece"
    );
    // An edited score may not replay (an error, not a panic).
    let _ = record(&best);
}

/// The Geek tuner: one generation of narrow, short searches.
fn geek_tune(mut tune: GeekTune) {
    if tune.optimizer.evaluations_per_generation() > 8
        || tune.setup.beams.iter().sum::<usize>() > 8
        || tune.setup.reserve > 8
        || tune.setup.pieces > 64
    {
        return;
    }
    let before = tune.history.len();
    geek_tuning::step(&mut tune, &Rules::geek(), &Progress::hidden());
    assert_eq!(tune.history.len(), before + 1, "one generation recorded");
    let _ = geek_tuning::best(&tune);
}

fn accepted<T: serde::de::DeserializeOwned + Validate>(text: &str) -> Option<T> {
    let value: T = serde_json::from_str(text).ok()?;
    value.validate().ok()?;
    Some(value)
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    if let Some(ck) = accepted::<Checkpoint>(text) {
        tetris_tune(ck);
    }
    if let Some(search) = accepted::<Search>(text) {
        geek_search(search);
    }
    if let Some(tune) = accepted::<GeekTune>(text) {
        geek_tune(tune);
    }
});
