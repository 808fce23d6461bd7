//! Progress reports on stderr that stay out of the way.
//!
//! A bar is drawn only when stderr is a terminal and the user did not ask for
//! quiet output, so piping `--json` output or running under CI shows no bar.
//! When stderr is a file instead (a run in the background, a cluster job's
//! log), the bar's state is written as a plain line once a minute, so a long
//! run still shows how far it is; a run shorter than that prints nothing.
//! Status lines ([`Progress::println`]) still go to stderr unless quiet.
//!
//! A `Progress` is also how the caller of a long job asks it to stop
//! ([`Progress::cancel`]: Ctrl-C in the CLI, KeyboardInterrupt in Python);
//! jobs that can stop cleanly poll [`Progress::is_cancelled`].

use indicatif::{
    FormattedDuration, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle,
};
use std::fmt;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often a bar writes its state as a line when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A progress bar (or nothing, when hidden). Cheap to clone and share across
/// threads: `inc` is atomic.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
    /// Where the current stage started (see [`Progress::start_at`]).
    start: Arc<AtomicU64>,
    /// Set by [`Progress::cancel`], shared by every clone.
    cancelled: Arc<AtomicBool>,
}

/// A bar's look once its stage has a length.
const BAR: &str = "{prefix:>10} [{bar:30}] {pos}/{len} {msg} ({elapsed} elapsed, eta {left})";
/// A bar's look while its stage has no length yet (a tuner before its first
/// generation): a full bar reading "0/0" would say it is done.
const WAITING: &str = "{prefix:>10} {spinner} {msg} ({elapsed})";
/// A counter's look: no end, so no bar and no time left.
const COUNTER: &str = "{prefix:>10} {spinner} {pos} {msg} ({elapsed})";

impl Progress {
    /// A bar of `len` steps labelled `what` (`len` 0: set by a later
    /// [`Progress::reset`]).
    pub fn new(len: u64, what: &str, quiet: bool) -> Progress {
        Progress::styled(len, what, quiet, bar_template(len))
    }

    /// A counter without a known end: a spinner, the count and a message.
    pub fn counter(what: &str, quiet: bool) -> Progress {
        Progress::styled(u64::MAX, what, quiet, COUNTER)
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
        let start = Arc::new(AtomicU64::new(0));
        bar.set_style(style(template, &start));
        bar.set_prefix(what.to_string());
        if visible {
            bar.enable_steady_tick(Duration::from_millis(200));
        } else if !quiet {
            log_lines(&bar, LOG_EVERY);
        }
        Progress {
            bar,
            quiet,
            start,
            cancelled: Arc::default(),
        }
    }

    /// A bar that never draws and a reporter that never prints (library
    /// callers and tests).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            quiet: true,
            start: Arc::default(),
            cancelled: Arc::default(),
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

    /// Moves a fresh stage to `pos` without counting the jump as progress,
    /// so the time left is not read from it (a run resumed at a checkpoint).
    pub fn start_at(&self, pos: u64) {
        self.start.store(pos, Ordering::Relaxed);
        self.bar.set_position(pos);
        self.bar.reset_eta();
        self.bar.reset_elapsed();
    }

    /// Starts a new stage of `len` steps on the same bar.
    pub fn reset(&self, len: u64, what: &str) {
        self.start.store(0, Ordering::Relaxed);
        self.bar.reset();
        if self.bar.length() != Some(u64::MAX) {
            self.bar.set_style(style(bar_template(len), &self.start));
        }
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

    /// Asks the job to stop at its next clean point (from any thread or a
    /// signal handler: it only sets a flag).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`Progress::cancel`] was called on this bar or a clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A running count of the steps inside episodes (pieces, frames), shown as
/// the message of a bar that counts whole episodes: a run of a few long
/// episodes (a 10×20 Tetris game, a million-pipe Flappy flight) would
/// otherwise sit at 0/2 for hours. Shared by the threads that play them.
pub struct StepCount<'a> {
    progress: &'a Progress,
    steps: AtomicU64,
    unit: &'static str,
}

impl<'a> StepCount<'a> {
    /// Steps an episode plays between two [`StepCount::add`]s: rare enough
    /// to cost nothing per step, often enough to move every second or so.
    pub const EVERY: u64 = 1 << 16;

    /// Counts `unit`s ("piece") on `progress`'s message.
    pub fn new(progress: &'a Progress, unit: &'static str) -> StepCount<'a> {
        StepCount {
            progress,
            steps: AtomicU64::new(0),
            unit,
        }
    }

