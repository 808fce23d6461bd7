//! `arcade jumpin solve FILE`: a Jump In' position in the board format.
//! Property: an accepted position prints back to a board that parses to the
//! same position, its challenge code (when it has one) too, and a small
//! position's solution (if any) replays to a solved position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    if let Ok(position) = arcade_jumpin::parse_board(text) {
        arcade_fuzz::jumpin::check(&position);
    }
});
