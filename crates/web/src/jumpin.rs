//! Jump In': the official challenges and generated puzzles, a
//! [`JumpinGame`] per session, legal moves of a clicked piece, hints and the
//! optimal solution played move by move.

use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::server::AppRef;
use crate::sessions::Game;
use arcade_jumpin::challenges::official;
use arcade_jumpin::generate::generate;
use arcade_jumpin::hardest::PieceSet;
use arcade_jumpin::parse_code;
use arcade_jumpin::play::{Hint, JumpinGame, JumpinView, PlayMove};
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

/// Longest optimal solution a generated puzzle may be asked for here: the
/// hardest puzzles of the standard piece sets are shorter, and a web request
/// is bounded more tightly than the library's `generate::MAX_MOVES`.
pub const MAX_GENERATE_MOVES: u32 = 60;

pub fn routes() -> Router<AppRef> {
    Router::new()
        .route("/challenges", get(challenges))
        .route("/new", post(new_game))
        .route("/{id}/state", post(state))
        .route("/{id}/moves", post(moves))
        .route("/{id}/move", post(play))
        .route("/{id}/undo", post(undo))
        .route("/{id}/restart", post(restart))
        .route("/{id}/hint", post(hint))
        .route("/{id}/step", post(step))
}

#[derive(Serialize)]
pub struct ChallengeInfo {
    pub number: u32,
    pub code: String,
    pub minimum: u32,
}

async fn challenges() -> Json<Vec<ChallengeInfo>> {
    Json(
        official()
            .into_iter()
            .map(|c| ChallengeInfo {
                number: c.number,
                code: c.code,
                minimum: c.minimum,
            })
            .collect(),
    )
}

/// Exactly one of `challenge` (1–60), `code` or `generate`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub challenge: Option<u32>,
    pub code: Option<String>,
    pub generate: Option<GenerateRequest>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    pub moves: u32,
    #[serde(default = "three")]
    pub rabbits: usize,
    #[serde(default = "two")]
    pub foxes: usize,
    #[serde(default = "three")]
    pub mushrooms: usize,
    #[serde(default)]
    pub seed: u64,
}

fn three() -> usize {
    3
}
fn two() -> usize {
    2
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct At {
    pub x: u8,
    pub y: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    pub from: [u8; 2],
    pub to: [u8; 2],
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Every answer about a game.
#[derive(Serialize, Default)]
pub struct JumpinState {
    pub session: String,
    pub view: Option<JumpinView>,
    pub hint: Option<Hint>,
    /// The move just made (`move`, `step`).
    pub played: Option<PlayMove>,
    /// The legal moves of the piece asked about (`moves`).
    pub moves: Option<Vec<PlayMove>>,
    /// The challenge number, when it is an official one.
    pub challenge: Option<u32>,
}

async fn new_game(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<NewGame>,
) -> ApiResult<JumpinState> {
    let (position, challenge) = match (req.challenge, req.code, req.generate) {
        (Some(n), None, None) => {
            let list = official();
            let c = list
                .into_iter()
                .find(|c| c.number == n)
                .ok_or_else(|| ApiError::BadRequest(format!("no challenge {n} (1 to 60)")))?;
            (c.position, Some(n))
        }
        (None, Some(code), None) => {
            let code: String = code.chars().take(64).collect();
            (parse_code(&code).map_err(ApiError::bad)?, None)
        }
        (None, None, Some(g)) => {
            if !(1..=MAX_GENERATE_MOVES).contains(&g.moves) {
                return Err(ApiError::BadRequest(format!(
                    "moves must be 1 to {MAX_GENERATE_MOVES}, not {}",
                    g.moves
                )));
            }
            let pieces = PieceSet {
                rabbits: g.rabbits,
                foxes: g.foxes,
                mushrooms: g.mushrooms,
            }
            .validate()
            .map_err(ApiError::bad)?;
            let (moves, seed) = (g.moves, g.seed);
            let made = app
                .compute_stoppable(move |progress| {
                    generate(pieces, moves, seed, progress).map_err(ApiError::unprocessable)
                })
                .await?;
            (made.position, None)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "give exactly one of challenge, code or generate".into(),
            ));
        }
    };
    let game = app.compute(move || Ok(JumpinGame::new(&position))).await?;
    let view = game.view();
    let session = app.sessions.insert(Game::Jumpin(game));
    Ok(Json(JumpinState {
        session,
        view: Some(view),
        challenge,
        ..JumpinState::default()
    }))
}

/// Runs `f` on session `id`'s puzzle off the async threads and answers with
/// what it filled in plus the view.
async fn act(
    app: &AppRef,
    id: String,
    f: impl FnOnce(&mut JumpinGame, &mut JumpinState) -> Result<(), ApiError> + Send + 'static,
) -> ApiResult<JumpinState> {
    let state = app
        .with_game(id, move |game: &mut JumpinGame, id| {
            let mut out = JumpinState::default();
            f(game, &mut out)?;
            out.session = id;
            out.view = Some(game.view());
            Ok(out)
        })
        .await?;
    Ok(Json(state))
}

async fn state(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<JumpinState> {
    act(&app, id, |_, _| Ok(())).await
}

async fn moves(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(at): ApiJson<At>,
) -> ApiResult<JumpinState> {
    act(&app, id, move |g, out| {
        out.moves = Some(g.legal_moves(at.x, at.y).map_err(ApiError::bad)?);
        Ok(())
    })
    .await
}

async fn play(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(m): ApiJson<MoveRequest>,
) -> ApiResult<JumpinState> {
    act(&app, id, move |g, out| {
        out.played = Some(g.play(m.from, m.to).map_err(ApiError::bad)?);
        Ok(())
    })
    .await
}

async fn undo(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<JumpinState> {
    act(&app, id, |g, _| {
        g.undo();
        Ok(())
    })
    .await
}

async fn restart(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<JumpinState> {
    act(&app, id, |g, _| {
        g.restart();
        Ok(())
    })
    .await
}

async fn hint(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<JumpinState> {
    act(&app, id, |g, out| {
        out.hint = Some(g.hint_along());
        Ok(())
    })
    .await
}

/// Plays the next move of an optimal solution ("watch the solution").
async fn step(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<JumpinState> {
    act(&app, id, |g, out| {
        if let Some(next) = g.hint_along().next {
            out.played = Some(g.play(next.step.from, next.target).map_err(ApiError::bad)?);
        }
        out.hint = Some(g.hint_along());
        Ok(())
    })
    .await
}
