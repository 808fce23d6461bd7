//! End-to-end checks of `arcade geek`: the published record replays to its
//! score, broken records are one-line errors, and what `solve` writes replays
//! to the score it prints.

use crate::common::{
    TempDir, TempFile, arcade, assert_bad_input, data_file, json, repo_file, stderr,
};
use std::process::{Command, Stdio};

#[test]
fn replay_scores_the_published_record() {
    let path = data_file("geek-tetris/record-1378178.txt");
    let out = json(&arcade(&["geek", "replay", &path, "--json"]));
    assert_eq!(out["score"], 1_378_178);
    assert_eq!(out["pieces"], 10_000);
    assert_eq!(out["end"], "piece_limit");
    let clears: Vec<u64> = serde_json::from_value(out["clears"].clone()).unwrap();
    assert_eq!(clears.len(), 4);
}

#[test]
fn broken_records_name_the_token_and_exit_2() {
    let bad_op = TempFile::new("geek-bad-op", "N,D19,X3\n");
    assert_bad_input(&["geek", "replay", bad_op.path()], "token 3");
    let too_long = TempFile::new("geek-too-long", "N,D60,L41\n");
    assert_bad_input(&["geek", "replay", too_long.path()], "more than 100");
    assert_bad_input(&["geek", "replay", "/nonexistent/record.txt"], "record.txt");
    // A start past the record's end drew nothing and said nothing.
    let two = TempFile::new("geek-two", "N,D19,N,D18");
    assert_bad_input(
        &["geek", "watch", two.path(), "--at", "2"],
        "--at must be at most 1 (the record has 2 pieces), not 2",
    );
    // The old name still works.
    assert_bad_input(
        &["geek", "watch", two.path(), "--from", "2"],
        "--at must be at most 1",
    );
    // --at 1 places the first piece silently and draws from the second.
    let drawn = String::from_utf8(
        arcade(&["geek", "watch", two.path(), "--at", "1", "--delay", "0"]).stdout,
    )
    .unwrap();
    assert!(drawn.contains("piece     2/10000"), "{drawn}");
    assert!(!drawn.contains("piece     1/10000"), "{drawn}");
}

/// A record shipped in `crates/tetris/records/`.
fn record_file(name: &str) -> String {
    repo_file(&format!("crates/tetris/records/{name}"))
}

#[test]
fn splice_joins_two_records_into_the_shipped_best() {
    let dir = TempDir::new("geek-splice");
    let out = dir.path("best.txt");
    let (wide, ended) = (
        record_file("geek-1428170.txt"),
        record_file("geek-1428140.txt"),
    );
    let report = json(&arcade(&[
        "geek", "splice", &wide, &ended, "--out", &out, "--json",
    ]));
    assert_eq!(report["score"], 1_428_236);
    assert_eq!(report["inputs"][0]["score"], 1_428_170);
    assert_eq!(report["stretches"][0]["first"], 1);
    assert_eq!(report["stretches"][1]["last"], 10_000);
    let best = std::fs::read_to_string(record_file("geek-1428236.txt")).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), best);
    let text = String::from_utf8(arcade(&["geek", "splice", &wide, &ended, "--out", &out]).stdout)
        .unwrap();
    let stretch = text
        .lines()
        .find(|l| l.starts_with("  pieces 9500–10000: "));
    assert!(
        stretch.is_some_and(|l| l.ends_with("geek-1428140.txt")),
        "{text}"
    );
    // A game that ends early is named; one record is not enough.
    let short = TempFile::new("geek-short", "N,D19\n");
    assert_bad_input(
        &["geek", "splice", &wide, short.path(), "--out", &out],
        "not at the 10,000th",
    );
    assert_bad_input(
        &["geek", "splice", &wide, "--out", &out],
        "2 values required",
    );
    // Standard input holds one record: a second `-` read nothing.
    assert_bad_input(
        &["geek", "splice", "-", "-", "--out", &out],
        "only one RECORD can be -",
    );
    // Splicing into one of its records (the default --out of solve and
    // splice alike) replaced it without a word.
    let copy = dir.path("mine.txt");
    std::fs::copy(&ended, &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    assert_bad_input(
        &["geek", "splice", &wide, &copy, "--out", &copy],
        "one of the records spliced",
    );
    assert_eq!(std::fs::read(&copy).unwrap(), before);
}

