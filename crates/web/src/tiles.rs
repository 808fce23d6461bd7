//! Sheep a Sheep: a generated level (classic layout, the constructor's
//! difficulty knob, a seed) or the captured level, a [`TilesGame`] per
//! session, and the exact solver's verdict after every click.

use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::server::AppRef;
use crate::sessions::Game;
use arcade_tiles::capture::{LEVEL_90031, parse_capture};
use arcade_tiles::exact::Limits;
use arcade_tiles::generate::construct;
use arcade_tiles::layout::Classic;
use arcade_tiles::level::DEFAULT_CAPACITY;
use arcade_tiles::play::{TilesChange, TilesGame, TilesVerdict, TilesView};
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};

/// Layers a generated level may have: 12 hold the 360 tiles, 40 is deep.
pub const LAYERS: std::ops::RangeInclusive<usize> = 12..=40;

/// The solver's budget for one verdict: an answer in time or "unknown".
const VERDICT_SECONDS: f64 = 2.0;

pub fn routes() -> Router<AppRef> {
    Router::new()
        .route("/new", post(new_game))
        .route("/{id}/state", post(state))
        .route("/{id}/click", post(click))
        .route("/{id}/undo", post(undo))
        .route("/{id}/step", post(step))
}

/// A new level: generated from its knobs, or the captured real level, which
/// has none (a knob sent with it is refused, not silently ignored).
#[derive(Deserialize)]
#[serde(tag = "source", rename_all = "lowercase", deny_unknown_fields)]
pub enum NewGame {
    Generate {
        #[serde(default = "default_layers")]
        layers: usize,
        #[serde(default = "default_difficulty")]
        difficulty: f64,
        #[serde(default)]
        seed: u64,
    },
    Captured {},
}

fn default_layers() -> usize {
    16
}
fn default_difficulty() -> f64 {
    0.5
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClickRequest {
    pub tile: usize,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Every answer about a game: the whole view (`new`, `state`) or what the
/// action changed in it (`click`, `undo`, `step`: a few tiles instead of
/// 360), and the verdict on the position.
#[derive(Serialize)]
pub struct TilesState {
    pub session: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<TilesView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<TilesChange>,
    pub verdict: TilesVerdict,
    /// The tile the solver just clicked (`step`).
    pub played: Option<usize>,
}

/// Whether an answer carries the whole view or the change.
#[derive(Clone, Copy, PartialEq)]
enum Answer {
    View,
    Change,
}

async fn new_game(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<NewGame>,
) -> ApiResult<TilesState> {
    let game = match req {
        NewGame::Captured {} => {
            TilesGame::new(parse_capture(LEVEL_90031, None).map_err(ApiError::unprocessable)?)
        }
        NewGame::Generate {
            layers,
            difficulty,
            seed,
        } => {
            if !LAYERS.contains(&layers) {
                return Err(ApiError::BadRequest(format!(
                    "layers must be {} to {}, not {}",
                    LAYERS.start(),
                    LAYERS.end(),
                    layers
                )));
            }
            let shape = Classic::new(layers);
            // The construction's intended clicks win: the first verdict
            // needs no search.
            app.compute(move || {
                let g =
                    construct(&shape, DEFAULT_CAPACITY, difficulty, seed).map_err(ApiError::bad)?;
                TilesGame::with_line(g.level, &g.intended).map_err(ApiError::bad)
            })
            .await?
        }
    };
    let id = app.sessions.insert(Game::Tiles(game));
    act(&app, id, Answer::View, |_| Ok(None)).await
}

/// Runs `f` on session `id`'s level off the async threads, then answers
/// with the view (or its change) and the solver's verdict.
async fn act(
    app: &AppRef,
    id: String,
    answer: Answer,
    f: impl FnOnce(&mut TilesGame) -> Result<Option<usize>, ApiError> + Send + 'static,
) -> ApiResult<TilesState> {
    let state = app
        .with_game(id, move |game: &mut TilesGame, id| {
            let before = (answer == Answer::Change).then(|| game.snapshot());
            let played = f(game)?;
            Ok(TilesState {
                session: id,
                view: before.is_none().then(|| game.view()),
                change: before.map(|b| game.change_since(&b)),
                verdict: game.verdict(&Limits::seconds(VERDICT_SECONDS)),
                played,
            })
        })
        .await?;
    Ok(Json(state))
}

async fn state(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<TilesState> {
    act(&app, id, Answer::View, |_| Ok(None)).await
}

async fn click(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(c): ApiJson<ClickRequest>,
) -> ApiResult<TilesState> {
    act(&app, id, Answer::Change, move |g| {
        g.click(c.tile).map_err(ApiError::bad)?;
        Ok(None)
    })
    .await
}

async fn undo(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<TilesState> {
    act(&app, id, Answer::Change, |g| {
        g.undo();
        Ok(None)
    })
    .await
}

/// The solver clicks the next tile of its winning line ("solve it for me").
async fn step(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<TilesState> {
    act(&app, id, Answer::Change, |g| {
        let hint = g.verdict(&Limits::seconds(VERDICT_SECONDS)).hint;
        if let Some(t) = hint {
            g.click(t).map_err(ApiError::bad)?;
        }
        Ok(hint)
    })
    .await
}
