//! Stand-in for the click-file reader of `arcade tiles check`
//! (`parse_clicks` in `crates/cli/src/tiles.rs`), and the small fixed level
//! the clicks are replayed on.

use arcade_tiles::{Level, Rect, Tile};
use serde_json::Value;

/// Tile ids from a JSON list, a JSON object with "clicks", or plain numbers.
pub fn parse_clicks(text: &str) -> Result<Vec<usize>, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let list = match &value {
            Value::Object(o) => o
                .get("clicks")
                .or_else(|| o.get("meta").and_then(|m| m.get("intended")))
                .ok_or(
                    "expected \"clicks\" (solve's output) or \"meta.intended\" (a generated level)",
                )?,
            v => v,
        };
        let items = list.as_array().ok_or("\"clicks\" must be a list")?;
        return items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_u64()
                    .map(|n| n as usize)
                    .ok_or(format!("clicks[{i}]: expected a tile id, got {v}"))
            })
            .collect();
    }
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, s)| {
            s.parse()
                .map_err(|_| format!("click {}: expected a tile id, got {s:?}", i + 1))
        })
        .collect()
}

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
