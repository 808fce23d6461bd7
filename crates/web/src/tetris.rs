//! Tetris: a person plays classic 10×20 on the server's tick-driven game
//! ([`arcade_tetris::live`]), with an optional ghost of where an AI would put
//! the piece, or watches an AI play at any speed.
//!
//! Timing: the page stamps every key press with the game tick it happened on
//! (60 a second by the page's clock) and asks the server to run the game up
//! to a tick; the game depends only on those stamps, so a late request makes
//! the picture late, never the game different (docs/web.md, "Real-time games").

use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::server::AppRef;
use crate::sessions::Game;
use arcade_tetris::game::End;
use arcade_tetris::live::{self, Action, LiveGame};
use arcade_tetris::{MoveMode, Piece, PieceSource, Placement, Player, Randomizer, Rules, Weights};
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

pub const WIDTH: usize = 10;
pub const HEIGHT: usize = 20;
/// Longest explicit piece sequence.
pub const MAX_SEQUENCE: usize = 10_000;
/// Most pieces one `watch` request may ask for.
pub const MAX_WATCH_PIECES: u64 = 100_000;
/// Most time one `watch` request may spend (the page asks for less: it wants
/// an answer every few frames).
pub const MAX_BUDGET_MS: u64 = 200;
/// Most boards one `watch` answer carries in `frames` (bounds its size:
/// about 300 bytes each).
pub const MAX_FRAMES: u64 = 256;
/// The AIs a page can choose.
pub const AIS: [&str; 5] = arcade_tetris::eval::BUILTINS;

pub fn routes() -> Router<AppRef> {
    Router::new()
        .route("/new", post(new_game))
        .route("/{id}/tick", post(tick))
        .route("/{id}/watch", post(watch))
        .route("/{id}/state", post(state))
}

pub use crate::sessions::Mode;

/// A new game: `sequence` (piece letters) or random pieces from `seed`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub mode: Mode,
    #[serde(default = "uniform")]
    pub pieces: Randomizer,
    pub sequence: Option<String>,
    pub seed: Option<u64>,
    #[serde(default)]
    pub level: u32,
    /// The AI that plays (`watch`).
    pub ai: Option<AiChoice>,
}

fn uniform() -> Randomizer {
    Randomizer::Uniform
}

/// An AI by name and how it generates placements.
#[derive(Deserialize, Clone, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
pub struct AiChoice {
    pub name: String,
    #[serde(default = "drop_mode")]
    pub moves: MoveMode,
}

fn drop_mode() -> MoveMode {
    MoveMode::Drop
}

/// `tick`: run the game to tick `to`, applying the key presses stamped with
/// their ticks; `ghost` asks for the AI's placement of the current piece.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TickRequest {
    pub to: u64,
    #[serde(default)]
    pub inputs: Vec<(u64, Action)>,
    pub ghost: Option<AiChoice>,
}

/// `watch`: let the AI place up to `pieces` pieces within `budget_ms`;
/// `every` asks for the board after each piece whose number is a multiple
/// of it, so that the page can draw the pieces in between frame by frame.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchRequest {
    pub pieces: u64,
    pub budget_ms: Option<u64>,
    pub every: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct StateRequest {
    pub ghost: Option<AiChoice>,
}

/// An AI ready to play, with the choice that made it.
pub struct Ai {
    choice: AiChoice,
    player: Player,
}

impl Ai {
    fn new(choice: &AiChoice) -> Result<Ai, ApiError> {
        let weights = Weights::builtin(&choice.name)
            .filter(|_| AIS.contains(&choice.name.as_str()))
            .ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "unknown AI {:?} (expected {})",
                    choice.name.chars().take(40).collect::<String>(),
                    AIS.join(", ")
                ))
            })?;
        Ok(Ai {
            player: Player::new(Rules::classic(), weights, choice.moves, false),
            choice: choice.clone(),
        })
    }
}

/// What a session holds.
pub struct TetrisSession {
    mode: Mode,
    game: LiveGame,
    /// The AI that plays (`watch`).
    player: Option<Ai>,
    /// The AI behind the ghost, kept between requests.
    ghost: Option<Ai>,
    seed: Option<u64>,
}

