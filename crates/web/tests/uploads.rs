//! The upload routes (Geek records, sketch images, median numbers): the
//! library's answers, and bad or oversized uploads as one-line 4xx.

use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

async fn upload(app: &axum::Router, path: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    use tower::ServiceExt;
    let req = Request::post(path).body(Body::from(body)).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 26)
        .await
        .unwrap();
    (status, bytes.to_vec())
}

async fn upload_json(app: &axum::Router, path: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let (status, bytes) = upload(app, path, body).await;
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn the_shipped_geek_records_replay_to_their_scores() {
    let app = router();
    for (name, score) in [("published", 1_378_178), ("arcade", 1_428_236)] {
        let (status, r) =
            upload_json(&app, &format!("/api/geek/replay?record={name}"), vec![]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(r["result"]["score"], score);
        let frames = r["frames"].as_array().unwrap();
        assert_eq!(frames.len() as u64, r["result"]["pieces"].as_u64().unwrap());
        assert_eq!(frames.last().unwrap()["s"], score);
    }
    // An upload is replayed the same way.
    let text = arcade_tetris::geek::record::PUBLISHED_1378178
        .as_bytes()
        .to_vec();
    let (_, r) = upload_json(&app, "/api/geek/replay", text).await;
    assert_eq!(r["result"]["score"], 1_378_178);
}

#[tokio::test]
async fn bad_geek_records_say_where() {
    let app = router();
    let (status, b) = upload_json(&app, "/api/geek/replay", b"N,R1,D19,N,X3".to_vec()).await;
    assert_error(
        status,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "piece 2, token 5",
    );
    let (status, b) = upload_json(&app, "/api/geek/replay", b"  ".to_vec()).await;
    assert_error(status, &b, StatusCode::UNPROCESSABLE_ENTITY, "empty");
    let (status, b) = upload_json(&app, "/api/geek/replay", vec![0xff, 0xfe]).await;
    assert_error(status, &b, StatusCode::UNPROCESSABLE_ENTITY, "UTF-8");
    let (status, b) = upload_json(&app, "/api/geek/replay?record=best", vec![]).await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "unknown record");
    let (status, b) = upload_json(&app, "/api/geek/replay", vec![b'N'; 5 << 20]).await;
    assert_error(status, &b, StatusCode::PAYLOAD_TOO_LARGE, "limit");
    // A record that plays but stops early ends with the reason.
    let (status, r) = upload_json(&app, "/api/geek/replay", b"N,R1,D19,N,C1,L1,D18".to_vec()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["result"]["end"], "record_end");
    assert_eq!(r["frames"].as_array().unwrap().len(), 2);
    let (_, r) = upload_json(&app, "/api/geek/replay", b"N,D1,N,D1,N,D1".to_vec()).await;
    assert_eq!(r["result"]["end"], "spawn_blocked");
}

fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([
            (x * 7 % 256) as u8,
            (y * 13 % 256) as u8,
            ((x * y) % 256) as u8,
        ])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

#[tokio::test]
async fn a_sketch_is_the_librarys() {
    let app = router();
    let input = png(37, 23);
    let (status, out) = upload(
        &app,
        "/api/sketch?depth=20&elevation=1.2&azimuth=0.3",
        input.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let got = image::load_from_memory(&out).unwrap().to_luma8();
    let light = arcade_sketch::Light {
        depth: 20.0,
        elevation: 1.2,
        azimuth: 0.3,
    };
    let expected = arcade_sketch::sketch(&image::load_from_memory(&input).unwrap(), &light);
    assert_eq!(got, expected);
}

#[tokio::test]
async fn bad_images_are_one_line_4xx() {
    let app = router();
    let (status, b) = upload_json(&app, "/api/sketch", b"not an image at all".to_vec()).await;
    assert!(
        status == StatusCode::UNSUPPORTED_MEDIA_TYPE || status == StatusCode::UNPROCESSABLE_ENTITY,
        "{status}"
    );
    assert_error(status, &b, status, "");
    let mut truncated = png(64, 64);
    truncated.truncate(truncated.len() / 2);
    let (status, b) = upload_json(&app, "/api/sketch", truncated).await;
    assert_error(
        status,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "cannot read the image",
    );
    let (status, b) = upload_json(&app, "/api/sketch", png(4097, 1)).await;
    assert_error(status, &b, StatusCode::UNPROCESSABLE_ENTITY, "at most 4096");
    let mut gif = Vec::new();
    image::DynamicImage::new_rgb8(4, 4)
        .write_to(&mut std::io::Cursor::new(&mut gif), image::ImageFormat::Gif)
        .unwrap();
    let (status, b) = upload_json(&app, "/api/sketch", gif).await;
    assert_error(
        status,
        &b,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "PNG or JPEG",
    );
    let (status, b) = upload_json(&app, "/api/sketch", vec![0; 9 << 20]).await;
    assert_error(status, &b, StatusCode::PAYLOAD_TOO_LARGE, "limit");
    let (status, b) = upload_json(&app, "/api/sketch", vec![]).await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "no image");
    for q in ["depth=NaN", "depth=1e9", "elevation=x", "colour=red"] {
        let (status, b) = upload_json(&app, &format!("/api/sketch?{q}"), png(4, 4)).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, "");
    }
    // A huge value is shown as such, not as 309 digits.
    let (status, b) = upload_json(&app, "/api/sketch?depth=1e308", png(4, 4)).await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "got 1e308");
    assert!(b["error"].as_str().unwrap().len() < 100, "{b}");
}