    /// Adds `n` steps played, shows the total, and says whether to go on
    /// (false once a stop was asked, [`Progress::cancel`]).
    pub fn add(&self, n: u64) -> bool {
        let total = self.steps.fetch_add(n, Ordering::Relaxed) + n;
        self.progress
            .set_message(crate::text::counted(total, self.unit));
        !self.progress.is_cancelled()
    }

    /// Counts a step of an episode now `steps` steps long: adds
    /// [`StepCount::EVERY`] at each multiple of it. False once a stop was
    /// asked.
    pub fn step(&self, steps: u64) -> bool {
        !steps.is_multiple_of(Self::EVERY) || self.add(Self::EVERY)
    }

    /// Counts the end of an episode of `steps` steps (those not yet added).
    pub fn end(&self, steps: u64) {
        self.add(steps % Self::EVERY);
    }

    /// Steps counted so far.
    pub fn total(&self) -> u64 {
        self.steps.load(Ordering::Relaxed)
    }
}

/// A duration as the bars show time left: "4 minutes", "12 seconds".
pub fn human_duration(time: Duration) -> String {
    HumanDuration(time).to_string()
}

/// The template of a bar whose stage has `len` steps.
fn bar_template(len: u64) -> &'static str {
    if len == 0 { WAITING } else { BAR }
}

/// A bar or counter style from `template`, its `{left}` counted from `start`.
fn style(template: &str, start: &Arc<AtomicU64>) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("static template")
        .with_key("left", left_key(start.clone()))
        .progress_chars("=> ")
}

/// The terminal bar's `{left}`: the stage's steps left at its average pace
/// since it started. indicatif's own `{eta}` weighs the last seconds most, so
/// between slow steps (a 10×20 Tetris game takes hours) or after Ctrl-Z it
/// reads "584942417355 years".
fn left_key(
    start: Arc<AtomicU64>,
) -> impl Fn(&ProgressState, &mut dyn fmt::Write) + Clone + Send + Sync + 'static {
    move |state, w| {
        let done = state.pos().saturating_sub(start.load(Ordering::Relaxed));
        let left = state.len().map(|len| len.saturating_sub(state.pos()));
        let _ = match left.and_then(|left| average_left(state.elapsed(), done, left)) {
            Some(time) => write!(w, "{:#}", HumanDuration(time)),
            None => write!(w, "?"),
        };
    }
}

/// The time `left` more steps take at the pace of `done` steps in `spent`;
/// `None` before any step is done.
fn average_left(spent: Duration, done: u64, left: u64) -> Option<Duration> {
    let per_step = spent.as_secs_f64() / (done > 0).then_some(done)? as f64;
    Duration::try_from_secs_f64(per_step * left as f64).ok()
}

/// Writes `bar`'s state to stderr every `every` until it finishes or every
/// handle to it is dropped. The thread holds only a weak handle, so it never
/// keeps a bar alive. Failing to start the thread only loses the log lines.
fn log_lines(bar: &ProgressBar, every: Duration) -> Option<std::thread::JoinHandle<()>> {
    let weak = bar.downgrade();
    let slice = every.min(SLICE);
    std::thread::Builder::new()
        .name("progress-log".into())
        .spawn(move || {
            let mut pace = Pace::default();
            let mut clock = Clock::default();
            loop {
                let woke = Instant::now();
                std::thread::sleep(slice);
                clock.count(woke.elapsed(), slice);
                let Some(bar) = weak.upgrade().filter(|bar| !bar.is_finished()) else {
                    return;
                };
                if clock.ran + clock.paused < every {
                    continue;
                }
                let view = View::of(&bar);
                pace.tick(&view, clock.ran);
                let paused = Some(clock.paused).filter(|paused| !paused.is_zero());
                clock = Clock::default();
                // A stage at its end has nothing left to report.
                if view.len != Some(view.pos) {
                    eprintln!("{}", log_line(&bar, pace.time_left(&view), paused));
                }
            }
        })
        .ok()
}

/// How often the log thread wakes: a stopped process (Ctrl-Z, `kill -STOP`)
/// shows as one wake-up that came this much too late, or more.
const SLICE: Duration = Duration::from_secs(1);

/// The time since the last log line, split into running and stopped.
#[derive(Default)]
struct Clock {
    ran: Duration,
    paused: Duration,
}

impl Clock {
    /// An oversleep shorter than this is scheduling noise, not a stop.
    const NOISE: Duration = Duration::from_millis(500);

    /// Counts one sleep of `slice` that took `slept`.
    fn count(&mut self, slept: Duration, slice: Duration) {
        let late = slept.saturating_sub(slice);
        if late > Self::NOISE {
            self.paused += late;
            self.ran += slice;
        } else {
            self.ran += slept;
        }
    }
}