/// A placement as drawn: its cells, and for a tuck the way there.
#[derive(Serialize)]
pub struct PlacedView {
    pub piece: Piece,
    pub placement: Placement,
    pub cells: Vec<(i32, i32)>,
    pub tuck: bool,
    /// Centres of the piece along its path from the spawn (tucks only).
    pub route: Vec<(f32, f32)>,
    /// Why the AI chose it (an AI's placements: the ghost, a watched game's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Why>,
}

/// The AI's score of the field a placement leaves: one term per feature the
/// AI weighs, `value × weight`, summing to `score`.
#[derive(Serialize)]
pub struct Why {
    /// The AI's name.
    pub ai: String,
    pub score: f64,
    pub terms: Vec<Term>,
}

#[derive(Serialize)]
pub struct Term {
    pub feature: &'static str,
    pub value: f64,
    pub weight: f64,
}

impl Why {
    fn of(ai: &Ai, board: &arcade_tetris::Board, piece: Piece, p: Placement) -> Why {
        let values = ai.player.describe(board, piece, p);
        let terms: Vec<Term> = ai
            .player
            .weights()
            .used()
            .map(|(f, weight)| Term {
                feature: f.name(),
                value: values.get(f),
                weight,
            })
            .collect();
        Why {
            ai: ai.choice.name.clone(),
            score: terms.iter().map(|t| t.value * t.weight).sum(),
            terms,
        }
    }
}

/// An AI's placement as drawn, with why it chose it.
fn explained(
    game: &LiveGame,
    ai: &Ai,
    board: &arcade_tetris::Board,
    piece: Piece,
    placement: Placement,
) -> PlacedView {
    PlacedView {
        why: Some(Why::of(ai, board, piece, placement)),
        ..placed(game, board, piece, placement)
    }
}

/// The falling piece and where a hard drop would land it.
#[derive(Serialize)]
pub struct FallingView {
    pub piece: Piece,
    /// Rotation state (0–3, 0 at the spawn) and the left column of its box.
    pub rotation: usize,
    pub col: i32,
    pub cells: Vec<(i32, i32)>,
    pub landing: Vec<(i32, i32)>,
}

/// Every answer about a game.
#[derive(Serialize)]
pub struct TetrisState {
    pub session: String,
    pub mode: Mode,
    pub width: usize,
    pub height: usize,
    /// Visible rows, top first: a piece letter per filled cell, `.` empty.
    pub rows: Vec<String>,
    pub falling: Option<FallingView>,
    pub next: Option<Piece>,
    /// The next piece's cells as it spawns, relative to its pivot (`y` up).
    pub next_cells: Vec<(i8, i8)>,
    pub tick: u64,
    pub lines: u64,
    pub level: u32,
    pub score: u64,
    pub pieces: u64,
    pub clears: [u64; 4],
    pub end: Option<End>,
    pub seed: Option<u64>,
    /// The AI's placement of the falling piece (`ghost`).
    pub ghost: Option<PlacedView>,
    /// The last piece placed by the AI (`watch`).
    pub last: Option<PlacedView>,
    /// Pieces the AI placed in this request (`watch`).
    pub played: u64,
    /// The boards after the pieces of this request numbered a multiple of
    /// `every` (`watch`), oldest first, before the last piece (the answer
    /// itself is the board after the last).
    pub frames: Vec<WatchFrame>,
}

/// The board after one piece of a watched game, as the page draws it.
#[derive(Serialize)]
pub struct WatchFrame {
    pub pieces: u64,
    pub lines: u64,
    pub level: u32,
    pub score: u64,
    pub rows: Vec<String>,
    pub falling: Option<FallingView>,
    pub next: Option<Piece>,
    pub next_cells: Vec<(i8, i8)>,
    pub last: PlacedView,
}

fn placed(
    game: &LiveGame,
    board: &arcade_tetris::Board,
    piece: Piece,
    placement: Placement,
) -> PlacedView {
    let rules = game.rules();
    let tuck = live::is_tuck(rules, board, piece, placement);
    PlacedView {
        piece,
        placement,
        cells: game.cells_of(piece, placement),
        tuck,
        route: if tuck {
            live::route(rules, board, piece, placement)
        } else {
            Vec::new()
        },
        why: None,
    }
}

