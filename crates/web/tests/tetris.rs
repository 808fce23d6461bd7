//! Tetris routes: key presses by ticks, the AI ghost against the library's
//! player, watching, and every bad input.

use crate::common::*;
use arcade_tetris::game::{self, Limits};
use arcade_tetris::{Board, MoveMode, Piece, PieceSource, Player, Rules, Weights, movegen};
use axum::http::StatusCode;
use serde_json::{Value, json};

async fn new_play(app: &axum::Router, sequence: &str) -> String {
    let (status, s) = post(
        app,
        "/api/tetris/new",
        json!({"mode": "play", "sequence": sequence}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    s["session"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_known_key_sequence_clears_a_row() {
    let app = router();
    let id = new_play(&app, "IIOT").await;
    let keys = json!([
        [1, "left"],
        [1, "left"],
        [1, "left"],
        [2, "drop"],
        [3, "right"],
        [4, "drop"],
        [5, "right"],
        [5, "right"],
        [5, "right"],
        [5, "right"],
        [6, "drop"]
    ]);
    let (status, s) = post(
        &app,
        &format!("/api/tetris/{id}/tick"),
        json!({"to": 6, "inputs": keys}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["lines"], 1);
    assert_eq!(s["pieces"], 3);
    assert_eq!(s["rows"][19], "........OO");
    assert_eq!(s["falling"]["piece"], "T");
    assert_eq!(s["tick"], 6);
}

/// A `why` names `ai` and its terms (feature × weight) sum to its score,
/// which is returned.
fn terms_add_up(ai: &str, why: &Value) -> f64 {
    assert_eq!(why["ai"], ai);
    let terms = why["terms"].as_array().unwrap();
    assert!(terms.len() >= 4, "{why}");
    let sum: f64 = terms
        .iter()
        .map(|t| t["value"].as_f64().unwrap() * t["weight"].as_f64().unwrap())
        .sum();
    let score = why["score"].as_f64().unwrap();
    assert!((sum - score).abs() < 1e-9, "{why}");
    score
}

/// The ghost's `why` is the AI's score of the field it leaves: its terms
/// (feature × weight) sum to `score`, and no drop placement of the piece on
/// the board the answer shows scores more.
fn why_is_the_best_score(ai: &str, s: &Value) {
    let score = terms_add_up(ai, &s["ghost"]["why"]);
    let mut board = Board::new(10, 20).unwrap();
    for (r, row) in s["rows"].as_array().unwrap().iter().enumerate() {
        for (x, c) in row.as_str().unwrap().chars().enumerate() {
            if c != '.' {
                board.set(x, 19 - r);
            }
        }
    }
    let piece = Piece::from_letter(
        s["falling"]["piece"]
            .as_str()
            .unwrap()
            .chars()
            .next()
            .unwrap(),
    )
    .unwrap();
    let player = Player::new(
        Rules::classic(),
        Weights::builtin(ai).unwrap(),
        MoveMode::Drop,
        false,
    );
    let mut all = Vec::new();
    movegen::placements(player.rules(), &board, piece, 0, MoveMode::Drop, &mut all);
    let best = all
        .iter()
        .map(|&p| player.weights().value(&player.describe(&board, piece, p)))
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        (score - best).abs() < 1e-6 * best.abs().max(1.0),
        "{ai}: ghost {score}, best {best}"
    );
}

/// Following the ghost with key presses places every piece where
/// `arcade tetris play` (the library's game loop) does.
#[tokio::test]
async fn following_the_ghost_plays_the_ais_game() {
    let sequence = "TSZLJIOTTSZOIJLLJIOZSTIOJLSZTT";
    for (ai, moves) in [
        ("el-tetris", "drop"),
        ("bcts", "drop"),
        ("dellacherie", "drop"),
    ] {
        let app = router();
        let id = new_play(&app, sequence).await;
        let ghost = json!({"name": ai, "moves": moves});
        let url = format!("/api/tetris/{id}/tick");
        let (_, mut s) = post(&app, &url, json!({"to": 0, "ghost": ghost})).await;
        let mut got = Vec::new();
        let mut tick = 0u64;
        while s["end"].is_null() {
            why_is_the_best_score(ai, &s);
            let g = &s["ghost"]["placement"];
            got.push((
                g["rotation"].as_u64().unwrap(),
                g["col"].as_u64().unwrap(),
                g["row"].as_u64().unwrap(),
            ));
            tick += 1;
            let turns: Vec<Value> = (0..g["rotation"].as_u64().unwrap())
                .map(|_| json!([tick, "cw"]))
                .collect();
            let (_, turned) = post(
                &app,
                &url,
                json!({"to": tick, "inputs": turns, "ghost": ghost}),
            )
            .await;
            let shift = g["col"].as_i64().unwrap() - turned["falling"]["col"].as_i64().unwrap();
            tick += 1;
            let key = if shift < 0 { "left" } else { "right" };
            let mut keys: Vec<Value> = (0..shift.abs()).map(|_| json!([tick, key])).collect();
            keys.push(json!([tick, "drop"]));
            let (status, next) = post(
                &app,
                &url,
                json!({"to": tick, "inputs": keys, "ghost": ghost}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{next}");
            s = next;
        }
        let weights = Weights::builtin(ai).unwrap();
        let mut player = Player::new(Rules::classic(), weights, MoveMode::Drop, false);
        let mut source = PieceSource::sequence(PieceSource::parse_sequence(sequence).unwrap());
        let mut expected = Vec::new();
        let r = game::play(
            &mut player,
            Board::new(10, 20).unwrap(),
            &mut source,
            Limits::default(),
            |st| {
                expected.push((
                    u64::from(st.placement.rotation),
                    u64::from(st.placement.col),
                    u64::from(st.placement.row),
                ))
            },
        );
        assert_eq!(got, expected, "{ai}");
        assert_eq!(s["lines"], r.lines, "{ai}");
    }
}

#[tokio::test]
async fn watching_plays_the_ais_game() {
    let app = router();
    let (_, s) = post(
        &app,
        "/api/tetris/new",
        json!({"mode": "watch", "seed": 5, "ai": {"name": "bcts", "moves": "reach"}}),
    )
    .await;
    let id = s["session"].as_str().unwrap();
    let mut pieces = 0;
    while pieces < 2000 {
        let (status, s) = post(
            &app,
            &format!("/api/tetris/{id}/watch"),
            json!({"pieces": 700}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{s}");
        pieces = s["pieces"].as_u64().unwrap();
        assert!(s["last"]["cells"].as_array().unwrap().len() == 4);
    }
    let (_, s) = post(&app, &format!("/api/tetris/{id}/state"), json!({})).await;
    let weights = Weights::builtin("bcts").unwrap();
    let mut player = Player::new(Rules::classic(), weights, MoveMode::Reach, false);
    let mut source = PieceSource::random(arcade_tetris::Randomizer::Uniform, 5);
    let limits = Limits {
        max_pieces: Some(2100),
        max_lines: None,
    };
    let r = game::play(
        &mut player,
        Board::new(10, 20).unwrap(),
        &mut source,
        limits,
        |_| {},
    );
    assert_eq!(s["pieces"], 2100);
    assert_eq!(s["lines"], r.lines);
}

/// The boards of one batched `watch` with `every` are the states that
/// watching one piece per request gives on the same seed.
#[tokio::test]
async fn watch_frames_are_the_boards_piece_by_piece() {
    let app = router();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let body =
            json!({"mode": "watch", "seed": 9, "ai": {"name": "el-tetris", "moves": "reach"}});
        let (_, s) = post(&app, "/api/tetris/new", body).await;
        ids.push(s["session"].as_str().unwrap().to_string());
    }
    let mut single = Vec::new();
    for _ in 0..61 {
        let url = format!("/api/tetris/{}/watch", ids[1]);
        let (_, s) = post(&app, &url, json!({"pieces": 1})).await;
        single.push(s);
    }
    let url = format!("/api/tetris/{}/watch", ids[0]);
    let (status, s) = post(&app, &url, json!({"pieces": 1, "every": 1})).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert!(
        s["frames"].as_array().unwrap().is_empty(),
        "the answer is the only board"
    );
    let (_, s) = post(&app, &url, json!({"pieces": 60, "every": 3})).await;
    let frames = s["frames"].as_array().unwrap();
    let numbers: Vec<u64> = frames
        .iter()
        .map(|f| f["pieces"].as_u64().unwrap())
        .collect();
    // Pieces 2 to 61: the multiples of 3, then the answer after piece 61.
    assert_eq!(numbers, (1..=20).map(|k| 3 * k).collect::<Vec<_>>());
    assert_eq!(s["pieces"], 61);
    for f in frames.iter().chain([&s]) {
        terms_add_up("el-tetris", &f["last"]["why"]);
        let one = &single[f["pieces"].as_u64().unwrap() as usize - 1];
        for field in ["rows", "lines", "score", "level", "falling", "next", "last"] {
            assert_eq!(f[field], one[field], "{field} after piece {}", f["pieces"]);
        }
    }
    for (body, needle) in [
        (json!({"pieces": 10, "every": 0}), "every must be"),
        (json!({"pieces": 1000, "every": 1}), "at most 256"),
    ] {
        let (status, b) = post(&app, &url, body).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, needle);
    }
}

#[tokio::test]
async fn bad_tetris_requests_are_one_line_4xx() {
    let app = router();
    let id = new_play(&app, "TTTT").await;
    let url = format!("/api/tetris/{id}/tick");
    post(&app, &url, json!({"to": 10})).await;
    for (body, needle) in [
        (json!({"to": 5}), "before the game's tick"),
        (json!({"to": 10_000_000}), "more than the limit"),
        (
            json!({"to": 20, "inputs": [[15, "left"], [12, "left"]]}),
            "out of order",
        ),
        (json!({"to": 20, "inputs": [[25, "left"]]}), "outside"),
        (
            json!({"to": 20, "ghost": {"name": "deep-blue"}}),
            "unknown AI",
        ),
    ] {
        let (status, b) = post(&app, &url, body).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, needle);
    }
    let (status, b) = post(&app, &url, json!({"to": 20, "inputs": [[12, "jump"]]})).await;
    assert_error(status, &b, StatusCode::UNPROCESSABLE_ENTITY, "");
    let (status, b) = post(
        &app,
        &format!("/api/tetris/{id}/watch"),
        json!({"pieces": 5}),
    )
    .await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "played by a person");
    for (body, needle) in [
        (json!({"mode": "play", "sequence": "IOX"}), "sequence"),
        (
            json!({"mode": "play", "sequence": "I".repeat(30_000)}),
            "at most",
        ),
        (json!({"mode": "play", "level": 40}), "level"),
        (json!({"mode": "watch"}), "needs an ai"),
        (
            json!({"mode": "watch", "ai": {"name": "/etc/passwd"}}),
            "unknown AI",
        ),
    ] {
        let (status, b) = post(&app, "/api/tetris/new", body).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, needle);
    }
    let (_, s) = post(
        &app,
        "/api/tetris/new",
        json!({"mode": "watch", "ai": {"name": "bcts"}}),
    )
    .await;
    let w = s["session"].as_str().unwrap();
    for (body, needle) in [
        (json!({"pieces": 0}), "pieces"),
        (json!({"pieces": 5, "budget_ms": 0}), "budget"),
    ] {
        let (status, b) = post(&app, &format!("/api/tetris/{w}/watch"), body).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, needle);
    }
    let (status, b) = post(&app, &format!("/api/tetris/{w}/tick"), json!({"to": 1})).await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "watched");
    let (status, b) = post(&app, "/api/tetris/00ff/tick", json!({"to": 1})).await;
    assert_error(status, &b, StatusCode::NOT_FOUND, "no such session");
    let (_, m) = post(
        &app,
        "/api/mines/new",
        json!({"level": "beginner", "rule": "sfar"}),
    )
    .await;
    let mid = m["session"].as_str().unwrap();
    let (status, b) = post(&app, &format!("/api/tetris/{mid}/tick"), json!({"to": 1})).await;
    assert_error(status, &b, StatusCode::CONFLICT, "not tetris");
}
