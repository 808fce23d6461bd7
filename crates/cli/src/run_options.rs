//! Options every long, parallel run takes.

use clap::Args;

/// How a long run uses the machine and the terminal.
#[derive(Args)]
pub struct RunOptions {
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}
