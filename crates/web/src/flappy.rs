//! Flappy Bird: a person flaps, or a shipped policy or the oracle plays, on
//! the library's deterministic [`Env`], one frame per tick at the game's
//! 30 frames a second. The page sends the frame number it has reached by its
//! own clock and the frames it flapped on; the game depends only on those
//! numbers, so the same seed and flaps give the same game as the CLI
//! (`arcade flappy play --seed S`: episode seed `eval_seed(S, 0)`), whatever
//! the network does. The viability depth of both actions is reported every
//! answer (the margin overlay).

use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::server::AppRef;
use crate::sessions::Game;
use arcade_flappy::env::{
    BIRD_H, BIRD_W, BIRD_X, GAP, GROUND_Y, PIPE_W, SCREEN_H, SCREEN_W, Status,
};
use arcade_flappy::episode::eval_seed;
use arcade_flappy::policy::{Greedy, Heuristic, Oracle, Policy};
use arcade_flappy::viability::{Depths, Judge};
use arcade_flappy::{Env, Mlp, Obstacle};
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Frames per second of the game (FlapPyBird's).
pub const FPS: u64 = 30;
/// Most frames one request may advance (a minute of play).
pub const MAX_ADVANCE: u64 = 60 * FPS;

/// The shipped policies (`crates/flappy/policies`), by name.
const POLICIES: &[(&str, &str)] = &[
    (
        "cem-5min",
        include_str!("../../flappy/policies/cem-5min.json"),
    ),
    (
        "cem-15min",
        include_str!("../../flappy/policies/cem-15min.json"),
    ),
    (
        "imitate",
        include_str!("../../flappy/policies/imitate.json"),
    ),
    (
        "pg-5min",
        include_str!("../../flappy/policies/pg-5min.json"),
    ),
];

/// Every name a page may choose.
pub fn policy_names() -> Vec<&'static str> {
    let mut names = vec!["oracle", "heuristic"];
    names.extend(POLICIES.iter().map(|(n, _)| *n));
    names
}

/// Most games holding a margin judge at once: a judge keeps the depth map
/// of the pipe ahead (142 KB, 468 KB before the first pipe), so memory
/// stays bounded (at most about 120 MB) whatever the number of games;
/// beyond this, `depth` is `null` until a judge is free.
pub const MAX_MARGIN_GAMES: usize = 256;

/// Judges alive, at most `capacity` at once.
pub struct JudgeSlots {
    used: AtomicUsize,
    capacity: usize,
}

impl JudgeSlots {
    pub const fn new(capacity: usize) -> JudgeSlots {
        JudgeSlots {
            used: AtomicUsize::new(0),
            capacity,
        }
    }

    /// Judges alive now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }

    /// A judge counted against the capacity while it lives, or `None` when
    /// every slot is taken.
    fn judge(&'static self, depths: &'static Depths) -> Option<CountedJudge> {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.capacity).then_some(n + 1)
            })
            .ok()
            .map(|_| CountedJudge {
                judge: Judge::new(depths),
                slots: self,
            })
    }
}

/// The server's judges.
pub static JUDGES: JudgeSlots = JudgeSlots::new(MAX_MARGIN_GAMES);

/// A [`Judge`] holding one of its [`JudgeSlots`] while it lives.
struct CountedJudge {
    judge: Judge<'static>,
    slots: &'static JudgeSlots,
}

impl Drop for CountedJudge {
    fn drop(&mut self) {
        self.slots.used.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The viability kernels once computed: until then games have no margin
/// and the oracle cannot be watched, but nothing waits for them.
static KERNELS: OnceLock<&'static Depths> = OnceLock::new();

fn kernels() -> Option<&'static Depths> {
    KERNELS.get().copied()
}

/// Computes the viability kernels in the background (about 5 s of CPU,
/// once per process); the server calls this when it starts.
pub fn warm_up() {
    std::thread::spawn(compute_kernels);
}

/// Computes the kernels now and makes them available (tests, `warm_up`).
pub fn compute_kernels() {
    let _ = KERNELS.set(Depths::shared());
}

pub fn routes() -> Router<AppRef> {
    Router::new()
        .route("/new", post(new_game))
        .route("/{id}/tick", post(tick))
}

pub use crate::sessions::Mode;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub mode: Mode,
    pub seed: Option<u64>,
    /// Who plays (`watch`): `oracle`, `heuristic` or a shipped policy.
    pub policy: Option<String>,
}

/// Run the game to frame `to`; `flaps` are the frames (after the current
/// one, increasing) on which the person flapped; `margin` asks for the
/// viability depths.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TickRequest {
    pub to: u64,
    #[serde(default)]
    pub flaps: Vec<u64>,
    #[serde(default)]
    pub margin: bool,
}

