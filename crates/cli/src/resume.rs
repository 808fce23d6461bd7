//! `--resume` continues a saved run with the settings it was saved with, so
//! options that would change them have no effect. This names the ones given,
//! so that `--resume --beam 5000` is not taken for a wider search.

use clap::ArgMatches;
use clap::parser::ValueSource;

/// Options (clap ids) that still act on a resumed run: where it is saved and
/// written, how long it goes on, its threads and its output.
const ACTIVE_ON_RESUME: &[&str] = &[
    "resume",
    "checkpoint",
    "checkpoint_every",
    "out",
    "generations",
    "seconds",
    "name",
    "threads",
    "quiet",
    "json",
];

/// The options given on the command line that a `--resume` run does not
/// use, as `--long` names; empty when the command is not a resume.
pub fn unused_options(command: &clap::Command, matches: &ArgMatches) -> Vec<String> {
    let (command, matches) = leaf(command, matches);
    let resuming = matches!(matches.try_get_one::<bool>("resume"), Ok(Some(true)));
    if !resuming {
        return Vec::new();
    }
    command
        .get_arguments()
        .filter(|a| !ACTIVE_ON_RESUME.contains(&a.get_id().as_str()))
        .filter(|a| matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
        .collect()
}

/// The sub-command that runs, with its matches.
fn leaf<'a>(
    mut command: &'a clap::Command,
    mut matches: &'a ArgMatches,
) -> (&'a clap::Command, &'a ArgMatches) {
    while let Some((name, sub)) = matches.subcommand() {
        match command.find_subcommand(name) {
            Some(next) => (command, matches) = (next, sub),
            None => break,
        }
    }
    (command, matches)
}

/// The warning for [`unused_options`], if any.
pub fn warning(unused: &[String]) -> Option<String> {
    (!unused.is_empty()).then(|| {
        format!(
            "warning: --resume continues the checkpoint's run with its saved settings; \
             not used: {}",
            unused.join(", ")
        )
    })
}
