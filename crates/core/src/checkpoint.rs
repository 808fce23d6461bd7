//! Saving and loading long-running state as JSON, safely: a write goes to a
//! temporary file that is then renamed, so a run killed mid-write leaves the
//! previous checkpoint intact.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CheckpointError {
    #[error("{path}: cannot read checkpoint: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a checkpoint of this kind: {source}")]
    Parse {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{path}: cannot write: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Writes `value` to `path` atomically.
pub fn save<T: Serialize>(value: &T, path: &Path) -> Result<(), CheckpointError> {
    let err = |source| CheckpointError::Write {
        path: path.display().to_string(),
        source,
    };
    let tmp = path.with_extension("tmp");
    let text = serde_json::to_string(value).expect("checkpoint state serialises");
    std::fs::write(&tmp, text).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

/// Reads a value saved by [`save`].
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<T, CheckpointError> {
    let text = std::fs::read_to_string(path).map_err(|source| CheckpointError::Read {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| CheckpointError::Parse {
        path: path.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("arcade-ck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        save(&vec![1u32, 2, 3], &path).unwrap();
        assert_eq!(load::<Vec<u32>>(&path).unwrap(), vec![1, 2, 3]);
        let err = load::<String>(&path).unwrap_err();
        assert!(matches!(err, CheckpointError::Parse { .. }));
        assert!(err.to_string().contains("state.json"));
        let missing = load::<String>(&dir.join("nope.json")).unwrap_err();
        assert!(matches!(missing, CheckpointError::Read { .. }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