#[test]
fn solve_from_a_records_opening_keeps_it() {
    let dir = TempDir::new("geek-from");
    let (first, second) = (dir.path("first.txt"), dir.path("second.txt"));
    let base = ["geek", "solve", "--beam", "8", "--pieces", "120", "--json"];
    json(&arcade(&[&base[..], &["--out", &first]].concat()));
    let from = ["--from", &first, "--at", "100", "--out", &second];
    let solved = json(&arcade(&[&base[..], &from[..]].concat()));
    assert_eq!(solved["pieces"], 120);
    let a = std::fs::read_to_string(&first).unwrap();
    let b = std::fs::read_to_string(&second).unwrap();
    // Each piece's operations start with N: the first 100 pieces agree.
    let opening = |t: &str| t.split('N').take(101).collect::<Vec<_>>().join("N");
    assert_eq!(opening(&a), opening(&b));
    assert_bad_input(
        &[
            "geek", "solve", "--from", &first, "--at", "500", "--out", &second,
        ],
        "fewer than the 500",
    );
    assert_bad_input(
        &[
            "geek", "solve", "--from", &first, "--at", "120", "--pieces", "120", "--out", &second,
        ],
        "--at must be less than --pieces (120), not 120",
    );
    // A malformed record names its problem once (the chain once printed it twice).
    let junk = TempFile::new("geek-junk", "X1\n");
    let o = arcade(&[
        "geek",
        "solve",
        "--from",
        junk.path(),
        "--at",
        "5",
        "--out",
        &second,
    ]);
    assert_eq!(
        stderr(&o).matches("must start with N").count(),
        1,
        "{}",
        stderr(&o)
    );
}

#[test]
fn solve_writes_a_record_that_replays_to_its_score() {
    let dir = TempDir::new("geek-solve");
    let record = dir.path("record.txt");
    let args = [
        "geek", "solve", "--beam", "16", "--pieces", "300", "--moves", "reach", "--float",
    ];
    let solved = json(&arcade(
        &[&args[..], &["--out", &record, "--json"]].concat(),
    ));
    for key in ["score", "seconds", "beam", "moves", "float", "record"] {
        assert!(solved.get(key).is_some(), "missing {key}: {solved}");
    }
    assert_eq!(solved["moves"], "reach");
    assert_eq!(solved["float"], true);
    let replayed = json(&arcade(&["geek", "replay", &record, "--json"]));
    assert_eq!(replayed["score"], solved["score"]);
    assert_eq!(replayed["pieces"], 300);
    assert!(solved["score"].as_u64().unwrap() > 0);
}

/// `--json` is about stdout: the rounds' status lines stay on stderr (a long
/// `--json` run showed nothing at all before); `--quiet` hides them.
#[test]
fn json_keeps_the_status_lines_and_quiet_hides_them() {
    let dir = TempDir::new("geek-status");
    let record = dir.path("record.txt");
    let args = [
        "geek",
        "solve",
        "--beam",
        "8",
        "--pieces",
        "100",
        "--seconds",
        "1",
        "--out",
        &record,
    ];
    let with_json = arcade(&[&args[..], &["--json"]].concat());
    assert!(json(&with_json)["score"].as_u64().unwrap() > 0);
    assert!(
        stderr(&with_json).contains("beam      8  score"),
        "{}",
        stderr(&with_json)
    );
    let quiet = arcade(&[&args[..], &["--json", "--quiet"]].concat());
    assert_eq!(stderr(&quiet), "");
}

