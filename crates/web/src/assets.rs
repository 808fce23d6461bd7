//! The pages, styles and scripts, embedded in the binary: the server serves
//! these and nothing else from disk.
//!
//! A page's file in `static/` holds only its `<main>` and scripts: the head
//! and the navigation every page shares are written once, here.

use crate::error::{ApiError, ApiPath};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::fmt::Write as _;
use std::sync::LazyLock;

/// A page of the arena: where it is served, its link in the navigation,
/// its title, whether it has one-letter shortcuts, and the rest of its body.
pub struct Page {
    /// The route without its slash (`mines` is `/mines`); `index` is `/`.
    pub name: &'static str,
    label: &'static str,
    title: &'static str,
    /// Its header gets the switch that turns them off (WCAG 2.1.4).
    letters: bool,
    main: &'static str,
}

impl Page {
    /// Where the page is served.
    pub fn path(&self) -> String {
        match self.name {
            "index" => "/".to_string(),
            name => format!("/{name}"),
        }
    }
}

macro_rules! page {
    ($name:literal, $label:literal, $title:literal, $letters:literal) => {
        Page {
            name: $name,
            label: $label,
            title: $title,
            letters: $letters,
            main: include_str!(concat!("../static/", $name, ".html")),
        }
    };
}

/// Every page, in the order of the navigation.
pub const PAGES: &[Page] = &[
    page!("index", "Home", "web arena", false),
    page!("mines", "Minesweeper", "Minesweeper", true),
    page!("jumpin", "Jump In'", "Jump In'", true),
    page!("tiles", "Sheep a Sheep", "Sheep a Sheep", true),
    page!("battle", "Battle", "Minesweeper battle", true),
    page!("tetris", "Tetris", "Tetris", true),
    page!("geek", "Geek", "Geek Challenge", false),
    page!("flappy", "Flappy", "Flappy Bird", true),
    page!("sketch", "Sketch", "Sketch", false),
    page!("median", "Median", "Rolling median", false),
];

/// `(name, content type, bytes)` of every style sheet, script and icon.
const FILES: &[(&str, &str, &str)] = &[
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

/// The whole pages, put together once.
static WHOLE: LazyLock<Vec<String>> = LazyLock::new(|| PAGES.iter().map(whole).collect());

/// The head every page shares, up to the opening `<body>`.
fn head(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} · arcade</title>\n\
         <link rel=\"stylesheet\" href=\"/static/style.css\">\n\
         <link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">\n\
         </head>\n<body>\n"
    )
}

/// `page` with the shared head, the skip link and the navigation, where its
/// own link is marked as the current page (and the letter keys' switch).
fn whole(page: &Page) -> String {
    let mut html = head(page.title);
    html.push_str(
        "<a class=\"skip\" href=\"#main\">Skip to the page</a>\n<header>\n  \
         <span class=\"brand\">arcade</span>\n  <nav aria-label=\"pages\">\n",
    );
    for other in PAGES {
        let current = if other.name == page.name {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = writeln!(
            html,
            "    <a href=\"{}\"{current}>{}</a>",
            other.path(),
            other.label
        );
    }
    html.push_str("  </nav>\n");
    if page.letters {
        html.push_str(
            "  <label class=\"letter-keys\" title=\"the page's one-letter shortcuts\">\
             <input type=\"checkbox\" id=\"letter-keys\" checked autocomplete=\"off\"> Letter keys</label>\n",
        );
    }
    html.push_str("</header>\n");
    html.push_str(page.main);
    html
}

fn file(name: &str) -> Result<Response, ApiError> {
    let (_, kind, body) = FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| ApiError::NotFound(format!("/static/{}", name.escape_debug())))?;
    Ok(([(header::CONTENT_TYPE, *kind)], *body).into_response())
}

/// A page by its route name (`/mines` serves `mines`), whole.
pub fn page(name: &str) -> Result<Response, ApiError> {
    let at = PAGES
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| ApiError::NotFound(format!("/{}", name.escape_debug())))?;
    Ok(([(header::CONTENT_TYPE, HTML)], WHOLE[at].as_str()).into_response())
}

/// The page a browser gets for an unknown path: the message and a link
/// home, in the arena's style (`message` is escaped).
pub fn not_found_page(message: &str) -> Response {
    let escaped = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let body = format!(
        "{}<main><h1>Not found</h1><p class=\"message bad\">{escaped}</p>\
         <p><a href=\"/\">Back to the arena</a></p></main></body></html>",
        head("Not found")
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

/// The names of the embedded style sheets, scripts and icons, for tests.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _, _)| *n)
}
