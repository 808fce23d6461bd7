//! `arcade median`: sliding-window median of a stream of numbers.

use crate::exit::bad_input;
use anyhow::{Context, Result, anyhow};
use arcade_core::progress::Progress;
use arcade_signal::{Lines, MedianError, ReadOptions, stream_medians};
use clap::Args;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct MedianArgs {
    /// Window length: each output is the median of this many consecutive
    /// values (the mean of the two middle ones when K is even).
    #[arg(long, short = 'k', value_name = "K", value_parser = window)]
    window: u32,
    /// The numbers, one a line or in a column of delimited lines [default:
    /// standard input; `-` is standard input too].
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The same as FILE (the first way it was given).
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    input: Option<PathBuf>,
    /// Take the numbers from this column (1-based) of delimited lines, split
    /// as CSV is: a quoted field may hold the delimiter ("Smith, John").
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    column: Option<u32>,
    /// Column separator (one ASCII character, or `tab`; default ',').
    /// Implies --column 1 when --column is not given.
    #[arg(long, value_name = "C", value_parser = delimiter)]
    delimiter: Option<char>,
    /// Skip the first line that is not blank (a CSV header).
    #[arg(long)]
    header: bool,
    /// Skip lines that are not numbers (or not UTF-8 text) instead of
    /// failing; a note counts them.
    #[arg(long)]
    skip_bad: bool,
    /// No progress counter and no notes on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// A window length from 1 to [`arcade_signal::MAX_WINDOW`].
fn window(s: &str) -> Result<u32, String> {
    let max = arcade_signal::MAX_WINDOW;
    match s.trim().parse::<usize>() {
        Ok(k) if (1..=max).contains(&k) => Ok(k as u32),
        _ => Err(format!("expected a whole number from 1 to {max}")),
    }
}

/// `--delimiter`: one ASCII character that can separate CSV fields, or
/// the word `tab` (a tab is awkward to type in a shell).
fn delimiter(s: &str) -> Result<char, String> {
    if s.eq_ignore_ascii_case("tab") {
        return Ok('\t');
    }
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii() && !matches!(c, '"' | '\n' | '\r') => Ok(c),
        _ => Err(
            "expected one ASCII character other than a quote or a line break \
                  (such as ; or |), or tab"
                .into(),
        ),
    }
}

/// Streams medians to standard output (one a line, flushed whenever the
/// input pauses); notes go to stderr.
pub fn run(args: MedianArgs) -> Result<()> {
    let options = ReadOptions {
        column: args
            .column
            .map(|c| c as usize)
            .or(args.delimiter.map(|_| 1)),
        delimiter: args.delimiter.unwrap_or(','),
        header: args.header,
        skip_bad: args.skip_bad,
    };
    let input = args.file.or(args.input);
    let stdin = input.as_deref().is_none_or(|p| p == Path::new("-"));
    if stdin && io::stdin().is_terminal() && !args.quiet {
        eprintln!("reading numbers from the terminal, one a line (Ctrl-D ends them)");
    }
    let (name, source): (String, Box<dyn Read>) = match &input {
        Some(path) if !stdin => {
            if path.is_dir() {
                let name = path.display();
                return Err(bad_input(anyhow!("cannot read {name}: is a directory")));
            }
            let file = File::open(path)
                .with_context(|| format!("cannot read {}", path.display()))
                .map_err(bad_input)?;
            (path.display().to_string(), Box::new(file))
        }
        _ => ("standard input".to_string(), Box::new(io::stdin())),
    };
    let mut reader = BufReader::with_capacity(1 << 16, source);
    let mut sink = Lines(BufWriter::with_capacity(1 << 16, io::stdout().lock()));
    let progress = Progress::counter("values", args.quiet);
    let window = args.window as usize;
    let result = stream_medians(&mut reader, &name, window, &options, &mut sink, |n| {
        progress.set_position(n)
    });
    let summary = match result {
        Ok(summary) => summary,
        // `| head` closed our output: nothing more to say.
        Err(MedianError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        Err(MedianError::Write(e)) => return Err(anyhow!(e).context("writing to standard output")),
        Err(e @ MedianError::BadLine { .. }) => {
            return Err(bad_input(anyhow!("{e} (--skip-bad skips such lines)")));
        }
        Err(e) => return Err(bad_input(e)),
    };
    progress.finish();
    for note in summary.notes() {
        progress.println(note);
    }
    Ok(())
}
