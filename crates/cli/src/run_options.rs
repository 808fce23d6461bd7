//! Options every long, parallel run takes, and the value parsers that keep
//! numeric options in range (so an absurd value is a one-line error at parse
//! time, never an allocation failure or a panic later).

use clap::Args;

/// How a long run uses the machine.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// Worker threads [default: all cores; at most 4 per core are started,
    /// and results do not depend on the number].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub threads: Option<u32>,
}

impl RunOptions {
    /// The thread request as the library takes it.
    pub fn threads(&self) -> Option<usize> {
        self.threads.map(|n| n as usize)
    }

    /// Runs `work` on a pool of the requested size (capped by the library).
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        arcade_core::runner::with_threads(self.threads(), work)
    }
}

pub use arcade_core::input::MAX_COUNT;

/// A count option (games, episodes, levels, passes) from 1 to [`MAX_COUNT`].
pub fn count(s: &str) -> Result<u64, String> {
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number from 1 to {MAX_COUNT}"))?;
    if n == 0 || n > MAX_COUNT {
        return Err(format!("expected a whole number from 1 to {MAX_COUNT}"));
    }
    Ok(n)
}

/// A time budget in seconds (`arcade_core::input::check_seconds`).
pub fn seconds(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds such as 10 or 0.5".to_string())?;
    arcade_core::input::check_seconds(x)
}

/// A finite number (rejects nan and inf, which no option means).
pub fn finite(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err("expected a finite number".to_string()),
    }
}

/// Refuses a per-game list (`--per-game`, `--per-episode`) longer than the
/// statistics keep, which would otherwise be left out of the report.
pub fn check_per_game_list(flag: &str, asked: bool, count: u64) -> anyhow::Result<()> {
    let keep = arcade_core::stats::TALLY_KEEP;
    if asked && count > keep {
        return Err(crate::exit::bad_input(anyhow::anyhow!(
            "{flag} lists at most {keep} results, and this run has {count}"
        )));
    }
    Ok(())
}

/// The seed `play --seed master --game I` plays: game I's own seed in a
/// `bench --seed master`, which plays game I from `derive_seed(master, I)`.
pub fn bench_game_seed(master: u64, game: Option<u64>) -> u64 {
    game.map_or(master, |i| arcade_core::rng::derive_seed(master, i))
}

/// A number above 0 and at most `max` (a spread, a learning rate), shown
/// in the error as `max_text`.
pub fn positive_at_most(s: &str, max: f64, max_text: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= max => Ok(x),
        _ => Err(format!("expected a number above 0 and at most {max_text}")),
    }
}

/// A probability or share, from 0 to 1.
pub fn unit(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("expected a number from 0 to 1".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers_reject_what_no_option_means() {
        assert_eq!(count("12"), Ok(12));
        for bad in ["0", "-1", "4294967296000000", "18446744073709551615", "x"] {
            assert!(count(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("0.5"), Ok(0.5));
        for bad in ["nan", "inf", "-1", "0", "1e20", "1e308"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert!(finite("nan").is_err() && finite("-inf").is_err());
        assert_eq!(finite("-0.8"), Ok(-0.8));
        assert!(unit("1.5").is_err() && unit("nan").is_err());
    }
}
