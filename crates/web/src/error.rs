//! The error policy: every bad request is a 4xx whose body is one line of
//! JSON, `{"error": "..."}`; nothing a client sends can panic the server.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// Why a request was refused.
#[derive(Debug, Error)]
pub enum ApiError {
    /// Malformed JSON, a bad field, an impossible move.
    #[error("{0}")]
    BadRequest(String),
    /// A body that is not the JSON asked for, with the status axum chose
    /// (400 syntax, 415 content type, 422 wrong fields).
    #[error("{message}")]
    BadJson { status: StatusCode, message: String },
    #[error("no such session {0:?} (it may have expired; start a new game)")]
    UnknownSession(String),
    #[error("session {id:?} is a {actual} game, not {expected}")]
    WrongGame {
        id: String,
        actual: &'static str,
        expected: &'static str,
    },
    #[error("no such page: {0}")]
    NotFound(String),
    #[error("method {0} is not allowed here")]
    MethodNotAllowed(String),
    #[error("request body too large (limit {})", arcade_core::text::bytes(*.0 as u64))]
    TooLarge(usize),
    #[error("{0}")]
    Unprocessable(String),
    /// An upload of a kind the route does not take (415).
    #[error("{0}")]
    Unsupported(String),
    #[error("too many requests at once (limit {0}); try again")]
    Flood(usize),
    #[error("the computation took longer than {0} s")]
    Timeout(u64),
    /// Every computation slot stayed taken for the whole time bound (503).
    #[error("the server is busy ({0} computations at once); try again")]
    Busy(usize),
    /// The whole request (reading its body included) ran past its bound (408).
    #[error("the request took longer than {0} s (a body sent too slowly?)")]
    RequestTimeout(u64),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::BadJson { status, .. } => *status,
            ApiError::UnknownSession(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::WrongGame { .. } => StatusCode::CONFLICT,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unprocessable(_) | ApiError::Timeout(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Flood(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// A 400 from any error's one-line message.
    pub fn bad(e: impl std::fmt::Display) -> ApiError {
        ApiError::BadRequest(e.to_string())
    }

    /// A 422 (well-formed but impossible, e.g. a contradictory position).
    pub fn unprocessable(e: impl std::fmt::Display) -> ApiError {
        ApiError::Unprocessable(e.to_string())
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.to_string(),
        };
        (self.status(), axum::Json(body)).into_response()
    }
}

/// A JSON body whose every rejection (syntax, wrong fields, wrong content
/// type, too large) is an [`ApiError`] with a one-line message.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(ApiJson(v)),
            Err(rejection) => Err(from_rejection(rejection)),
        }
    }
}

fn from_rejection(r: JsonRejection) -> ApiError {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::TooLarge(crate::server::MAX_BODY_BYTES);
    }
    // axum's text may span lines (serde's context); keep one line.
    ApiError::BadJson {
        status: r.status(),
        message: plain_serde(&r.body_text().replace('\n', " ")),
    }
}

/// axum's and serde's words for a field of the wrong type, in a player's:
/// "Failed to deserialize the JSON body into the target type: level: invalid
/// value: integer `-2`, expected u32 at line 1 column 44" becomes "level:
/// -2 is not allowed: expected a whole number from 0".
fn plain_serde(text: &str) -> String {
    let mut text = text.to_string();
    for prefix in [
        "Failed to deserialize the JSON body into the target type: ",
        "Failed to deserialize query string: ",
    ] {
        if let Some(rest) = text.strip_prefix(prefix) {
            text = rest.to_string();
        }
    }
    if let Some(at) = text.rfind(" at line ") {
        let tail = &text[at + " at line ".len()..];
        if tail.split(" column ").all(|n| n.parse::<u64>().is_ok()) {
            text.truncate(at);
        }
    }
    for unsigned in ["usize", "u64", "u32", "u16", "u8"] {
        text = text.replace(
            &format!("expected {unsigned}"),
            "expected a whole number from 0",
        );
    }
    // serde quotes the value it got in backticks: `16.5`, `-2`.
    for (kind, then) in [
        ("invalid type: floating point ", "is not allowed"),
        ("invalid value: integer ", "is not allowed"),
        ("invalid type: string ", "is not allowed"),
        ("invalid value: string ", "is not allowed"),
    ] {
        if let Some(at) = text.find(kind) {
            let rest = &text[at + kind.len()..];
            if let Some((value, after)) = rest.split_once(", ") {
                let value = value.trim_matches('`');
                // 1e300 comes as its 301 digits.
                let value = match value.char_indices().nth(16) {
                    Some((cut, _)) => format!("{}… ({} characters)", &value[..cut], value.len()),
                    None => value.to_string(),
                };
                text = format!("{}{value} {then}: {after}", &text[..at]);
            }
        }
    }
    // "expected struct NewGame": the Rust type means nothing to a client.
    if let Some(at) = text.find("expected struct ") {
        let name_end = text[at + "expected struct ".len()..]
            .find(|c: char| !c.is_alphanumeric())
            .map_or(text.len(), |n| at + "expected struct ".len() + n);
        text.replace_range(at..name_end, "expected a JSON object");
    }
    text.replace(
        "invalid digit found in string",
        "expected a whole number (digits only)",
    )
    .replace(
        "number too large to fit in target type",
        "the number is too large",
    )
    .replace("invalid float literal", "expected a number")
}

