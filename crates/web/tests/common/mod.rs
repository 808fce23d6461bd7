//! Requests through the router in memory (tower's `oneshot`), no socket.

use arcade_web::{AppState, ServeConfig, app};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use tower::ServiceExt;

pub fn router() -> Router {
    router_with(ServeConfig::default())
}

pub fn router_with(config: ServeConfig) -> Router {
    app(AppState::new(config))
}

/// Sends a raw request and returns the status and the body as text.
pub async fn send(app: &Router, req: Request<Body>) -> (StatusCode, String) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// POSTs JSON and returns the status and the parsed answer.
pub async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, text) = send(app, req).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

pub async fn get(app: &Router, path: &str) -> (StatusCode, String) {
    send(app, Request::get(path).body(Body::empty()).unwrap()).await
}

/// Asserts a 4xx whose body is exactly `{"error": "<one line>"}` containing `needle`.
pub fn assert_error(status: StatusCode, body: &Value, expected: StatusCode, needle: &str) {
    assert_eq!(status, expected, "{body}");
    let obj = body.as_object().expect("a JSON object");
    assert_eq!(obj.len(), 1, "{body}");
    let msg = obj["error"].as_str().unwrap();
    assert!(!msg.contains('\n'), "{msg}");
    assert!(msg.contains(needle), "{msg:?} lacks {needle:?}");
}
