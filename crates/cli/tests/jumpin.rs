//! End-to-end checks of `arcade jumpin`: JSON keys, human output, one-line
//! errors with exit status 2, and that what `hardest` and `generate` print
//! solves back to the move counts they claim.

use crate::common::{TempFile, arcade, assert_bad_input, json, stderr, stdout};

/// The optimal move count `solve` reports for a code.
fn solve_code(code: &str) -> Option<u64> {
    json(&arcade(&["jumpin", "solve", "--code", code, "--json"]))["moves"].as_u64()
}

#[test]
fn solve_json_has_the_documented_keys() {
    let v = json(&arcade(&[
        "jumpin",
        "solve",
        "--code",
        "C42B12G02M132434",
        "--json",
    ]));
    assert_eq!(v["moves"], 9);
    assert_eq!(v["solvable"], true);
    let solution = v["solution"].as_array().unwrap();
    assert_eq!(solution.len(), 9);
    for step in solution {
        assert!(["rabbit", "fox"].contains(&step["piece"].as_str().unwrap()));
        assert_eq!(step["from"].as_array().unwrap().len(), 2);
        assert_eq!(step["to"].as_array().unwrap().len(), 2);
    }
    assert!(v["states_explored"].as_u64().unwrap() > 9);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["start"]["code"], "C02B12G42M132434");
}

