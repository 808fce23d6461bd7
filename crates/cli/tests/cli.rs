//! End-to-end checks of the `arcade` binary: exit statuses, one-line errors,
//! JSON keys, and that tuned weights load back as an AI.

use crate::common::{TempDir, arcade, assert_bad_input, json, repo_file, stderr, stdout, temp_dir};

#[test]
fn malformed_board_unknown_ai_and_weights_typo_exit_2_with_one_line() {
    assert_bad_input(
        &["tetris", "bench", "--ai", "bcts", "--board", "10by20"],
        "expected WIDTHxHEIGHT",
    );
    assert_bad_input(
        &["tetris", "bench", "--ai", "bcts", "--board", "10x40"],
        "height 40 is out of range",
    );
    // A size too large for a machine word is out of range, not "not a number".
    assert_bad_input(
        &[
            "tetris",
            "bench",
            "--ai",
            "bcts",
            "--board",
            "99999999999999999999x20",
        ],
        "width 99999999999999999999 is out of range",
    );
    assert_bad_input(
        &["tetris", "play", "--ai", "el_tetris"],
        "did you mean \"el-tetris\"",
    );
    let dir = temp_dir("typo");
    let file = dir.join("w.json");
    std::fs::write(&file, r#"{"features": {"holes": -7.9, "wel_sums": -3.3}}"#).unwrap();
    assert_bad_input(
        &["tetris", "bench", "--ai", file.to_str().unwrap()],
        "unknown feature \"wel_sums\" in \"features\" (did you mean \"well_sums\"?)",
    );
    // Weights whose products overflow played nonsense without a word.
    std::fs::write(&file, r#"{"features": {"holes": -1e308}}"#).unwrap();
    assert_bad_input(
        &["tetris", "bench", "--ai", file.to_str().unwrap()],
        "must have a number from -1e30 to 1e30 as its weight",
    );
    std::fs::remove_dir_all(dir).unwrap();
    // A per-game list longer than the report keeps was left out silently.
    assert_bad_input(
        &[
            "tetris",
            "bench",
            "--ai",
            "bcts",
            "--games",
            "1048577",
            "--per-game",
            "--json",
        ],
        "--per-game lists at most 1048576 results",
    );
    assert_bad_input(
        &[
            "flappy",
            "eval",
            "--policy",
            "heuristic",
            "--episodes",
            "1048577",
            "--per-episode",
            "--json",
        ],
        "--per-episode lists at most 1048576 results",
    );
}

#[test]
fn bench_json_has_the_documented_keys() {
    let bench = |extra: &[&str]| {
        let mut args = vec![
            "tetris",
            "bench",
            "--ai",
            "el-tetris",
            "--board",
            "6x8",
            "--games",
            "20",
            "--json",
        ];
        args.extend(extra);
        json(&arcade(&args))
    };
    let v = bench(&[]);
    for key in [
        "ai",
        "board",
        "games",
        "mean_lines",
        "ci95",
        "median_lines",
        "max_lines",
        "pieces",
        "pieces_per_sec",
        "seconds",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert_eq!(v["games"], 20);
    assert_eq!(v["board"], "6x8");
    let ci = v["ci95"].as_array().unwrap();
    let mean = v["mean_lines"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= mean && mean <= ci[1].as_f64().unwrap());
    // Same seed, same games.
    let again = bench(&["--threads", "1"]);
    assert_eq!(again["mean_lines"], v["mean_lines"]);
    assert_eq!(again["pieces"], v["pieces"]);
}

/// One game has no interval: it printed [m, m], as if the mean were exact.
#[test]
fn one_game_has_no_interval() {
    let args = [
        "tetris", "bench", "--ai", "bcts", "--board", "6x8", "--games", "1",
    ];
    let v = json(&arcade(&[&args[..], &["--json"]].concat()));
    assert_eq!(v["games"], 1);
    assert!(v["ci95"].is_null(), "{v}");
    let text = stdout(&arcade(&args));
    assert!(
        text.contains("1 game,") && text.contains("95% CI n/a"),
        "{text}"
    );
    let two = json(&arcade(&[
        "tetris", "bench", "--ai", "bcts", "--board", "6x8", "--games", "2", "--json",
    ]));
    assert_eq!(two["ci95"].as_array().map(Vec::len), Some(2), "{two}");
}

#[test]
fn play_reports_a_finished_game() {
    let v = json(&arcade(&[
        "tetris",
        "play",
        "--ai",
        "bcts",
        "--board",
        "8x10",
        "--seed",
        "3",
        "--max-pieces",
        "300",
        "--json",
    ]));
    assert_eq!(v["pieces"], 300);
    assert_eq!(v["end"], "piece_limit");
    let clears = v["clears"].as_array().unwrap();
    let lines: u64 = clears
        .iter()
        .enumerate()
        .map(|(i, c)| (i as u64 + 1) * c.as_u64().unwrap())
        .sum();
    assert_eq!(v["lines"].as_u64().unwrap(), lines);
}

#[test]
fn watching_into_a_file_writes_plain_frames() {
    let board = ["--board", "6x8", "--seed", "3", "--delay", "0"];
    let runs = [
        [
            &[
                "tetris",
                "play",
                "--ai",
                "bcts",
                "--max-pieces",
                "5",
                "--watch",
            ],
            &board[..],
        ]
        .concat(),
        vec![
            "mines", "play", "--level", "beginner", "--seed", "3", "--watch", "--delay", "0",
        ],
    ];
    for (args, header) in runs.iter().zip([" bcts  lines ", " move "]) {
        let o = arcade(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(
            !text.contains('\x1b'),
            "{args:?} wrote escape codes:\n{text}"
        );
        let frames = text.matches(header).count();
        assert!(frames >= 2, "{args:?}: {frames} frames in\n{text}");
    }
}

#[test]
fn tune_writes_weights_that_load_and_resume_continues() {
    let dir = temp_dir("tune");
    let out = dir.join("tuned.json");
    let out_s = out.to_str().unwrap();
    let common = [
        "tetris",
        "tune",
        "--method",
        "pso",
        "--board",
        "6x6",
        "--population",
        "6",
        "--games-per-eval",
        "2",
        "--out",
        out_s,
        "-q",
    ];
    let mut args = common.to_vec();
    args.extend(["--generations", "2"]);
    let o = arcade(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let checkpoint = dir.join("tuned.checkpoint.json");
    assert!(checkpoint.exists());
    let mut resume = common.to_vec();
    resume.extend(["--generations", "3", "--resume"]);
    let o = arcade(&resume);
    assert!(o.status.success(), "{}", stderr(&o));
    // The setup comes from the checkpoint; the flags that would change it are named.
    let warning = stderr(&o);
    let unused = warning
        .split_once("saved settings; not used: ")
        .unwrap_or_else(|| panic!("no warning: {warning}"))
        .1;
    let mut named: Vec<&str> = unused.trim().split(", ").collect();
    named.sort();
    assert_eq!(
        named,
        ["--board", "--games-per-eval", "--method", "--population"]
    );
    let ck: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(ck["history"].as_array().unwrap().len(), 3);
    let v = json(&arcade(&[
        "tetris", "bench", "--ai", out_s, "--board", "6x6", "--games", "5", "--json",
    ]));
    assert_eq!(v["ai"], "tuned");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A reader that stops early (`arcade … | head`) ends the output quietly:
/// the process dies of SIGPIPE, with no panic message on stderr.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    // Thousands of drawn frames: far more than a pipe buffer holds.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(["flappy", "play", "--policy", "heuristic", "--delay", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 1024];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    const SIGPIPE: i32 = 13;
    assert_eq!(o.status.signal(), Some(SIGPIPE), "{:?}", o.status);
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

/// A missing required option is named (clap's own message spans lines and
/// used to be cut to its first one).
#[test]
fn a_missing_required_argument_is_named_on_one_line() {
    assert_bad_input(&["median"], "--window");
    assert_bad_input(&["tiles", "solve"], "<LEVEL>");
}

/// A negative number is an invalid value for an unsigned option, not an
/// unknown argument.
#[test]
fn negative_numbers_are_invalid_values_not_unknown_arguments() {
    assert_bad_input(
        &["tetris", "play", "--ai", "bcts", "--seed", "-1"],
        "invalid value '-1' for '--seed <SEED>': expected a whole number (digits only)",
    );
    // Rust's own parse messages ("invalid digit found in string") are not shown.
    assert_bad_input(
        &[
            "jumpin",
            "generate",
            "--moves",
            "5",
            "--seed",
            "99999999999999999999",
        ],
        "': the number is too large",
    );
}

/// Each error names the option it is about, with no system error number,
/// and suggests the name a typo was likely meant to be.
#[test]
fn errors_name_their_option_and_suggest_names() {
    let dir = TempDir::new("errors-named");
    let folder = dir.path("");
    let out = dir.path("w.json");
    let saved = dir.file("saved.checkpoint.json", "{}");
    for (args, expected) in [
        // A value starting with "-" is the option's value, not an option.
        (
            &["tetris", "play", "--board", "-1x10"][..],
            "invalid value '-1x10' for '--board <WxH>'",
        ),
        (
            &["mines", "bench", "--first", "-1,0"],
            "invalid value '-1,0' for '--first <X,Y>'",
        ),
        // Checks that need two options say which.
        (
            &["mines", "bench", "--first", "99,99"],
            "--first: first click (99,99)",
        ),
        (
            &["mines", "bench", "--level", "3x3/8", "--rule", "snr"],
            "--level and --rule: 8 mines do not fit",
        ),
        (
            &[
                "tetris",
                "tune",
                "--method",
                "de",
                "--population",
                "2",
                "--spread",
                "1",
                "--out",
                &out,
            ],
            "--population must be at least 4 with --method de, not 2",
        ),
        (
            &[
                "tiles", "bench", "--layers", "2", "--types", "100", "--groups", "100",
            ],
            "--types × --groups × 3: 30000 tiles do not fit in the 61 positions of 2 layers",
        ),
        (
            &["jumpin", "hardest", "--rabbits", "0"],
            "'--rabbits <RABBITS>': expected a whole number from 1 to 4",
        ),
        (
            &["flappy", "train", "--hidden", ""],
            "for '--hidden <SIZES>': expected layer sizes",
        ),
        // A directory is not a saved run, with or without --resume.
        (
            &[
                "tetris",
                "tune",
                "--spread",
                "1",
                "--out",
                &out,
                "--checkpoint",
                &folder,
            ],
            "is a directory: name a file",
        ),
        (
            &[
                "geek",
                "solve",
                "--resume",
                "--checkpoint",
                &folder,
                "--out",
                &out,
            ],
            "is a directory: name a file",
        ),
        // System errors in plain words.
        (
            &["mines", "analyze", "no-such-position.txt"],
            "cannot read no-such-position.txt: no such file or directory",
        ),
        (&["median", "-k", "3", &folder], "is a directory"),
        // Did you mean.
        (
            &["mines", "bench", "--level", "begginer"],
            "(did you mean \"beginner\"?)",
        ),
        (
            &["mines", "battle", "--level", "contset"],
            "(did you mean \"contest\"?)",
        ),
        (
            &["mines", "battle", "--a", "greddy"],
            "(did you mean \"greedy\"?)",
        ),
        (
            &[
                "tetris",
                "tune",
                "--features",
                "hols",
                "--spread",
                "1",
                "--out",
                &out,
                "--checkpoint",
                &saved,
            ],
            // Said before the saved run that a new run would clash with.
            "(did you mean \"holes\"?)",
        ),
        (
            &[
                "geek", "tune", "--init", "bcts", "--spread", "1", "--out", &out,
            ],
            "no weights file \"bcts\"",
        ),
    ] {
        assert_bad_input(args, expected);
        let o = arcade(args);
        assert!(
            !stderr(&o).contains("(os error"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert!(!std::path::Path::new(&out).exists(), "no run started");
    // A tab delimiter, written as the word a shell makes easy to type.
    let o = arcade(&[
        "median",
        "--delimiter",
        "tab",
        "--column",
        "2",
        "-k",
        "1",
        &dir.file("t.tsv", "a\t3\n"),
    ]);
    assert_eq!(stdout(&o), "3\n", "{}", stderr(&o));
}

/// A limit of zero pieces or lines is a mistake, not a game that ends at
/// once (it used to print "0 pieces in 0.00 s" and exit 0).
#[test]
fn zero_piece_and_line_limits_are_invalid_values() {
    for verb in ["play", "bench"] {
        for option in ["--max-pieces", "--max-lines"] {
            assert_bad_input(
                &["tetris", verb, "--ai", "bcts", option, "0"],
                &format!("invalid value '0' for '{option}"),
            );
        }
    }
    assert_bad_input(
        &["tetris", "tune", "--max-lines", "0"],
        "invalid value '0' for '--max-lines",
    );
}

/// Options that silently changed or emptied the run are refused: an empty
/// sequence (a game of no pieces), preview for the player built to average
/// over the unknown piece instead, an expectation height above the board, a
/// feature named twice (tuned as two weights, saved as one).
#[test]
fn options_that_would_change_the_run_silently_are_refused() {
    assert_bad_input(
        &["tetris", "play", "--ai", "el-tetris", "--sequence", ""],
        "--sequence: no pieces",
    );
    assert_bad_input(
        &["tetris", "play", "--ai", "bcts-expect", "--preview"],
        "bcts-expect averages over the unknown next piece",
    );
    /// One short 10×20 game of BCTS averaging from height `h` on.
    fn bench_expecting_from(h: &str) -> Vec<&str> {
        let args = [
            "tetris", "bench", "--ai", "bcts", "--board", "10x20", "--games", "1",
        ];
        let mut args = args.to_vec();
        args.extend(["--max-pieces", "50", "--json", "--expect-from", h]);
        args
    }
    assert_bad_input(
        &bench_expecting_from("21"),
        "--expect-from 21: above the board's 20 rows",
    );
    assert_bad_input(
        &[
            "tetris",
            "tune",
            "--features",
            "holes,holes",
            "--out",
            "never-written.json",
        ],
        "--features: holes is named twice",
    );
    // The top row itself is allowed.
    assert_eq!(json(&arcade(&bench_expecting_from("20")))["games"], 1);
}

/// `--threads` far above the cores is capped (the run neither takes seconds
/// to start its threads nor panics building the pool).
#[test]
fn absurd_thread_counts_are_capped_or_rejected() {
    let start = std::time::Instant::now();
    let v = json(&arcade(&[
        "tetris",
        "bench",
        "--ai",
        "bcts",
        "--board",
        "6x6",
        "--games",
        "4",
        "--threads",
        "10000",
        "--json",
    ]));
    assert!(
        v["threads"].as_u64().unwrap()
            <= 4 * std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
    );
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
    assert_bad_input(
        &["tetris", "bench", "--ai", "bcts", "--threads", "4294967296"],
        "--threads",
    );
}

/// `tetris play --seed S --game I` plays game I of `tetris bench --seed S`,
/// line for line; a seed beside an explicit sequence is refused.
#[test]
fn tetris_play_game_i_is_bench_game_i() {
    let bench = json(&arcade(&[
        "tetris",
        "bench",
        "--ai",
        "dellacherie",
        "--board",
        "8x8",
        "--games",
        "6",
        "--seed",
        "9",
        "--per-game",
        "--json",
    ]));
    let lines: Vec<u64> = serde_json::from_value(bench["lines_per_game"].clone()).unwrap();
    for (i, want) in lines.iter().enumerate() {
        let i = i.to_string();
        let play = json(&arcade(&[
            "tetris",
            "play",
            "--ai",
            "dellacherie",
            "--board",
            "8x8",
            "--seed",
            "9",
            "--game",
            &i,
            "--json",
        ]));
        assert_eq!(play["lines"], *want, "game {i}");
    }
    assert!(
        lines.iter().any(|&l| l != lines[0]),
        "games differ: {lines:?}"
    );
    // Neither names a board: --game plays on bench's (it played 10×20).
    let args = ["--ai", "bcts", "--seed", "3", "--json"];
    let bench = json(&arcade(
        &[
            &["tetris", "bench", "--games", "2", "--per-game"],
            &args[..],
        ]
        .concat(),
    ));
    let play = json(&arcade(
        &[&["tetris", "play", "--game", "1"], &args[..]].concat(),
    ));
    assert_eq!(
        (&play["board"], &play["lines"]),
        (&bench["board"], &bench["lines_per_game"][1])
    );
    // `flappy eval`'s name for the list is accepted too.
    let flappy_name = json(&arcade(
        &[
            &["tetris", "bench", "--games", "2", "--per-episode"],
            &args[..],
        ]
        .concat(),
    ));
    assert_eq!(flappy_name["lines_per_game"], bench["lines_per_game"]);
    assert_bad_input(
        &[
            "tetris",
            "play",
            "--ai",
            "bcts",
            "--sequence",
            "IOT",
            "--seed",
            "3",
        ],
        "--seed",
    );
}

/// Ctrl-C on a watched game (the front page's first command, weeks long)
/// ends it as it ends an unwatched one: the report so far, exit 130 (it
/// killed the process with no report).
/// Runs `arcade ARGS` and sends it SIGINT after 1.5 s.
fn interrupted(args: &[&str]) -> std::process::Output {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: kill(2) on our own child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_on_a_watched_game_reports_it() {
    let o = interrupted(&[
        "tetris",
        "play",
        "--ai",
        "el-tetris",
        "--watch",
        "--delay",
        "1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let out = String::from_utf8_lossy(&o.stdout);
    let report = out.trim_end().lines().last().unwrap_or_default();
    assert!(
        report.starts_with("el-tetris on 10x20: ") && report.ends_with("ended: stopped"),
        "{report}"
    );
    assert!(err.contains("error: stopped by Ctrl-C: the report covers the game so far"));
}

/// Ctrl-C on a bench of 10×20 games (each hours long) stops the games
/// under way, prints the report of those started and exits 130.
#[test]
fn ctrl_c_on_a_long_bench_reports_the_games_started() {
    let o = interrupted(&[
        "tetris",
        "bench",
        "--ai",
        "bcts",
        "--board",
        "10x20",
        "--games",
        "5",
        "--threads",
        "1",
        "--json",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the report");
    assert_eq!(
        (v["games"].as_u64(), v["stopped_games"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    assert_eq!(v["capped_games"], 1);
    assert!(v["pieces"].as_u64().unwrap() >= 1 << 16, "{v}");
    let last = err.trim_end().lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "error: stopped by Ctrl-C: the report covers the 1 played of 5 games"
    );
}

/// An option renamed since it was documented names its new name (clap
/// suggested `--de-generations` for `--generator`, `--gamma` for `--games`).
#[test]
fn renamed_options_name_their_new_names() {
    assert_bad_input(
        &[
            "tiles",
            "bench",
            "--layers",
            "5",
            "--generator",
            "construct",
        ],
        "--generator is now --method",
    );
    assert_bad_input(
        &["flappy", "train", "--method", "pg", "--games", "16"],
        "--games is now --envs",
    );
}

/// The command tour's examples read the files in `data/examples/` (they
/// named files no clone has), and each does what the tour says.
#[test]
fn the_documented_example_inputs_work() {
    let example = |name: &str| repo_file(&format!("data/examples/{name}"));
    let position = example("mines-position.txt");
    let report = json(&arcade(&["mines", "analyze", &position, "--json"]));
    assert_eq!(
        (report["width"].as_u64(), report["mines"].as_u64()),
        (Some(16), Some(40))
    );
    assert!(!report["safe"].as_array().unwrap().is_empty());
    let puzzle = example("jumpin-puzzle.txt");
    assert_eq!(
        json(&arcade(&["jumpin", "solve", &puzzle, "--json"]))["moves"],
        20
    );
    let prices = example("prices.csv");
    let o = arcade(&[
        "median", "--window", "5", &prices, "--column", "2", "--header",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 60 - 4);
    let dir = TempDir::new("example-sketch");
    let out = dir.path("sketch.png");
    let o = arcade(&["sketch", &example("photo.png"), &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata(&out).unwrap().len() > 0);
}