#[test]
fn tune_at_several_widths_scores_the_mean_and_reports_them() {
    let dir = TempDir::new("geek-tune-widths");
    let out = dir.path("w.json");
    let several = json(&arcade(&[
        "geek",
        "tune",
        "--beam",
        "3,5",
        "--pieces",
        "60",
        "--population",
        "4",
        "--generations",
        "1",
        "--out",
        &out,
        "--json",
        "-q",
    ]));
    assert_eq!(several["beams"], serde_json::json!([3, 5]));
    // The best candidate's weights, scored by `solve` at each width, give
    // the mean the report claims.
    let solve = |beam: &str| {
        let record = dir.path(&format!("r{beam}.txt"));
        json(&arcade(&[
            "geek",
            "solve",
            "--beam",
            beam,
            "--pieces",
            "60",
            "--reserve",
            "4",
            "--weights",
            &out,
            "--out",
            &record,
            "--json",
        ]))["score"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(
        several["score"].as_f64().unwrap(),
        (solve("3") + solve("5")) / 2.0
    );
    let widths = vec!["2"; 17].join(",");
    assert_bad_input(
        &[
            "geek",
            "tune",
            "--beam",
            &widths,
            "--out",
            &dir.path("x.json"),
        ],
        "1 to 16 beam widths",
    );
}

#[test]
fn a_beam_of_zero_is_refused() {
    let o = arcade(&["geek", "solve", "--beam", "0", "--pieces", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Issue 30 regression tests for `geek` and `tetris`.
mod hardening {
    use crate::common::{TempDir, arcade, assert_bad_input, data_file, stderr};
    use std::process::{Command, Stdio};

    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tetris/tests/fixtures")
            .join(name);
        assert!(path.exists(), "missing fixture {}", path.display());
        path.to_str().unwrap().to_string()
    }

    /// Item 2: a full disk is one line and exit 1, never a panic.
    #[test]
    fn writing_to_a_full_disk_is_one_line_and_exit_1() {
        let full = std::path::Path::new("/dev/full");
        assert!(full.exists(), "this test needs /dev/full");
        let record = data_file("geek-tetris/record-1378178.txt");
        for args in [
            vec!["geek", "replay", record.as_str()],
            vec![
                "tetris", "bench", "--ai", "bcts", "--games", "3", "--board", "6x6", "--quiet",
            ],
            vec![
                "tetris", "play", "--ai", "bcts", "--board", "6x6", "--quiet",
            ],
        ] {
            let o = Command::new(env!("CARGO_BIN_EXE_arcade"))
                .args(&args)
                .stdin(Stdio::null())
                .stdout(std::fs::File::create(full).unwrap())
                .output()
                .unwrap();
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains("error: writing to standard output"),
                "{args:?}: {err}"
            );
        }
    }

    /// Items 3 and 5: absurd sizes and times are parse errors.
    #[test]
    fn absurd_counts_and_times_are_rejected_at_parse_time() {
        let bench = ["tetris", "bench", "--ai", "bcts", "--games"];
        assert_bad_input(&[&bench[..], &["18446744073709551615"]].concat(), "--games");
        for cmd in [
            &["tetris", "tune", "--out", "x.json"][..],
            &["geek", "tune", "--out", "x.json"],
        ] {
            assert_bad_input(
                &[cmd, &["--population", "4294967296"]].concat(),
                "--population",
            );
        }
        for bad in ["nan", "inf", "-1"] {
            assert_bad_input(&["geek", "solve", "--seconds", bad], "--seconds");
        }
        assert_bad_input(&["geek", "solve", "--stage-share", "nan"], "--stage-share");
        assert_bad_input(&["geek", "solve", "--beam", "0"], "--beam");
    }

    /// Item 3: a huge game count streams (memory does not grow with it);
    /// stopped after a moment, it has not aborted.
    #[test]
    fn a_huge_game_count_streams_instead_of_aborting() {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arcade"))
            .args(["tetris", "bench", "--ai", "bcts", "--games", "4294967296"])
            .args(["--max-pieces", "200", "--quiet", "--threads", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_secs(2));
        assert!(child.try_wait().unwrap().is_none(), "bench ended early");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// Item 6: the reproducers are exit 2 with what is wrong.
    #[test]
    fn edited_checkpoints_are_exit_2_with_the_reason() {
        let dir = TempDir::new("geek-resume");
        let out = dir.path("r.txt");
        for (file, reason) in [
            ("geek-solve-resume-empty-beam.json", "the beam is empty"),
            ("geek-solve-resume-parent-oob.json", "out of range"),
        ] {
            let ck = fixture(file);
            assert_bad_input(
                &[
                    "geek",
                    "solve",
                    "--resume",
                    "--checkpoint",
                    &ck,
                    "--out",
                    &out,
                ],
                reason,
            );
        }
        let ck = fixture("tetris-tune-resume-height.checkpoint.json");
        let t = dir.path("t.json");
        let args = [
            "tetris",
            "tune",
            "--resume",
            "--checkpoint",
            &ck,
            "--out",
            &t,
        ];
        assert_bad_input(&args, "board height 4294967296");
        let g = dir.path("g.json");
        std::fs::copy(
            fixture("geek-tune-resume-short-mean.checkpoint.json"),
            dir.path("g.checkpoint.json"),
        )
        .unwrap();
        assert_bad_input(&["geek", "tune", "--resume", "--out", &g], "mean has");
    }

    /// Item 7: a checkpoint named `*.tmp` is saved through another file and
    /// loads; a user's files beside it are untouched.
    #[test]
    fn a_tmp_checkpoint_is_saved_safely() {
        let dir = TempDir::new("geek-ck-tmp");
        let ck = dir.path("ck.tmp");
        let mine = dir.path("ck.partial");
        std::fs::write(&mine, "mine").unwrap();
        let out = dir.path("r.txt");
        let args = ["geek", "solve", "--beam", "4", "--pieces", "60", "--quiet"];
        let more = [
            "--checkpoint",
            &ck,
            "--checkpoint-every",
            "20",
            "--out",
            &out,
        ];
        let o = arcade(&[&args[..], &more].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "mine");
        let resumed = arcade(&[
            "geek",
            "solve",
            "--resume",
            "--checkpoint",
            &ck,
            "--out",
            &out,
            "--quiet",
        ]);
        assert!(resumed.status.success(), "{}", stderr(&resumed));
        let names: Vec<_> = std::fs::read_dir(std::path::Path::new(&ck).parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            names.iter().all(|n| !n.contains("arcade-checkpoint")),
            "{names:?}"
        );
    }

    /// Item 8: a bad --out or --checkpoint fails before any search.
    #[test]
    fn output_paths_are_checked_before_the_search() {
        let start = std::time::Instant::now();
        let bad = "/nonexistent-arcade-dir/record.txt";
        assert_bad_input(
            &["geek", "solve", "--seconds", "3600", "--out", bad],
            "nonexistent-arcade-dir",
        );
        let args = ["geek", "solve", "--checkpoint", bad, "--out", "/tmp/x"];
        let no_dir = format!("error: cannot write {bad}: no directory /nonexistent-arcade-dir");
        assert_bad_input(&args, &no_dir);
        // Resuming from a checkpoint that is not there is a read error.
        let resume = [
            "geek",
            "solve",
            "--checkpoint",
            bad,
            "--resume",
            "--out",
            "/tmp/x",
        ];
        assert_bad_input(&resume, &format!("error: cannot read checkpoint {bad}: "));
        assert_bad_input(&["tetris", "tune", "--out", bad], "nonexistent-arcade-dir");
        assert!(start.elapsed().as_secs() < 5);
    }

    /// Item 10: a weights file is read with a size limit.
    #[test]
    fn an_endless_weights_file_is_a_bounded_error() {
        assert_bad_input(&["tetris", "play", "--ai", "/dev/zero"], "larger than");
        assert_bad_input(&["geek", "solve", "--weights", "/dev/zero"], "larger than");
    }
}

/// Ctrl-C stops a search cleanly: the search is saved where it stopped, the
/// line says how to go on, and the status is 130.
#[test]
fn ctrl_c_saves_the_search_and_says_how_to_resume() {
    // One Ctrl-C; and one stop delivered twice at once, as GNU `timeout`
    // does (it signals the process and then its group).
    for signals in [&[libc::SIGINT][..], &[libc::SIGTERM, libc::SIGTERM]] {
        let dir = TempDir::new("geek-interrupt");
        let (ck, rec) = (dir.path("stopped.ckpt.json"), dir.path("record.txt"));
        let o = stop_a_wide_search(&ck, &rec, signals);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(130), "{signals:?}: {err}");
        let last = err.trim_end().lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: interrupted after piece "),
            "{signals:?}: {err}"
        );
        let resume = format!("`arcade geek solve --checkpoint {ck} --resume --out {rec}`");
        assert!(last.ends_with(&resume), "{signals:?}: {err}");
        let saved = std::path::Path::new(&ck).exists() && !std::path::Path::new(&rec).exists();
        assert!(saved, "{signals:?}: {err}");
    }
}

/// Starts a search of about a minute that checkpoints to `ck`, sends it
/// `signals` back to back after 1.5 s (it is still running then), and
/// returns its output.
fn stop_a_wide_search(ck: &str, rec: &str, signals: &[libc::c_int]) -> std::process::Output {
    let args = [
        "geek",
        "solve",
        "--beam",
        "20000",
        "--moves",
        "reach",
        "--float",
        "--checkpoint",
        ck,
        "--out",
        rec,
    ];
    crate::common::arcade_signalled(&args, 1500, signals)
}

/// Runs `arcade ARGS`, sends SIGINT once a line of its stderr satisfies
/// `ready`, and returns its exit status and every stderr line.
fn interrupt_when(args: &[&str], ready: impl Fn(&str) -> bool) -> (Option<i32>, Vec<String>) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let go = ready(&line);
        seen.push(line);
        if go {
            break;
        }
    }
    // SAFETY: kill(2) on our own child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    seen.extend(lines.map(|l| l.unwrap()));
    (child.wait().unwrap().code(), seen)
}

/// Ctrl-C in a later round of `--seconds`: the best finished round's record
/// is in `--out` already, and the round that was cut goes on into a file of
/// its own (a wider beam does not always score more).
#[test]
fn ctrl_c_in_a_later_round_keeps_the_finished_record() {
    let dir = TempDir::new("geek-interrupt-round");
    let (ck, rec) = (dir.path("r.ckpt.json"), dir.path("record.txt"));
    let args = [
        "geek",
        "solve",
        "--seconds",
        "600",
        "--beam",
        "100",
        "--pieces",
        "3000",
        "--moves",
        "reach",
        "--float",
        "--checkpoint",
        &ck,
        "--out",
        &rec,
    ];
    // After the first round's line: the signal lands in the second, and the
    // first round's record was written before its line.
    let first = std::cell::RefCell::new(None);
    let (status, seen) = interrupt_when(&args, |line| {
        let done = line.contains("score");
        if done {
            *first.borrow_mut() = std::fs::read_to_string(&rec).ok();
        }
        done
    });
    let err = seen.join("\n");
    assert_eq!(status, Some(130), "{err}");
    let last = seen.last().cloned().unwrap_or_default();
    assert!(
        last.contains("holds the best finished round's record"),
        "{err}"
    );
    let round = dir.path("record-beam200.txt");
    assert!(last.contains(&format!("--resume --out {round}`")), "{err}");
    let first = first
        .into_inner()
        .expect("the first round's record is saved");
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), first, "{err}");
}

