//! Exit statuses: 0 success, 1 failure while running, 2 bad input (bad
//! arguments, unknown names, malformed files) — the same split as clap's own
//! — and 130 for a run stopped by Ctrl-C, as shells report one.
//! Every error is one line on stderr.

use arcade_core::progress::Progress;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Marks an error as the user's input being wrong (exit status 2).
#[derive(Debug)]
pub struct BadInput(pub anyhow::Error);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&chain_text(&self.0))
    }
}

impl std::error::Error for BadInput {}

/// Wraps an error as bad input, for `map_err`.
pub fn bad_input(e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(BadInput(e.into()))
}

/// Marks an error as the run having been stopped by the user (exit 130).
#[derive(Debug)]
pub struct Stopped(pub String);

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Stopped {}

/// A second stop request sooner than this after the first is the same one
/// delivered twice: GNU `timeout` signals the process and then its process
/// group, which holds the process too.
const REPEAT_GAP: Duration = Duration::from_secs(1);

/// Makes Ctrl-C (or SIGTERM) ask `progress`'s job to stop cleanly, and a
/// second one (a second or more later) quit at once. A process has one
/// handler: the first call wins.
pub fn stop_on_ctrl_c(progress: &Progress) {
    let job = progress.clone();
    let first = OnceLock::new();
    let _ = ctrlc::set_handler(move || match first.get() {
        Some(at) if Instant::elapsed(at) >= REPEAT_GAP => std::process::exit(130),
        Some(_) => {}
        None => {
            let _ = first.set(Instant::now());
            job.cancel();
            job.println("stopping cleanly (Ctrl-C again quits at once)");
        }
    });
}

/// After a run's report is printed: exit 130, saying what the report
/// covers, when Ctrl-C stopped the run ([`stop_on_ctrl_c`]) before all
/// `asked` `noun`s were played to their end (`played` of them were; a
/// Ctrl-C after the last one ended stopped nothing).
pub fn stopped_after(
    progress: &Progress,
    played: u64,
    asked: u64,
    noun: &str,
) -> anyhow::Result<()> {
    if !progress.is_cancelled() || played >= asked {
        return Ok(());
    }
    Err(stopped(played, asked, noun))
}

/// "stopped by Ctrl-C: the report covers the `played` played of `asked`
/// `noun`s" (exit 130).
pub fn stopped(played: u64, asked: u64, noun: &str) -> anyhow::Error {
    Stopped(format!(
        "stopped by Ctrl-C: the report covers the {played} played of {}",
        arcade_core::text::counted(asked, noun)
    ))
    .into()
}

/// Makes Ctrl-C (or SIGTERM) end the run at once with `message()` (exit
/// 130), for runs whose files are whole after every step (written
/// atomically), so stopping anywhere loses at most the step under way. The
/// message is made when the signal comes, so it can say what was saved by
/// then.
pub fn exit_on_ctrl_c(message: impl Fn() -> String + Send + 'static) {
    let _ = ctrlc::set_handler(move || {
        eprint_line(&format!("\nerror: {}", message()));
        std::process::exit(130);
    });
}

/// `path` as one word for a POSIX shell: as it is when plain, else quoted.
pub fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = |c: char| c.is_ascii_alphanumeric() || "._-/+=:,@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Longest error line printed; longer ones (say, an echoed 10 MB token) are
/// cut with a note.
const MAX_ERROR_CHARS: usize = 500;

/// An error and its causes as one message, "what: why: …". A cause whose
/// text the message already holds is left out: many errors print their
/// source in their own message and also return it as `source`, which
/// anyhow's `{:#}` would print twice.
pub fn chain_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        // As the messages that quote them put them.
        let part = if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            arcade_core::text::io_reason(io)
        } else if let Some(json) = cause.downcast_ref::<serde_json::Error>() {
            arcade_core::json::json_error(json)
        } else {
            cause.to_string()
        };
        if text.is_empty() {
            text = part;
        } else if !text.contains(&part) {
            text = format!("{text}: {part}");
        }
    }
    text
}

/// Prints `error: …` on one line and picks the exit status.
pub fn report(e: &anyhow::Error) -> ExitCode {
    eprint_line(&format!("error: {}", one_line(&chain_text(e))));
    if e.downcast_ref::<BadInput>().is_some() {
        ExitCode::from(2)
    } else if e.downcast_ref::<Stopped>().is_some() {
        ExitCode::from(130)
    } else {
        ExitCode::from(1)
    }
}

