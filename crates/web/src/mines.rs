//! Minesweeper: a person's game ([`HumanGame`]) per session, with the
//! analyser's report as the probability overlay, hints, the AI's moves and
//! the stand-alone analyse mode.

use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::server::AppRef;
use crate::sessions::{Game, random_seed};
use arcade_mines::human::{HumanGame, HumanView};
use arcade_mines::report::Xy;
use arcade_mines::{AnalyzeReport, Config, Level, Position, Rule};
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};

/// Largest side of a board played or analysed on the web (the analyser's
/// time and a session's memory grow with it).
pub const MAX_WEB_SIDE: usize = 64;

pub fn routes() -> Router<AppRef> {
    Router::new()
        .route("/new", post(new_game))
        .route("/analyze", post(analyze_position))
        .route("/{id}/state", post(state))
        .route("/{id}/reveal", post(reveal))
        .route("/{id}/flag", post(flag))
        .route("/{id}/chord", post(chord))
        .route("/{id}/hint", post(hint))
        .route("/{id}/step", post(step))
}

/// The solver behind hints, the overlay's best move and the AI.
fn solver_config() -> Config {
    Config::fast()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `beginner`, `intermediate`, `expert` or `WxH/M`.
    pub level: String,
    #[serde(default = "default_rule")]
    pub rule: String,
    /// Random when absent.
    pub seed: Option<u64>,
    #[serde(default)]
    pub analyze: bool,
}

fn default_rule() -> String {
    "sfar".into()
}

/// A move at a cell, and whether to answer with the analyser's report.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellMove {
    pub x: usize,
    pub y: usize,
    #[serde(default)]
    pub analyze: bool,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(default)]
    pub analyze: bool,
}

/// Every answer about a game: the view, and the report when asked for.
#[derive(Serialize)]
pub struct MinesState {
    pub session: String,
    pub view: HumanView,
    pub analysis: Option<AnalyzeReport>,
    /// The move the AI just played (`step`).
    pub played: Option<Xy>,
    /// The suggested move (`hint`).
    pub hint: Option<Xy>,
}

fn check_size(width: usize, height: usize) -> Result<(), ApiError> {
    if width > MAX_WEB_SIDE || height > MAX_WEB_SIDE {
        return Err(ApiError::BadRequest(format!(
            "a {width}x{height} board is too large for the web arena (at most {MAX_WEB_SIDE}x{MAX_WEB_SIDE})"
        )));
    }
    Ok(())
}

async fn new_game(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<NewGame>,
) -> ApiResult<MinesState> {
    let level: Level = req.level.parse().map_err(ApiError::bad)?;
    check_size(level.width, level.height)?;
    let rule: Rule = req.rule.parse().map_err(ApiError::BadRequest)?;
    rule.check_every_first(level).map_err(ApiError::bad)?;
    let game = HumanGame::new(level, rule, req.seed.unwrap_or_else(random_seed));
    let id = app.sessions.insert(Game::Mines(game));
    act(&app, id, req.analyze, |_| Ok(Answer::default())).await
}

#[derive(Default)]
struct Answer {
    played: Option<Xy>,
    hint: Option<Xy>,
}

/// Runs `f` on session `id`'s game off the async threads, then answers with
/// the view and, if asked, the analysis.
async fn act(
    app: &AppRef,
    id: String,
    analyze: bool,
    f: impl FnOnce(&mut HumanGame) -> Result<Answer, ApiError> + Send + 'static,
) -> ApiResult<MinesState> {
    let state = app
        .with_game(id, move |game: &mut HumanGame, id| {
            let answer = f(game)?;
            let analysis = if analyze {
                Some(
                    game.analyze(&solver_config())
                        .map_err(ApiError::unprocessable)?,
                )
            } else {
                None
            };
            Ok(MinesState {
                session: id,
                view: game.view(),
                analysis,
                played: answer.played,
                hint: answer.hint,
            })
        })
        .await?;
    Ok(Json(state))
}

async fn state(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(o): ApiJson<Options>,
) -> ApiResult<MinesState> {
    act(&app, id, o.analyze, |_| Ok(Answer::default())).await
}

async fn reveal(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(m): ApiJson<CellMove>,
) -> ApiResult<MinesState> {
    act(&app, id, m.analyze, move |g| {
        g.reveal(m.x, m.y).map_err(ApiError::bad)?;
        Ok(Answer::default())
    })
    .await
}

async fn flag(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(m): ApiJson<CellMove>,
) -> ApiResult<MinesState> {
    act(&app, id, m.analyze, move |g| {
        g.toggle_flag(m.x, m.y).map_err(ApiError::bad)?;
        Ok(Answer::default())
    })
    .await
}

async fn chord(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(m): ApiJson<CellMove>,
) -> ApiResult<MinesState> {
    act(&app, id, m.analyze, move |g| {
        g.chord(m.x, m.y).map_err(ApiError::bad)?;
        Ok(Answer::default())
    })
    .await
}

async fn hint(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(o): ApiJson<Options>,
) -> ApiResult<MinesState> {
    act(&app, id, o.analyze, |g| {
        let hint = g.hint(&solver_config()).map_err(ApiError::unprocessable)?;
        Ok(Answer { played: None, hint })
    })
    .await
}

/// The AI plays one move: the hint.
async fn step(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(o): ApiJson<Options>,
) -> ApiResult<MinesState> {
    act(&app, id, o.analyze, |g| {
        let played = g.hint(&solver_config()).map_err(ApiError::unprocessable)?;
        if let Some([x, y]) = played {
            g.reveal(x, y).map_err(ApiError::bad)?;
        }
        Ok(Answer { played, hint: None })
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// The `arcade mines analyze` text format.
    pub position: String,
}

/// Analyse mode: any position in the text format.
async fn analyze_position(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<AnalyzeRequest>,
) -> ApiResult<AnalyzeReport> {
    let pos = Position::parse(&req.position).map_err(ApiError::bad)?;
    let grid = pos.grid();
    check_size(grid.width(), grid.height())?;
    let report = app
        .compute(move || {
            arcade_mines::analyze_report(&pos, &solver_config()).map_err(ApiError::unprocessable)
        })
        .await?;
    Ok(Json(report))
}
