//! Saving and loading long-running state as JSON, safely.
//!
//! A save writes a uniquely named temporary file in the checkpoint's own
//! directory, syncs it to disk and renames it over the checkpoint, so a run
//! killed mid-write leaves the previous checkpoint intact and no file of the
//! user's is ever overwritten but the checkpoint itself. A load reads at most
//! [`MAX_CHECKPOINT_BYTES`] and then asks the state to check itself
//! ([`Validate`]): an edited or corrupt checkpoint is an error that says what
//! is wrong, never a panic later in the run.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::{Read, Write};
use std::path::Path;
use thiserror::Error;

/// Largest checkpoint file read (a beam of 100,000 Geek fields is ~40 MB).
pub const MAX_CHECKPOINT_BYTES: u64 = 1 << 30;

#[derive(Debug, Error)]
pub enum CheckpointError {
    #[error("cannot read checkpoint {path}: {}", crate::text::io_reason(source))]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path}: checkpoint is larger than {}",
        crate::text::bytes(MAX_CHECKPOINT_BYTES)
    )]
    TooLarge { path: String },
    #[error(
        "{path}: not a checkpoint of this kind of run (another kind's, or damaged): {}",
        crate::json::json_error(source)
    )]
    Parse {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{path}: invalid checkpoint: {reason}")]
    Invalid { path: String, reason: String },
    #[error("cannot write {path}: {}", crate::text::io_reason(source))]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// State that can tell whether a loaded copy is consistent: every index in
/// range, every vector of the right length, every number finite.
pub trait Validate {
    /// `Err` with a short reason (e.g. "beam: parent 7 of field 3 is out of
    /// range (the previous beam has 5 fields)").
    fn validate(&self) -> Result<(), String>;
}

/// Writes `value` to `path` atomically (unique temporary file, fsync, rename).
pub fn save<T: Serialize>(value: &T, path: &Path) -> Result<(), CheckpointError> {
    let text = serde_json::to_vec(value).expect("checkpoint state serialises");
    write_atomic(path, &text)
}

/// Writes `bytes` to `path` so that a reader (or a kill mid-write) sees the
/// old file or the new one, never a part: a unique temporary file in the
/// same directory, fsync, then rename over `path`. A symbolic link is
/// written through (the file it names is replaced, not the link); a device
/// or other special file (`/dev/null`) is written into, since renaming over
/// it would replace the device. A new file gets mode 0644, a replaced one
/// keeps its mode (the temporary file is private until then).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    let werr = |source| CheckpointError::Write {
        path: path.display().to_string(),
        source,
    };
    let target = resolve_links(path);
    let existing = std::fs::metadata(&target).ok();
    if existing
        .as_ref()
        .is_some_and(|m| !m.is_file() && !m.is_dir())
    {
        return std::fs::write(&target, bytes).map_err(werr);
    }
    let dir = directory(&target);
    let err = |source| werr(without_temp_name(source, dir));
    let mut tmp = tempfile::Builder::new()
        .prefix(".arcade-checkpoint-")
        .suffix(".partial")
        .tempfile_in(dir)
        .map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = existing.as_ref().map_or(0o644, |m| m.permissions().mode());
        let mode = std::fs::Permissions::from_mode(mode);
        tmp.as_file().set_permissions(mode).map_err(err)?;
    }
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(&target).map_err(|e| err(e.error))?;
    // Make the rename itself durable where the platform allows it.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Reads a value saved by [`save`] and validates it.
pub fn load<T: DeserializeOwned + Validate>(path: &Path) -> Result<T, CheckpointError> {
    let name = || path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| CheckpointError::Read {
        path: name(),
        source,
    })?;
    if crate::input::says_larger(&file, MAX_CHECKPOINT_BYTES) {
        return Err(CheckpointError::TooLarge { path: name() });
    }
    let mut bytes = Vec::new();
    file.take(MAX_CHECKPOINT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| CheckpointError::Read {
            path: name(),
            source,
        })?;
    if bytes.len() as u64 > MAX_CHECKPOINT_BYTES {
        return Err(CheckpointError::TooLarge { path: name() });
    }
    let value: T = serde_json::from_slice(&bytes).map_err(|source| CheckpointError::Parse {
        path: name(),
        source,
    })?;
    value
        .validate()
        .map_err(|reason| CheckpointError::Invalid {
            path: name(),
            reason,
        })?;
    Ok(value)
}

/// Checks that `path` can be written before long work starts: its directory
/// exists and accepts a new file. Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), CheckpointError> {
    let err = |source| CheckpointError::Write {
        path: path.display().to_string(),
        source,
    };
    if path.is_dir() {
        return Err(err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        )));
    }
    // As `write_atomic` writes: through a link, into a special file.
    let target = resolve_links(path);
    if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .map(drop)
            .map_err(err);
    }
    let dir = directory(&target);
    tempfile::Builder::new()
        .prefix(".arcade-check-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| err(without_temp_name(e, dir)))
}

/// Whether `a` and `b` name one file (through links, `.` and `..`), so a
/// command can refuse to write its checkpoint over its own result.
pub fn same_file(a: &Path, b: &Path) -> bool {
    // A file not written yet is named by its directory's canonical path.
    let full = |p: &Path| {
        let p = resolve_links(p);
        if let Ok(whole) = std::fs::canonicalize(&p) {
            return whole;
        }
        match (p.file_name(), std::fs::canonicalize(directory(&p))) {
            (Some(name), Ok(dir)) => dir.join(name),
            _ => std::path::absolute(&p).unwrap_or(p),
        }
    };
    full(a) == full(b)
}

