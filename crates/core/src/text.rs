//! Wording shared by the text reports.

use std::fmt::Display;

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

#[cfg(test)]
mod tests {
    use super::counted;

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
