//! The router, its limits, and the listening loop.

use crate::error::ApiError;
use crate::sessions::{SessionGame, Store, lock};
use crate::{assets, battle, flappy, geek, jumpin, median, mines, sketch, tetris, tiles};
use arcade_core::progress::Progress;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;
use tower_http::set_header::SetResponseHeaderLayer;

/// Largest request body: positions and moves are small.
pub const MAX_BODY_BYTES: usize = 64 << 10;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub bind: SocketAddr,
    /// A session unused this long is dropped.
    pub session_ttl: Duration,
    /// At most this many sessions; the least recently used goes first.
    pub max_sessions: usize,
    /// Requests handled at once; more get 429.
    pub max_in_flight: usize,
    /// Bound on one solver or analyser call.
    pub compute_timeout: Duration,
    /// Solver and analyser calls running at once, counting those still
    /// finishing after their request timed out; more wait for a slot within
    /// `compute_timeout`.
    pub max_computations: usize,
    /// Bound on a whole request, reading its body included: a client that
    /// sends a body a byte at a time would otherwise hold an in-flight slot
    /// for ever, and 512 of them would lock everyone else out.
    pub request_timeout: Duration,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            session_ttl: Duration::from_secs(30 * 60),
            max_sessions: 2000,
            max_in_flight: 512,
            compute_timeout: Duration::from_secs(10),
            max_computations: 2 * std::thread::available_parallelism().map_or(1, usize::from),
            request_timeout: Duration::from_secs(30),
        }
    }
}

/// What every handler shares.
pub struct AppState {
    pub sessions: Store,
    pub config: ServeConfig,
    in_flight: AtomicUsize,
    /// One permit per `max_computations`.
    computations: Arc<Semaphore>,
}

pub type AppRef = Arc<AppState>;

impl AppState {
    pub fn new(config: ServeConfig) -> AppRef {
        Arc::new(AppState {
            sessions: Store::new(config.session_ttl, config.max_sessions),
            in_flight: AtomicUsize::new(0),
            computations: Arc::new(Semaphore::new(config.max_computations)),
            config,
        })
    }

    /// Runs CPU-heavy `work` on the blocking pool, answering within
    /// `compute_timeout`. A thread cannot be stopped, so work past the bound
    /// runs on (each solver bounds its own effort) but keeps its slot until it
    /// ends: abandoned work never piles up past `max_computations`.
    pub async fn compute<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let limit = self.config.compute_timeout;
        let deadline = tokio::time::Instant::now() + limit;
        let slots = self.computations.clone();
        let Ok(Ok(slot)) = tokio::time::timeout_at(deadline, slots.acquire_owned()).await else {
            return Err(ApiError::Busy(self.config.max_computations));
        };
        let task = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            work()
        });
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => Err(ApiError::Unprocessable(format!(
                "the computation failed: {join}"
            ))),
            Err(_) => Err(ApiError::Timeout(limit.as_secs())),
        }
    }

    /// [`AppState::compute`] for `work` that checks the [`Progress`] it is
    /// given: past the time bound it is cancelled, so a search that stops
    /// when asked frees its slot and the cores instead of running on.
    pub async fn compute_stoppable<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Progress) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let progress = Progress::hidden();
        let job = progress.clone();
        let result = self.compute(move || work(&job)).await;
        if matches!(result, Err(ApiError::Timeout(_))) {
            progress.cancel();
        }
        result
    }

    /// Runs `work` on session `id`'s game off the async threads (as
    /// [`AppState::compute`]); a session holding another kind of game is a
    /// [`ApiError::WrongGame`]. `work` gets the id back to put in its answer.
    pub async fn with_game<G: SessionGame, T: Send + 'static>(
        &self,
        id: String,
        work: impl FnOnce(&mut G, String) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let shared = self.sessions.get(&id)?;
        self.compute(move || {
            let mut guard = lock(&shared);
            let actual = guard.name();
            match G::of(&mut guard) {
                Some(game) => work(game, id),
                None => Err(ApiError::WrongGame {
                    id,
                    actual,
                    expected: G::NAME,
                }),
            }
        })
        .await
    }
}

