//! The Jump In' routes: challenges, generated puzzles, moves, hints.

use crate::common::*;
use arcade_jumpin::challenges::official;
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn the_sixty_challenges_are_listed() {
    let (status, text) = get(&router(), "/api/jumpin/challenges").await;
    assert_eq!(status, StatusCode::OK);
    let list: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(list.len(), 60);
    assert_eq!(list[59]["number"], 60);
}

/// Stepping through the optimal solution solves challenge 30 in its
/// official minimum, with the moves left counting down.
#[tokio::test]
async fn steps_solve_a_challenge_optimally() {
    let app = router();
    let (status, v) = post(&app, "/api/jumpin/new", json!({"challenge": 30})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["session"].as_str().unwrap().to_string();
    let minimum = official()[29].minimum as u64;
    assert_eq!(v["view"]["optimal"], minimum);
    let (_, h) = post(&app, &format!("/api/jumpin/{id}/hint"), json!({})).await;
    assert_eq!(h["hint"]["moves_left"], minimum);
    for k in 1..=minimum {
        let (_, v) = post(&app, &format!("/api/jumpin/{id}/step"), json!({})).await;
        assert_eq!(v["view"]["moves"], k);
        assert_eq!(v["hint"]["moves_left"], minimum - k);
    }
    let (_, v) = post(&app, &format!("/api/jumpin/{id}/state"), json!({})).await;
    assert_eq!(v["view"]["solved"], true);
    let (status, v) = post(
        &app,
        &format!("/api/jumpin/{id}/move"),
        json!({"from": [0, 0], "to": [0, 1]}),
    )
    .await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "already solved");
}

#[tokio::test]
async fn clicks_list_moves_and_bad_moves_are_400() {
    let app = router();
    let (_, v) = post(
        &app,
        "/api/jumpin/new",
        json!({"code": "C31B42G34M302203FE11"}),
    )
    .await;
    let id = v["session"].as_str().unwrap().to_string();
    let (_, h) = post(&app, &format!("/api/jumpin/{id}/hint"), json!({})).await;
    let next = &h["hint"]["next"];
    let (_, m) = post(
        &app,
        &format!("/api/jumpin/{id}/moves"),
        json!({"x": next["from"][0], "y": next["from"][1]}),
    )
    .await;
    assert!(m["moves"].as_array().unwrap().contains(next), "{m}");
    let (status, v) = post(
        &app,
        &format!("/api/jumpin/{id}/move"),
        json!({"from": next["from"], "to": next["target"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["view"]["moves"], 1);
    let (_, v) = post(&app, &format!("/api/jumpin/{id}/undo"), json!({})).await;
    assert_eq!(v["view"]["moves"], 0);
    for (body, needle) in [
        (json!({"x": 0, "y": 0}), "no rabbit or fox"),
        (json!({"x": 7, "y": 0}), "outside the 5x5 board"),
    ] {
        let (status, v) = post(&app, &format!("/api/jumpin/{id}/moves"), body).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, needle);
    }
    let (status, v) = post(
        &app,
        &format!("/api/jumpin/{id}/move"),
        json!({"from": next["from"], "to": next["from"]}),
    )
    .await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "cannot move");
}

#[tokio::test]
async fn generated_puzzles_have_the_requested_length() {
    let app = router();
    let (status, v) = post(
        &app,
        "/api/jumpin/new",
        json!({"generate": {"moves": 10, "seed": 3}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["view"]["optimal"], 10);
}

#[tokio::test]
async fn bad_new_games_are_400() {
    let app = router();
    for (body, needle) in [
        (json!({"challenge": 61}), "no challenge 61"),
        (json!({}), "exactly one"),
        (json!({"challenge": 1, "code": "C32"}), "exactly one"),
        (json!({"code": "nonsense"}), ""),
        (json!({"generate": {"moves": 0}}), "moves must be"),
        (json!({"generate": {"moves": 5, "rabbits": 9}}), "rabbits"),
    ] {
        let (status, v) = post(&app, "/api/jumpin/new", body.clone()).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, needle);
    }
}

#[tokio::test]
async fn a_mines_session_is_not_a_jumpin_one() {
    let app = router();
    let (_, v) = post(&app, "/api/mines/new", json!({"level": "beginner"})).await;
    let id = v["session"].as_str().unwrap();
    let (status, v) = post(&app, &format!("/api/jumpin/{id}/hint"), json!({})).await;
    assert_error(status, &v, StatusCode::CONFLICT, "is a mines game");
}
