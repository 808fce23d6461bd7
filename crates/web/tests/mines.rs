//! The Minesweeper routes: play, flags, chords, overlay, hint, AI, analyse.

use crate::common::*;
use arcade_mines::human::HumanGame;
use arcade_mines::{Config, Level, Position, Rule, analyze_report};
use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

async fn new_game(app: &Router, body: Value) -> (String, Value) {
    let (status, v) = post(app, "/api/mines/new", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (v["session"].as_str().unwrap().to_string(), v)
}

#[tokio::test]
async fn a_new_game_is_ready_and_all_hidden() {
    let app = router();
    let (_, v) = new_game(
        &app,
        json!({"level": "intermediate", "rule": "snr", "seed": 5}),
    )
    .await;
    let view = &v["view"];
    assert_eq!(view["status"], "ready");
    assert_eq!(view["width"], 16);
    assert_eq!(view["mines_left"], 40);
    assert_eq!(view["rule"], "snr");
    assert!(
        view["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r == &json!(".".repeat(16)))
    );
    let (_, v) = new_game(&app, json!({"level": "12x7/20"})).await;
    assert_eq!(
        (v["view"]["width"].clone(), v["view"]["height"].clone()),
        (json!(12), json!(7))
    );
    assert_eq!(v["view"]["rule"], "sfar");
}

#[tokio::test]
async fn bad_levels_and_rules_are_400() {
    let app = router();
    for (body, needle) in [
        (json!({"level": "huge"}), "unknown level"),
        (json!({"level": "9x9/100"}), "do not fit"),
        // Fits beside an edge, not around a click in the middle.
        (
            json!({"level": "4x4/8", "rule": "snr"}),
            "a first click can leave as few as 7 cells free",
        ),
        (json!({"level": "200x10/5"}), "too large for the web arena"),
        (json!({"level": "beginner", "rule": "xyz"}), "unknown rule"),
    ] {
        let (status, v) = post(&app, "/api/mines/new", body).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, needle);
    }
}

/// The server's game is the library's: the same seed and clicks give the
/// same view, and the overlay is `analyze_report` of the player's position.
#[tokio::test]
async fn reveal_with_overlay_matches_the_library() {
    let app = router();
    let (id, _) = new_game(&app, json!({"level": "expert", "seed": 42})).await;
    let (status, v) = post(
        &app,
        &format!("/api/mines/{id}/reveal"),
        json!({"x": 3, "y": 4, "analyze": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut game = HumanGame::new(Level::EXPERT, Rule::Sfar, 42);
    game.reveal(3, 4).unwrap();
    assert_eq!(v["view"], serde_json::to_value(game.view()).unwrap());
    let mut expected = serde_json::to_value(game.analyze(&Config::fast()).unwrap()).unwrap();
    let mut got = v["analysis"].clone();
    expected["seconds"] = json!(0);
    got["seconds"] = json!(0);
    assert_eq!(got, expected);
}

#[tokio::test]
async fn out_of_range_cells_are_400() {
    let app = router();
    let (id, _) = new_game(&app, json!({"level": "beginner", "seed": 1})).await;
    for (action, x, y) in [("reveal", 9, 0), ("flag", 0, 9), ("chord", 1000, 1000)] {
        let (status, v) = post(
            &app,
            &format!("/api/mines/{id}/{action}"),
            json!({"x": x, "y": y}),
        )
        .await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, "outside the 9x9 board");
    }
    let (status, v) = post(
        &app,
        &format!("/api/mines/{id}/reveal"),
        json!({"x": -1, "y": 0}),
    )
    .await;
    assert!(status.is_client_error(), "{v}");
}

#[tokio::test]
async fn flags_count_down_and_the_hint_is_the_library_hint() {
    let app = router();
    let (id, _) = new_game(&app, json!({"level": "beginner", "seed": 7})).await;
    let (_, v) = post(
        &app,
        &format!("/api/mines/{id}/flag"),
        json!({"x": 8, "y": 8}),
    )
    .await;
    assert_eq!(v["view"]["mines_left"], 9);
    assert_eq!(
        v["view"]["rows"][8].as_str().unwrap().chars().last(),
        Some('F')
    );
    let (_, v) = post(&app, &format!("/api/mines/{id}/hint"), json!({})).await;
    assert_eq!(v["hint"], json!([0, 0]));
    post(
        &app,
        &format!("/api/mines/{id}/reveal"),
        json!({"x": 0, "y": 0}),
    )
    .await;
    let (_, v) = post(
        &app,
        &format!("/api/mines/{id}/hint"),
        json!({"analyze": true}),
    )
    .await;
    assert_eq!(v["hint"], v["analysis"]["best"]);
}

/// "Let the AI play": stepping by the server's AI wins seed 1 (the game the
/// browser test wins by hints).
#[tokio::test]
async fn the_ai_steps_to_a_win() {
    let app = router();
    let (id, _) = new_game(&app, json!({"level": "beginner", "seed": 1})).await;
    let mut steps = 0;
    loop {
        let (status, v) = post(&app, &format!("/api/mines/{id}/step"), json!({})).await;
        assert_eq!(status, StatusCode::OK);
        steps += 1;
        match v["view"]["status"].as_str().unwrap() {
            "won" => {
                // Every mine is shown flagged, and the counter agrees.
                let flagged: usize = v["view"]["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().matches('F').count())
                    .sum();
                assert_eq!((flagged, v["view"]["mines_left"].as_i64()), (10, Some(0)));
                break;
            }
            "playing" => assert!(v["played"].is_array()),
            s => panic!("{s} after {steps} steps"),
        }
        assert!(steps < 100);
    }
    // Once over, a step plays nothing.
    let (_, v) = post(&app, &format!("/api/mines/{id}/step"), json!({})).await;
    assert_eq!(v["played"], Value::Null);
}

#[tokio::test]
async fn analyse_mode_answers_the_library_report() {
    let app = router();
    let text = "5 3 3\n1....\n.....\n..2..\n";
    let (status, v) = post(&app, "/api/mines/analyze", json!({"position": text})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut expected = serde_json::to_value(
        analyze_report(&Position::parse(text).unwrap(), &Config::fast()).unwrap(),
    )
    .unwrap();
    let mut got = v.clone();
    expected["seconds"] = json!(0);
    got["seconds"] = json!(0);
    assert_eq!(got, expected);
}

#[tokio::test]
async fn analyse_mode_refuses_bad_positions() {
    let app = router();
    for (text, status, needle) in [
        (
            "3 1 1\n11.\n",
            StatusCode::UNPROCESSABLE_ENTITY,
            "contradiction",
        ),
        ("3 1\n...\n", StatusCode::BAD_REQUEST, "line 1"),
        ("3 2 1\n...\n", StatusCode::BAD_REQUEST, "line"),
        ("100 100 5\n", StatusCode::BAD_REQUEST, ""),
    ] {
        let (got, v) = post(&app, "/api/mines/analyze", json!({"position": text})).await;
        assert_error(got, &v, status, needle);
    }
    let big = format!("65 1 1\n{}\n", ".".repeat(65));
    let (got, v) = post(&app, "/api/mines/analyze", json!({"position": big})).await;
    assert_error(got, &v, StatusCode::BAD_REQUEST, "too large");
}