#[test]
fn solve_prints_each_move_and_the_board_after_it() {
    let file = TempFile::new("board.txt", ".XR..\n.....\n.....\n.....\n.....\n");
    let o = arcade(&["jumpin", "solve", file.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Shortest solution: 1 move ("), "{text}");
    assert!(text.contains("1. rabbit (2,0) -> (0,0)\nRX...\n"), "{text}");
}

#[test]
fn a_code_may_stand_where_the_file_goes() {
    let by_flag = json(&arcade(&[
        "jumpin",
        "solve",
        "--code",
        "C42B12G02M132434",
        "--json",
    ]));
    let bare = json(&arcade(&["jumpin", "solve", "C42B12G02M132434", "--json"]));
    assert_eq!(bare["solution"], by_flag["solution"]);
    assert_eq!(bare["moves"], 9);
    // Neither a file nor a valid code: both are said.
    assert_bad_input(
        &["jumpin", "solve", "C31M31"],
        "\"C31M31\": no such file, and as a challenge code: position 5: mushroom overlaps another piece at 31",
    );
    assert_bad_input(&["jumpin", "solve", "board.txt"], "cannot read board.txt");
}

#[test]
fn no_solution_is_an_answer() {
    let o = arcade(&["jumpin", "solve", "--code", "C11M22"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("No solution"));
    let v = json(&arcade(&["jumpin", "solve", "--code", "C11M22", "--json"]));
    assert_eq!(v["solvable"], false);
    assert!(v["moves"].is_null());
}

#[test]
fn malformed_puzzles_exit_2_with_one_line() {
    let long = TempFile::new("long.txt", "R....\n......\n.....\n.....\n.....\n");
    assert_bad_input(
        &["jumpin", "solve", long.path()],
        "long.txt: line 2: expected 5 cells, found 6",
    );
    let odd = TempFile::new("odd.txt", "R....\n.FF..\n.FF..\n.....\n.....\n");
    assert_bad_input(
        &["jumpin", "solve", odd.path()],
        "line 2, column 2: fox cells pair up in more than one way",
    );
    let unknown = TempFile::new("unknown.txt", "R....\n.....\n..o..\n.....\n.....\n");
    assert_bad_input(
        &["jumpin", "solve", unknown.path()],
        "line 3, column 3: unknown character 'o'",
    );
    assert_bad_input(
        &["jumpin", "solve", "--code", "C31M31"],
        "position 5: mushroom overlaps another piece at 31",
    );
    assert_bad_input(
        &["jumpin", "solve", "--code", "C31FN04"],
        "position 5: fox N04 leaves the board",
    );
    assert_bad_input(
        &["jumpin", "solve", "/no/such/board.txt"],
        "cannot read /no/such/board.txt",
    );
    assert_bad_input(
        &["jumpin", "hardest", "--foxes", "5"],
        "'--foxes <FOXES>': expected a whole number from 0 to 3",
    );
    assert_bad_input(&["jumpin", "generate", "--moves", "0"], "--moves");
}

#[test]
fn hardest_reports_positions_that_solve_to_the_claimed_length() {
    let v = json(&arcade(&[
        "jumpin",
        "hardest",
        "--rabbits",
        "2",
        "--foxes",
        "1",
        "--mushrooms",
        "2",
        "--top",
        "3",
        "--json",
    ]));
    let max = v["max_moves"].as_u64().unwrap();
    let hardest = v["hardest"].as_array().unwrap();
    assert_eq!(hardest.len(), 3);
    assert_eq!(hardest[0]["moves"].as_u64(), Some(max));
    for h in hardest {
        assert_eq!(solve_code(h["code"].as_str().unwrap()), h["moves"].as_u64());
        assert_eq!(h["board"].as_array().unwrap().len(), 5);
    }
    let counts: Vec<u64> = ["solvable", "unsolvable", "solved"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), v["positions"].as_u64().unwrap());
    let histogram: Vec<u64> = v["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(histogram.len() as u64, max + 1);
    assert_eq!(histogram[0], counts[2]);
}

#[test]
fn generate_is_seeded_and_exact() {
    let args = [
        "jumpin",
        "generate",
        "--moves",
        "12",
        "--rabbits",
        "2",
        "--foxes",
        "1",
        "--seed",
        "5",
        "--json",
    ];
    let a = json(&arcade(&args));
    let b = json(&arcade(&args));
    assert_eq!(a["code"], b["code"]);
    assert_eq!(a["exact"], true);
    assert_eq!(solve_code(a["code"].as_str().unwrap()), Some(12));
    let far = arcade(&[
        "jumpin",
        "generate",
        "--moves",
        "99",
        "--rabbits",
        "1",
        "--foxes",
        "1",
        "--mushrooms",
        "2",
    ]);
    assert!(far.status.success());
    assert!(
        stdout(&far).starts_with(
            "note: no position with 1 rabbit, 1 fox, 2 mushrooms needs exactly 99 moves"
        )
    );
}

#[test]
fn bench_checks_the_listed_minimums() {
    let good = TempFile::new("good.txt", "C32M102031 1 2\nC40B20M304132 2 3\n");
    let v = json(&arcade(&[
        "jumpin",
        "bench",
        good.path(),
        "--passes",
        "3",
        "--json",
    ]));
    assert_eq!(v["challenges"], 2);
    assert_eq!(v["passes"], 3);
    assert_eq!(v["total_moves"], 5);
    assert!(v["mismatches"].as_array().unwrap().is_empty());
    let wrong = TempFile::new("wrong.txt", "C32M102031 1 3\n");
    let o = arcade(&["jumpin", "bench", wrong.path()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("challenge 1 lists 3 moves, the solver found 2 moves"));
}

/// Issue 30, item 10: non-UTF-8 bytes on standard input are bad input
/// (exit 2), as they are from a file.
#[test]
fn non_utf8_stdin_is_bad_input_like_a_file() {
    let bytes = b"R....\n.....\n..\xff..\n.....\n.....\n";
    let file = TempFile::new("nonutf8.txt", "");
    std::fs::write(file.path(), bytes).unwrap();
    assert_bad_input(&["jumpin", "solve", file.path()], "not UTF-8");
    let o = crate::common::arcade_with_input(&["jumpin", "solve", "-"], bytes);
    assert_eq!(o.status.code(), Some(2), "{}", crate::common::stderr(&o));
    assert!(crate::common::stderr(&o).contains("standard input is not UTF-8"));
}

/// A bad board or level on standard input is named so in its error (the
/// mines and geek commands said "standard input", these "-").
#[test]
fn a_bad_board_on_standard_input_is_named_so() {
    for args in [["jumpin", "solve", "-"], ["tiles", "solve", "-"]] {
        let o = crate::common::arcade_with_input(&args, b"nonsense\n");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = crate::common::stderr(&o);
        assert!(
            err.starts_with("error: standard input: "),
            "{args:?}: {err}"
        );
    }
}

/// Issue 30, item 10: a code holding control characters gives one clean line
/// that does not echo them.
#[test]
fn codes_with_control_characters_give_one_clean_line() {
    let o = arcade(&["jumpin", "solve", "--code", "C3\n1\x1b[31m"]);
    assert_eq!(o.status.code(), Some(2));
    let err = crate::common::stderr(&o);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!err.contains('\x1b'), "{err:?}");
}

/// Issue 30, item 10: a piece set whose search space is too big is refused
/// with the limit named, instead of allocating 5.3 GB.
#[test]
fn generate_refuses_piece_sets_too_big_to_search() {
    assert_bad_input(
        &[
            "jumpin",
            "generate",
            "--moves",
            "5",
            "--rabbits",
            "3",
            "--foxes",
            "3",
            "--mushrooms",
            "12",
        ],
        "components",
    );
}
