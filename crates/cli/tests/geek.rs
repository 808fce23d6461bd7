//! End-to-end checks of `arcade geek`: the published record replays to its
//! score, broken records are one-line errors, and what `solve` writes replays
//! to the score it prints.

use crate::common::{TempDir, TempFile, arcade, assert_bad_input, data_file, json, stderr};

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

#[test]
fn a_beam_of_zero_is_refused() {
    let o = arcade(&["geek", "solve", "--beam", "0", "--pieces", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
