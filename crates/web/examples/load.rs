//! Load generator for `arcade serve`, bounded in time and loopback only.
//!
//! ```text
//! cargo run --release -p arcade-web --example load -- URL SCENARIO SESSIONS SECONDS
//! ```
//!
//! - `mines`: each session plays expert games with the probability overlay:
//!   every request reveals the analyser's best move and asks for the new
//!   analysis (a new game when one ends);
//! - `tiles`: each session plays a generated level (16 layers, difficulty
//!   0.5): every request clicks the solver's hint and gets the new verdict;
//! - `tiles-random`: the same levels, but every request clicks a random free
//!   tile (the verdict needs a search unless the game's remembered winning
//!   line absorbs the click) and undoes a click proved lost; a full tray
//!   starts a new level;
//! - `open`: opens SESSIONS expert games (one reveal each), then stops (for
//!   the memory measurement; SECONDS bounds it);
//! - `tetris-watch [RATE]`: each session watches an AI (el-tetris) play
//!   Tetris at RATE pieces/s (default 60) as the page does: at most one
//!   `watch` request every 50 ms, asking for the pieces due within the next
//!   250 ms with the board after every ⌈RATE/60⌉-th piece; a new game when
//!   one ends;
//! - `flappy [MARGIN]`: each session plays Flappy Bird as the page does, one
//!   `tick` per 30 Hz frame with the frame reached and a flap chosen from the
//!   last answer (a simple aiming rule), asking for the viability margin
//!   unless MARGIN is 0; a new game after a crash.
//!
//! Each session is one keep-alive connection sending its next request when
//! the last is answered; the two real-time scenarios send on their game's
//! clock instead (at once if late) and time the *lateness* of each board
//! the page would draw: when the answer carrying it arrived minus when it is
//! due on screen (0 if it came in time). Prints requests, errors and
//! latency (or lateness) percentiles; with `LOAD_SERVER_PID` set, also the
//! server's CPU time over the run (from `/proc`) and its resident memory.

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One keep-alive HTTP/1.1 connection speaking JSON.
struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> std::io::Result<Client> {
        let s = TcpStream::connect(addr).await?;
        s.set_nodelay(true)?;
        Ok(Client {
            stream: BufReader::new(s),
        })
    }

    /// POSTs `body`; returns the status and the answer, parsed as `light`
    /// says.
    async fn post(
        &mut self,
        path: &str,
        body: &Value,
        light: bool,
    ) -> std::io::Result<(u16, Value)> {
        let (status, buf) = self.post_raw(path, body).await?;
        Ok((status, parse(&buf, light)))
    }

    /// POSTs `body`; returns the status and the answer's bytes.
    async fn post_raw(&mut self, path: &str, body: &Value) -> std::io::Result<(u16, Vec<u8>)> {
        let body = body.to_string();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let s = self.stream.get_mut();
        s.write_all(head.as_bytes()).await?;
        s.write_all(body.as_bytes()).await?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut length = 0;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut buf = vec![0; length];
        self.stream.read_exact(&mut buf).await?;
        Ok((status, buf))
    }
}

/// What the `tiles` loops read of an answer: the whole view after `new`,
/// its change after a click or undo.
#[derive(serde::Deserialize)]
struct TilesLight {
    session: String,
    verdict: VerdictLight,
    view: Option<ViewLight>,
    change: Option<ChangeLight>,
}

#[derive(serde::Deserialize)]
struct VerdictLight {
    verdict: String,
    hint: Option<u64>,
}

#[derive(serde::Deserialize)]
struct ViewLight {
    status: String,
    tiles: Vec<TileLight>,
}

#[derive(serde::Deserialize)]
struct ChangeLight {
    status: String,
    gone: Vec<u64>,
    back: Vec<TileLight>,
    free: Vec<(u64, bool)>,
}

#[derive(serde::Deserialize)]
struct TileLight {
    id: u64,
    free: bool,
}

/// The answer as JSON; with `light` (the tiles scenarios), only what their
/// loops read: the session, the verdict and hint, the status and the tiles
/// that are free or changed (serde skips the rest without building it), so
/// that the load generator's own parsing takes less of the two cores it
/// shares with the server. The loop keeps the set of free tiles.
fn parse(buf: &[u8], light: bool) -> Value {
    if light {
        return match serde_json::from_slice::<TilesLight>(buf) {
            Ok(t) => {
                let (status, free) = match (t.view, t.change) {
                    (Some(v), _) => (v.status, v.tiles.iter().map(|t| (t.id, t.free)).collect()),
                    (None, Some(c)) => {
                        let mut free: Vec<(u64, bool)> =
                            c.gone.iter().map(|&id| (id, false)).collect();
                        free.extend(c.back.iter().map(|t| (t.id, t.free)));
                        free.extend(c.free);
                        (c.status, free)
                    }
                    (None, None) => (String::new(), Vec::new()),
                };
                json!({
                    "session": t.session,
                    "verdict": {"verdict": t.verdict.verdict, "hint": t.verdict.hint},
                    "status": status,
                    "free": free,
                })
            }
            Err(_) => Value::Null,
        };
    }
    serde_json::from_slice(buf).unwrap_or(Value::Null)
}