/// Who flaps in a watched game.
enum Player {
    Heuristic,
    Oracle(Oracle<'static>),
    Mlp(Box<Mlp>),
}

impl Player {
    fn by_name(name: &str) -> Result<Player, ApiError> {
        match name {
            "heuristic" => Ok(Player::Heuristic),
            "oracle" => kernels().map(|d| Player::Oracle(Oracle::new(d))).ok_or_else(|| {
                ApiError::Unprocessable(
                    "the oracle's viability kernels are still being computed (a few seconds after the server starts); try again shortly".into(),
                )
            }),
            _ => {
                let (_, text) = POLICIES.iter().find(|(n, _)| *n == name).ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "unknown policy {:?} (expected {})",
                        name.chars().take(40).collect::<String>(),
                        policy_names().join(", ")
                    ))
                })?;
                let mlp = arcade_flappy::file::parse(text, name).map_err(ApiError::bad)?;
                Ok(Player::Mlp(Box::new(mlp)))
            }
        }
    }
}

pub struct FlappySession {
    mode: Mode,
    seed: u64,
    policy: Option<(String, Player)>,
    env: Env,
    /// Held while the page asks for the margin and the kernels are ready.
    judge: Option<CountedJudge>,
}

/// The sizes the page draws with (the library's constants).
#[derive(Serialize)]
pub struct Geometry {
    pub screen: (i32, i32),
    pub ground_y: i32,
    pub bird: (i32, i32, i32),
    pub pipe_w: i32,
    pub gap: i32,
    pub fps: u64,
}

const GEOMETRY: Geometry = Geometry {
    screen: (SCREEN_W, SCREEN_H),
    ground_y: GROUND_Y,
    bird: (BIRD_X, BIRD_W, BIRD_H),
    pipe_w: PIPE_W,
    gap: GAP,
    fps: FPS,
};

/// Every answer about a game.
#[derive(Serialize)]
pub struct FlappyState {
    pub session: String,
    pub mode: Mode,
    pub seed: u64,
    pub policy: Option<String>,
    pub frame: u64,
    /// The bird's top edge and vertical speed (px, px/frame, down positive).
    pub y: i32,
    pub vel: i32,
    /// Pipes on screen: `(left edge, gap top)`.
    pub pipes: Vec<(i32, i32)>,
    /// Pipes passed.
    pub passed: u64,
    /// `running` or `crashed`.
    pub status: &'static str,
    /// `ceiling`, `ground` or `pipe` once crashed.
    pub crashed_into: Option<Obstacle>,
    /// Viability depth after not flapping and after flapping (−1: a state
    /// some gaps can force into a crash); `null` unless asked for, once
    /// over, while the kernels are being computed (`margin_ready` false) or
    /// while [`MAX_MARGIN_GAMES`] other games hold a judge.
    pub depth: Option<[i32; 2]>,
    pub margin_ready: bool,
    /// Frames flapped on during this request.
    pub flapped: Vec<u64>,
    /// Sizes, on `new` only.
    pub geometry: Option<&'static Geometry>,
}

impl FlappySession {
    fn view(&mut self, session: String, flapped: Vec<u64>, margin: bool) -> FlappyState {
        if !margin || self.env.is_over() {
            self.judge = None;
        } else if self.judge.is_none() {
            self.judge = kernels().and_then(|d| JUDGES.judge(d));
        }
        let env = &self.env;
        let over = env.is_over();
        FlappyState {
            session,
            mode: self.mode,
            seed: self.seed,
            policy: self.policy.as_ref().map(|(n, _)| n.clone()),
            frame: env.frames(),
            y: env.bird_y(),
            vel: env.bird_vel(),
            pipes: env
                .visible_pipes()
                .iter()
                .map(|p| (p.x, p.gap_top))
                .collect(),
            passed: env.pipes(),
            status: match env.status() {
                Status::Running => "running",
                Status::Crashed => "crashed",
                Status::Truncated => "truncated",
            },
            crashed_into: env.crashed_into(),
            depth: match &mut self.judge {
                Some(judge) if !over => Some(judge.judge.action_depths(env)),
                _ => None,
            },
            margin_ready: kernels().is_some(),
            flapped,
            geometry: None,
        }
    }

