//! Pages, assets, the error policy and the limits.

use crate::common::*;
use arcade_web::ServeConfig;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

#[tokio::test]
async fn every_page_and_asset_is_served_with_its_type() {
    let app = router();
    for (path, kind) in [
        ("/", "text/html"),
        ("/mines", "text/html"),
        ("/jumpin", "text/html"),
        ("/tiles", "text/html"),
        ("/battle", "text/html"),
        ("/tetris", "text/html"),
        ("/flappy", "text/html"),
        ("/geek", "text/html"),
        ("/sketch", "text/html"),
        ("/median", "text/html"),
        ("/static/style.css", "text/css"),
        ("/static/mines.js", "text/javascript"),
        ("/static/favicon.svg", "image/svg+xml"),
        ("/favicon.ico", "image/svg+xml"),
    ] {
        let res = tower::ServiceExt::oneshot(
            app.clone(),
            Request::get(path).body(Body::empty()).unwrap(),
        )
        .await
        .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let ct = res.headers()["content-type"].to_str().unwrap();
        assert!(ct.starts_with(kind), "{path}: {ct}");
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    }
    for name in arcade_web::assets::names() {
        let (status, _) = get(&app, &format!("/static/{name}")).await;
        assert_eq!(status, StatusCode::OK, "{name}");
    }
}

