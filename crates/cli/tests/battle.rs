//! End-to-end checks of `arcade mines battle`: JSON keys and counts, human
//! play driven through stdin, and one-line errors with exit status 2.

use crate::common::{arcade, arcade_with_input, stderr, stdout};

#[test]
fn json_report_has_the_promised_keys() {
    let o = arcade(&[
        "mines", "battle", "--a", "greedy", "--b", "rule", "--games", "20", "--seed", "4",
        "--level", "9x9/11", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    for key in [
        "a",
        "b",
        "games",
        "a_wins",
        "b_wins",
        "a_win_rate",
        "ci95",
        "mean_mines_a",
        "mean_mines_b",
        "seconds",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["a"], "greedy");
    assert_eq!(v["b"], "rule");
    assert_eq!(v["games"], 20);
    assert_eq!(v["target"], 6);
    let (a, b, d) = (
        v["a_wins"].as_u64().unwrap(),
        v["b_wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
    );
    assert_eq!(a + b + d, 20);
    let ci = v["ci95"].as_array().unwrap();
    let rate = v["a_win_rate"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    // Same seed, same games.
    let again = arcade(&[
        "mines",
        "battle",
        "--a",
        "greedy",
        "--b",
        "rule",
        "--games",
        "20",
        "--seed",
        "4",
        "--level",
        "9x9/11",
        "--json",
        "--threads",
        "1",
    ]);
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["a_wins"], w["a_wins"]);
    assert_eq!(v["mean_mines_a"], w["mean_mines_a"]);
}

#[test]
fn text_report_names_both_players() {
    let o = arcade(&[
        "mines", "battle", "--a", "rule", "--b", "greedy", "--games", "4", "--level", "6x6/7",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("rule vs greedy on 6x6/7 (first to 4)"),
        "{out}"
    );
    assert!(out.contains("Wilson"), "{out}");
}

/// A person playing every cell of a tiny board in order: bad coordinates
/// get a message and the prompt again; the game finishes with a winner.
#[test]
fn human_plays_through_stdin() {
    let mut input = String::from("9 9\nhello\n1\n");
    for y in 0..3 {
        for x in 0..3 {
            input.push_str(&format!("{x} {y}\n{x},{y}\n"));
        }
    }
    let o = arcade_with_input(
        &[
            "mines", "battle", "--a", "human", "--b", "greedy", "--level", "3x3/3", "--seed", "2",
        ],
        &input,
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{}\n{out}", stderr(&o));
    assert!(out.contains("bad move: (9,9) is off the board"), "{out}");
    assert!(out.contains("bad move: expected two numbers"), "{out}");
    assert!(out.contains("score A 0 - B 0"), "{out}");
    assert!(out.contains("A (human) to move:"), "{out}");
    assert!(out.contains(" wins."), "{out}");
}

#[test]
fn human_may_resign_and_input_may_end() {
    let args = [
        "mines", "battle", "--a", "ev", "--b", "human", "--level", "9x9/11",
    ];
    let o = arcade_with_input(&args, "quit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("B (human) resigns. A (ev) wins."));
    let o = arcade_with_input(&args, "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("input ended before the game did"));
}

/// Bad input: exit status 2 and exactly one line naming the problem.
#[test]
fn bad_arguments_are_one_line_errors() {
    for (args, expected) in [
        (vec!["--a", "best", "--b", "ev"], "unknown player \"best\""),
        (
            vec!["--a", "ev", "--b", "rule", "--games", "3"],
            "expected an even number from 2 to 1000000000000",
        ),
        // It said "a whole number from 1", and 1 was then refused as odd.
        (
            vec!["--a", "ev", "--b", "rule", "--games", "0"],
            "expected an even number from 2 to 1000000000000",
        ),
        // They were silently ignored: a person plays one game, as text.
        (
            vec!["--a", "human", "--b", "ev", "--games", "10"],
            "error: --games is for a match between two AIs",
        ),
        (
            vec!["--a", "ev", "--b", "human", "--json"],
            "error: --json is for a match between two AIs",
        ),
        (
            vec!["--a", "ev", "--b", "human", "--json", "--games", "2"],
            "error: --games and --json are for a match between two AIs",
        ),
        (
            vec!["--a", "ev", "--b", "rule", "--level", "16x16"],
            "--level",
        ),
        (
            vec!["--a", "ev", "--b", "rule", "--level", "4x4/0"],
            "at least one mine",
        ),
        (
            vec![
                "--a", "ev", "--b", "rule", "--level", "9x9/10", "--target", "11",
            ],
            "target 11",
        ),
    ] {
        let mut full = vec!["mines", "battle"];
        full.extend(args.iter());
        let o = arcade(&full);
        assert_eq!(o.status.code(), Some(2), "{full:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{full:?} printed:\n{err}"
        );
        assert!(err.contains(expected), "{full:?} printed:\n{err}");
    }
}

/// The same AI in both seats is told apart by its seat in the text.
#[test]
fn the_same_ai_in_both_seats_is_named_by_seat() {
    let text = stdout(&arcade(&[
        "mines", "battle", "--a", "rule", "--b", "rule", "--games", "2",
    ]));
    assert!(
        text.contains("rule (A) wins ") && text.contains("rule (B) wins "),
        "{text}"
    );
}