    /// Plays frames up to `to`, the person's `flaps` or the policy's choices.
    fn advance(&mut self, to: u64, flaps: &[u64]) -> Result<Vec<u64>, ApiError> {
        let now = self.env.frames();
        if to < now {
            return Err(ApiError::BadRequest(format!(
                "frame {to} is before the game's frame {now}"
            )));
        }
        if to - now > MAX_ADVANCE {
            return Err(ApiError::BadRequest(format!(
                "advancing {} frames at once is more than the limit of {MAX_ADVANCE}",
                to - now
            )));
        }
        let mut previous = now;
        for (i, &f) in flaps.iter().enumerate() {
            if f <= previous || f > to {
                return Err(ApiError::BadRequest(format!(
                    "flap {i} is at frame {f}, outside frames {} to {to} or out of order",
                    now + 1
                )));
            }
            previous = f;
        }
        if self.mode == Mode::Play && self.policy.is_none() {
            let mut pending = flaps.iter().peekable();
            let mut flapped = Vec::new();
            while self.env.frames() < to && !self.env.is_over() {
                let frame = self.env.frames() + 1;
                let flap = pending.next_if(|&&f| f == frame).is_some();
                if flap {
                    flapped.push(frame);
                }
                self.env.step(flap);
            }
            return Ok(flapped);
        }
        if !flaps.is_empty() {
            return Err(ApiError::BadRequest(
                "this game is watched: the policy flaps".into(),
            ));
        }
        let Some((_, player)) = self.policy.as_mut() else {
            return Ok(Vec::new());
        };
        let env = &mut self.env;
        Ok(match player {
            Player::Heuristic => run(&mut Heuristic, env, to),
            Player::Oracle(o) => run(o, env, to),
            Player::Mlp(mlp) => run(&mut Greedy::new(mlp), env, to),
        })
    }
}

/// Lets `policy` play `env` up to frame `to`; the frames it flapped on.
fn run(policy: &mut impl Policy, env: &mut Env, to: u64) -> Vec<u64> {
    let mut flapped = Vec::new();
    while env.frames() < to && !env.is_over() {
        let flap = policy.flap(env);
        env.step(flap);
        if flap {
            flapped.push(env.frames());
        }
    }
    flapped
}

async fn new_game(
    State(app): State<AppRef>,
    ApiJson(req): ApiJson<NewGame>,
) -> ApiResult<FlappyState> {
    let seed = req.seed.unwrap_or_else(crate::sessions::random_seed);
    let mode = req.mode;
    let name = match (mode, req.policy) {
        (Mode::Watch, Some(name)) => Some(name),
        (Mode::Watch, None) => return Err(ApiError::BadRequest("watch needs a policy".into())),
        (Mode::Play, Some(_)) => {
            return Err(ApiError::BadRequest("a policy is only for watch".into()));
        }
        (Mode::Play, None) => None,
    };
    let mut session = app
        .compute(move || {
            let policy = match name {
                Some(n) => Some((n.clone(), Player::by_name(&n)?)),
                None => None,
            };
            Ok(FlappySession {
                mode,
                seed,
                policy,
                env: Env::new(eval_seed(seed, 0), None),
                judge: None,
            })
        })
        .await?;
    let mut view = session.view(String::new(), Vec::new(), false);
    view.session = app.sessions.insert(Game::Flappy(Box::new(session)));
    view.geometry = Some(&GEOMETRY);
    Ok(Json(view))
}

async fn tick(
    State(app): State<AppRef>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<TickRequest>,
) -> ApiResult<FlappyState> {
    let state = app
        .with_game(id, move |session: &mut FlappySession, id| {
            let flapped = session.advance(req.to, &req.flaps)?;
            Ok(session.view(id, flapped, req.margin))
        })
        .await?;
    Ok(Json(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Depths without any kernel (every state −1): the cap does not look at
    /// them, and they take no time to compute.
    fn no_kernels() -> &'static Depths {
        static NONE: OnceLock<Depths> = OnceLock::new();
        NONE.get_or_init(|| Depths::compute(-1))
    }

    /// The cap: judges beyond the capacity are refused, and a judge dropped
    /// (its game over, ended or no longer asking for the margin) frees its
    /// slot.
    #[test]
    fn judges_are_capped_and_freed() {
        static SLOTS: JudgeSlots = JudgeSlots::new(3);
        let depths = no_kernels();
        let mut held: Vec<_> = (0..3).map(|_| SLOTS.judge(depths)).collect();
        assert!(held.iter().all(Option::is_some));
        assert_eq!(SLOTS.used(), 3);
        assert!(SLOTS.judge(depths).is_none(), "a fourth judge is refused");
        held.pop();
        assert_eq!(SLOTS.used(), 2);
        held.push(SLOTS.judge(depths));
        assert!(held[2].is_some(), "a freed slot is taken again");
        held.clear();
        assert_eq!(SLOTS.used(), 0);
    }

    /// A session holds a judge only while it asks for the margin and runs.
    #[test]
    fn a_session_gives_its_judge_back() {
        // Sessions use the server's slots; no other test in this binary does.
        let _ = KERNELS.set(no_kernels());
        let mut s = FlappySession {
            mode: Mode::Play,
            seed: 1,
            policy: None,
            env: Env::new(eval_seed(1, 0), None),
            judge: None,
        };
        let used = JUDGES.used();
        assert_eq!(
            s.view(String::new(), Vec::new(), true).depth,
            Some([-1, -1])
        );
        assert_eq!(JUDGES.used(), used + 1);
        assert!(s.view(String::new(), Vec::new(), false).depth.is_none());
        assert_eq!(JUDGES.used(), used);
    }
}