#[test]
fn a_checkpoint_cannot_be_the_result_file() {
    let dir = TempDir::new("geek-same-file");
    let same = dir.path("run.json");
    for args in [
        vec!["geek", "solve", "--beam", "4", "--pieces", "10"],
        vec!["tetris", "tune", "--generations", "1"],
    ] {
        let mut args = args.clone();
        args.extend(["--checkpoint", &same, "--out", &same]);
        assert_bad_input(&args, "--checkpoint and --out name the same file");
    }
}

/// A beam the free memory cannot hold is refused before the search (it
/// would end in a failed allocation, an abort that saves nothing).
#[test]
fn a_beam_past_the_free_memory_is_refused() {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let free_kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(u64::MAX);
    // 10^7 fields need about 80 GB; on a machine with that much free, skip.
    if free_kib < 70_000_000 {
        assert_bad_input(
            &["geek", "solve", "--beam", "10000000", "--pieces", "5"],
            "GB free here",
        );
        // The reserve is kept beside the beam: it counts too.
        assert_bad_input(
            &[
                "geek",
                "solve",
                "--beam",
                "1000",
                "--reserve",
                "10000000",
                "--pieces",
                "5",
            ],
            "(with a reserve of 10000000) needs about",
        );
    }
}

/// Ctrl-C in a tuning run ends it at once with the command that resumes it.
#[test]
fn ctrl_c_in_a_tuning_run_says_how_to_resume() {
    let dir = TempDir::new("tune-interrupt");
    let out = dir.path("w.json");
    let args = [
        "tetris",
        "tune",
        "--board",
        "8x8",
        "--generations",
        "200",
        "--out",
        &out,
    ];
    let (status, seen) = interrupt_when(&args, |line| line.starts_with("gen 2/"));
    let err = seen.join("\n");
    assert_eq!(status, Some(130), "{err}");
    let ck = dir.path("w.checkpoint.json");
    let resume = format!("`arcade tetris tune --checkpoint {ck} --resume --out {out}`");
    assert!(seen.last().unwrap().ends_with(&resume), "{err}");
    assert!(std::path::Path::new(&ck).exists(), "{err}");
}