/// The part of a bar's state that the pace follows.
struct View {
    stage: String,
    pos: u64,
    /// `None` for a counter (its length is u64::MAX).
    len: Option<u64>,
}

impl View {
    fn of(bar: &ProgressBar) -> View {
        View {
            stage: bar.prefix(),
            pos: bar.position(),
            len: bar.length().filter(|&len| len != u64::MAX),
        }
    }
}

/// How fast a stage goes, counted in the time the process really ran.
///
/// indicatif's own estimate weighs the last seconds most, so after the
/// process was stopped (Ctrl-Z, `kill -STOP`) or between slow steps it reads
/// "584942417355 years left". Here stops are left out of the running time
/// ([`Clock`]), and the rate is the stage's average since the first tick that
/// saw it (not since the bar began: a resumed run jumps to its checkpoint's
/// position first).
#[derive(Default)]
struct Pace {
    /// Time the process ran, pauses left out.
    running: Duration,
    /// Where the current stage stood at the first tick that saw it.
    start: Option<Mark>,
}

/// A stage, its length, the running time and its position at one tick.
struct Mark {
    stage: String,
    len: Option<u64>,
    running: Duration,
    pos: u64,
}

impl Pace {
    /// Counts `ran` more running time at a log tick that sees `view`.
    fn tick(&mut self, view: &View, ran: Duration) {
        self.running += ran;
        // A new stage, or the same one started again (`reset`), starts over.
        let same_stage = self.start.as_ref().is_some_and(|start| {
            start.stage == view.stage && start.len == view.len && start.pos <= view.pos
        });
        if !same_stage {
            self.start = Some(Mark {
                stage: view.stage.clone(),
                len: view.len,
                running: self.running,
                pos: view.pos,
            });
        }
    }

    /// The stage's steps left at its average rate so far; `None` for a
    /// counter, or before a step was counted between two ticks.
    fn time_left(&self, view: &View) -> Option<Duration> {
        let start = self.start.as_ref()?;
        let done = view.pos.checked_sub(start.pos)?;
        let left = view.len?.checked_sub(view.pos)?;
        average_left(self.running - start.running, done, left)
    }
}

