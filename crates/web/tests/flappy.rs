//! Flappy Bird routes: flaps by frame give the CLI's game, the policies
//! play, and every bad input.

use crate::common::*;
use arcade_flappy::episode::eval_seed;
use arcade_flappy::policy::{Heuristic, Policy};
use arcade_flappy::{Agent, Env};
use axum::http::StatusCode;
use serde_json::json;

/// The heuristic's flaps on game `seed`, up to `pipes` pipes.
fn heuristic_flaps(seed: u64, pipes: u64) -> Vec<u64> {
    let mut env = Env::new(eval_seed(seed, 0), Some(pipes));
    let mut flaps = Vec::new();
    while !env.is_over() {
        let flap = Heuristic.flap(&env);
        env.step(flap);
        if flap {
            flaps.push(env.frames());
        }
    }
    flaps
}

#[tokio::test]
async fn the_same_flaps_give_the_clis_game() {
    let app = router();
    for seed in [1, 7] {
        let (status, s) = post(
            &app,
            "/api/flappy/new",
            json!({"mode": "play", "seed": seed}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["geometry"]["fps"], 30);
        let id = s["session"].as_str().unwrap().to_string();
        let cli =
            arcade_flappy::report::play(&Agent::Heuristic, "heuristic", seed, Some(5), |_| {});
        let flaps = heuristic_flaps(seed, 5);
        // In chunks of 10 frames, as a page sends them.
        let mut frame = 0;
        let mut state = s;
        while frame < cli.frames {
            let to = (frame + 10).min(cli.frames);
            let chunk: Vec<u64> = flaps
                .iter()
                .copied()
                .filter(|&f| f > frame && f <= to)
                .collect();
            let (status, s) = post(
                &app,
                &format!("/api/flappy/{id}/tick"),
                json!({"to": to, "flaps": chunk}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{s}");
            state = s;
            frame = to;
        }
        assert_eq!(state["passed"], 5, "seed {seed}");
        assert_eq!(state["frame"], cli.frames);
        assert_eq!(state["status"], "running");
        // Only a server computes the kernels (`flappy::warm_up`, 5 s of
        // CPU): a test router has no margin yet.
        assert!(state["depth"].is_null());
        assert_eq!(state["margin_ready"], false);
    }
}

#[tokio::test]
async fn not_flapping_crashes_on_the_ground() {
    let app = router();
    let (_, s) = post(&app, "/api/flappy/new", json!({"mode": "play", "seed": 3})).await;
    let id = s["session"].as_str().unwrap();
    let (_, s) = post(&app, &format!("/api/flappy/{id}/tick"), json!({"to": 100})).await;
    // From y = 244 falling 1, 2, … 10, 10 … px a frame, the bird's bottom
    // reaches the ground (y + 24 ≥ 400) on frame 18.
    assert_eq!(s["status"], "crashed");
    assert_eq!(s["crashed_into"], "ground");
    assert_eq!(s["frame"], 18);
    assert!(s["depth"].is_null());
}

/// A policy as `arcade flappy play --policy` loads it.
fn agent(name: &str) -> Agent {
    match name {
        "heuristic" => Agent::Heuristic,
        _ => Agent::resolve(&format!(
            "{}/../flappy/policies/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    }
}

#[tokio::test]
async fn the_oracle_and_the_shipped_policies_play() {
    let app = router();
    // The oracle needs the kernels, which a test router has not computed.
    let (status, b) = post(
        &app,
        "/api/flappy/new",
        json!({"mode": "watch", "policy": "oracle"}),
    )
    .await;
    assert_error(
        status,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "still being computed",
    );
    for policy in ["heuristic", "cem-15min", "imitate", "pg-5min"] {
        let (status, s) = post(
            &app,
            "/api/flappy/new",
            json!({"mode": "watch", "seed": 2, "policy": policy}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let id = s["session"].as_str().unwrap();
        let (_, s) = post(&app, &format!("/api/flappy/{id}/tick"), json!({"to": 600})).await;
        let cli = arcade_flappy::report::play(&agent(policy), policy, 2, Some(20), |_| {});
        assert_eq!(
            s["frame"].as_u64().unwrap(),
            cli.frames.min(600),
            "{policy}"
        );
    }
}

#[tokio::test]
async fn bad_flappy_requests_are_one_line_4xx() {
    let app = router();
    let (_, s) = post(&app, "/api/flappy/new", json!({"mode": "play", "seed": 1})).await;
    let id = s["session"].as_str().unwrap();
    let url = format!("/api/flappy/{id}/tick");
    post(&app, &url, json!({"to": 5, "flaps": [1]})).await;
    for (body, needle) in [
        (json!({"to": 3}), "before the game's frame"),
        (json!({"to": 100_000}), "more than the limit"),
        (json!({"to": 9, "flaps": [8, 7]}), "out of order"),
        (json!({"to": 9, "flaps": [5]}), "outside"),
        (json!({"to": 9, "flaps": [10]}), "outside"),
    ] {
        let (status, b) = post(&app, &url, body).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, needle);
    }
    for (body, needle) in [
        (json!({"mode": "watch"}), "needs a policy"),
        (
            json!({"mode": "watch", "policy": "../../etc/passwd"}),
            "unknown policy",
        ),
        (
            json!({"mode": "play", "policy": "oracle"}),
            "only for watch",
        ),
    ] {
        let (status, b) = post(&app, "/api/flappy/new", body).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, needle);
    }
    let (status, b) = post(&app, "/api/flappy/new", json!({"mode": "fly"})).await;
    assert_error(status, &b, StatusCode::UNPROCESSABLE_ENTITY, "");
    let (_, w) = post(
        &app,
        "/api/flappy/new",
        json!({"mode": "watch", "policy": "heuristic"}),
    )
    .await;
    let wid = w["session"].as_str().unwrap();
    let (status, b) = post(
        &app,
        &format!("/api/flappy/{wid}/tick"),
        json!({"to": 5, "flaps": [2]}),
    )
    .await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "watched");
    let (status, b) = post(&app, "/api/flappy/nope/tick", json!({"to": 1})).await;
    assert_error(status, &b, StatusCode::NOT_FOUND, "no such session");
}
