//! Reading levels from JSON: the game's own capture format and arcade's
//! format, told apart by their keys. Every error names the JSON path of the
//! offending field (`tiles[3].layer`, `levelData.5[2].rolNum`).

use crate::capture::parse_capture;
use crate::format::parse_arcade;
use crate::level::{Level, LevelError};

/// A level file that could not be read, with where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", located(path))]
pub struct LoadError {
    /// JSON path of the bad field (`.` for the whole document).
    pub path: String,
    pub message: String,
}

/// `path: `, or nothing for the whole document (a bare `.` reads as noise).
fn located(path: &str) -> String {
    if path == "." {
        String::new()
    } else {
        format!("{path}: ")
    }
}

impl LoadError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Parses `text` with serde, reporting the path of the first bad field.
pub(crate) fn parse_with_path<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, LoadError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let (path, message) = arcade_core::json::path_error(e);
        LoadError::new(path.unwrap_or_else(|| ".".into()), message)
    })?;
    de.end()
        .map_err(|e| LoadError::new(".", arcade_core::json::json_error(&e)))?;
    Ok(value)
}

/// Turns a [`LevelError`] into a path-bearing error, given the path of each
/// tile and of the capacity field.
pub(crate) fn level_error(
    e: LevelError,
    tile_path: impl Fn(usize) -> String,
    capacity_path: &str,
) -> LoadError {
    let message = e.to_string();
    match e {
        LevelError::Capacity(_) => LoadError::new(capacity_path, message),
        LevelError::TooManyTiles(_) | LevelError::TooManyCovers => LoadError::new(".", message),
        LevelError::Size { tile, w, .. } => {
            let field = if w <= 0 { "w" } else { "h" };
            LoadError::new(format!("{}.{field}", tile_path(tile)), message)
        }
    }
}

/// Reads a level in either format: a capture of the game (it has
/// `levelData`) or arcade's format (it has `tiles`). `capacity` overrides
/// the tray size (the capture format has none; arcade's defaults to 7).
pub fn load_level(text: &str, capacity: Option<usize>) -> Result<Level, LoadError> {
    // A byte-order mark, as some Windows editors save JSON, is not JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        let why = arcade_core::json::json_error(&e);
        LoadError::new(".", format!("not JSON: {why}"))
    })?;
    let Some(object) = value.as_object() else {
        return Err(LoadError::new(".", "expected a JSON object"));
    };
    if object.contains_key("levelData") {
        parse_capture(text, capacity)
    } else if object.contains_key("tiles") {
        parse_arcade(text, capacity).map(|file| file.level)
    } else {
        Err(LoadError::new(
            ".",
            "not a level: expected \"tiles\" (arcade format) or \"levelData\" (a capture of the game)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_formats_apart_and_rejects_others() {
        let arcade =
            r#"{"format":"arcade-tiles","version":1,"tiles":[{"type":1,"layer":0,"x":0,"y":0}]}"#;
        assert_eq!(load_level(arcade, None).unwrap().len(), 1);
        let capture =
            r#"{"levelData":{"1":[{"type":2,"rolNum":0,"rowNum":0,"layerNum":1,"moldType":1}]}}"#;
        assert_eq!(load_level(capture, None).unwrap().len(), 1);
        assert_eq!(load_level("[1]", None).unwrap_err().path, ".");
        assert!(
            load_level("{\"x\":1}", None)
                .unwrap_err()
                .message
                .contains("not a level")
        );
        let syntax = load_level("{\"tiles\": [", None).unwrap_err();
        assert!(syntax.message.contains("line 1"), "{syntax}");
    }

    #[test]
    fn names_the_field_but_not_the_whole_document() {
        let prose = load_level("Sheep a Sheep", None).unwrap_err();
        assert_eq!(
            prose.to_string(),
            "not JSON: line 1, column 1: expected a value"
        );
        let field = load_level(r#"{"tiles": 5}"#, None).unwrap_err();
        assert!(
            field.to_string() == "tiles: expected a list, found 5",
            "{field}"
        );
    }
}
