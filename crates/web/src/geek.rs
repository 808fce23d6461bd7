//! The Geek Challenge: replay a record (the published 1,378,178, arcade's
//! 1,428,236, or an uploaded one) with the library's reference replay, and
//! answer every piece so the page can scrub through the game.

use crate::error::{ApiError, ApiQuery, read_upload};
use crate::server::AppRef;
use arcade_tetris::geek::record::{ARCADE_BEST, PUBLISHED_1378178, Record};
use arcade_tetris::geek::replay::{Replay, replay};
use arcade_tetris::geek::{HEIGHT, WIDTH};
use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Largest uploaded record: 4 MiB (the shipped records are 90 and 140 KB).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

pub fn routes() -> Router<AppRef> {
    Router::new().route("/replay", post(replay_route))
}

/// `?record=published|arcade`; without it the body is the record.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayQuery {
    pub record: Option<String>,
}

/// One placed piece.
#[derive(Serialize)]
pub struct PieceFrame {
    /// The piece letter.
    pub p: char,
    /// Its cells `(x, y)`, `y = 0` the top row as in the game (cells above
    /// the field left out).
    pub c: Vec<(i32, i32)>,
    /// Score after it.
    pub s: u64,
    /// Rows it completed.
    pub l: u32,
    /// The field after writing it, before full rows go: 20 rows top first,
    /// each 3 hex digits (bit x = column x).
    pub g: String,
}

#[derive(Serialize)]
pub struct GeekReplay {
    pub name: String,
    pub result: Replay,
    pub frames: Vec<PieceFrame>,
}

/// Where a bad record fails: the piece as well as the token.
fn locate(text: &str, token: usize) -> usize {
    text.trim()
        .split(',')
        .take(token)
        .filter(|t| t.trim() == "N")
        .count()
}

fn run(name: String, text: &str) -> Result<GeekReplay, ApiError> {
    let record = Record::parse(text).map_err(|e| {
        ApiError::Unprocessable(format!(
            "{name}: piece {}, {e}",
            locate(text, e.index).max(1)
        ))
    })?;
    let mut frames = Vec::with_capacity(record.pieces.len());
    let result = replay(&record, |f| {
        let mut g = String::with_capacity(3 * HEIGHT);
        for row in f.grid.iter() {
            let bits = (0..WIDTH).fold(0u16, |b, x| b | u16::from(row[x]) << x);
            let _ = write!(g, "{bits:03x}");
        }
        frames.push(PieceFrame {
            p: f.piece.letter(),
            c: f.cells.to_vec(),
            s: f.score,
            l: f.lines,
            g,
        });
    });
    Ok(GeekReplay {
        name,
        result,
        frames,
    })
}

async fn replay_route(
    State(app): State<AppRef>,
    ApiQuery(q): ApiQuery<ReplayQuery>,
    body: Body,
) -> Result<Json<GeekReplay>, ApiError> {
    let (name, text) = match q.record.as_deref() {
        Some("published") => (
            "published 1,378,178".to_string(),
            PUBLISHED_1378178.to_string(),
        ),
        Some("arcade") => ("arcade 1,428,236".to_string(), ARCADE_BEST.to_string()),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "unknown record {:?} (expected published or arcade, or upload one)",
                other.chars().take(40).collect::<String>()
            )));
        }
        None => {
            let bytes = read_upload(body, MAX_RECORD_BYTES).await?;
            let text = String::from_utf8(bytes)
                .map_err(|_| ApiError::Unprocessable("the record is not UTF-8 text".into()))?;
            if text.trim().is_empty() {
                return Err(ApiError::Unprocessable("the record is empty".into()));
            }
            ("uploaded record".to_string(), text)
        }
    };
    let out = app.compute(move || run(name, &text)).await?;
    Ok(Json(out))
}
