//! Two-player Minesweeper: a person against `rule`, `greedy` or `ev`, or two
//! AIs watched move by move, a [`LiveBattle`] per session.

use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::mines::MAX_WEB_SIDE;
use crate::server::AppRef;
use crate::sessions::Game;
use crate::sessions::random_seed;
use arcade_mines::battle::Rules;
use arcade_mines::battle::live::{BattleView, LiveBattle, Player};
use arcade_mines::report::Xy;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};

pub fn routes() -> Router<AppRef> {
    Router::new()
        .route("/new", post(new_game))
        .route("/{id}/state", post(state))
        .route("/{id}/click", post(click))
        .route("/{id}/ai", post(ai))
        .route("/{id}/hint", post(hint))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Seat 0 (moves first) and seat 1: `human`, `rule`, `greedy` or `ev`
    /// (a list, checked to hold two, so that three get a clear answer).
    pub players: Vec<String>,
    /// `WxH/M`; the contest's 16x16/51 (first to 26) by default.
    pub level: Option<String>,
    /// Mines needed to win (a majority of the level's by default), as
    /// `arcade mines battle --target`.
    pub target: Option<usize>,
    pub seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct At {
    pub x: usize,
    pub y: usize,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

#[derive(Serialize)]
pub struct BattleState {
    pub session: String,
    pub view: BattleView,
    /// The AI's move (`ai`).
    pub played: Option<Xy>,
    /// `ev`'s move for the seat to move (`hint`).
    pub hint: Option<Xy>,
}

async fn new_game(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<NewGame>,
) -> ApiResult<BattleState> {
    let mut rules = match &req.level {
        Some(l) => l.parse::<Rules>().map_err(ApiError::bad)?,
        None => Rules::CONTEST,
    };
    if let Some(t) = req.target {
        rules = Rules::with_target(rules.level, t).map_err(ApiError::bad)?;
    }
    let (w, h) = (rules.level.width, rules.level.height);
    if w > MAX_WEB_SIDE || h > MAX_WEB_SIDE {
        return Err(ApiError::BadRequest(format!(
            "a {w}x{h} board is too large for the web arena (at most {MAX_WEB_SIDE}x{MAX_WEB_SIDE})"
        )));
    }
    let [a, b] = req.players.as_slice() else {
        return Err(ApiError::BadRequest(format!(
            "players must name two players (seat A, who moves first, then B), got {}",
            req.players.len()
        )));
    };
    let a = Player::parse(a).map_err(ApiError::BadRequest)?;
    let b = Player::parse(b).map_err(ApiError::BadRequest)?;
    let game = LiveBattle::new(rules, [a, b], req.seed.unwrap_or_else(random_seed));
    let id = app.sessions.insert(Game::Battle(game));
    act(&app, id, |_, _| Ok(())).await
}

async fn act(
    app: &AppRef,
    id: String,
    f: impl FnOnce(&mut LiveBattle, &mut BattleState) -> Result<(), ApiError> + Send + 'static,
) -> ApiResult<BattleState> {
    let state = app
        .with_game(id, move |game: &mut LiveBattle, id| {
            let mut out = BattleState {
                session: id,
                view: game.view(),
                played: None,
                hint: None,
            };
            f(game, &mut out)?;
            out.view = game.view();
            Ok(out)
        })
        .await?;
    Ok(Json(state))
}

async fn state(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<BattleState> {
    act(&app, id, |_, _| Ok(())).await
}

async fn click(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(at): ApiJson<At>,
) -> ApiResult<BattleState> {
    act(&app, id, move |g, _| {
        g.human_move(at.x, at.y).map_err(ApiError::bad)?;
        Ok(())
    })
    .await
}

async fn ai(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<BattleState> {
    act(&app, id, |g, out| {
        out.played = Some(g.ai_move().map_err(ApiError::bad)?);
        Ok(())
    })
    .await
}

async fn hint(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(_): ApiJson<Empty>,
) -> ApiResult<BattleState> {
    act(&app, id, |g, out| {
        out.hint = g.hint().map_err(ApiError::unprocessable)?;
        Ok(())
    })
    .await
}
