//! Progress reports on stderr that stay out of the way.
//!
//! A bar is drawn only when stderr is a terminal and the user did not ask for
//! quiet output, so piping `--json` output or running under CI shows no bar.
//! When stderr is a file instead (a run in the background, a cluster job's
//! log), the bar's state is written as a plain line once a minute, so a long
//! run still shows how far it is; a run shorter than that prints nothing.
//! Status lines ([`Progress::println`]) still go to stderr unless quiet.

use indicatif::{FormattedDuration, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How often a bar writes its state as a line when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A progress bar (or nothing, when hidden). Cheap to clone and share across
/// threads: `inc` is atomic.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
}

impl Progress {
    /// A bar of `len` steps labelled `what`.
    pub fn new(len: u64, what: &str, quiet: bool) -> Progress {
        Progress::styled(
            len,
            what,
            quiet,
            "{prefix:>10} [{bar:30}] {pos}/{len} {msg} ({elapsed} elapsed, eta {eta})",
        )
    }

    /// A counter without a known end: a spinner, the count and a message.
    pub fn counter(what: &str, quiet: bool) -> Progress {
        Progress::styled(
            u64::MAX,
            what,
            quiet,
            "{prefix:>10} {spinner} {pos} {msg} ({elapsed})",
        )
    }

    fn styled(len: u64, what: &str, quiet: bool, template: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let visible = !quiet && terminal;
        let target = if visible {
            ProgressDrawTarget::stderr_with_hz(10)
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(len), target);
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("static template")
                .progress_chars("=> "),
        );
        bar.set_prefix(what.to_string());
        if visible {
            bar.enable_steady_tick(Duration::from_millis(200));
        } else if !quiet {
            log_lines(&bar, LOG_EVERY);
        }
        Progress { bar, quiet }
    }

    /// A bar that never draws and a reporter that never prints (library
    /// callers and tests).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            quiet: true,
        }
    }

    #[inline]
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    pub fn set_position(&self, pos: u64) {
        self.bar.set_position(pos);
    }

    /// Steps done in the current stage (a caller polling from another
    /// thread, such as a Python progress callback, reads it).
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Steps in the current stage, if known.
    pub fn length(&self) -> Option<u64> {
        self.bar.length()
    }

    /// Starts a new stage of `len` steps on the same bar.
    pub fn reset(&self, len: u64, what: &str) {
        self.bar.reset();
        self.bar.set_length(len);
        self.bar.set_prefix(what.to_string());
    }

    /// Free text after the counter (e.g. the best score so far).
    pub fn set_message(&self, msg: impl Into<String>) {
        self.bar.set_message(msg.into());
    }

    /// A status line on stderr, printed above the bar; nothing when quiet.
    pub fn println(&self, line: impl AsRef<str>) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() {
            eprintln!("{}", line.as_ref());
        } else {
            self.bar.println(line);
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Writes `bar`'s state to stderr every `every` until it finishes or every
/// handle to it is dropped. The thread holds only a weak handle, so it never
/// keeps a bar alive. Failing to start the thread only loses the log lines.
fn log_lines(bar: &ProgressBar, every: Duration) -> Option<std::thread::JoinHandle<()>> {
    let weak = bar.downgrade();
    std::thread::Builder::new()
        .name("progress-log".into())
        .spawn(move || {
            loop {
                std::thread::sleep(every);
                match weak.upgrade() {
                    Some(bar) if bar.is_finished() => return,
                    // A stage at its end has nothing left to report.
                    Some(bar) if bar.length() == Some(bar.position()) => {}
                    Some(bar) => eprintln!("{}", log_line(&bar)),
                    None => return,
                }
            }
        })
        .ok()
}

/// One line for a log: the stage, how far it is, its message, the time spent
/// and (when the length is known) the time left. The time spent is exact
/// (hh:mm:ss), since logs are compared; a rounded "2 hours" could be 91
/// minutes. The time left is an estimate and reads as one.
fn log_line(bar: &ProgressBar) -> String {
    // A counter's length is u64::MAX: no end to count to or to estimate.
    let len = bar.length().filter(|&len| len != u64::MAX);
    let mut line = format!("{}: {}", bar.prefix().trim(), bar.position());
    if let Some(len) = len {
        line += &format!("/{len}");
    }
    let msg = bar.message();
    if !msg.is_empty() {
        line += &format!(" {msg}");
    }
    line += &format!(" ({} elapsed", FormattedDuration(bar.elapsed()));
    if len.is_some() && bar.position() > 0 {
        line += &format!(", about {} left", HumanDuration(bar.eta()));
    }
    line + ")"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden_bar(len: u64, what: &str) -> ProgressBar {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        bar.set_prefix(what.to_string());
        bar
    }

    #[test]
    fn a_log_line_says_how_far_and_how_long() {
        let bar = hidden_bar(10_000, "    pieces");
        bar.set_message("beam 1000");
        assert!(log_line(&bar).starts_with("pieces: 0/10000 beam 1000 (00:00:00 elapsed"));
        assert!(!log_line(&bar).contains("left"), "{}", log_line(&bar));
        bar.set_position(2_500);
        let line = log_line(&bar);
        assert!(line.starts_with("pieces: 2500/10000 beam 1000 ("), "{line}");
        assert!(
            line.contains(" elapsed, about ") && line.ends_with(" left)"),
            "{line}"
        );
    }

    #[test]
    fn a_counter_has_no_length_or_time_left() {
        let bar = hidden_bar(u64::MAX, "values");
        bar.set_position(42);
        let line = log_line(&bar);
        assert!(line.starts_with("values: 42 ("), "{line}");
        assert!(line.ends_with(" elapsed)"), "{line}");
    }

    #[test]
    fn the_log_thread_stops_when_the_bar_finishes_or_is_dropped() {
        let bar = hidden_bar(5, "steps");
        let logger = log_lines(&bar, Duration::from_millis(5)).expect("thread starts");
        std::thread::sleep(Duration::from_millis(20));
        assert!(!logger.is_finished(), "it logs while the bar runs");
        bar.finish_and_clear();
        logger.join().expect("no panic");

        let bar = hidden_bar(5, "steps");
        let logger = log_lines(&bar, Duration::from_millis(5)).expect("thread starts");
        drop(bar);
        logger.join().expect("no panic");
    }
}