/// The whole application: pages, assets and the JSON API.
pub fn app(state: AppRef) -> Router {
    let mut pages = Router::new();
    for page in assets::PAGES {
        pages = pages.route(
            &page.path(),
            get(move || async move { assets::page(page.name) }),
        );
    }
    pages
        .route("/static/{name}", get(assets::asset))
        .route("/favicon.ico", get(assets::favicon))
        .nest("/api/mines", mines::routes())
        .nest("/api/jumpin", jumpin::routes())
        .nest("/api/tiles", tiles::routes())
        .nest("/api/battle", battle::routes())
        .nest("/api/tetris", tetris::routes())
        .nest("/api/flappy", flappy::routes())
        .nest("/api/geek", geek::routes())
        .nest("/api/sketch", sketch::routes())
        .nest("/api/median", median::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(state.clone(), flood_limit))
        .layer(middleware::from_fn(declared_size))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .with_state(state)
}

/// An unknown path: `/mines/` goes to `/mines`; a browser asking for a page
/// gets a page that links home; anything else gets the JSON error.
async fn not_found(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if let Some(page) = path.strip_prefix('/').and_then(|p| p.strip_suffix('/'))
        && assets::PAGES.iter().any(|p| p.path() == format!("/{page}"))
    {
        return Redirect::permanent(&format!("/{page}")).into_response();
    }
    let error = ApiError::NotFound(path.chars().take(200).collect());
    let wants_page = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    if wants_page && !path.starts_with("/api/") {
        return (error.status(), assets::not_found_page(&error.to_string())).into_response();
    }
    error.into_response()
}

async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed(method.to_string())
}

/// The largest body a route takes: an upload route's own limit, else the
/// JSON routes' [`MAX_BODY_BYTES`].
fn body_limit(path: &str) -> usize {
    if path.starts_with("/api/sketch") {
        sketch::MAX_IMAGE_BYTES
    } else if path.starts_with("/api/geek") {
        geek::MAX_RECORD_BYTES
    } else if path.starts_with("/api/median") {
        median::MAX_TEXT_BYTES
    } else {
        MAX_BODY_BYTES
    }
}

/// Refuses at once (413) a request whose `Content-Length` says it is larger
/// than its route takes, rather than waiting for a body that may never come.
async fn declared_size(req: Request, next: Next) -> Response {
    let limit = body_limit(req.uri().path());
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u128>().ok());
    if declared.is_some_and(|n| n > limit as u128) {
        return ApiError::TooLarge(limit).into_response();
    }
    next.run(req).await
}

/// Refuses requests beyond `max_in_flight` at once with 429, and ends one
/// that runs past `request_timeout` with 408, freeing its slot.
async fn flood_limit(State(state): State<AppRef>, req: Request, next: Next) -> Response {
    let limit = state.config.max_in_flight;
    let _slot = InFlight::enter(&state.in_flight);
    if _slot.before >= limit {
        return ApiError::Flood(limit).into_response();
    }
    let bound = state.config.request_timeout;
    match tokio::time::timeout(bound, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::RequestTimeout(bound.as_secs()).into_response(),
    }
}

/// One request counted in flight until dropped, also when the client goes
/// away and the request's future is dropped half way.
struct InFlight<'a> {
    count: &'a AtomicUsize,
    before: usize,
}

impl<'a> InFlight<'a> {
    fn enter(count: &'a AtomicUsize) -> InFlight<'a> {
        InFlight {
            before: count.fetch_add(1, Ordering::AcqRel),
            count,
        }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Binds `config.bind` and serves until Ctrl-C; `ready` is called with the
/// bound address (the port may have been 0) before the first request.
pub fn serve(config: ServeConfig, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.bind).await?;
        ready(listener.local_addr()?);
        let state = AppState::new(config);
        tokio::spawn(sweep_forever(state.clone()));
        flappy::warm_up();
        axum::serve(listener, app(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}

/// Drops expired sessions every so often (a tenth of the TTL, 1 s to 60 s).
async fn sweep_forever(state: AppRef) {
    let every = (state.sessions.ttl() / 10).clamp(Duration::from_secs(1), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        state.sessions.sweep();
    }
}
