//! The small fixed level the `tiles_clicks` target replays clicks on (the
//! clicks are read by the library's `arcade_tiles::parse_clicks`).

use arcade_tiles::{Level, Rect, Tile};

/// Twelve tiles of four types on three layers, tray of 4: small enough that
/// random clicks win, lose, fill the tray and hit covered tiles.
pub fn fixed_level() -> Level {
    let tile = |kind, layer, x, y| Tile {
        kind,
        layer,
        rect: Rect { x, y, w: 8, h: 8 },
    };
    let tiles = vec![
        tile(1, 0, 0, 0),
        tile(2, 0, 8, 0),
        tile(3, 0, 16, 0),
        tile(4, 0, 0, 8),
        tile(1, 1, 4, 4),
        tile(2, 1, 12, 4),
        tile(3, 1, 20, 4),
        tile(4, 1, 4, 12),
        tile(1, 2, 8, 8),
        tile(2, 2, 16, 8),
        tile(3, 2, 24, 8),
        tile(4, 2, 8, 16),
    ];
    Level::new(tiles, 4).expect("the fixed level is valid")
}
