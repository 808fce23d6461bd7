//! `arcade tiles check LEVEL CLICKS`: a click file (JSON list, solve's
//! output, a generated level's `meta.intended`, or plain numbers), replayed
//! on a small fixed level.
//! Property: accepted clicks print back as plain numbers that read the same;
//! the independent replay (`arcade_tiles::replay`) never panics and agrees,
//! click by click, with the game engine (`arcade_tiles::Board`): the same
//! first refused click, the same loss, the same tray at the end.
#![no_main]

use arcade_fuzz::tiles_clicks::fixed_level;
use arcade_tiles::check::{Ending, Illegal};
use arcade_tiles::parse_clicks;
use arcade_tiles::{Board, Click, replay};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    static LEVEL: OnceLock<arcade_tiles::Level> = OnceLock::new();
    let level = LEVEL.get_or_init(fixed_level);
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    let Ok(clicks) = parse_clicks(text) else {
        return;
    };
    let plain: Vec<String> = clicks.iter().map(usize::to_string).collect();
    assert_eq!(
        parse_clicks(&plain.join(" ")).ok(),
        Some(clicks.clone()),
        "plain round trip"
    );

    let r = replay(level, &clicks);
    assert!(r.clicks <= clicks.len() && r.taken <= level.len(), "{r:?}");
    let mut board = Board::new(level);
    let mut gone = vec![false; level.len()];
    for (at, &tile) in clicks.iter().enumerate() {
        let refused = if tile >= level.len() {
            Some(Illegal::NoSuchTile)
        } else if gone[tile] {
            Some(Illegal::AlreadyTaken)
        } else if !board.is_free(tile) {
            None // covered: the replay names the coverer
        } else {
            gone[tile] = true;
            if board.take(tile) == Click::Overflow {
                assert_eq!(
                    r.ending,
                    Ending::Lost { at },
                    "the engine's tray overflows at {at}"
                );
                return;
            }
            continue;
        };
        match (&r.ending, refused) {
            (
                Ending::Illegal {
                    at: a,
                    tile: t,
                    why,
                },
                Some(expected),
            ) => {
                assert_eq!((*a, *t, why), (at, tile, &expected), "refused click");
            }
            (
                Ending::Illegal {
                    at: a,
                    tile: t,
                    why: Illegal::Covered { by },
                },
                None,
            ) => {
                assert_eq!((*a, *t), (at, tile), "covered click");
                assert!(
                    !gone[*by] && level.tiles()[*by].covers(&level.tiles()[tile]),
                    "coverer"
                );
            }
            (other, _) => {
                panic!("click {at} (tile {tile}) is refused by the engine, replay: {other:?}")
            }
        }
        return;
    }
    assert_eq!(r.clicks, clicks.len(), "every click was legal");
    assert_eq!(r.won(), board.is_won(), "won");
    assert_eq!(r.tray.len(), board.tray_len(), "tray length");
});
