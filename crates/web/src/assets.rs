//! The pages, styles and scripts, embedded in the binary: the server serves
//! these and nothing else from disk.

use crate::error::{ApiError, ApiPath};
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// `(name, content type, bytes)` of every embedded file.
const FILES: &[(&str, &str, &str)] = &[
    ("index.html", HTML, include_str!("../static/index.html")),
    ("mines.html", HTML, include_str!("../static/mines.html")),
    ("jumpin.html", HTML, include_str!("../static/jumpin.html")),
    ("tiles.html", HTML, include_str!("../static/tiles.html")),
    ("battle.html", HTML, include_str!("../static/battle.html")),
    ("tetris.html", HTML, include_str!("../static/tetris.html")),
    ("flappy.html", HTML, include_str!("../static/flappy.html")),
    ("geek.html", HTML, include_str!("../static/geek.html")),
    ("sketch.html", HTML, include_str!("../static/sketch.html")),
    ("median.html", HTML, include_str!("../static/median.html")),
    ("style.css", CSS, include_str!("../static/style.css")),
    ("favicon.svg", SVG, include_str!("../static/favicon.svg")),
    ("common.js", JS, include_str!("../static/common.js")),
    ("mines.js", JS, include_str!("../static/mines.js")),
    ("jumpin.js", JS, include_str!("../static/jumpin.js")),
    ("tiles.js", JS, include_str!("../static/tiles.js")),
    ("battle.js", JS, include_str!("../static/battle.js")),
    ("realtime.js", JS, include_str!("../static/realtime.js")),
    ("tetris.js", JS, include_str!("../static/tetris.js")),
    ("flappy.js", JS, include_str!("../static/flappy.js")),
    ("geek.js", JS, include_str!("../static/geek.js")),
    ("sketch.js", JS, include_str!("../static/sketch.js")),
    ("median.js", JS, include_str!("../static/median.js")),
];

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

fn file(name: &str) -> Result<Response, ApiError> {
    let (_, kind, body) = FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| ApiError::NotFound(format!("/static/{}", name.escape_debug())))?;
    Ok(([(header::CONTENT_TYPE, *kind)], *body).into_response())
}

/// A page by its route name (`/mines` serves `mines.html`).
pub fn page(name: &str) -> Result<Response, ApiError> {
    file(&format!("{name}.html"))
}

/// The page a browser gets for an unknown path: the message and a link
/// home, in the arena's style (`message` is escaped).
pub fn not_found_page(message: &str) -> Response {
    let escaped = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let body = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Not found · arcade</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\
         <body><main><h1>Not found</h1><p class=\"message bad\">{escaped}</p>\
         <p><a href=\"/\">Back to the arena</a></p></main></body></html>"
    );
    ([(header::CONTENT_TYPE, HTML)], body).into_response()
}

/// `GET /favicon.ico`, which browsers ask for whatever the pages link.
pub async fn favicon() -> Result<Response, ApiError> {
    file("favicon.svg")
}

/// `GET /static/{name}`: a style sheet, script or icon.
pub async fn asset(ApiPath(name): ApiPath<String>) -> Result<Response, ApiError> {
    file(&name)
}

/// The names of the embedded files, for tests.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _, _)| *n)
}
