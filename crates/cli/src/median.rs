//! `arcade median`: sliding-window median of a stream of numbers.

use crate::exit::bad_input;
use anyhow::{Context, Result, anyhow};
use arcade_core::progress::Progress;
use arcade_signal::RollingMedian;
use clap::Args;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

#[derive(Args)]
pub struct MedianArgs {
    /// Window length: each output is the median of this many consecutive
    /// values (the mean of the two middle ones when K is even).
    #[arg(long, short = 'k', value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..1 << 31))]
    window: u32,
    /// Read from FILE instead of standard input.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Take the numbers from this column (1-based) of delimited lines.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    column: Option<u32>,
    /// Column separator (one character; default ','). Implies --column 1
    /// when --column is not given.
    #[arg(long, value_name = "C")]
    delimiter: Option<char>,
    /// Skip the first line (a CSV header).
    #[arg(long)]
    header: bool,
    /// Skip lines that are not numbers instead of failing.
    #[arg(long)]
    skip_bad: bool,
    /// No progress counter and no notes on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Where a number sits on a line.
struct Field {
    column: Option<usize>,
    delimiter: char,
}

impl Field {
    /// The text of the number on `line`, or why there is none.
    fn pick<'l>(&self, line: &'l str) -> Result<&'l str, String> {
        let text = match self.column {
            None => line,
            Some(n) => line.split(self.delimiter).nth(n - 1).ok_or_else(|| {
                let found = line.split(self.delimiter).count();
                format!("no column {n} (the line has {found})")
            })?,
        };
        let text = text.trim();
        // A quoted CSV field.
        Ok(text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(text))
    }
}

pub fn run(args: MedianArgs) -> Result<()> {
    let field = Field {
        column: args
            .column
            .map(|c| c as usize)
            .or(args.delimiter.map(|_| 1)),
        delimiter: args.delimiter.unwrap_or(','),
    };
    let (name, source): (String, Box<dyn Read>) = match &args.input {
        Some(path) => {
            let file = File::open(path)
                .with_context(|| format!("cannot read {}", path.display()))
                .map_err(bad_input)?;
            (path.display().to_string(), Box::new(file))
        }
        None => ("<stdin>".to_string(), Box::new(io::stdin())),
    };
    let reader = BufReader::with_capacity(1 << 16, source);
    let stdout = io::stdout().lock();
    match stream(
        &args,
        &field,
        &name,
        reader,
        BufWriter::with_capacity(1 << 16, stdout),
    ) {
        Err(e) if is_broken_pipe(&e) => Ok(()), // `| head` closed our output
        other => other,
    }
}

/// Reads values line by line and writes each full window's median: memory
/// is one line plus the window, whatever the input length. Output is
/// flushed whenever the input buffer runs dry, so a slow producer (a pipe,
/// a terminal) sees each median as soon as its value has arrived.
fn stream(
    args: &MedianArgs,
    field: &Field,
    name: &str,
    mut reader: BufReader<Box<dyn Read>>,
    mut out: impl Write,
) -> Result<()> {
    let progress = Progress::counter("values", args.quiet);
    let mut median = RollingMedian::new(args.window as usize);
    let (mut line, mut line_no, mut values, mut skipped) = (String::new(), 0u64, 0u64, 0u64);
    loop {
        line.clear();
        if reader.buffer().is_empty() {
            out.flush()?; // the next read may block
        }
        let read = reader
            .read_line(&mut line)
            .with_context(|| format!("{name}: cannot read line {}", line_no + 1))
            .map_err(bad_input)?;
        if read == 0 {
            break;
        }
        line_no += 1;
        if args.header && line_no == 1 {
            continue;
        }
        let parsed = field.pick(&line).and_then(|text| {
            text.parse::<f64>()
                .map_err(|_| format!("expected a number, found {text:?}"))
        });
        let x = match parsed {
            Ok(x) => x,
            Err(_) if args.skip_bad => {
                skipped += 1;
                continue;
            }
            Err(why) => {
                return Err(bad_input(anyhow!(
                    "{name}: line {line_no}: {why} (--skip-bad skips such lines)"
                )));
            }
        };
        values += 1;
        if values % 65_536 == 0 {
            progress.set_position(values);
        }
        if let Some(m) = median.push(x) {
            writeln!(out, "{m}")?;
        }
    }
    out.flush()?;
    progress.finish();
    if skipped > 0 {
        let lines = if skipped == 1 { "line" } else { "lines" };
        progress.println(format!("skipped {skipped} {lines} that were not numbers"));
    }
    if !median.is_full() {
        progress.println(format!(
            "{values} values, fewer than the window ({}): no medians",
            args.window
        ));
    }
    Ok(())
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}
