//! Exit statuses: 0 success, 1 failure while running, 2 bad input (bad
//! arguments, unknown names, malformed files) — the same split as clap's own.

use std::fmt;
use std::process::ExitCode;

/// Marks an error as the user's input being wrong (exit status 2).
#[derive(Debug)]
pub struct BadInput(pub anyhow::Error);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps an error as bad input, for `map_err`.
pub fn bad_input(e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(BadInput(e.into()))
}

/// Prints `error: …` on one line and picks the exit status.
pub fn report(e: &anyhow::Error) -> ExitCode {
    eprintln!("error: {e:#}");
    if e.downcast_ref::<BadInput>().is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

/// Help and version go to stdout with status 0; argument errors print clap's
/// first line (which names the argument and what was expected) and exit 2.
pub fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind::*;
    match e.kind() {
        DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(if e.kind() == DisplayHelpOnMissingArgumentOrSubcommand {
                2
            } else {
                0
            })
        }
        _ => {
            let text = e.render().to_string();
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let first = lines.next().unwrap_or("error: bad arguments");
            // Keep clap's suggestion ("tip: a similar argument exists") but not
            // the usage block.
            let tip = lines.find(|l| l.trim_start().starts_with("tip:"));
            eprintln!("{first}");
            if let Some(tip) = tip {
                eprintln!("{}", tip.trim_start());
            }
            ExitCode::from(2)
        }
    }
}