/// One line for a log: the stage, how far it is, its message, the time spent,
/// then the pause just seen, if any, and the time left. The time spent is wall time and
/// exact (hh:mm:ss), since logs are compared; a rounded "2 hours" could be 91
/// minutes. The time left is an estimate and reads as one.
fn log_line(bar: &ProgressBar, left: Option<Duration>, paused: Option<Duration>) -> String {
    let view = View::of(bar);
    let mut line = format!("{}: {}", view.stage.trim(), view.pos);
    if let Some(len) = view.len {
        line += &format!("/{len}");
    }
    let msg = bar.message();
    if !msg.is_empty() {
        line += &format!(" {msg}");
    }
    line += &format!(" ({} elapsed", FormattedDuration(bar.elapsed()));
    if let Some(paused) = paused {
        line += &format!(", paused for {}", FormattedDuration(paused));
    }
    if let Some(left) = left {
        line += &format!(", about {} left", HumanDuration(left));
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
    fn a_step_count_adds_up_episodes_and_stops_when_asked() {
        let progress = Progress::hidden();
        let count = StepCount::new(&progress, "piece");
        let every = StepCount::<'_>::EVERY;
        for len in [3, every, 2 * every + 5] {
            assert!((1..=len).all(|s| count.step(s)));
            count.end(len);
        }
        assert_eq!(count.total(), 3 * every + 8);
        let total = crate::text::counted(3 * every + 8, "piece");
        assert_eq!(progress.bar.message(), total);
        progress.cancel();
        assert!(count.step(every - 1), "only a multiple of EVERY looks");
        assert!(!count.step(every));
    }

    #[test]
    fn a_log_line_says_how_far_and_how_long() {
        let bar = hidden_bar(10_000, "    pieces");
        bar.set_message("beam 1000");
        let line = log_line(&bar, None, None);
        assert_eq!(line, "pieces: 0/10000 beam 1000 (00:00:00 elapsed)");
        bar.set_position(2_500);
        let line = log_line(&bar, Some(Duration::from_secs(14 * 60)), None);
        assert_eq!(
            line,
            "pieces: 2500/10000 beam 1000 (00:00:00 elapsed, about 14 minutes left)"
        );
        // After a pause the line says both: the pause and the time left.
        let line = log_line(
            &bar,
            Some(Duration::from_secs(14 * 60)),
            Some(Duration::from_secs(660)),
        );
        assert_eq!(
            line,
            "pieces: 2500/10000 beam 1000 (00:00:00 elapsed, paused for 00:11:00, about 14 minutes left)"
        );
    }

    #[test]
    fn a_cancel_reaches_every_clone() {
        let progress = Progress::hidden();
        let job = progress.clone();
        assert!(!job.is_cancelled());
        progress.cancel();
        assert!(job.is_cancelled());
        assert!(
            !Progress::hidden().is_cancelled(),
            "a new bar starts afresh"
        );
    }

    #[test]
    fn a_counter_has_no_length_or_time_left() {
        let bar = hidden_bar(u64::MAX, "values");
        let mut pace = Pace::default();
        for pos in [42, 84] {
            bar.set_position(pos);
            pace.tick(&View::of(&bar), MINUTE);
        }
        let view = View::of(&bar);
        assert_eq!(view.len, None);
        assert_eq!(pace.time_left(&view), None);
        assert_eq!(log_line(&bar, None, None), "values: 84 (00:00:00 elapsed)");
    }

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn a_late_wake_up_is_a_stop() {
        let second = Duration::from_secs(1);
        let mut clock = Clock::default();
        clock.count(second, second);
        clock.count(Duration::from_millis(1_300), second);
        assert_eq!(
            (clock.ran, clock.paused),
            (Duration::from_millis(2_300), Duration::ZERO)
        );
        // Stopped for 100 s during the third sleep.
        clock.count(Duration::from_secs(101), second);
        assert_eq!(clock.ran, Duration::from_millis(3_300));
        assert_eq!(clock.paused, Duration::from_secs(100));
    }

    /// One log tick per (position, running time since the last tick).
    fn ticks(pace: &mut Pace, stage: &str, len: u64, steps: &[(u64, Duration)]) -> Vec<String> {
        let bar = hidden_bar(len, stage);
        steps
            .iter()
            .map(|&(pos, ran)| {
                bar.set_position(pos);
                let view = View::of(&bar);
                pace.tick(&view, ran);
                log_line(&bar, pace.time_left(&view), None)
            })
            .collect()
    }

    #[test]
    fn the_time_left_is_the_stage_average_in_running_time() {
        let mut pace = Pace::default();
        let half = MINUTE / 2;
        // A minute of wall time of which the process ran only half.
        let steps = [(40, MINUTE), (80, MINUTE), (100, half), (140, MINUTE)];
        let lines = ticks(&mut pace, "beam", 10_000, &steps);
        // The first tick has nothing to average; then 40 steps a minute.
        assert!(lines[0].ends_with(" elapsed)"), "{}", lines[0]);
        assert!(lines[1].ends_with("about 4 hours left)"), "{}", lines[1]);
        assert_eq!(pace.running, 3 * MINUTE + half);
        let per_step = 150.0 / 100.0;
        let left = Duration::from_secs_f64(per_step * (10_000 - 140) as f64);
        assert!(lines[3].ends_with(&format!("about {} left)", HumanDuration(left))));
    }

    #[test]
    fn a_resumed_run_or_a_new_stage_starts_the_average_again() {
        // A run resumed at a checkpoint jumps to 1,500 before its first tick.
        let mut pace = Pace::default();
        let lines = ticks(
            &mut pace,
            "beam",
            10_000,
            &[(1_500, MINUTE), (1_560, MINUTE)],
        );
        assert!(lines[1].ends_with("about 2 hours left)"), "{}", lines[1]);
        // A reset stage (position back to 0) and a longer stage start over.
        for (stage, len) in [("beam", 10_000), ("beam", 20_000)] {
            let lines = ticks(&mut pace, stage, len, &[(10, MINUTE), (11, MINUTE)]);
            assert!(lines[0].ends_with(" elapsed)"), "{}", lines[0]);
            let left = Duration::from_secs(60 * (len - 11));
            assert!(lines[1].ends_with(&format!("about {} left)", HumanDuration(left))));
        }
    }

    #[test]
    fn the_average_pace_needs_a_step_and_skips_a_resumed_jump() {
        assert_eq!(average_left(MINUTE, 0, 100), None);
        assert_eq!(average_left(MINUTE, 40, 9_960), Some(MINUTE * 249));
        let progress = Progress::hidden();
        progress.start_at(1_500);
        assert_eq!(progress.position(), 1_500);
        assert_eq!(progress.start.load(Ordering::Relaxed), 1_500);
        progress.reset(10, "next");
        assert_eq!(progress.start.load(Ordering::Relaxed), 0);
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
