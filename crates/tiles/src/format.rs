//! arcade's level format: a JSON object with the tray size and a list of
//! tiles (the tile id is its index in the list).
//!
//! ```json
//! {
//!   "format": "arcade-tiles",
//!   "version": 1,
//!   "capacity": 7,
//!   "meta": {"generator": "construct", "seed": 1},
//!   "tiles": [
//!     {"type": 1, "layer": 0, "x": 0, "y": 0, "w": 8, "h": 8},
//!     {"type": 2, "layer": 1, "x": 4, "y": 4}
//!   ]
//! }
//! ```
//!
//! `format`, `version`, `capacity` (default 7), `meta` (free-form, kept for
//! provenance) and each tile's `w` and `h` (default 8) are optional.

use crate::level::{DEFAULT_CAPACITY, Level, Rect, Tile};
use crate::load::{LoadError, level_error, parse_with_path};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The value of the `format` key.
pub const FORMAT: &str = "arcade-tiles";
/// The only version written and read.
pub const VERSION: u32 = 1;

fn default_side() -> i32 {
    8
}

/// One tile as stored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TileRecord {
    #[serde(rename = "type")]
    kind: u32,
    layer: i32,
    x: i32,
    y: i32,
    #[serde(default = "default_side")]
    w: i32,
    #[serde(default = "default_side")]
    h: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRecord {
    format: Option<String>,
    version: Option<u32>,
    capacity: Option<usize>,
    #[serde(default)]
    meta: serde_json::Value,
    tiles: Vec<TileRecord>,
}

/// A level read from arcade's format, with its `meta` object.
#[derive(Clone, Debug)]
pub struct LevelFile {
    pub level: Level,
    pub meta: serde_json::Value,
}

/// Parses arcade's format; `capacity` overrides the file's tray size.
pub fn parse_arcade(text: &str, capacity: Option<usize>) -> Result<LevelFile, LoadError> {
    let file: FileRecord = parse_with_path(text)?;
    if let Some(format) = &file.format
        && format != FORMAT
    {
        return Err(LoadError::new(
            "format",
            format!("expected \"{FORMAT}\", got \"{format}\""),
        ));
    }
    if let Some(version) = file.version
        && version != VERSION
    {
        return Err(LoadError::new(
            "version",
            format!("only version {VERSION} is supported, got {version}"),
        ));
    }
    let tiles = file
        .tiles
        .iter()
        .map(|t| Tile {
            kind: t.kind,
            layer: t.layer,
            rect: Rect {
                x: t.x,
                y: t.y,
                w: t.w,
                h: t.h,
            },
        })
        .collect();
    let capacity = capacity.or(file.capacity).unwrap_or(DEFAULT_CAPACITY);
    let level = Level::new(tiles, capacity)
        .map_err(|e| level_error(e, |i| format!("tiles[{i}]"), "capacity"))?;
    Ok(LevelFile {
        level,
        meta: file.meta,
    })
}

/// Writes `level` in arcade's format, one tile per line.
pub fn to_json(level: &Level, meta: &serde_json::Value) -> String {
    let mut out = String::new();
    out.push_str("{\n");
    let _ = writeln!(out, "  \"format\": \"{FORMAT}\",");
    let _ = writeln!(out, "  \"version\": {VERSION},");
    let _ = writeln!(out, "  \"capacity\": {},", level.capacity());
    if !meta.is_null() {
        let _ = writeln!(out, "  \"meta\": {meta},");
    }
    out.push_str("  \"tiles\": [");
    for (i, t) in level.tiles().iter().enumerate() {
        let record = TileRecord {
            kind: t.kind,
            layer: t.layer,
            x: t.rect.x,
            y: t.rect.y,
            w: t.rect.w,
            h: t.rect.h,
        };
        let json = serde_json::to_string(&record).expect("plain struct");
        let _ = write!(out, "{}\n    {json}", if i == 0 { "" } else { "," });
    }
    out.push_str(if level.is_empty() {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::tests::arb_tiles;
    use proptest::prelude::*;

    fn err(text: &str) -> LoadError {
        parse_arcade(text, None).unwrap_err()
    }

    #[test]
    fn errors_name_the_json_path() {
        let e = err(
            r#"{"tiles":[{"type":1,"layer":0,"x":0,"y":0},{"type":1,"layer":"top","x":0,"y":0}]}"#,
        );
        assert_eq!(e.path, "tiles[1].layer");
        assert_eq!(e.message, "expected a whole number, found \"top\"", "{e}");
        let e = err(r#"{"tiles":[{"type":1,"layer":0,"x":0,"y":0,"colour":3}]}"#);
        assert_eq!(e.path, "tiles[0].colour");
        let e = err(r#"{"tiles":[{"type":1,"layer":0,"x":0}]}"#);
        assert_eq!(e.path, "tiles[0]");
        assert_eq!(e.message, "missing key \"y\"", "{e}");
        let e = err(r#"{"tiles":[{"type":1,"layer":0,"x":0,"y":0,"h":-8}]}"#);
        assert_eq!(e.path, "tiles[0].h");
        assert_eq!(err(r#"{"capacity":0,"tiles":[]}"#).path, "capacity");
        assert_eq!(err(r#"{"version":2,"tiles":[]}"#).path, "version");
        assert_eq!(err(r#"{"format":"other","tiles":[]}"#).path, "format");
        assert_eq!(err(r#"{"tiles":[]} x"#).path, ".");
    }

    #[test]
    fn capacity_defaults_to_seven_and_can_be_overridden() {
        let text = r#"{"tiles":[]}"#;
        assert_eq!(parse_arcade(text, None).unwrap().level.capacity(), 7);
        assert_eq!(parse_arcade(text, Some(4)).unwrap().level.capacity(), 4);
    }

    proptest! {
        #[test]
        fn writing_then_reading_gives_the_same_level(tiles in arb_tiles(20, 5), cap in 3usize..10) {
            let level = Level::new(tiles, cap).unwrap();
            let meta = serde_json::json!({"seed": 3});
            let back = parse_arcade(&to_json(&level, &meta), None).unwrap();
            prop_assert_eq!(back.level.tiles(), level.tiles());
            prop_assert_eq!(back.level.capacity(), cap);
            prop_assert_eq!(back.meta, meta);
        }

        /// Arbitrary bytes never panic the loader.
        #[test]
        fn garbage_is_an_error_not_a_panic(text in ".{0,200}") {
            let _ = crate::load::load_level(&text, None);
        }
    }
}
