//! Wording shared by the text reports.

use std::fmt::Display;

/// The closest candidate within a small edit distance, for "did you mean".
pub fn closest(
    name: &str,
    candidates: impl IntoIterator<Item = &'static str>,
) -> Option<&'static str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|&(d, c)| d <= 2.max(c.len() / 4))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// " (did you mean "x"?)" after an unknown name, or nothing without a
/// suggestion.
pub fn hint(suggestion: Option<&str>) -> String {
    suggestion
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default()
}

/// [`hint`] for the [`closest`] of `candidates` to `name`.
pub fn did_you_mean(name: &str, candidates: impl IntoIterator<Item = &'static str>) -> String {
    hint(closest(name, candidates))
}

/// `n` and `noun`, plural unless `n` is 1: "1 game", "0 games", "2 games",
/// "2 passes". For the counts a user chooses (`--games 1`), which read
/// "1 games" before.
pub fn counted(n: impl Display, noun: &str) -> String {
    let n = n.to_string();
    let plural = if noun.ends_with('s') || noun.ends_with('x') || noun.ends_with("ch") {
        "es"
    } else {
        "s"
    };
    let s = if n == "1" { "" } else { plural };
    format!("{n} {noun}{s}")
}

/// A size limit as people write it: "64 MiB", "1 GiB", "512 KiB" when `n`
/// is a whole number of them, else "1000 bytes".
pub fn bytes(n: u64) -> String {
    for (unit, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] {
        if n >= unit && n.is_multiple_of(unit) {
            return format!("{} {name}", n / unit);
        }
    }
    counted(n, "byte")
}

/// An I/O error as a user reads it: its reason without the system's error
/// number, in lower case ("no such file or directory", not "No such file
/// or directory (os error 2)").
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    let reason = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => &text,
    };
    let mut chars = reason.chars();
    match (chars.next(), chars.next()) {
        // "No such file", but not an acronym ("EOF").
        (Some(first), Some(second)) if !second.is_uppercase() => first
            .to_lowercase()
            .chain(reason[first.len_utf8()..].chars())
            .collect(),
        _ => reason.to_string(),
    }
}

/// A number a user gave, as an error message quotes it: as written when it
/// is of everyday size, as `1e300` or `1e-300` when plain digits would run to
/// hundreds, and `nan` / `inf` as Python prints them.
pub fn number(x: f64) -> String {
    let everyday = x == 0.0 || (1e-4..1e6).contains(&x.abs());
    match () {
        _ if x.is_nan() => "nan".to_string(),
        _ if everyday || x.is_infinite() => x.to_string(),
        _ => format!("{x:e}"),
    }
}

/// A short time as people read it: "0.21 ms" below a hundredth of a
/// second (where "0.000 s" said nothing), else "1.234 s".
pub fn seconds(s: f64) -> String {
    match s < 0.01 {
        true => format!("{:.2} ms", s * 1e3),
        false => format!("{s:.3} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::{bytes, counted, io_reason, number, seconds};

    #[test]
    fn numbers_read_as_written_and_never_run_to_hundreds_of_digits() {
        for (x, shown) in [
            (0.5, "0.5"),
            (-0.0, "-0"),
            (1.5, "1.5"),
            (31536001.0, "3.1536001e7"),
            (1e300, "1e300"),
            (1e-300, "1e-300"),
            (-2.5e9, "-2.5e9"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(number(x), shown, "{x:?}");
        }
    }

    #[test]
    fn io_errors_read_without_their_number() {
        let not_found = std::io::Error::from_raw_os_error(2);
        assert!(not_found.to_string().contains("(os error 2)"));
        assert_eq!(io_reason(&not_found), "no such file or directory");
        let custom = std::io::Error::other("is a directory");
        assert_eq!(io_reason(&custom), "is a directory");
        let acronym = std::io::Error::other("EOF early");
        assert_eq!(io_reason(&acronym), "EOF early");
    }

    #[test]
    fn short_times_read_in_milliseconds() {
        assert_eq!(seconds(0.000214), "0.21 ms");
        assert_eq!(seconds(0.0), "0.00 ms");
        assert_eq!(seconds(0.01), "0.010 s");
        assert_eq!(seconds(12.3456), "12.346 s");
    }

    #[test]
    fn sizes_read_in_their_unit() {
        assert_eq!(bytes(64 << 20), "64 MiB");
        assert_eq!(bytes(1 << 30), "1 GiB");
        assert_eq!(bytes(3 << 30), "3 GiB");
        assert_eq!(bytes(65536), "64 KiB");
        assert_eq!(bytes(1000), "1000 bytes");
        assert_eq!(bytes((64 << 20) + 1), "67108865 bytes");
        assert_eq!(bytes(1), "1 byte");
    }

    #[test]
    fn only_one_is_singular() {
        assert_eq!(counted(1u64, "game"), "1 game");
        assert_eq!(counted(0usize, "game"), "0 games");
        assert_eq!(counted(2u32, "piece"), "2 pieces");
        assert_eq!(counted(11, "line"), "11 lines");
        assert_eq!(counted(2, "pass"), "2 passes");
        assert_eq!(counted(1, "pass"), "1 pass");
    }
}