/// Applies an answer's free flags (all of a new view's, or a change's) to
/// the set of free tiles.
fn track_free(free: &mut std::collections::BTreeSet<u64>, state: &Value) {
    for f in state["free"].as_array().into_iter().flatten() {
        let (id, is_free) = (f[0].as_u64().unwrap_or(0), f[1] == true);
        if is_free {
            free.insert(id);
        } else {
            free.remove(&id);
        }
    }
}

#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: usize,
    /// Requests sent, when not one per latency (tetris-watch).
    requests: usize,
    /// Times a watch fell over a second behind and restarted its schedule.
    resets: usize,
    /// Flappy answers that carried the margin.
    margins: usize,
}

/// The timed request loop of one session until `deadline`.
async fn session(addr: SocketAddr, scenario: String, k: u64, deadline: Instant) -> Tally {
    let mut t = Tally::default();
    let Ok(mut c) = Client::connect(addr).await else {
        t.errors += 1;
        return t;
    };
    let mut game = 0u64;
    let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ k.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    'games: while Instant::now() < deadline {
        let seed = k * 1000 + game;
        game += 1;
        let (path, body) = match scenario.as_str() {
            "tiles" | "tiles-random" => (
                "/api/tiles/new",
                json!({"source": "generate", "layers": 16, "seed": seed}),
            ),
            _ => (
                "/api/mines/new",
                json!({"level": "expert", "seed": seed, "analyze": true}),
            ),
        };
        let light = scenario.starts_with("tiles");
        let Ok((200, mut state)) = c.post(path, &body, light).await else {
            t.errors += 1;
            continue;
        };
        let id = state["session"].as_str().unwrap_or_default().to_string();
        let mut free = std::collections::BTreeSet::new();
        track_free(&mut free, &state);
        while Instant::now() < deadline {
            let (path, body) = match scenario.as_str() {
                "tiles" => {
                    let Some(tile) = state["verdict"]["hint"].as_u64() else {
                        continue 'games;
                    };
                    (format!("/api/tiles/{id}/click"), json!({"tile": tile}))
                }
                "tiles-random" => {
                    if state["status"] != "playing" {
                        continue 'games;
                    }
                    if state["verdict"]["verdict"] == "lost" {
                        (format!("/api/tiles/{id}/undo"), json!({}))
                    } else {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        let pick = (rng % free.len() as u64) as usize;
                        let tile = *free.iter().nth(pick).expect("a free tile while playing");
                        (format!("/api/tiles/{id}/click"), json!({"tile": tile}))
                    }
                }
                _ => {
                    let best = &state["analysis"]["best"];
                    let (x, y) = match (best[0].as_u64(), best[1].as_u64()) {
                        (Some(x), Some(y)) => (x, y),
                        _ => (0, 0),
                    };
                    if state["view"]["status"] == "won" || state["view"]["status"] == "lost" {
                        continue 'games;
                    }
                    (
                        format!("/api/mines/{id}/reveal"),
                        json!({"x": x, "y": y, "analyze": true}),
                    )
                }
            };
            let start = Instant::now();
            match c.post(&path, &body, light).await {
                Ok((200, next)) => {
                    t.latencies.push(start.elapsed());
                    state = next;
                    track_free(&mut free, &state);
                }
                _ => {
                    t.errors += 1;
                    continue 'games;
                }
            }
            if scenario == "open" {
                return t;
            }
        }
    }
    t
}

/// Frame period of a real-time scenario.
fn frame_period(scenario: &str) -> Option<Duration> {
    match scenario {
        "tetris-watch" => Some(Duration::from_secs_f64(1.0 / 60.0)),
        "flappy" => Some(Duration::from_secs_f64(1.0 / 30.0)),
        _ => None,
    }
}

