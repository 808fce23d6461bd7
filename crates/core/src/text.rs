//! Wording shared by the text reports.

use std::fmt::Display;

/// `n` and `noun`, plural unless `n` is 1: "1 game", "0 games", "2 games",
/// "2 passes". For the counts a user chooses (`--games 1`), which read
/// "1 games" before.
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
    use super::{bytes, counted, seconds};

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