#[tokio::test]
async fn medians_are_arcade_medians() {
    let app = router();
    let text = "t,v\n1,3\n2,nan\n3,1\n4,7\n5,2\n6,2.5\n7,-4\n";
    let (status, r) = upload_json(
        &app,
        "/api/median?window=3&column=2&header=true",
        text.as_bytes().to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let options = arcade_signal::ReadOptions {
        column: Some(2),
        delimiter: ',',
        header: true,
        skip_bad: false,
    };
    let (expected, _) = arcade_signal::medians_of_text(text, 3, &options).unwrap();
    let lines: Vec<String> = expected.iter().map(|m| format!("{m}")).collect();
    assert_eq!(r["text"].as_str().unwrap(), lines.join("\n") + "\n");
    assert_eq!(r["values"].as_array().unwrap().len(), 7);
    assert_eq!(r["values"][1], "NaN");
    assert_eq!(r["medians"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn infinities_and_nan_are_told_apart() {
    let app = router();
    let text = "1\ninf\n-inf\nnan\n-Infinity\n2.5\n";
    let (status, r) = upload_json(&app, "/api/median?window=1", text.as_bytes().to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let values = serde_json::json!([1.0, "Infinity", "-Infinity", "NaN", "-Infinity", 2.5]);
    assert_eq!(r["values"], values);
    assert_eq!(r["medians"], values, "a window of one is the series");
    // Each string reads back as the number it names.
    for (v, x) in
        r["values"]
            .as_array()
            .unwrap()
            .iter()
            .zip([1.0, f64::INFINITY, f64::NEG_INFINITY])
    {
        let back: f64 = v
            .as_str()
            .map_or_else(|| v.as_f64().unwrap(), |s| s.parse().unwrap());
        assert_eq!(back, x);
    }
}

#[tokio::test]
async fn bad_or_huge_number_uploads_are_one_line_4xx() {
    let app = router();
    let (status, b) = upload_json(&app, "/api/median?window=2", b"1\n2\nthree\n".to_vec()).await;
    assert_error(status, &b, StatusCode::BAD_REQUEST, "line 3");
    assert_error(
        status,
        &b,
        StatusCode::BAD_REQUEST,
        "skip lines that are not numbers",
    );
    // A missing column is on every line: the advice is the column, not skipping.
    let (status, b) = upload_json(&app, "/api/median?window=1&column=3", b"1,2\n".to_vec()).await;
    assert_error(
        status,
        &b,
        StatusCode::BAD_REQUEST,
        "no column 3 (the line has 2) (check the column number)",
    );
    for q in [
        "window=0",
        "window=-1",
        "",
        "window=3&column=0",
        "window=2&bogus=1",
    ] {
        let (status, b) = upload_json(&app, &format!("/api/median?{q}"), b"1\n2\n".to_vec()).await;
        assert_error(status, &b, StatusCode::BAD_REQUEST, "");
    }
    let many = "1\n".repeat(250_000).into_bytes();
    let (status, b) = upload_json(&app, "/api/median?window=3", many).await;
    assert_error(
        status,
        &b,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at most 200000",
    );
    let (status, b) = upload_json(&app, "/api/median?window=3", vec![b'1'; 5 << 20]).await;
    assert_error(status, &b, StatusCode::PAYLOAD_TOO_LARGE, "limit");
}