/// Writes a line to stderr, ignoring failure (there is nowhere left to say it).
fn eprint_line(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Folds a message onto one line: line breaks become "; ", other control
/// characters (a terminal escape echoed from input) are shown escaped, and
/// the whole is cut at [`MAX_ERROR_CHARS`].
pub fn one_line(text: &str) -> String {
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let joined = parts.join("; ");
    let mut out = String::new();
    for (count, c) in joined.chars().enumerate() {
        if count == MAX_ERROR_CHARS {
            let more = joined.chars().count() - count;
            out.push_str(&format!("… ({more} more characters)"));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Help and version go to stdout with status 0; argument errors print clap's
/// message on one line (naming every missing argument, keeping its tip but
/// not the usage block) and exit 2.
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
            eprint_line(&clap_line(&e.render().to_string()));
            ExitCode::from(2)
        }
    }
}

/// clap's rendered error on one line: the message up to the usage block,
/// then its tip in parentheses.
fn clap_line(rendered: &str) -> String {
    let mut message = Vec::new();
    let mut tip = None;
    let mut command = None;
    for line in rendered.lines().map(str::trim) {
        if let Some(usage) = line.strip_prefix("Usage:") {
            // "arcade geek replay <RECORD>": the words before the first argument.
            let words = usage.split_whitespace();
            let words: Vec<&str> = words.take_while(|w| !w.starts_with(['<', '['])).collect();
            command = Some(words.join(" "));
            break;
        }
        if line.starts_with("For more information") {
            break;
        }
        if let Some(t) = line.strip_prefix("tip:") {
            tip = Some(t.trim().to_string());
        } else if !line.is_empty() {
            message.push(line);
        }
    }
    // An option clap does not know and cannot match to one: its tip, if
    // any ("to pass '--at' as a value, use '-- --at'"), is seldom what was
    // meant; where the options are listed is.
    let unknown_option = message
        .first()
        .is_some_and(|m| m.starts_with("error: unexpected argument '-"));
    if unknown_option && tip.as_deref().is_none_or(|t| t.starts_with("to pass '-")) {
        tip = command
            .as_deref()
            .map(|c| format!("`{c} --help` lists its options"));
    }
    let mut text = plain_parse_errors(&message.join(" "));
    if text.is_empty() {
        text = "error: bad arguments".into();
    }
    if let Some(t) = tip {
        text = format!("{text} (tip: {t})");
    }
    one_line(&text)
}

/// Rust's integer parse errors and clap's ranges, which clap passes on, in
/// the user's terms (every integer option is unsigned: `--seed -1` said
/// "invalid digit found in string"; `--moves 2000` said "2000 is not in
/// 1..=1000").
fn plain_parse_errors(text: &str) -> String {
    plain_range(text)
        .replace(
            "invalid digit found in string",
            "expected a whole number (digits only)",
        )
        .replace(
            "number too large to fit in target type",
            "the number is too large",
        )
        .replace(
            "cannot parse integer from empty string",
            "expected a whole number, found nothing",
        )
}

/// clap's "`X` is not in `A..=B`" (or `A..B`, `A..`) as "expected a whole
/// number from A to B"; other text as it is.
fn plain_range(text: &str) -> String {
    let Some((head, range)) = text.rsplit_once(" is not in ") else {
        return text.to_string();
    };
    let Some((low, high)) = range.split_once("..") else {
        return text.to_string();
    };
    let high = match high.strip_prefix('=') {
        Some(inclusive) => inclusive.parse::<u64>().ok(),
        None if high.is_empty() => None,
        None => high.parse::<u64>().ok().and_then(|h| h.checked_sub(1)),
    };
    let Ok(low) = low.parse::<u64>() else {
        return text.to_string();
    };
    // The value itself is quoted earlier in the message; drop its repeat.
    let head = head.rsplit_once(": ").map_or(head, |(before, _)| before);
    match high {
        Some(high) if high < u64::from(u32::MAX) => {
            format!("{head}: expected a whole number from {low} to {high}")
        }
        _ => format!("{head}: expected a whole number from {low}"),
    }
}

/// Reads a user's text file or stdin (`-`), bounded; unreadable or
/// non-UTF-8 input is bad input either way.
pub fn read_input(path: &std::path::Path) -> anyhow::Result<String> {
    arcade_core::input::read_text(path, arcade_core::input::MAX_INPUT_BYTES).map_err(bad_input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_after_the_last_game_stopped_nothing() {
        let progress = Progress::hidden();
        assert!(
            stopped_after(&progress, 3, 10, "game").is_ok(),
            "not cancelled"
        );
        progress.cancel();
        assert!(stopped_after(&progress, 10, 10, "game").is_ok());
        let e = stopped_after(&progress, 3, 10, "game").unwrap_err();
        assert!(e.is::<Stopped>());
        assert_eq!(
            e.to_string(),
            "stopped by Ctrl-C: the report covers the 3 played of 10 games"
        );
    }

    #[test]
    fn missing_arguments_are_named_on_one_line() {
        let rendered = "error: the following required arguments were not provided:\n  --window <K>\n  --input <FILE>\n\nUsage: arcade median --window <K>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            clap_line(rendered),
            "error: the following required arguments were not provided: --window <K> --input <FILE>"
        );
    }

    #[test]
    fn ranges_read_as_words() {
        let line = |t: &str| plain_parse_errors(t);
        assert_eq!(
            line("error: invalid value '2000' for '--moves <N>': 2000 is not in 1..=1000"),
            "error: invalid value '2000' for '--moves <N>': expected a whole number from 1 to 1000"
        );
        assert_eq!(
            line("error: invalid value '0' for '--column <N>': 0 is not in 1..=4294967295"),
            "error: invalid value '0' for '--column <N>': expected a whole number from 1"
        );
        assert_eq!(
            line("error: invalid value '9' for '--x <N>': 9 is not in 3..9"),
            "error: invalid value '9' for '--x <N>': expected a whole number from 3 to 8"
        );
        assert_eq!(
            line("error: invalid value 'abc' for '--moves <N>': invalid digit found in string"),
            "error: invalid value 'abc' for '--moves <N>': expected a whole number (digits only)"
        );
        let other = "error: invalid value 'x' for '--ai <AI>': not in the list";
        assert_eq!(line(other), other);
    }

    #[test]
    fn tips_are_kept_on_the_same_line() {
        let rendered = "error: unexpected argument '--jsn' found\n\n  tip: a similar argument exists: '--json'\n\nUsage: arcade tetris play [OPTIONS]\n";
        assert_eq!(
            clap_line(rendered),
            "error: unexpected argument '--jsn' found (tip: a similar argument exists: '--json')"
        );
    }

    #[test]
    fn an_unknown_option_points_to_the_commands_help() {
        let rendered = "error: unexpected argument '--at' found\n\n  tip: to pass '--at' as a value, use '-- --at'\n\nUsage: arcade geek replay <RECORD>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            clap_line(rendered),
            "error: unexpected argument '--at' found (tip: `arcade geek replay --help` lists its options)"
        );
        let rendered =
            "error: unexpected argument '--frob' found\n\nUsage: arcade tetris play [OPTIONS]\n";
        assert_eq!(
            clap_line(rendered),
            "error: unexpected argument '--frob' found (tip: `arcade tetris play --help` lists its options)"
        );
    }

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read checkpoint x.json: {source}")]
    struct Echoes {
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn a_cause_is_printed_once() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        // The cause is in the message already: once.
        let e = anyhow::Error::new(Echoes { source: io() });
        assert_eq!(
            chain_text(&e),
            "cannot read checkpoint x.json: no such file"
        );
        let bad = bad_input(anyhow::Error::new(Echoes { source: io() }));
        assert_eq!(
            chain_text(&bad),
            "cannot read checkpoint x.json: no such file"
        );
        // A context that does not repeat its cause gets it appended.
        let e = anyhow::Error::new(io()).context("cannot read x.csv");
        assert_eq!(chain_text(&e), "cannot read x.csv: no such file");
    }

    #[test]
    fn messages_are_folded_escaped_and_cut() {
        assert_eq!(one_line("a\nb\r\n\nc"), "a; b; c");
        assert_eq!(one_line("bad \x1b[31mred"), "bad \\u{1b}[31mred");
        let long = one_line(&"x".repeat(10_000));
        assert!(long.starts_with(&"x".repeat(MAX_ERROR_CHARS)));
        assert!(long.ends_with("… (9500 more characters)"), "{long}");
    }
}
