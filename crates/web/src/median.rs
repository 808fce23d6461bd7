//! The rolling median of pasted or uploaded numbers, read by
//! `arcade_signal`'s reader (the same as `arcade median`): the series and its
//! medians for the chart, and the medians as `arcade median` prints them.

use crate::error::{ApiError, ApiQuery, read_upload};
use crate::server::AppRef;
use arcade_signal::{MedianError, Number, ReadOptions, medians_of_text};
use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Largest upload: 4 MiB.
pub const MAX_TEXT_BYTES: usize = 4 << 20;
/// Most numbers the page charts (`arcade median` streams any number).
pub const MAX_VALUES: u64 = 200_000;

pub fn routes() -> Router<AppRef> {
    Router::new().route("/", post(median_route))
}

/// The options of `arcade median`, as query parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MedianQuery {
    pub window: usize,
    pub column: Option<usize>,
    pub delimiter: Option<char>,
    #[serde(default)]
    pub header: bool,
    #[serde(default)]
    pub skip_bad: bool,
}

#[derive(Serialize)]
pub struct MedianAnswer {
    pub window: usize,
    /// The numbers read.
    #[serde(serialize_with = "numbers")]
    pub values: Vec<f64>,
    /// The median of every full window; `medians[i]` ends at `values[i + window - 1]`.
    #[serde(serialize_with = "numbers")]
    pub medians: Vec<f64>,
    /// The medians one a line, exactly as `arcade median` prints them.
    pub text: String,
    pub notes: Vec<String>,
}

/// Numbers as JSON numbers, except the three JSON has none for: those as
/// the strings "NaN", "Infinity" and "-Infinity", which JavaScript's
/// `Number`, Python's `float` and Rust's `parse` all read back. (serde_json
/// would write all three as `null`, so an infinity could not be told from a
/// NaN.)
fn numbers<S: serde::Serializer>(xs: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(xs.len()))?;
    for &x in xs {
        match x {
            x if x.is_finite() => seq.serialize_element(&x)?,
            x if x.is_nan() => seq.serialize_element("NaN")?,
            x if x > 0.0 => seq.serialize_element("Infinity")?,
            _ => seq.serialize_element("-Infinity")?,
        }
    }
    seq.end()
}

/// A 400 for input the page cannot read, naming the page's checkbox when
/// skipping would help.
fn read_error(e: MedianError) -> ApiError {
    match e {
        // A missing column is on every line: skipping would leave nothing.
        MedianError::BadLine { ref why, .. } if why.starts_with("no column") => {
            ApiError::bad(format!("{e} (check the column number)"))
        }
        MedianError::BadLine { .. } => {
            ApiError::bad(format!("{e} (tick \"skip lines that are not numbers\")"))
        }
        e => ApiError::bad(e),
    }
}

fn run(text: &str, q: &MedianQuery) -> Result<MedianAnswer, ApiError> {
    let options = ReadOptions {
        column: q.column.or(q.delimiter.map(|_| 1)),
        delimiter: q.delimiter.unwrap_or(','),
        header: q.header,
        skip_bad: q.skip_bad,
    };
    if q.column == Some(0) {
        return Err(ApiError::BadRequest("column is 1-based: 1 or more".into()));
    }
    // A window of one reads the series itself, through the same reader.
    let (values, series) = medians_of_text(text, 1, &options).map_err(read_error)?;
    if series.values > MAX_VALUES {
        return Err(ApiError::Unprocessable(format!(
            "{} numbers; the page takes at most {MAX_VALUES} (use `arcade median` for more)",
            series.values
        )));
    }
    let (medians, summary) = medians_of_text(text, q.window, &options).map_err(read_error)?;
    let mut out = String::with_capacity(medians.len() * 8);
    for m in &medians {
        let _ = writeln!(out, "{}", Number(*m));
    }
    Ok(MedianAnswer {
        window: q.window,
        values,
        medians,
        text: out,
        notes: summary.notes(),
    })
}

async fn median_route(
    State(app): State<AppRef>,
    ApiQuery(q): ApiQuery<MedianQuery>,
    body: Body,
) -> Result<Json<MedianAnswer>, ApiError> {
    let bytes = read_upload(body, MAX_TEXT_BYTES).await?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ApiError::Unprocessable("the numbers are not UTF-8 text".into()))?;
    let out = app.compute(move || run(&text, &q)).await?;
    Ok(Json(out))
}