/// A Flappy Bird session: one `tick` per 30 Hz frame on the frame clock;
/// records how late each frame's answer arrived.
async fn flappy(addr: SocketAddr, k: u64, deadline: Instant, margin: bool) -> Tally {
    let mut t = Tally::default();
    let period = frame_period("flappy").expect("a real-time scenario");
    let Ok(mut c) = Client::connect(addr).await else {
        t.errors += 1;
        return t;
    };
    let mut game = 0u64;
    'games: while Instant::now() < deadline {
        let seed = k * 1000 + game;
        game += 1;
        let body = json!({"mode": "play", "seed": seed});
        let Ok((200, mut state)) = c.post("/api/flappy/new", &body, false).await else {
            t.errors += 1;
            continue;
        };
        let id = state["session"].as_str().unwrap_or_default().to_string();
        let start = Instant::now();
        for frame in 1u64.. {
            let due = start + period * frame as u32;
            if due >= deadline {
                break 'games;
            }
            tokio::time::sleep_until(due.into()).await;
            if state["status"] != "running" {
                continue 'games;
            }
            let body = json!({"to": frame, "flaps": if aim(&state) { vec![frame] } else { vec![] },
                              "margin": margin});
            match c
                .post(&format!("/api/flappy/{id}/tick"), &body, false)
                .await
            {
                Ok((200, next)) => {
                    t.latencies
                        .push(Instant::now().saturating_duration_since(due));
                    if !next["depth"].is_null() {
                        t.margins += 1;
                    }
                    state = next;
                }
                _ => {
                    t.errors += 1;
                    continue 'games;
                }
            }
        }
    }
    t
}

/// What the watch loop reads of an answer.
#[derive(serde::Deserialize)]
struct WatchLight {
    #[serde(default)]
    session: String,
    pieces: u64,
    end: Option<String>,
    #[serde(default)]
    frames: Vec<FrameLight>,
}

#[derive(serde::Deserialize)]
struct FrameLight {
    pieces: u64,
}

/// Most boards one watch answer carries.
use arcade_web::tetris::MAX_FRAMES;

/// A watched Tetris session paced as `static/tetris.js` paces it at `rate`
/// pieces/s: a request at most every 50 ms (none while one is out) for the
/// pieces due within 250 ms, with the board after every ⌈rate/60⌉-th piece.
/// Records each board's lateness: its answer's arrival minus its due time
/// on the schedule (piece `p0` due at `t0`, then `rate` a second).
async fn tetris_watch(addr: SocketAddr, k: u64, deadline: Instant, rate: u64) -> Tally {
    const REQUEST: Duration = Duration::from_millis(50);
    const LEAD: Duration = Duration::from_millis(250);
    let mut t = Tally::default();
    let Ok(mut c) = Client::connect(addr).await else {
        t.errors += 1;
        return t;
    };
    let every = rate.div_ceil(60).max(1);
    let due_by = |t0: Instant, p0: u64, at: Instant| {
        p0 + (at.saturating_duration_since(t0).as_secs_f64() * rate as f64) as u64
    };
    let mut game = 0u64;
    'games: while Instant::now() < deadline {
        let body = json!({"mode": "watch", "seed": k * 1000 + game, "ai": {"name": "el-tetris"}});
        game += 1;
        let Ok((200, state)) = c.post("/api/tetris/new", &body, false).await else {
            t.errors += 1;
            continue;
        };
        let id = state["session"].as_str().unwrap_or_default().to_string();
        let path = format!("/api/tetris/{id}/watch");
        let (mut t0, mut p0, mut have) = (Instant::now(), 0u64, 0u64);
        let mut sent = t0 - REQUEST;
        loop {
            tokio::time::sleep_until((sent + REQUEST).into()).await;
            let now = Instant::now();
            if now >= deadline {
                break 'games;
            }
            // The page forgets a backlog of over a second (its queue is
            // empty then: every board received is due).
            if due_by(t0, p0, now) > have + rate {
                t.resets += 1;
                (t0, p0) = (now, have);
            }
            let want = due_by(t0, p0, now + LEAD).saturating_sub(have);
            if want == 0 {
                sent = now;
                continue;
            }
            let body =
                json!({"pieces": want.min(every * MAX_FRAMES), "budget_ms": 10, "every": every});
            sent = now;
            let answer = match c.post_raw(&path, &body).await {
                Ok((200, raw)) => serde_json::from_slice::<WatchLight>(&raw).ok(),
                _ => None,
            };
            let Some(w) = answer.filter(|w| !w.session.is_empty()) else {
                t.errors += 1;
                continue 'games;
            };
            let arrived = Instant::now();
            for p in w.frames.iter().map(|f| f.pieces).chain([w.pieces]) {
                let due = t0 + Duration::from_secs_f64(p.saturating_sub(p0) as f64 / rate as f64);
                if due < deadline {
                    t.latencies.push(arrived.saturating_duration_since(due));
                }
            }
            t.requests += 1;
            have = w.pieces;
            if w.end.is_some() {
                continue 'games;
            }
        }
    }
    t
}

