//! Wording shared by the text reports.

use std::fmt::Display;

/// `n` and `noun`, plural unless `n` is 1: "1 game", "0 games", "2 games".
/// For the counts a user chooses (`--games 1`), which read "1 games" before.
pub fn counted(n: impl Display, noun: &str) -> String {
    let n = n.to_string();
    let s = if n == "1" { "" } else { "s" };
    format!("{n} {noun}{s}")
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn only_one_is_singular() {
        assert_eq!(counted(1u64, "game"), "1 game");
        assert_eq!(counted(0usize, "game"), "0 games");
        assert_eq!(counted(2u32, "piece"), "2 pieces");
        assert_eq!(counted(11, "line"), "11 lines");
    }
}
