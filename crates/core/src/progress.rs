//! Progress reports on stderr that stay out of the way.
//!
//! A bar is drawn only when stderr is a terminal and the user did not ask for
//! quiet output, so piping `--json` output or running under CI shows no bar.
//! Status lines ([`Progress::println`]) still go to stderr unless quiet.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

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
        let visible = !quiet && std::io::stderr().is_terminal();
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
