//! How every command prints: `--json` (the library's report, serialised) or
//! text, `--quiet` for no progress, and one policy for standard output.
//!
//! Standard output policy: a reader that closes the pipe early (`arcade … |
//! head`) ends the process quietly (SIGPIPE keeps its default action, see
//! `main`); any other write failure (a full disk, `> /dev/full`) is an error
//! with exit status 1, never a panic. So commands write through [`print()`]
//! and never use `print!`/`println!`.

use anyhow::{Context, Result};
use arcade_core::progress::Progress;
use clap::Args;
use serde::Serialize;
use std::fmt::Display;
use std::io::{IsTerminal, Write};

/// `--json` and `--quiet`, flattened into every command that reports.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct OutputArgs {
    /// Print one JSON object (the report, as the library serialises it)
    /// instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar or status lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

impl OutputArgs {
    /// A progress bar of `len` steps on stderr, hidden by `--quiet`. Not by
    /// `--json`, which is about stdout: an hour's `bench --json > out.json`
    /// showed nothing at all, on the terminal or in a log.
    pub fn progress(&self, len: u64, what: &str) -> Progress {
        Progress::new(len, what, self.quiet)
    }

    /// A counter without a known end, hidden by `--quiet`.
    pub fn counter(&self, what: &str) -> Progress {
        Progress::counter(what, self.quiet)
    }

    /// Prints `report` as one line of JSON, or as its text form.
    pub fn emit<T: Serialize + Display>(&self, report: &T) -> Result<()> {
        if self.json {
            print_json(report)
        } else {
            print(report)
        }
    }
}

/// Prints one frame of a terminal view (`--watch`). On a terminal its
/// escape codes clear the screen, redraw in place and colour; in a file or a
/// pipe they would be noise, so there the frames follow one another as plain
/// text, a blank line apart (the clear-screen code alone prints nothing).
pub fn frame(text: impl Display) -> Result<()> {
    if std::io::stdout().is_terminal() {
        return print(text);
    }
    let plain = anstream::adapter::strip_str(&text.to_string()).to_string();
    if plain.trim().is_empty() {
        return Ok(());
    }
    print(format_args!("{plain}\n"))
}

/// Writes `text` (and nothing else) to standard output and flushes it.
pub fn print(text: impl Display) -> Result<()> {
    let mut out = std::io::stdout().lock();
    write!(out, "{text}")
        .and_then(|()| out.flush())
        .context("writing to standard output")
}

/// Writes `value` as one line of JSON to standard output.
pub fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    let text = serde_json::to_string(value).context("serialising the result")?;
    print(format_args!("{text}\n"))
}
