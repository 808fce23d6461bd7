//! The Sheep a Sheep routes: levels, clicks, the verdict after each, undo.

use crate::common::*;
use arcade_tiles::exact::Limits;
use arcade_tiles::generate::construct;
use arcade_tiles::layout::Classic;
use arcade_tiles::play::TilesGame;
use axum::http::StatusCode;
use serde_json::{Value, json};

async fn new_level(app: &axum::Router, body: Value) -> (String, Value) {
    let (status, v) = post(app, "/api/tiles/new", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (v["session"].as_str().unwrap().to_string(), v)
}

/// The server's level and verdict are the library's for the same knobs.
#[tokio::test]
async fn a_generated_level_is_the_library_level() {
    let app = router();
    let (_, v) = new_level(
        &app,
        json!({"source": "generate", "layers": 12, "difficulty": 0.7, "seed": 9}),
    )
    .await;
    let g = construct(&Classic::new(12), 7, 0.7, 9).unwrap();
    let mut game = TilesGame::new(g.level.clone());
    assert_eq!(v["view"], serde_json::to_value(game.view()).unwrap());
    assert_eq!(v["verdict"]["verdict"], "winnable");
    assert_eq!(game.verdict(&Limits::seconds(2.0)).verdict, "winnable");
    // The first hint line is the construction's, so no search was needed.
    assert_eq!(v["verdict"]["nodes"], 0);
    assert_eq!(v["verdict"]["solution"], json!(g.intended));
    let clicks: Vec<usize> = serde_json::from_value(v["verdict"]["solution"].clone()).unwrap();
    let ending = arcade_tiles::check::replay(&g.level, &clicks).ending;
    assert_eq!(ending, arcade_tiles::check::Ending::Won);
}

#[tokio::test]
async fn the_captured_level_loads() {
    let (_, v) = new_level(&router(), json!({"source": "captured"})).await;
    assert!(v["view"]["total"].as_u64().unwrap() > 100);
    assert_eq!(v["view"]["capacity"], 7);
}

/// The solver's steps clear a level; each answer carries a fresh verdict.
#[tokio::test]
async fn solver_steps_clear_a_level() {
    let app = router();
    let (id, v) = new_level(&app, json!({"source": "generate", "layers": 12, "seed": 2})).await;
    let total = v["view"]["total"].as_u64().unwrap();
    for k in 1..=total {
        let (status, v) = post(&app, &format!("/api/tiles/{id}/step"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["change"]["clicks"], k);
        assert!(
            v.get("view").is_none(),
            "a step answers with the change only"
        );
        let expected = if k == total { "won" } else { "winnable" };
        assert_eq!(v["verdict"]["verdict"], expected);
    }
    let (status, v) = post(&app, &format!("/api/tiles/{id}/click"), json!({"tile": 0})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "game is over");
}

#[tokio::test]
async fn a_bad_click_shows_lost_and_undo_takes_it_back() {
    let app = router();
    let (id, _) = new_level(
        &app,
        json!({"source": "generate", "layers": 12, "difficulty": 1.0, "seed": 0}),
    )
    .await;
    for _ in 0..38 {
        post(&app, &format!("/api/tiles/{id}/step"), json!({})).await;
    }
    let (_, v) = post(
        &app,
        &format!("/api/tiles/{id}/click"),
        json!({"tile": 302}),
    )
    .await;
    assert_eq!(v["verdict"]["verdict"], "lost");
    assert_eq!(v["verdict"]["proof"], "search");
    let (_, v) = post(&app, &format!("/api/tiles/{id}/undo"), json!({})).await;
    assert_eq!(v["verdict"]["verdict"], "winnable");
}

#[tokio::test]
async fn bad_requests_are_4xx() {
    let app = router();
    for (body, needle) in [
        (json!({"source": "generate", "layers": 3}), "layers must be"),
        (
            json!({"source": "generate", "difficulty": 2.0}),
            "difficulty",
        ),
    ] {
        let (status, v) = post(&app, "/api/tiles/new", body).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, needle);
    }
    let (status, v) = post(&app, "/api/tiles/new", json!({"source": "elsewhere"})).await;
    assert!(status.is_client_error(), "{v}");
    // The captured level has no knobs: one sent with it was ignored.
    for knob in ["layers", "difficulty", "seed"] {
        let (status, v) = post(
            &app,
            "/api/tiles/new",
            json!({"source": "captured", knob: 20}),
        )
        .await;
        assert_error(
            status,
            &v,
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!("unknown field `{knob}`"),
        );
    }
    let (id, v) = new_level(&app, json!({"source": "generate", "layers": 12})).await;
    let covered = v["view"]["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["free"] == false)
        .unwrap()["id"]
        .clone();
    let (status, v) = post(
        &app,
        &format!("/api/tiles/{id}/click"),
        json!({"tile": covered}),
    )
    .await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "is covered");
    let (status, v) = post(
        &app,
        &format!("/api/tiles/{id}/click"),
        json!({"tile": 100000}),
    )
    .await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "no tile 100000");
}
