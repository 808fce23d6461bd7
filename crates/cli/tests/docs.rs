//! The commands the documentation shows exist: every `arcade` command line in
//! README.md and docs/ names a real subcommand and only options its `--help`
//! lists, so a renamed option cannot leave the docs behind; and every
//! relative link reaches a real file and heading.

use crate::common::{arcade, stdout};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// README.md, docs/*.md and docs/results/*.md.
fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "docs/results"] {
        let mut md: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("read the docs folder")
            .map(|e| e.expect("a docs entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        md.sort();
        files.extend(md);
    }
    files
}

/// The command lines of a Markdown file: the lines of its fenced code blocks
/// (a trailing `\` joins the next line on) and its inline code spans.
fn command_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            pending.push_str(line.trim_end().trim_end_matches('\\'));
            pending.push(' ');
            if !line.trim_end().ends_with('\\') {
                lines.push(std::mem::take(&mut pending));
            }
        } else {
            lines.extend(line.split('`').skip(1).step_by(2).map(str::to_owned));
        }
    }
    lines
}

/// The arguments after `arcade` (or `cargo run … --`) on a line, up to a
/// shell comment, pipe or redirection; `None` if the line runs no command.
fn arcade_args(line: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words.iter().position(|w| {
        *w == "arcade" || w.ends_with("/arcade") || *w == "--" && words.contains(&"run")
    })?;
    let args = words[start + 1..]
        .iter()
        .take_while(|w| !matches!(**w, "#" | "|" | ">" | "2>" | "&&" | ";" | "<"))
        .copied()
        .collect();
    Some(args)
}

/// `arcade WORDS --help`, asked once per command.
struct Helps(HashMap<Vec<String>, Option<String>>);

impl Helps {
    fn get(&mut self, words: &[&str]) -> Option<&str> {
        let key: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        self.0
            .entry(key)
            .or_insert_with(|| {
                let mut args = words.to_vec();
                args.push("--help");
                let o = arcade(&args);
                o.status.success().then(|| stdout(&o))
            })
            .as_deref()
    }
}

/// Whether `help` lists the long option `flag` (at the start of an option line).
fn lists_option(help: &str, flag: &str) -> bool {
    help.lines().any(|l| {
        let l = l.trim_start();
        let l = l
            .split_once(", ")
            .filter(|(s, _)| s.len() == 2)
            .map_or(l, |(_, r)| r);
        l.strip_prefix(flag)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '=', '<', ',']))
    })
}

#[test]
fn documented_commands_name_real_options() {
    let mut helps = Helps(HashMap::new());
    let top = helps.get(&[]).expect("arcade --help").to_owned();
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    assert!(commands.len() >= 9, "{commands:?}");
    let (mut checked, mut lines_seen) = (0, 0);
    let mut wrong = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("read a doc");
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for line in command_lines(&text) {
            let Some(args) = arcade_args(&line) else {
                continue;
            };
            // Prose that happens to follow the word "arcade" is not a command.
            let Some(first) = args.first().filter(|a| commands.iter().any(|c| c == *a)) else {
                continue;
            };
            lines_seen += 1;
            let mut path = vec![*first];
            if let Some(second) = args.get(1).filter(|a| !a.starts_with('-'))
                && helps.get(&[*first, *second]).is_some()
            {
                path.push(*second);
            }
            let help = helps
                .get(&path)
                .expect("a listed command has --help")
                .to_owned();
            for arg in &args[path.len()..] {
                let Some(flag) = arg
                    .strip_prefix("--")
                    .map(|_| arg.split('=').next().unwrap())
                else {
                    continue;
                };
                if flag.len() <= 2 || !flag[2..].starts_with(|c: char| c.is_ascii_lowercase()) {
                    continue;
                }
                checked += 1;
                if !lists_option(&help, flag) {
                    wrong.push(format!(
                        "{name}: `arcade {}` has no {flag}: {line}",
                        path.join(" ")
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The scan really read the docs: hundreds of command lines and options.
    assert!(
        lines_seen > 150 && checked > 250,
        "{lines_seen} lines, {checked} options"
    );
}

#[test]
fn the_option_check_tells_real_options_from_others() {
    let help = "Options:\n      --beam <B>\n          Width\n  -q, --quiet\n          No bar\n      --json\n";
    assert!(lists_option(help, "--beam"));
    assert!(lists_option(help, "--quiet"));
    assert!(lists_option(help, "--json"));
    assert!(!lists_option(help, "--bea"));
    assert!(!lists_option(help, "--width"));
    assert_eq!(
        arcade_args("cargo run --release -- tetris play --watch   # watch"),
        Some(vec!["tetris", "play", "--watch"])
    );
    assert_eq!(
        arcade_args("target/release/arcade geek replay r.txt > out.txt"),
        Some(vec!["geek", "replay", "r.txt"])
    );
    assert_eq!(arcade_args("cargo build --release"), None);
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and
/// `_` dropped, each space a hyphen.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks), with
/// GitHub's `-1`, `-2` suffixes for repeated ones.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !in_block) else {
            continue;
        };
        let base = slug(heading.trim_start_matches('#'));
        let n = seen.entry(base.clone()).or_default();
        out.push(match *n {
            0 => base.clone(),
            k => format!("{base}-{k}"),
        });
        *n += 1;
    }
    out
}

/// The relative link targets of a Markdown file: `](target)`, without a
/// scheme (`https:`, `mailto:`).
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        if !target.contains(':') && !target.is_empty() && !target.contains(' ') {
            links.push(target.to_string());
        }
        rest = &rest[end..];
    }
    links
}

#[test]
fn documented_links_reach_real_files_and_headings() {
    let (mut files, mut with_anchor) = (0, 0);
    for doc in doc_files() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for link in relative_links(&text) {
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = match path {
                "" => doc.clone(),
                path => doc.parent().unwrap().join(path),
            };
            assert!(
                target.exists(),
                "{}: link {link:?}: no such file",
                doc.display()
            );
            files += 1;
            if !anchor.is_empty() {
                let headings = anchors(&std::fs::read_to_string(&target).unwrap());
                assert!(
                    headings.iter().any(|h| h == anchor),
                    "{}: link {link:?}: no such heading in {}",
                    doc.display(),
                    target.display()
                );
                with_anchor += 1;
            }
        }
    }
    eprintln!("{files} links checked, {with_anchor} with a heading");
    assert!(with_anchor >= 20, "only {with_anchor} links to a heading");
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" `arcade flappy train | eval | play | bench | kernel`"),
        "arcade-flappy-train--eval--play--bench--kernel"
    );
    assert_eq!(
        anchors("# A\n```\n# not a heading\n```\n## A\n"),
        ["a", "a-1"]
    );
}
