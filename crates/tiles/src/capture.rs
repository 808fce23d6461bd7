//! The game's level JSON, as captured from Sheep a Sheep (羊了个羊).
//!
//! `levelData` maps a layer number (as a string) to its blocks; a block has
//! `type`, `rolNum` (x), `rowNum` (y), `layerNum` and `moldType`, and is
//! [`BLOCK`]×[`BLOCK`] units. `moldType` 1 blocks lie on the board; `moldType`
//! 2 blocks are the side piles, each layer shifted by one unit, and follow the
//! same covering rule. Other keys (`blockNode`, `id`, …) are ignored. Tile ids
//! follow the layers in increasing order and the blocks in file order.

use crate::level::{DEFAULT_CAPACITY, Level, Rect, Tile};
use crate::load::{LoadError, level_error, parse_with_path};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A real level as the game serves it: level 90031, 255 tiles of 14 types
/// (`data/sheep/capture-level-90031.json`).
pub const LEVEL_90031: &str = include_str!("../../../data/sheep/capture-level-90031.json");

/// Width and height of a block in game units.
pub const BLOCK: i32 = 8;

#[derive(Deserialize)]
struct Capture {
    #[serde(rename = "levelData")]
    level_data: BTreeMap<String, Vec<Block>>,
}

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: u32,
    #[serde(rename = "rolNum")]
    x: i32,
    #[serde(rename = "rowNum")]
    y: i32,
    #[serde(rename = "layerNum")]
    layer: i32,
    #[serde(rename = "moldType")]
    mold: u32,
}

/// Parses a capture of the game; the tray holds `capacity` tiles (default 7).
pub fn parse_capture(text: &str, capacity: Option<usize>) -> Result<Level, LoadError> {
    let capture: Capture = parse_with_path(text)?;
    let mut layers = Vec::with_capacity(capture.level_data.len());
    for (key, blocks) in &capture.level_data {
        let number: i32 = key.parse().map_err(|_| {
            LoadError::new(
                format!("levelData.{key}"),
                "layer keys must be integers".to_string(),
            )
        })?;
        layers.push((number, key, blocks));
    }
    layers.sort_by_key(|&(number, _, _)| number);
    let mut tiles = Vec::new();
    let mut paths = Vec::new();
    for (number, key, blocks) in layers {
        for (i, b) in blocks.iter().enumerate() {
            let path = format!("levelData.{key}[{i}]");
            if b.layer != number {
                return Err(LoadError::new(
                    format!("{path}.layerNum"),
                    format!(
                        "block says layer {} but is listed under layer {number}",
                        b.layer
                    ),
                ));
            }
            if !matches!(b.mold, 1 | 2) {
                return Err(LoadError::new(
                    format!("{path}.moldType"),
                    format!("expected 1 (board) or 2 (side pile), got {}", b.mold),
                ));
            }
            tiles.push(Tile {
                kind: b.kind,
                layer: b.layer,
                rect: Rect {
                    x: b.x,
                    y: b.y,
                    w: BLOCK,
                    h: BLOCK,
                },
            });
            paths.push(path);
        }
    }
    Level::new(tiles, capacity.unwrap_or(DEFAULT_CAPACITY))
        .map_err(|e| level_error(e, |i| paths[i].clone(), "capacity"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> LoadError {
        parse_capture(text, None).unwrap_err()
    }

    #[test]
    fn reads_blocks_in_layer_order_with_side_piles() {
        // Layer "10" sorts after "2" numerically.
        let text = r#"{"levelData":{
            "10":[{"type":3,"rolNum":1,"rowNum":64,"layerNum":10,"moldType":2,"blockNode":null}],
            "2":[{"type":3,"rolNum":0,"rowNum":64,"layerNum":2,"moldType":2},
                 {"type":4,"rolNum":16,"rowNum":0,"layerNum":2,"moldType":1}]}}"#;
        let level = parse_capture(text, None).unwrap();
        assert_eq!(level.len(), 3);
        assert_eq!(level.tiles()[0].layer, 2);
        assert_eq!(level.tiles()[2].layer, 10);
        assert_eq!(level.tiles()[2].rect.w, BLOCK);
        // The pile block one unit to the right covers the one below it.
        assert_eq!(level.covered_by(0), &[2]);
        assert!(level.covered_by(1).is_empty());
    }

    #[test]
    fn errors_name_the_json_path() {
        let e = err(
            r#"{"levelData":{"3":[{"type":1,"rolNum":0,"rowNum":"a","layerNum":3,"moldType":1}]}}"#,
        );
        assert_eq!(e.path, "levelData.3[0].rowNum");
        let e = err(
            r#"{"levelData":{"3":[{"type":1,"rolNum":0,"rowNum":0,"layerNum":4,"moldType":1}]}}"#,
        );
        assert_eq!(e.path, "levelData.3[0].layerNum");
        let e = err(
            r#"{"levelData":{"3":[{"type":1,"rolNum":0,"rowNum":0,"layerNum":3,"moldType":7}]}}"#,
        );
        assert_eq!(e.path, "levelData.3[0].moldType");
        let e = err(r#"{"levelData":{"top":[]}}"#);
        assert_eq!(e.path, "levelData.top");
        let e = err(r#"{"levelData":{"1":[{"type":1,"rolNum":0,"rowNum":0,"layerNum":1}]}}"#);
        assert_eq!(e.path, "levelData.1[0]");
        assert!(e.message.contains("moldType"), "{e}");
    }
}