/// The visible rows, top first, a piece letter per filled cell.
fn rows(g: &LiveGame) -> Vec<String> {
    let colours = g.colours();
    (0..HEIGHT)
        .rev()
        .map(|y| {
            (0..WIDTH)
                .map(|x| colours.get(x, y).map_or('.', Piece::letter))
                .collect()
        })
        .collect()
}

fn falling(g: &LiveGame) -> Option<FallingView> {
    g.falling()
        .zip(g.falling_cells())
        .map(|(f, (cells, landing))| FallingView {
            piece: f.piece,
            rotation: f.rotation,
            col: f.x + i32::from(g.rules().shape(f.piece, f.rotation).min_dx),
            cells,
            landing,
        })
}

fn next_cells(g: &LiveGame) -> Vec<(i8, i8)> {
    g.next()
        .map_or_else(Vec::new, |p| g.rules().shape(p, 0).cells.to_vec())
}

/// The board of a watched game after its last piece, `last`.
fn frame(g: &LiveGame, last: PlacedView) -> WatchFrame {
    WatchFrame {
        pieces: g.pieces(),
        lines: g.lines(),
        level: g.level(),
        score: g.score(),
        rows: rows(g),
        falling: falling(g),
        next: g.next(),
        next_cells: next_cells(g),
        last,
    }
}

impl TetrisSession {
    fn view(&mut self, session: String) -> TetrisState {
        let g = &self.game;
        let rows = rows(g);
        let falling = falling(g);
        let next_cells = next_cells(g);
        let ghost = match (&mut self.ghost, g.falling()) {
            (Some(ai), Some(f)) if self.mode == Mode::Play => g
                .suggest(&mut ai.player)
                .map(|p| explained(g, ai, g.board(), f.piece, p)),
            _ => None,
        };
        TetrisState {
            session,
            mode: self.mode,
            width: WIDTH,
            height: HEIGHT,
            rows,
            falling,
            next: g.next(),
            next_cells,
            tick: g.tick(),
            lines: g.lines(),
            level: g.level(),
            score: g.score(),
            pieces: g.pieces(),
            clears: g.clears(),
            end: g.end(),
            seed: self.seed,
            ghost,
            last: None,
            played: 0,
            frames: Vec::new(),
        }
    }

    /// Keeps the ghost AI in step with what the page asks for.
    fn set_ghost(&mut self, choice: Option<AiChoice>) -> Result<(), ApiError> {
        match choice {
            None => self.ghost = None,
            Some(c) if self.ghost.as_ref().is_some_and(|a| a.choice == c) => {}
            Some(c) => self.ghost = Some(Ai::new(&c)?),
        }
        Ok(())
    }
}

async fn new_game(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<NewGame>,
) -> ApiResult<TetrisState> {
    let (source, seed) = match req.sequence {
        Some(text) => {
            if text.len() > MAX_SEQUENCE * 2 {
                return Err(ApiError::BadRequest(format!(
                    "sequence: at most {MAX_SEQUENCE} pieces"
                )));
            }
            let pieces = PieceSource::parse_sequence(&text)
                .map_err(|e| ApiError::BadRequest(format!("sequence: {e}")))?;
            if pieces.is_empty() || pieces.len() > MAX_SEQUENCE {
                return Err(ApiError::BadRequest(format!(
                    "sequence: 1 to {MAX_SEQUENCE} pieces (letters IOTSZJL)"
                )));
            }
            (PieceSource::sequence(pieces), None)
        }
        None => {
            let seed = req.seed.unwrap_or_else(crate::sessions::random_seed);
            (PieceSource::random(req.pieces, seed), Some(seed))
        }
    };
    let player = match (req.mode, &req.ai) {
        (Mode::Watch, Some(choice)) => Some(Ai::new(choice)?),
        (Mode::Watch, None) => {
            return Err(ApiError::BadRequest("watch needs an ai".into()));
        }
        (Mode::Play, _) => None,
    };
    let game = LiveGame::new(WIDTH, HEIGHT, source, req.level).map_err(ApiError::bad)?;
    let mut session = TetrisSession {
        mode: req.mode,
        game,
        player,
        ghost: None,
        seed,
    };
    let view = session.view(String::new());
    let id = app.sessions.insert(Game::Tetris(Box::new(session)));
    Ok(Json(TetrisState {
        session: id,
        ..view
    }))
}

