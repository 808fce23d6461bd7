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

/// `target` sets the mines needed to win, as `arcade mines battle --target`:
/// the game ends at the first seat to reach it; one past the mines is a 400.
#[tokio::test]
async fn the_target_ends_the_game() {
    let app = router();
    let (status, v) = post(
        &app,
        "/api/battle/new",
        json!({"players": ["ev", "greedy"], "level": "9x9/10", "target": 3, "seed": 4}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["view"]["target"], 3);
    let id = v["session"].as_str().unwrap().to_string();
    let scores = loop {
        let (status, v) = post(&app, &format!("/api/battle/{id}/ai"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["view"]["over"] == true {
            break v["view"]["scores"].clone();
        }
    };
    let scores: Vec<u64> = scores
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert_eq!(scores.iter().max(), Some(&3), "{scores:?}");
    assert!(scores.iter().sum::<u64>() < 10, "{scores:?}");
    for target in [0, 11] {
        let (status, v) = post(
            &app,
            "/api/battle/new",
            json!({"players": ["ev", "greedy"], "level": "9x9/10", "target": target}),
        )
        .await;
        assert_error(
            status,
            &v,
            StatusCode::BAD_REQUEST,
            &format!("target {target} is out of range"),
        );
    }
}