/// Every page is whole: the shared head and navigation, its own `<main>`,
/// and its own link marked as the current page (and no other).
#[tokio::test]
async fn every_page_has_the_shared_head_and_marks_itself_in_the_navigation() {
    let app = router();
    let pages = arcade_web::assets::PAGES;
    assert_eq!(pages.len(), 10);
    for page in pages {
        let path = page.path();
        let (status, text) = get(&app, &path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(text.starts_with("<!doctype html>"), "{path}");
        assert!(
            text.contains(r#"<link rel="icon" href="/static/favicon.svg""#),
            "{path}"
        );
        assert_eq!(text.matches("<main id=\"main\"").count(), 1, "{path}");
        assert!(text.trim_end().ends_with("</html>"), "{path}");
        let nav = &text[text.find("<nav").unwrap()..text.find("</nav>").unwrap()];
        for other in pages {
            let link = format!("<a href=\"{}\"", other.path());
            assert_eq!(nav.matches(&link).count(), 1, "{path} links {link}");
        }
        assert_eq!(text.matches("aria-current=\"page\"").count(), 1, "{path}");
        assert!(
            text.contains(&format!("<a href=\"{path}\" aria-current=\"page\">")),
            "{path}"
        );
    }
    // The fragments are pages only once put together.
    let (status, _) = get(&app, "/static/mines.html").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn pages_use_nothing_outside_the_server() {
    let pages = arcade_web::assets::PAGES.iter().map(|p| p.path());
    let assets = arcade_web::assets::names().map(|n| format!("/static/{n}"));
    for name in pages.chain(assets) {
        let (_, text) = get(&router(), &name).await;
        // An SVG names its XML namespace by a URL that is never fetched.
        let text = text.replace(r#"xmlns="http://www.w3.org/2000/svg""#, "");
        for bad in ["http://", "https://", "//cdn", "@import", "fonts.g"] {
            assert!(!text.contains(bad), "{name} mentions {bad}");
        }
    }
}

#[tokio::test]
async fn unknown_paths_and_methods_are_json_errors() {
    let app = router();
    let (status, text) = get(&app, "/static/../../etc/passwd").await;
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_error(status, &body, StatusCode::NOT_FOUND, "no such page");
    let (status, text) = get(&app, "/nothing/here").await;
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_error(status, &body, StatusCode::NOT_FOUND, "/nothing/here");
    let (status, body) = post(&app, "/mines", json!({})).await;
    assert_error(status, &body, StatusCode::METHOD_NOT_ALLOWED, "POST");
}

/// A browser gets pages, not JSON: `/mines/` goes to `/mines`, and an
/// unknown page is a page with the message and a link home.
#[tokio::test]
async fn browsers_get_pages_for_unknown_paths() {
    let app = router();
    let browser = |path: &str| {
        Request::get(path)
            .header("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .body(Body::empty())
            .unwrap()
    };
    let res = app.clone().oneshot(browser("/mines/")).await.unwrap();
    assert_eq!(res.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(res.headers()["location"], "/mines");
    let (status, text) = send(&app, browser("/nothing/here")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(text.starts_with("<!doctype html>"), "{text}");
    assert!(text.contains("no such page: /nothing/here"), "{text}");
    assert!(text.contains(r#"<a href="/">"#), "{text}");
    // The API stays JSON whatever the client accepts.
    let (status, text) = send(&app, browser("/api/nothing")).await;
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_error(status, &body, StatusCode::NOT_FOUND, "/api/nothing");
}

#[tokio::test]
async fn malformed_json_is_a_400_with_one_line() {
    let app = router();
    for raw in [
        "{",
        "[]",
        "{\"level\": 3}",
        "not json",
        "{\"level\":\"beginner\",\"x\":1}",
    ] {
        let req = Request::post("/api/mines/new")
            .header("content-type", "application/json")
            .body(Body::from(raw))
            .unwrap();
        let (status, text) = send(&app, req).await;
        let body: Value = serde_json::from_str(&text).unwrap();
        assert!(status.is_client_error(), "{raw}: {status}");
        assert_error(status, &body, status, "");
    }
    let req = Request::post("/api/mines/new")
        .body(Body::from("{\"level\":\"beginner\"}"))
        .unwrap();
    let (status, text) = send(&app, req).await;
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_error(
        status,
        &body,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "Content-Type",
    );
}

#[tokio::test]
async fn huge_bodies_are_refused() {
    let app = router();
    let position = format!("64 64 10\n{}", ".".repeat(200_000));
    let (status, body) = post(&app, "/api/mines/analyze", json!({ "position": position })).await;
    assert_error(
        status,
        &body,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too large (limit 64 KiB)",
    );
}

/// A body declared larger than its route takes is refused at once, before
/// any of it is read (it waited 30 s for the body, then answered 408).
#[tokio::test]
async fn a_declared_size_past_the_limit_is_refused_at_once() {
    let app = router();
    for (path, declared, limit) in [
        ("/api/mines/new", "99999999999999", "64 KiB"),
        ("/api/mines/new", "65537", "64 KiB"),
        ("/api/sketch?depth=10", "8388609", "8 MiB"),
        ("/api/geek/replay", "4194305", "4 MiB"),
    ] {
        let req = Request::post(path)
            .header("content-type", "application/json")
            .header("content-length", declared)
            .body(Body::from("{}"))
            .unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 16)
            .await
            .unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_error(
            status,
            &body,
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("(limit {limit})"),
        );
    }
}

#[tokio::test]
async fn unknown_sessions_are_404() {
    let app = router();
    for action in ["reveal", "flag", "chord"] {
        let (status, body) = post(
            &app,
            &format!("/api/mines/0123/{action}"),
            json!({"x": 0, "y": 0}),
        )
        .await;
        assert_error(status, &body, StatusCode::NOT_FOUND, "no such session");
    }
}

#[tokio::test]
async fn a_flood_beyond_the_in_flight_limit_gets_429() {
    // A limit of 0 requests in flight refuses everything: the middleware's
    // answer, without racing real concurrency.
    let app = router_with(ServeConfig {
        max_in_flight: 0,
        ..ServeConfig::default()
    });
    let (status, body) = post(&app, "/api/mines/new", json!({"level": "beginner"})).await;
    assert_error(
        status,
        &body,
        StatusCode::TOO_MANY_REQUESTS,
        "too many requests",
    );
}

#[tokio::test]
async fn concurrent_requests_under_the_limit_all_succeed() {
    let app = router();
    let tasks: Vec<_> = (0..64)
        .map(|i| {
            let app = app.clone();
            tokio::spawn(async move {
                post(
                    &app,
                    "/api/mines/new",
                    json!({"level": "expert", "seed": i}),
                )
                .await
                .0
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), StatusCode::OK);
    }
}

#[tokio::test]
async fn sessions_past_the_cap_evict_the_oldest() {
    let app = router_with(ServeConfig {
        max_sessions: 5,
        ..ServeConfig::default()
    });
    let mut ids = Vec::new();
    for _ in 0..8 {
        let (_, v) = post(&app, "/api/mines/new", json!({"level": "beginner"})).await;
        ids.push(v["session"].as_str().unwrap().to_string());
    }
    let (status, _) = post(&app, &format!("/api/mines/{}/state", ids[0]), json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = post(&app, &format!("/api/mines/{}/state", ids[7]), json!({})).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn expired_sessions_are_gone() {
    let app = router_with(ServeConfig {
        session_ttl: std::time::Duration::from_millis(50),
        ..ServeConfig::default()
    });
    let (_, v) = post(&app, "/api/mines/new", json!({"level": "beginner"})).await;
    let id = v["session"].as_str().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(80)).await;
    let (status, body) = post(&app, &format!("/api/mines/{id}/state"), json!({})).await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "expired");
}

/// Every local link and script of every page resolves (the navigation's
/// links to every page are checked above).
#[tokio::test]
async fn every_local_link_and_script_resolves() {
    let app = router();
    let mut checked = 0;
    for page in arcade_web::assets::PAGES {
        let (_, html) = get(&app, &page.path()).await;
        for attribute in ["src=\"", "href=\""] {
            for rest in html.split(attribute).skip(1) {
                let target = rest.split('"').next().unwrap();
                // A link within the page, to a download made in the browser, or an anchor.
                if !target.starts_with('/') {
                    continue;
                }
                let path = target.split('#').next().unwrap();
                assert_eq!(
                    get(&app, path).await.0,
                    StatusCode::OK,
                    "{}: {target}",
                    page.path()
                );
                checked += 1;
            }
        }
    }
    // Each page's nav (10), style sheet, icon and scripts at least.
    assert!(checked >= 10 * 13, "only {checked} links checked");
}

/// A request dropped half way (the client went away) leaves no slot taken:
/// with a limit of one in flight, later requests still pass.
#[tokio::test]
async fn dropped_requests_free_their_slot() {
    let app = router_with(ServeConfig {
        max_in_flight: 1,
        ..ServeConfig::default()
    });
    // A puzzle search of about 2 s on the blocking pool, abandoned after 50 ms.
    let body = json!({"generate": {"moves": 60, "rabbits": 4, "foxes": 3, "mushrooms": 0}});
    let req = Request::post("/api/jumpin/new")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let pending = tower::ServiceExt::oneshot(app.clone(), req);
    let abandoned = tokio::time::timeout(std::time::Duration::from_millis(50), pending).await;
    assert!(abandoned.is_err(), "the search finished within 50 ms");
    for _ in 0..3 {
        let (status, v) = post(&app, "/api/mines/new", json!({"level": "beginner"})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

/// Sends `raw` on a new connection and reads the answer until the server
/// closes it.
fn exchange(addr: std::net::SocketAddr, raw: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(raw.as_bytes()).unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    out
}

/// A body sent too slowly held its in-flight slot for ever, so 512 such
/// connections locked everyone out (429). Now the request ends with a JSON
/// 408 at `request_timeout` and the slot is free again.
#[test]
fn a_body_sent_too_slowly_times_out_and_frees_its_slot() {
    use std::io::{Read, Write};
    use std::time::Duration;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let config = ServeConfig {
            bind: "127.0.0.1:0".parse().unwrap(),
            max_in_flight: 1,
            request_timeout: Duration::from_millis(300),
            ..ServeConfig::default()
        };
        arcade_web::serve(config, |addr| tx.send(addr).unwrap()).unwrap();
    });
    let addr = rx.recv().unwrap();
    let mut slow = std::net::TcpStream::connect(addr).unwrap();
    slow.write_all(
        b"POST /api/mines/new HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n\
          content-length: 100\r\n\r\n{",
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let new_game = "POST /api/mines/new HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
                    content-type: application/json\r\ncontent-length: 20\r\n\r\n{\"level\":\"beginner\"}";
    let blocked = exchange(addr, new_game);
    assert!(blocked.starts_with("HTTP/1.1 429"), "{blocked}");
    std::thread::sleep(Duration::from_millis(400));
    let mut answer = vec![0; 4096];
    let n = slow.read(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains(r#"{"error":"the request took longer than 0 s"#),
        "{answer}"
    );
    let freed = exchange(addr, new_game);
    assert!(freed.starts_with("HTTP/1.1 200"), "{freed}");
}

/// A path segment that is not UTF-8 was axum's plain-text 400; every error
/// is a JSON `{"error": …}`.
#[tokio::test]
async fn path_segments_that_are_not_utf8_get_a_json_400() {
    let app = router();
    let (status, body) = post(&app, "/api/mines/%ff/state", json!({})).await;
    assert_error(status, &body, StatusCode::BAD_REQUEST, "UTF-8");
    let (status, text) = get(&app, "/static/%ff").await;
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_error(status, &body, StatusCode::BAD_REQUEST, "UTF-8");
}

/// A computation that outlives its time bound keeps its slot until it really
/// ends, so abandoned work cannot pile up on the blocking threads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_past_its_time_bound_keeps_its_slot() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;
    let state = arcade_web::AppState::new(ServeConfig {
        max_computations: 1,
        compute_timeout: Duration::from_millis(100),
        ..ServeConfig::default()
    });
    let running = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let job = |ms| {
        let (running, peak) = (running.clone(), peak.clone());
        move || {
            peak.fetch_max(running.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(ms));
            running.fetch_sub(1, Ordering::SeqCst);
            Ok(())
        }
    };
    let first = state.compute(job(1_000)).await.unwrap_err();
    assert_eq!(first.status(), StatusCode::UNPROCESSABLE_ENTITY, "{first}");
    // The first call's work still runs: the next waits its 100 ms, then is told why.
    let second = state.compute(job(10)).await.unwrap_err();
    assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE, "{second}");
    assert!(second.to_string().contains("busy"), "{second}");
    for _ in 0..250 {
        if running.load(Ordering::SeqCst) == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Once it has ended, the slot is free again.
    state.compute(job(10)).await.unwrap();
    assert_eq!(
        peak.load(Ordering::SeqCst),
        1,
        "two computations ran at once"
    );
}

/// Work that checks its progress is cancelled at the time bound, so it ends
/// soon after and frees its slot (a Jump In' generation ran on for a minute).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stoppable_work_is_cancelled_at_its_time_bound() {
    use std::time::{Duration, Instant};
    let state = arcade_web::AppState::new(ServeConfig {
        max_computations: 1,
        compute_timeout: Duration::from_millis(200),
        ..ServeConfig::default()
    });
    let work = |progress: &arcade_core::progress::Progress| {
        let start = Instant::now();
        while !progress.is_cancelled() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(start.elapsed())
    };
    let start = Instant::now();
    let first = state.compute_stoppable(work).await.unwrap_err();
    assert_eq!(first.status(), StatusCode::UNPROCESSABLE_ENTITY, "{first}");
    // The slot is free again within moments, not after the 30 s the work
    // would have run: the next computation gets it.
    let ran = state.compute_stoppable(|_| Ok(())).await;
    assert!(ran.is_ok(), "{ran:?}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}