/// `--resume` goes on with the saved settings: a wider `--beam` given with it
/// changes nothing but is named in a warning, as are the other search flags.
#[test]
fn resume_names_the_search_options_it_does_not_use() {
    let dir = TempDir::new("geek-resume-unused");
    let ck = dir.path("ck.json");
    let start = [
        "geek",
        "solve",
        "--beam",
        "4",
        "--pieces",
        "60",
        "--checkpoint",
        &ck,
        "--checkpoint-every",
        "20",
        "--json",
    ];
    let first = json(&arcade(
        &[&start[..], &["--out", &dir.path("a.txt")]].concat(),
    ));
    let resume = ["geek", "solve", "--checkpoint", &ck, "--resume", "--json"];
    let wider = ["--beam", "64", "--moves", "reach", "--threads", "1"];
    let o = arcade(&[&resume[..], &wider, &["--out", &dir.path("b.txt")]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let warning = stderr(&o);
    assert!(
        warning.contains("saved settings; not used: --beam, --moves\n"),
        "{warning}"
    );
    let resumed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(resumed["beam"], 4, "{resumed}");
    assert_eq!(resumed["score"], first["score"]);
    let plain = arcade(&[&resume[..], &["--out", &dir.path("c.txt")]].concat());
    assert!(!stderr(&plain).contains("warning"), "{}", stderr(&plain));
}

/// A new run over a checkpoint that already exists is refused: a forgotten
/// `--resume` must not overwrite a saved search.
#[test]
fn a_new_run_refuses_a_saved_checkpoint() {
    let dir = TempDir::new("geek-saved-checkpoint");
    let saved = dir.path("saved.json");
    std::fs::write(&saved, "{}").unwrap();
    for args in [
        vec!["geek", "solve", "--beam", "4", "--pieces", "10"],
        vec!["geek", "tune", "--beam", "4", "--pieces", "10"],
        vec!["tetris", "tune", "--generations", "1"],
    ] {
        let out = dir.path("out.txt");
        let mut args = args.clone();
        args.extend(["--checkpoint", &saved, "--out", &out]);
        assert_bad_input(
            &args,
            "already holds a saved run: add --resume to continue it",
        );
    }
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), "{}");
}

