//! `arcade jumpin solve --code CODE`: a Jump In' challenge code.
//! Property: as for `jumpin_board`: an accepted position round-trips through
//! its board text and its code, and a small one solves to a solved position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    if let Ok(position) = arcade_jumpin::parse_code(text) {
        arcade_fuzz::jumpin::check(&position);
    }
});
