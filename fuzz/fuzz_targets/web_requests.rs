//! `arcade serve`: a request body sent to one of the server's JSON routes,
//! through the real router (tower's `oneshot`, no socket), against a fresh
//! server.
//! Input: byte 0 picks the route, byte 1 whether the session id is a new
//! game's of the route's kind, a made-up one or another kind's; the rest is
//! the body.
//! Properties: the answer is never a 5xx; a 4xx is exactly
//! `{"error": "<one line>"}`; a 2xx is JSON, and for a game route it names
//! the session it answered for.
#![no_main]

use arcade_web::{AppState, ServeConfig, app};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::sync::OnceLock;
use tower::ServiceExt;

/// Each game's `new` body, small so that setting up a server is cheap.
const GAMES: [(&str, &str); 5] = [
    ("mines", r#"{"level": "9x9/10", "seed": 1}"#),
    ("tiles", r#"{"source": "captured"}"#),
    ("jumpin", r#"{"challenge": 1}"#),
    (
        "battle",
        r#"{"players": ["human", "rule"], "level": "9x9/10", "seed": 1}"#,
    ),
    ("tetris", r#"{"mode": "play", "sequence": "IOTSZJL"}"#),
];

/// A route: a game's `new`, a route of no session, or an action on a
/// session.
#[derive(Clone, Copy)]
enum Route {
    New,
    Plain(&'static str),
    Action(&'static str),
}
use Route::{Action, New, Plain};

/// `(game, route)`.
const ROUTES: [(usize, Route); 29] = [
    (0, New),
    (0, Plain("analyze")),
    (0, Action("state")),
    (0, Action("reveal")),
    (0, Action("flag")),
    (0, Action("chord")),
    (0, Action("hint")),
    (0, Action("step")),
    (1, New),
    (1, Action("state")),
    (1, Action("click")),
    (1, Action("undo")),
    (1, Action("step")),
    (2, New),
    (2, Action("state")),
    (2, Action("moves")),
    (2, Action("move")),
    (2, Action("undo")),
    (2, Action("restart")),
    (2, Action("hint")),
    (2, Action("step")),
    (3, New),
    (3, Action("click")),
    (3, Action("ai")),
    (3, Action("hint")),
    (4, New),
    (4, Action("tick")),
    (4, Action("watch")),
    (4, Action("state")),
];

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

async fn post(router: &Router, path: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let req = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("a request");
    let res = router.clone().oneshot(req).await.expect("infallible");
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 26)
        .await
        .expect("a body");
    (status, bytes.to_vec())
}

/// A new game of kind `game` on `router`: its session id.
async fn new_game(router: &Router, game: usize) -> String {
    let (name, body) = GAMES[game];
    let (status, bytes) = post(router, &format!("/api/{name}/new"), body.into()).await;
    assert!(status.is_success(), "setting up {name}: {status}");
    let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
    answer["session"]
        .as_str()
        .expect("a session id")
        .to_string()
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 || data.len() > 4096 {
        return;
    }
    let (game, route) = ROUTES[usize::from(data[0]) % ROUTES.len()];
    let body = data[2..].to_vec();
    runtime().block_on(async {
        let router = app(AppState::new(ServeConfig::default()));
        let name = GAMES[game].0;
        let (path, id) = match route {
            New => (format!("/api/{name}/new"), None),
            Plain(route) => (format!("/api/{name}/{route}"), None),
            Action(action) => {
                let id = match data[1] % 3 {
                    0 => new_game(&router, game).await,
                    1 => "0123456789abcdef".to_string(),
                    _ => new_game(&router, (game + 1) % GAMES.len()).await,
                };
                (format!("/api/{name}/{id}/{action}"), Some(id))
            }
        };
        let (status, bytes) = post(&router, &path, body).await;
        assert!(!status.is_server_error(), "{path}: {status}");
        let answer: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{path}: {status} with a body that is not JSON: {e}"));
        if status.is_client_error() {
            let obj = answer.as_object().expect("an error object");
            assert_eq!(obj.len(), 1, "{path}: {answer}");
            let msg = obj["error"].as_str().expect("an error message");
            assert!(!msg.contains('\n'), "{path}: a multi-line error: {msg:?}");
        } else if let (Some(id), Some(session)) = (id, answer.get("session")) {
            assert_eq!(session.as_str(), Some(id.as_str()), "{path}: {answer}");
        }
    });
});
