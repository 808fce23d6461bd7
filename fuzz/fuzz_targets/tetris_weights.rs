//! `arcade tetris play|bench --ai FILE`: a weights file
//! (`{"features": {"holes": -7.9, ...}}`).
//! Property: accepted weights are finite and not all zero, write back to a
//! file that parses to the same weights, and play a short game (both move
//! modes, with and without preview) without panicking: the game stops at the
//! piece limit or by topping out, never with more pieces than allowed.
#![no_main]

use arcade_tetris::game::{self, End, Limits};
use arcade_tetris::{Board, MoveMode, PieceSource, Player, Randomizer, Rules, Weights};
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 16 * 1024;
const PIECES: u64 = 12;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    let Ok(weights) = Weights::parse(text, "fuzz.json") else {
        return;
    };
    assert!(weights.values.iter().all(|w| w.is_finite()), "{weights:?}");
    assert!(weights.values.iter().any(|&w| w != 0.0), "all zero");
    let written = weights.to_json(serde_json::Value::Null);
    let again = Weights::parse(&written, "again.json").expect("written weights parse");
    assert_eq!(again, weights, "write/parse round trip");

    let rules = Rules::classic();
    for (mode, preview) in [(MoveMode::Drop, false), (MoveMode::Reach, true)] {
        let mut player = Player::new(rules.clone(), weights.clone(), mode, preview);
        let mut source = PieceSource::random(Randomizer::Uniform, u64::from(data[0]));
        let board = Board::new(10, 20).expect("the standard board");
        let limits = Limits {
            max_pieces: Some(PIECES),
            max_lines: None,
        };
        let r = game::play(&mut player, board, &mut source, limits, |_| {});
        assert!(r.pieces <= PIECES, "{r:?}");
        assert!(matches!(r.end, End::PieceLimit | End::ToppedOut), "{r:?}");
        assert!(r.lines <= 4 * r.pieces, "{r:?}");
    }
});
