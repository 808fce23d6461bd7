//! `arcade tiles solve|check|… LEVEL`: a Sheep a Sheep level, in the game's
//! capture format (`levelData`) or arcade's format (`tiles`).
//! Property: an accepted level respects its bounds (tile count, tray size,
//! positive tile sizes, dense type numbering); its cover graph equals the
//! pairwise geometry; written in arcade's format it loads back to the same
//! tiles and tray; greedy play never panics, and the independent replay of
//! greedy's clicks agrees with greedy on win or loss.
#![no_main]

use arcade_tiles::check::Ending;
use arcade_tiles::format::to_json;
use arcade_tiles::level::{MAX_CAPACITY, MAX_TILES};
use arcade_tiles::{load_level, play_greedy, replay};
use libfuzzer_sys::fuzz_target;

/// Keeps each run fast (the cover graph and greedy play grow with the tiles).
const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    let Ok(level) = load_level(text, None) else {
        return;
    };
    let tiles = level.tiles();
    let n = tiles.len();
    assert!(n <= MAX_TILES, "{n} tiles");
    assert!(
        (1..=MAX_CAPACITY).contains(&level.capacity()),
        "tray {}",
        level.capacity()
    );
    for (i, t) in tiles.iter().enumerate() {
        assert!(t.rect.w > 0 && t.rect.h > 0, "tile {i}: {:?}", t.rect);
        assert!(level.kind(i) < level.kinds(), "tile {i}: kind index");
        assert_eq!(level.label(level.kind(i)), t.kind, "tile {i}: label");
        let naive: Vec<u32> = (0..n)
            .filter(|&a| tiles[a].covers(t))
            .map(|a| a as u32)
            .collect();
        assert_eq!(level.covered_by(i), &naive[..], "tile {i}: covered by");
    }
    assert_eq!(level.kind_counts().iter().sum::<usize>(), n, "kind counts");

    let written = to_json(&level, &serde_json::Value::Null);
    let again = load_level(&written, None)
        .unwrap_or_else(|e| panic!("the level as written does not load: {e}\n{written}"));
    assert_eq!(again.tiles(), tiles, "tiles after a write and a load");
    assert_eq!(
        again.capacity(),
        level.capacity(),
        "tray after a write and a load"
    );

    let playout = play_greedy(&level);
    let checked = replay(&level, &playout.clicks);
    assert_eq!(
        checked.won(),
        playout.won,
        "greedy and the replay disagree: {checked:?}"
    );
    // Greedy counts the tiles taken before the tray filled; the replay also
    // counts the one whose click filled it. (A game stranded with tiles in
    // the tray took every tile in both.)
    let overflowed = usize::from(matches!(checked.ending, Ending::Lost { .. }));
    assert_eq!(
        checked.taken,
        playout.taken + overflowed,
        "tiles taken: {checked:?}"
    );
});