/// Flap when the bird's bottom is below the aim point in the gap of the
/// first pipe not yet behind it (sizes from `arcade_flappy::env`).
fn aim(state: &Value) -> bool {
    let y = state["y"].as_i64().unwrap_or(0);
    let gap_top = state["pipes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p[0].as_i64().unwrap_or(0) + 52 > 57)
        .and_then(|p| p[1].as_i64())
        .unwrap_or(150);
    y + 24 > gap_top + 100 - 12
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// The server's CPU time (user + system) and resident memory, from `/proc`
/// (clock ticks of 1/100 s, Linux's default).
fn server_usage(pid: &str) -> Option<(f64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which ends with the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some((ticks as f64 / 100.0, rss_kb))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (url, scenario, sessions, seconds, extra) = match &args[..] {
        [u, sc, n, s] => (u, sc, n, s, None),
        [u, sc, n, s, p] => (u, sc, n, s, Some(p.parse::<u64>().expect("RATE or MARGIN"))),
        _ => {
            eprintln!(
                "usage: load URL mines|tiles|tiles-random|open|tetris-watch [RATE]|flappy [MARGIN] SESSIONS SECONDS"
            );
            std::process::exit(2);
        }
    };
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("URL as http://IP:PORT/");
    assert!(
        addr.ip().is_loopback(),
        "the load generator only targets loopback"
    );
    let sessions: u64 = sessions.parse().expect("SESSIONS");
    let seconds: f64 = seconds.parse().expect("SECONDS");
    assert!(seconds <= 600.0, "at most 600 seconds");
    let pid = std::env::var("LOAD_SERVER_PID").ok();
    let before = pid.as_deref().and_then(server_usage);
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut all = Tally::default();
    let mut tasks = Vec::new();
    if scenario == "open" {
        // Opened in waves of 50 connections, each one game then closed.
        let mut k = 0;
        while k < sessions && Instant::now() < deadline {
            let wave: Vec<_> = (k..(k + 50).min(sessions))
                .map(|i| tokio::spawn(session(addr, scenario.clone(), i, deadline)))
                .collect();
            k += wave.len() as u64;
            for w in wave {
                let t = w.await.expect("session task");
                all.latencies.extend(t.latencies);
                all.errors += t.errors;
            }
        }
    } else {
        for i in 0..sessions {
            tasks.push(match scenario.as_str() {
                "tetris-watch" => {
                    tokio::spawn(tetris_watch(addr, i, deadline, extra.unwrap_or(60).max(1)))
                }
                "flappy" => tokio::spawn(flappy(addr, i, deadline, extra != Some(0))),
                _ => tokio::spawn(session(addr, scenario.clone(), i, deadline)),
            });
        }
    }
    let realtime = frame_period(scenario).is_some();
    for task in tasks {
        let t = task.await.expect("session task");
        all.requests += if t.requests > 0 {
            t.requests
        } else {
            t.latencies.len()
        };
        all.latencies.extend(t.latencies);
        all.errors += t.errors;
        all.resets += t.resets;
        all.margins += t.margins;
    }
    let elapsed = start.elapsed().as_secs_f64();
    all.latencies.sort();
    // Boards that arrived after they were due (a watch asks ahead of time).
    let late = all.latencies.iter().filter(|d| !d.is_zero()).count();
    println!(
        "{scenario} sessions={sessions} requests={} errors={} seconds={elapsed:.1} rate={:.0}/s {}p50={:.2}ms p90={:.2}ms p99={:.2}ms max={:.2}ms",
        if realtime {
            all.requests
        } else {
            all.latencies.len()
        },
        all.errors,
        if realtime {
            all.requests
        } else {
            all.latencies.len()
        } as f64
            / elapsed,
        if scenario == "tetris-watch" {
            format!(
                "boards={} late={:.1}% resets={} lateness ",
                all.latencies.len(),
                100.0 * late as f64 / all.latencies.len().max(1) as f64,
                all.resets
            )
        } else if realtime {
            format!(
                "margin={:.1}% lateness ",
                100.0 * all.margins as f64 / all.latencies.len().max(1) as f64
            )
        } else {
            String::new()
        },
        percentile(&all.latencies, 0.5),
        percentile(&all.latencies, 0.9),
        percentile(&all.latencies, 0.99),
        all.latencies
            .last()
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3),
    );
    if let (Some((cpu0, _)), Some((cpu1, rss))) = (before, pid.as_deref().and_then(server_usage)) {
        println!(
            "server cpu={:.0}% of a core rss={:.0}MB",
            100.0 * (cpu1 - cpu0) / elapsed,
            rss as f64 / 1024.0
        );
    }
}
