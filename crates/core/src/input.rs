//! Reading a text file a user names (or standard input for `-`) with a size
//! limit, so `/dev/zero` or a huge file is an error instead of unbounded
//! memory, and the same bytes give the same error from a file or a pipe.

use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// Default limit for hand-written inputs (positions, levels, records,
/// weights, policies): far above any real one.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

#[derive(Debug, Error)]
pub enum InputError {
    #[error("cannot read {name}: {}", crate::text::io_reason(source))]
    Read {
        name: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{name} is larger than {}", crate::text::bytes(*.limit))]
    TooLarge { name: String, limit: u64 },
    #[error("{name} is not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 { name: String, offset: usize },
}

/// Longest time budget accepted (`--seconds`, Python's `seconds=`): a year.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// Most games, episodes or levels one run plays (the CLI's count options, a
/// cluster's spec): results stream into their statistics, so this bounds
/// time, not memory.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// Whether `seconds` is a time budget: finite, above 0, at most
/// [`MAX_SECONDS`]; the error says what is accepted.
pub fn check_seconds(seconds: f64) -> Result<f64, String> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(seconds)
    } else {
        Err(format!(
            "expected a number of seconds above 0 and at most {MAX_SECONDS} (a year)"
        ))
    }
}

/// Characters of a user's text quoted in an error message.
pub const QUOTE_CHARS: usize = 40;

/// `text` as an error message shows it: quoted and escaped, cut to
/// [`QUOTE_CHARS`] characters with "…" and its length when longer, so a
/// 10 MB token never becomes a 10 MB error line.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((at, _)) => format!("{:?}… ({} bytes)", &text[..at], text.len()),
        None => format!("{text:?}"),
    }
}

/// The name to show for `path`: "standard input" for `-`.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads at most `limit` bytes of UTF-8 text from `path` (`-`: standard input).
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    let name = display_name(path);
    let bytes = read_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        name,
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Reads at most `limit` bytes from `path` (`-`: standard input).
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let name = display_name(path);
    let read_err = |source| InputError::Read {
        name: name.clone(),
        source,
    };
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
    } else {
        if path.is_dir() {
            return Err(read_err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory",
            )));
        }
        let file = std::fs::File::open(path).map_err(read_err)?;
        if says_larger(&file, limit) {
            return Err(InputError::TooLarge { name, limit });
        }
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
    }
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge { name, limit });
    }
    Ok(bytes)
}

/// Whether `file` is a regular file larger than `limit`: its size is known
/// before a byte is read, so it is refused without reading it (a pipe or a
/// device is read up to the limit instead).
pub fn says_larger(file: &std::fs::File, limit: u64) -> bool {
    file.metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_cut_and_escaped() {
        assert_eq!(quote("ab\n"), "\"ab\\n\"");
        let long = "\u{7f}".repeat(10_000);
        let q = quote(&long);
        assert!(q.len() < 300 && q.ends_with("… (10000 bytes)"), "{q}");
        assert!(!q.contains('\n'));
    }

    #[test]
    fn limits_encoding_and_names() {
        let dir = std::env::temp_dir().join(format!("arcade-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = dir.join("ok.txt");
        std::fs::write(&ok, "héllo").unwrap();
        assert_eq!(read_text(&ok, 100).unwrap(), "héllo");
        assert!(matches!(
            read_text(&ok, 3),
            Err(InputError::TooLarge { limit: 3, .. })
        ));
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, b"ab\xffcd").unwrap();
        let e = read_text(&bad, 100).unwrap_err().to_string();
        assert!(
            e.ends_with("is not UTF-8 text (invalid byte at offset 2)"),
            "{e}"
        );
        let e = read_text(&dir, 100).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        assert!(read_text(&dir.join("missing"), 100).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn zero_device_is_cut_off_at_the_limit() {
        let p = Path::new("/dev/zero");
        if p.exists() {
            assert!(matches!(
                read_bytes(p, 1 << 16),
                Err(InputError::TooLarge { .. })
            ));
        }
    }
}