/// What a `watch` request played: the last placement, the number of pieces
/// and the boards asked for along the way.
struct Watched {
    last: PlacedView,
    played: u64,
    frames: Vec<WatchFrame>,
}

/// Runs `f` on session `id`'s game off the async threads and answers with
/// the state it leaves.
async fn act(
    app: &AppRef,
    id: String,
    f: impl FnOnce(&mut TetrisSession) -> Result<Option<Watched>, ApiError> + Send + 'static,
) -> ApiResult<TetrisState> {
    let state = app
        .with_game(id, move |session: &mut TetrisSession, id| {
            let watched = f(session)?;
            let mut out = session.view(id);
            if let Some(w) = watched {
                out.last = Some(w.last);
                out.played = w.played;
                out.frames = w.frames;
            }
            Ok(out)
        })
        .await?;
    Ok(Json(state))
}

async fn tick(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<TickRequest>,
) -> ApiResult<TetrisState> {
    act(&app, id, move |s| {
        if s.mode != Mode::Play {
            return Err(ApiError::BadRequest(
                "this game is watched: the AI plays it (use watch)".into(),
            ));
        }
        s.set_ghost(req.ghost)?;
        s.game.advance(req.to, &req.inputs).map_err(ApiError::bad)?;
        Ok(None)
    })
    .await
}

async fn watch(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<WatchRequest>,
) -> ApiResult<TetrisState> {
    if !(1..=MAX_WATCH_PIECES).contains(&req.pieces) {
        return Err(ApiError::BadRequest(format!(
            "pieces must be 1 to {MAX_WATCH_PIECES}, not {}",
            req.pieces
        )));
    }
    let budget = req.budget_ms.unwrap_or(MAX_BUDGET_MS);
    if !(1..=MAX_BUDGET_MS).contains(&budget) {
        return Err(ApiError::BadRequest(format!(
            "budget_ms must be 1 to {MAX_BUDGET_MS}, not {budget}"
        )));
    }
    if let Some(every) = req.every
        && (every == 0 || req.pieces / every > MAX_FRAMES)
    {
        return Err(ApiError::BadRequest(format!(
            "every must be at least 1 and pieces/every at most {MAX_FRAMES} (one answer \
             carries at most {MAX_FRAMES} boards), not {every}"
        )));
    }
    act(&app, id, move |s| {
        let Some(ai) = s.player.as_mut() else {
            return Err(ApiError::BadRequest(
                "this game is played by a person (use tick)".into(),
            ));
        };
        let deadline = Instant::now() + Duration::from_millis(budget);
        let mut played = 0;
        let mut last = None;
        let mut frames = Vec::new();
        while played < req.pieces && s.game.end().is_none() {
            let before = *s.game.board();
            let piece = s.game.falling().map(|f| f.piece);
            if let (Some(p), Some(piece)) = (s.game.ai_step(&mut ai.player), piece) {
                played += 1;
                if req.every.is_some_and(|k| s.game.pieces() % k == 0) {
                    frames.push(frame(&s.game, explained(&s.game, ai, &before, piece, p)));
                }
                last = Some((before, piece, p));
            }
            // The clock is read every 64 pieces: a piece takes microseconds.
            if played % 64 == 0 && Instant::now() >= deadline {
                break;
            }
        }
        // The board after the last piece is the answer itself.
        if frames.last().is_some_and(|f| f.pieces == s.game.pieces()) {
            frames.pop();
        }
        Ok(last.map(|(board, piece, p)| Watched {
            last: explained(&s.game, ai, &board, piece, p),
            played,
            frames,
        }))
    })
    .await
}

async fn state(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<StateRequest>,
) -> ApiResult<TetrisState> {
    act(&app, id, move |s| {
        s.set_ghost(req.ghost)?;
        Ok(None)
    })
    .await
}
