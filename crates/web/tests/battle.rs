//! The battle routes: seats, turns, the AI's moves, hints.

use crate::common::*;
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn two_ais_play_to_the_end() {
    let app = router();
    let (status, v) = post(
        &app,
        "/api/battle/new",
        json!({"players": ["ev", "greedy"], "seed": 2}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["session"].as_str().unwrap().to_string();
    assert_eq!(v["view"]["target"], 26);
    let mut moves = 0;
    loop {
        let (status, v) = post(&app, &format!("/api/battle/{id}/ai"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        moves += 1;
        assert!(v["played"].is_array());
        if v["view"]["over"] == true {
            let scores = v["view"]["scores"].as_array().unwrap();
            assert!(scores.iter().any(|s| s.as_u64().unwrap() >= 26));
            break;
        }
        assert!(moves < 256);
    }
    let (status, v) = post(&app, &format!("/api/battle/{id}/ai"), json!({})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "game is over");
}

#[tokio::test]
async fn a_person_moves_on_their_turn_only() {
    let app = router();
    let (_, v) = post(
        &app,
        "/api/battle/new",
        json!({"players": ["human", "rule"], "seed": 1}),
    )
    .await;
    let id = v["session"].as_str().unwrap().to_string();
    let (status, v) = post(&app, &format!("/api/battle/{id}/ai"), json!({})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "person's turn");
    let (_, h) = post(&app, &format!("/api/battle/{id}/hint"), json!({})).await;
    let hint = h["hint"].clone();
    assert!(hint.is_array());
    let (status, v) = post(
        &app,
        &format!("/api/battle/{id}/click"),
        json!({"x": hint[0], "y": hint[1]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["view"]["last"][0]["cell"], hint);
    let (status, v) = post(
        &app,
        &format!("/api/battle/{id}/click"),
        json!({"x": 99, "y": 0}),
    )
    .await;
    assert!(status.is_client_error(), "{v}");
}

#[tokio::test]
async fn bad_battles_are_400() {
    let app = router();
    for (body, needle) in [
        (json!({"players": ["human", "nobody"]}), "unknown player"),
        (
            json!({"players": ["rule", "ev"], "level": "9x9/0"}),
            "at least one mine",
        ),
        (
            json!({"players": ["rule", "ev"], "level": "100x100/10"}),
            "too large",
        ),
        (
            json!({"players": ["human", "ev", "rule"]}),
            "players must name two players (seat A, who moves first, then B), got 3",
        ),
        (json!({"players": []}), "got 0"),
    ] {
        let (status, v) = post(&app, "/api/battle/new", body).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, needle);
    }
}