/// `--from X --out X` would replace the record by a game that may score less.
#[test]
fn a_search_from_a_record_does_not_overwrite_it() {
    let dir = TempDir::new("geek-from-out");
    let record = dir.path("best.txt");
    std::fs::copy(record_file("geek-1428236.txt"), &record).unwrap();
    assert_bad_input(
        &[
            "geek", "solve", "--from", &record, "--at", "9990", "--out", &record,
        ],
        "--out and --from name the same file",
    );
}

/// Ctrl-C before a tuning run's first generation ends: nothing is saved, and
/// the message says so instead of naming a checkpoint that does not exist.
#[test]
fn ctrl_c_before_the_first_generation_says_nothing_was_saved() {
    let dir = TempDir::new("tune-interrupt-early");
    let out = dir.path("w.json");
    let args = [
        "geek",
        "tune",
        "--beam",
        "2000",
        "--pieces",
        "10000",
        "--moves",
        "reach",
        "--float",
        "--generations",
        "2",
        "--population",
        "4",
        "--out",
        &out,
    ];
    let (status, seen) = interrupt_when(&args, |line| line.starts_with("tuning with"));
    let err = seen.join("\n");
    assert_eq!(status, Some(130), "{err}");
    assert_eq!(
        seen.last().unwrap(),
        "error: interrupted before the first generation finished: nothing was saved",
        "{err}"
    );
    assert!(!std::path::Path::new(&dir.path("w.checkpoint.json")).exists());
}