/// The file a chain of symbolic links ends at, whether or not it exists yet
/// (`canonicalize` needs it to exist); `path` itself if it is no link.
fn resolve_links(path: &Path) -> std::path::PathBuf {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&at) {
            Ok(next) => at = directory(&at).join(next),
            Err(_) => break,
        }
    }
    at
}

/// The directory `path` is in ("." for a bare file name).
fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// An error of tempfile's without the name of its temporary file, which its
/// messages carry and the user never asked for: what is wrong with `dir`.
/// Plain system errors (no such wrapping) are kept as they are.
fn without_temp_name(e: std::io::Error, dir: &Path) -> std::io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let reason = match e.kind() {
        // A directory that is there but takes no new files (/proc) says
        // "not found" too.
        std::io::ErrorKind::NotFound if dir.is_dir() => {
            format!("cannot create a file in {}", dir.display())
        }
        std::io::ErrorKind::NotFound => format!("no directory {}", dir.display()),
        kind => kind.to_string(),
    };
    std::io::Error::new(e.kind(), reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct State {
        values: Vec<u32>,
        limit: u32,
    }

    impl Validate for State {
        fn validate(&self) -> Result<(), String> {
            match self.values.iter().find(|&&v| v > self.limit) {
                Some(v) => Err(format!("value {v} is above the limit {}", self.limit)),
                None => Ok(()),
            }
        }
    }

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arcade-ck-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn round_trip_and_errors_name_the_file() {
        let dir = temp_dir("rt");
        let path = dir.join("state.json");
        let state = State {
            values: vec![1, 2, 3],
            limit: 5,
        };
        save(&state, &path).unwrap();
        assert_eq!(load::<State>(&path).unwrap(), state);
        std::fs::write(&path, "[1, 2]").unwrap();
        let err = load::<State>(&path).unwrap_err();
        assert!(matches!(err, CheckpointError::Parse { .. }));
        assert!(err.to_string().contains("state.json"));
        let missing = load::<State>(&dir.join("nope.json")).unwrap_err();
        assert!(matches!(missing, CheckpointError::Read { .. }));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file past the limit is refused from its size, before any reading:
    /// here a sparse file of 1 GiB + 1 byte that holds no data.
    #[test]
    fn a_checkpoint_past_the_limit_is_refused_from_its_size() {
        let dir = temp_dir("large");
        let path = dir.join("state.json");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_CHECKPOINT_BYTES + 1).unwrap();
        let err = load::<State>(&path).unwrap_err().to_string();
        assert!(err.ends_with("checkpoint is larger than 1 GiB"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_inconsistent_checkpoint_is_an_error_that_says_why() {
        let dir = temp_dir("invalid");
        let path = dir.join("state.json");
        std::fs::write(&path, r#"{"values": [1, 9], "limit": 5}"#).unwrap();
        let err = load::<State>(&path).unwrap_err().to_string();
        assert!(
            err.ends_with("invalid checkpoint: value 9 is above the limit 5"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A checkpoint named like the old temporary file (`x.tmp`) is saved
    /// through another file, and a user's `NAME.tmp` beside it survives.
    #[test]
    fn saving_never_writes_the_checkpoint_in_place_nor_touches_other_files() {
        let dir = temp_dir("tmpname");
        let path = dir.join("ck.tmp");
        let other = dir.join("ck.partial");
        std::fs::write(&other, "the user's file").unwrap();
        let state = State {
            values: vec![4],
            limit: 5,
        };
        save(&state, &path).unwrap();
        save(&state, &path).unwrap();
        assert_eq!(load::<State>(&path).unwrap(), state);
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "the user's file");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(
            names.len(),
            2,
            "no temporary file is left behind: {names:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_written_through_and_special_files_into() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let dir = temp_dir("links");
        let real = dir.join("real.json");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"one").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "one");
        // A new file is readable by all; a replaced one keeps its mode.
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&real), 0o644);
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&real, b"two").unwrap();
        assert_eq!(mode(&real), 0o600);
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "two");
        // /dev/null stays the device (a rename would have replaced it).
        let null = Path::new("/dev/null");
        check_writable(null).unwrap();
        write_atomic(null, b"gone").unwrap();
        assert!(
            std::fs::metadata(null)
                .unwrap()
                .file_type()
                .is_char_device()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_same_file_is_recognised_by_other_names() {
        let dir = temp_dir("same");
        let a = dir.join("a.json");
        std::fs::create_dir(dir.join("x")).unwrap();
        assert!(same_file(&a, &dir.join("x/../a.json")));
        assert!(same_file(&a, &dir.join("./a.json")));
        assert!(!same_file(&a, &dir.join("b.json")));
        std::fs::write(&a, "").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&a, dir.join("link")).unwrap();
            assert!(same_file(&dir.join("link"), &a));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writability_is_checked_before_the_work() {
        let dir = temp_dir("writable");
        assert!(check_writable(&dir.join("out.txt")).is_ok());
        let missing = dir.join("missing/out.txt");
        let message = check_writable(&missing).unwrap_err().to_string();
        let expected = format!(
            "cannot write {}: no directory {}",
            missing.display(),
            dir.join("missing").display()
        );
        assert_eq!(message, expected);
        assert!(check_writable(&dir).is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
        // /proc is there, but takes no new files: not "no directory /proc".
        if Path::new("/proc/self").is_dir() {
            let message = check_writable(Path::new("/proc/out.json"))
                .unwrap_err()
                .to_string();
            assert!(
                message.ends_with("cannot create a file in /proc"),
                "{message}"
            );
        }
    }
}
