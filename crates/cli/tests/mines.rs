//! End-to-end checks of `arcade mines`: the `analyze` JSON against hand
//! computed probabilities, one-line errors with exit status 2 for malformed
//! and impossible positions, and reproducible `bench` and `play` runs.

use crate::common::{
    TempFile, arcade, assert_bad_input, assert_full_disk_is_one_line, json, stderr,
};

use arcade_mines::{Board, Game, Level, Rule};

fn analyze_json(name: &str, text: &str) -> serde_json::Value {
    let f = TempFile::new(name, text);
    json(&arcade(&["mines", "analyze", f.path(), "--json"]))
}

/// Bad input: exit status 2 and exactly one line naming the problem.
fn assert_bad_position(name: &str, text: &str, expected: &[&str]) {
    let f = TempFile::new(name, text);
    let o = arcade(&["mines", "analyze", f.path()]);
    assert_eq!(o.status.code(), Some(2), "{text:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{text:?} printed:\n{err}"
    );
    for e in expected {
        assert!(err.contains(e), "{text:?} printed:\n{err}");
    }
}

#[test]
fn analyze_json_has_the_documented_shape() {
    // The 1 at (1,0) has its mine at (0,0) or (2,0); the total of 1 then
    // leaves (3,0) certainly safe, and the safe cell is the move.
    let v = analyze_json("line", "# one row\n4 1 1\n.1..\n");
    assert_eq!(v["width"], 4);
    assert_eq!(v["height"], 1);
    assert_eq!(v["mines"], 1);
    let row = &v["probabilities"][0];
    assert!((row[0].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!(row[1].is_null());
    assert!((row[2].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert_eq!(row[3].as_f64(), Some(0.0));
    assert_eq!(v["safe"], serde_json::json!([[3, 0]]));
    assert_eq!(v["mines_certain"], serde_json::json!([]));
    assert_eq!(v["best"], serde_json::json!([3, 0]));
    // The British spelling, as the web arena's "analyser" page has it.
    let f = TempFile::new("line_gb", "4 1 1\n.1..\n");
    let gb = json(&arcade(&["mines", "analyse", f.path(), "--json"]));
    assert_eq!(gb["probabilities"], v["probabilities"]);
    assert_eq!(gb["best"], v["best"]);
}

#[test]
fn analyze_names_a_forced_fifty_fifty() {
    // Both 1s see the two hidden cells and nothing else: one mine, and no
    // reveal can ever say which.
    let v = analyze_json("fifty", "3 2 1\n.10\n.10\n");
    assert_eq!(v["forced_fifty_fifty"], serde_json::json!([[0, 0], [0, 1]]));
    assert_eq!(v["best"], serde_json::json!([0, 0]));
    // The 1 needs a mine at (1,0) or (3,0), but revealing (0,0) would say
    // which: not forced.
    let v = analyze_json("not_fifty", "4 1 1\n..1.\n");
    assert!(v["forced_fifty_fifty"].is_null(), "{v}");
    let f = TempFile::new("fifty_text", "3 2 1\n.10\n.10\n");
    let o = arcade(&["mines", "analyze", f.path()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("forced 50/50: (0,0) (0,1)"), "{out}");
}

#[test]
fn analyze_weights_the_cells_away_from_the_numbers() {
    // 2x3 with 2 mines: the 1 at (0,0) sees (1,0),(0,1),(1,1) and holds one
    // of the mines; the other is in (0,2) or (1,2). Brute force: 3 x 2 = 6
    // arrangements, so 1/3 around the 1 and 1/2 on the bottom row.
    let v = analyze_json("rest", "2 3 2\n1.\n..\n..\n");
    let p = |x: usize, y: usize| v["probabilities"][y][x].as_f64().unwrap();
    for (x, y) in [(1, 0), (0, 1), (1, 1)] {
        assert!((p(x, y) - 1.0 / 3.0).abs() < 1e-12);
    }
    assert!((p(0, 2) - 0.5).abs() < 1e-12);
    assert!((p(1, 2) - 0.5).abs() < 1e-12);
    // The recommended guess is one of the safest cells.
    let best = &v["best"];
    let (bx, by) = (
        best[0].as_u64().unwrap() as usize,
        best[1].as_u64().unwrap() as usize,
    );
    assert!((p(bx, by) - 1.0 / 3.0).abs() < 1e-12, "best {best}");
}

#[test]
fn analyze_reports_certain_mines() {
    let v = analyze_json("mine", "3 1 1\n1..\n");
    assert_eq!(v["mines_certain"], serde_json::json!([[1, 0]]));
    assert_eq!(v["safe"], serde_json::json!([[2, 0]]));
    let text = arcade(&[
        "mines",
        "analyze",
        TempFile::new("mine2", "3 1 1\n1..\n").path(),
    ]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("best move: (2,0)"), "{out}");
    assert!(out.contains("mines: (1,0)"), "{out}");
}

#[test]
fn analyze_errors_name_the_problem() {
    // A 3 with two hidden neighbours.
    assert_bad_position(
        "three",
        "3 1 2\n.3.\n",
        &["contradiction", "the 3 at (1,0)"],
    );
    // Two separate 1s need two mines but the board holds one.
    assert_bad_position("count", "6 1 1\n.1..1.\n", &["contradiction", "mines"]);
    assert_bad_position("digit", "3 2 1\n...\n.9.\n", &["line 3", "'9'"]);
    assert_bad_position("rows", "# c\n3 2 1\n...\n", &["line 4", "expected 2 rows"]);
    assert_bad_position(
        "header",
        "3 3\n...\n",
        &["line 1", "<width> <height> <mines>"],
    );
    let o = arcade(&["mines", "analyze", "/nonexistent/position.txt"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A 100x100 board with 2,000 mines, a third of its safe cells opened by
/// scattered clicks: the probabilities must add up to the mines left (the
/// expected number of mines among the hidden cells), and the certain cells
/// must agree with the real layout.
#[test]
fn analyze_handles_a_big_board() {
    let level = Level::new(100, 100, 2000).unwrap();
    let board = Board::generate(level, Rule::None, (0, 0), 3).unwrap();
    let safe_total = 10_000 - 2000;
    let mut game = Game::new(board.clone());
    let mut opened = Vec::new();
    let mut c = 0usize;
    while game.safe_left() > safe_total * 2 / 3 {
        c = (c + 7919) % 10_000;
        if !board.is_mine(c) {
            game.reveal(c, &mut opened);
        }
    }
    let v = analyze_json("big", &game.view().to_text());
    let mut sum = 0.0;
    for (y, row) in v["probabilities"].as_array().unwrap().iter().enumerate() {
        for (x, p) in row.as_array().unwrap().iter().enumerate() {
            let i = y * 100 + x;
            match p.as_f64() {
                Some(p) => {
                    sum += p;
                    assert!(p < 1.0 || board.is_mine(i));
                    assert!(p > 0.0 || !board.is_mine(i));
                }
                None => assert!(!game.view().is_hidden(i)),
            }
        }
    }
    assert!((sum - 2000.0).abs() < 1e-6, "probabilities add up to {sum}");
    let best = &v["best"];
    let i = best[1].as_u64().unwrap() as usize * 100 + best[0].as_u64().unwrap() as usize;
    assert!(game.view().is_hidden(i));
}

#[test]
fn bench_json_is_reproducible() {
    let args = [
        "mines", "bench", "--level", "beginner", "--games", "200", "--seed", "5", "--json",
    ];
    let a = json(&arcade(&args));
    for key in [
        "level",
        "rule",
        "games",
        "wins",
        "win_rate",
        "ci95",
        "games_per_sec",
        "seconds",
    ] {
        assert!(a.get(key).is_some(), "missing {key}: {a}");
    }
    assert_eq!(a["level"], "beginner");
    assert_eq!(a["rule"], "sfar");
    assert_eq!(a["first"], serde_json::json!([0, 0]));
    assert_eq!(a["games"], 200);
    let (lo, hi) = (
        a["ci95"][0].as_f64().unwrap(),
        a["ci95"][1].as_f64().unwrap(),
    );
    let rate = a["win_rate"].as_f64().unwrap();
    assert!(lo <= rate && rate <= hi);
    let b = json(&arcade(&[&args[..], &["--threads", "1"]].concat()));
    assert_eq!(
        a["wins"], b["wins"],
        "same seed, same games, whatever the threads"
    );
    let snr = json(&arcade(&[
        "mines", "bench", "--level", "9x9/10", "--rule", "snr", "--games", "20", "--json",
    ]));
    assert_eq!(snr["first"], serde_json::json!([3, 3]));
    assert_eq!(snr["rule"], "snr");
}

#[test]
fn bench_rejects_impossible_settings() {
    for args in [
        &["mines", "bench", "--level", "9x9/90"][..],
        &[
            "mines", "bench", "--level", "3x3/2", "--rule", "snr", "--first", "1,1",
        ],
        &["mines", "bench", "--first", "40,0"],
        &["mines", "bench", "--level", "huge"],
    ] {
        let o = arcade(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn play_is_seeded() {
    let args = [
        "mines",
        "play",
        "--level",
        "intermediate",
        "--seed",
        "9",
        "--json",
    ];
    let a = json(&arcade(&args));
    let b = json(&arcade(&args));
    assert_eq!(a["won"], b["won"]);
    assert_eq!(a["guesses"], b["guesses"]);
    assert_eq!(a["safe_left"], b["safe_left"]);
}

/// Issue 30 item 2: a full disk is one line and exit 1, not a panic.
#[test]
fn full_disk_is_one_line() {
    let f = TempFile::new("full.txt", "3 1 1\n1..\n");
    assert!(assert_full_disk_is_one_line(&[
        "mines",
        "analyze",
        f.path()
    ]));
    assert!(assert_full_disk_is_one_line(&[
        "mines",
        "analyze",
        f.path(),
        "--json"
    ]));
    assert_full_disk_is_one_line(&["mines", "bench", "--level", "5x5/2", "--games", "20"]);
    assert_full_disk_is_one_line(&["mines", "play", "--level", "5x5/2"]);
}

/// Issue 30 item 10: non-UTF-8 bytes on stdin are bad input (exit 2), as
/// the same bytes in a file are.
#[test]
fn non_utf8_input_is_bad_input_from_stdin_and_from_a_file() {
    let bytes = b"3 1 1\n1.\xff\n";
    let o = crate::common::arcade_with_input(&["mines", "analyze", "-"], bytes);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard input is not UTF-8"),
        "{}",
        stderr(&o)
    );
    let path = std::env::temp_dir().join(format!("arcade-mines-{}.bin", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    assert_bad_input(
        &["mines", "analyze", path.to_str().unwrap()],
        "is not UTF-8",
    );
    std::fs::remove_file(&path).unwrap();
}

/// Issue 30 item 3: a huge game count streams (it runs, in bounded memory,
/// instead of aborting on a 100 GB allocation), and an absurd one is a
/// one-line error.
#[test]
fn huge_game_counts_stream_and_absurd_ones_are_refused() {
    for args in [
        &[
            "mines",
            "bench",
            "--level",
            "5x5/2",
            "--games",
            "4294967296",
            "-q",
        ][..],
        &[
            "mines",
            "battle",
            "--a",
            "rule",
            "--b",
            "rule",
            "--level",
            "5x5/2",
            "--games",
            "4294967296",
            "-q",
        ],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arcade"))
            .args(args)
            .args(["--threads", "1"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let status = child.try_wait().unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert!(status.is_none(), "{args:?} ended early: {status:?}");
    }
    assert_bad_input(
        &["mines", "bench", "--games", "18446744073709551615"],
        "expected a whole number from 1 to",
    );
    assert_bad_input(
        &[
            "mines",
            "battle",
            "--a",
            "rule",
            "--b",
            "rule",
            "--games",
            "18446744073709551615",
        ],
        "expected an even number from 2 to",
    );
}

#[test]
fn bench_json_names_the_solver_strength() {
    let a = json(&arcade(&[
        "mines", "bench", "--level", "5x5/2", "--games", "10", "--solver", "fast", "--json",
    ]));
    assert_eq!(a["strength"], "fast");
    assert_eq!(a["solver"]["candidates"], 0);
}

/// `play --seed S --game I` plays game I of `bench --seed S`: the wins of
/// the games played one by one add up to the bench's.
#[test]
fn play_game_i_is_bench_game_i() {
    let bench = json(&arcade(&[
        "mines", "bench", "--level", "expert", "--games", "12", "--seed", "5", "--json",
    ]));
    let wins = (0..12)
        .filter(|i| {
            let i = i.to_string();
            let play = json(&arcade(&[
                "mines", "play", "--level", "expert", "--seed", "5", "--game", &i, "--json",
            ]));
            play["won"].as_bool().unwrap()
        })
        .count();
    assert_eq!(bench["wins"], wins);
    assert!(
        wins > 0 && wins < 12,
        "{wins} wins: the check tells games apart"
    );
}

/// Ctrl-C on a long bench starts no more games and prints the report of the
/// games played (exit 130), as a million-game SFAR run needs.
#[test]
fn ctrl_c_on_a_long_bench_reports_the_games_played() {
    let args = [
        "mines",
        "bench",
        "--level",
        "expert",
        "--games",
        "1000000",
        "--threads",
        "1",
        "--json",
    ];
    let o = crate::common::arcade_signalled(&args, 1500, &[libc::SIGINT]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the report");
    let games = v["games"].as_u64().unwrap();
    assert!(0 < games && games < 1_000_000, "{v}");
    let wins = v["wins"].as_u64().unwrap();
    assert!(wins <= games, "{v}");
    let last = err.trim_end().lines().last().unwrap_or_default();
    assert_eq!(
        last,
        format!("error: stopped by Ctrl-C: the report covers the {games} played of 1000000 games")
    );
}