pub type ApiResult<T> = Result<axum::Json<T>, ApiError>;

/// An extractor wrapping one of axum's whose every rejection is a 400 with a
/// one-line JSON message rather than axum's plain text.
macro_rules! one_line_400 {
    ($(#[$doc:meta])* $name:ident wraps $inner:ident) => {
        $(#[$doc])*
        pub struct $name<T>(pub T);

        impl<S, T> axum::extract::FromRequestParts<S> for $name<T>
        where
            T: DeserializeOwned + Send,
            S: Send + Sync,
        {
            type Rejection = ApiError;

            async fn from_request_parts(
                parts: &mut axum::http::request::Parts,
                state: &S,
            ) -> Result<Self, ApiError> {
                match axum::extract::$inner::<T>::from_request_parts(parts, state).await {
                    Ok(axum::extract::$inner(v)) => Ok($name(v)),
                    Err(r) => Err(ApiError::BadRequest(plain_serde(&r.body_text().replace('\n', " ")))),
                }
            }
        }
    };
}

one_line_400!(
    /// Query parameters.
    ApiQuery wraps Query
);
one_line_400!(
    /// Path parameters (a session id, an asset name), such as bytes that are
    /// not UTF-8.
    ApiPath wraps Path
);

/// A raw upload (image, CSV, record) read up to `limit` bytes: a larger one
/// is a 413 naming the limit, and no more than the limit is ever buffered.
pub async fn read_upload(body: axum::body::Body, limit: usize) -> Result<Vec<u8>, ApiError> {
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(e) if e.to_string().contains("length limit") => Err(ApiError::TooLarge(limit)),
        Err(e) => Err(ApiError::BadRequest(format!(
            "could not read the upload: {}",
            e.to_string().replace('\n', " ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::plain_serde;

    #[test]
    fn serde_words_become_a_players() {
        for (axum, plain) in [
            (
                "Failed to deserialize the JSON body into the target type: level: invalid value: integer `-2`, expected u32 at line 1 column 44",
                "level: -2 is not allowed: expected a whole number from 0",
            ),
            (
                "Failed to deserialize the JSON body into the target type: invalid type: floating point `16.5`, expected usize at line 1 column 13",
                "16.5 is not allowed: expected a whole number from 0",
            ),
            (
                "Failed to deserialize query string: column: invalid digit found in string",
                "column: expected a whole number (digits only)",
            ),
            (
                "Failed to deserialize query string: delimiter: invalid value: string \";;\", expected a character",
                "delimiter: \";;\" is not allowed: expected a character",
            ),
            ("unknown field `colour`", "unknown field `colour`"),
            (
                "Failed to deserialize the JSON body into the target type: invalid type: null, expected struct NewGame at line 1 column 4",
                "invalid type: null, expected a JSON object",
            ),
            (
                "Failed to deserialize query string: column: number too large to fit in target type",
                "column: the number is too large",
            ),
            (
                "Failed to deserialize query string: depth: invalid float literal",
                "depth: expected a number",
            ),
            (
                &format!(
                    "Failed to deserialize the JSON body into the target type: difficulty: invalid type: floating point `1{}`, expected f32 at line 1 column 9",
                    "0".repeat(300)
                ),
                "difficulty: 1000000000000000… (301 characters) is not allowed: expected f32",
            ),
        ] {
            assert_eq!(plain_serde(axum), plain);
        }
    }
}
