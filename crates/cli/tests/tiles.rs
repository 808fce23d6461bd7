//! End-to-end checks of `arcade tiles`: JSON keys, one-line errors with exit
//! status 2, and that every solution the commands print replays to a win.

use crate::common::{TempDir, arcade, assert_bad_input, json};

/// `check` accepts `clicks` on `level` (both paths).
fn assert_wins(level: &str, clicks: &str) {
    let v = json(&arcade(&["tiles", "check", level, clicks, "--json"]));
    assert_eq!(v["legal"], true, "{v}");
    assert_eq!(v["won"], true, "{v}");
}

const CAPTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sheep/capture-level-90031.json"
);

#[test]
fn solves_the_real_level_and_check_accepts_the_clicks() {
    let dir = TempDir::new("real");
    let out = arcade(&["tiles", "solve", CAPTURE, "--json"]);
    let v = json(&out);
    assert_eq!(v["verdict"], "solved");
    assert_eq!(v["clicks"].as_array().unwrap().len(), 255);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().is_some());
    let clicks = dir.file("clicks.json", &String::from_utf8(out.stdout).unwrap());
    assert_wins(CAPTURE, &clicks);
    // The greedy player loses it: "unknown", with its losing line, which
    // `check` replays to the full tray.
    let out = arcade(&["tiles", "solve", CAPTURE, "--solver", "greedy", "--json"]);
    let g = json(&out);
    assert_eq!(g["verdict"], "unknown");
    let lost = g["clicks"].as_array().unwrap().len() as u64;
    assert_eq!(Some(lost), g["lost_after"].as_u64());
    assert_eq!(Some(lost - 1), g["taken"].as_u64());
    let line = dir.file("lost.json", &String::from_utf8(out.stdout).unwrap());
    let check = arcade(&["tiles", "check", CAPTURE, &line, "--json"]);
    assert_eq!(check.status.code(), Some(1));
    let c: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(
        (c["legal"].as_bool(), c["won"].as_bool()),
        (Some(true), Some(false)),
        "{c}"
    );
    // Its last click took the tile that filled the tray (`at` counts from 0).
    assert_eq!(c["taken"].as_u64(), Some(lost), "{c}");
    assert_eq!(c["ending"]["at"].as_u64(), Some(lost - 1), "{c}");
    assert_eq!(c["ending"]["result"], "lost", "{c}");
}

#[test]
fn check_names_illegal_and_losing_clicks_and_exits_1() {
    let dir = TempDir::new("check");
    // A column of tiles of these types, top first: tiles 0, 1, ….
    let column = |name: &str, kinds: &[u32]| {
        let tiles: Vec<String> = kinds
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let layer = kinds.len() - 1 - i;
                format!(r#"{{"type":{k},"layer":{layer},"x":0,"y":0}}"#)
            })
            .collect();
        dir.file(name, &format!(r#"{{"tiles":[{}]}}"#, tiles.join(",")))
    };
    let level = column("col.json", &[1, 1, 1, 2, 2, 2]);
    assert_wins(&level, &dir.file("win.txt", "0 1 2 3 4 5"));
    let o = arcade(&["tiles", "check", &level, &dir.file("bad.txt", "0 2")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("click 2 — tile 2 is covered by tile 1"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(
        &arcade(&[
            "tiles",
            "check",
            &level,
            &dir.file("short.txt", "[0,1]"),
            "--json",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(v["legal"], true);
    assert_eq!(v["won"], false);
    assert_eq!(v["ending"]["result"], "unfinished");
    // With a 3-slot tray three different types fill it.
    let mixed = column("mixed.json", &[1, 2, 3, 1, 2, 3, 1, 2, 3]);
    let o = arcade(&[
        "tiles",
        "check",
        &mixed,
        &dir.file("w.txt", "0 1 2 3 4 5 6 7 8"),
        "--capacity",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("loses"));
}

#[test]
fn malformed_levels_and_options_exit_2_with_one_line() {
    let dir = TempDir::new("bad");
    let bad = dir.file(
        "bad.json",
        r#"{"tiles":[{"type":1,"layer":"top","x":0,"y":0}]}"#,
    );
    assert_bad_input(&["tiles", "solve", &bad], "tiles[0].layer");
    let capture = dir.file(
        "cap.json",
        r#"{"levelData":{"2":[{"type":1,"rolNum":0,"rowNum":0,"layerNum":2,"moldType":9}]}}"#,
    );
    assert_bad_input(&["tiles", "solve", &capture], "levelData.2[0].moldType");
    assert_bad_input(
        &["tiles", "solve", &dir.path("missing.json")],
        "cannot read",
    );
    let level = dir.file("ok.json", r#"{"tiles":[]}"#);
    assert_bad_input(
        &["tiles", "check", &level, &dir.file("c.txt", "1 x")],
        "click 2: expected a tile id",
    );
    assert_bad_input(
        &["tiles", "bench", "--layers", "3", "--games", "1"],
        "do not fit",
    );
    assert_bad_input(
        &[
            "tiles",
            "generate",
            "--difficulty",
            "2",
            "--out",
            &dir.path("x.json"),
        ],
        "--difficulty",
    );
    assert_bad_input(&["tiles", "solve", &level, "--seconds", "0"], "--seconds");
}

#[test]
fn uneven_tile_counts_are_unsolvable_without_search() {
    let dir = TempDir::new("uneven");
    let level = dir.file(
        "two.json",
        r#"{"tiles":[{"type":4,"layer":0,"x":0,"y":0},{"type":4,"layer":0,"x":8,"y":0}]}"#,
    );
    let v = json(&arcade(&["tiles", "solve", &level, "--json"]));
    assert_eq!(v["verdict"], "unsolvable");
    assert_eq!(v["proof"], "tile-counts");
    assert_eq!(v["nodes"], 0);
}

#[test]
fn generated_levels_are_solved_and_their_intended_clicks_win() {
    let dir = TempDir::new("generate");
    let out = dir.path("level.json");
    let v = json(&arcade(&[
        "tiles",
        "generate",
        "--layers",
        "16",
        "--difficulty",
        "0.8",
        "--seed",
        "4",
        "--out",
        &out,
        "--json",
    ]));
    assert_eq!(v["verdict"], "solved");
    assert_eq!(v["tiles"], 360);
    assert!(v["peak_tray"].as_u64().unwrap() <= 6);
    assert_wins(&out, &out);
    let solved = arcade(&["tiles", "solve", &out, "--json"]);
    let clicks = dir.file(
        "clicks.json",
        &String::from_utf8(json(&solved).to_string().into()).unwrap(),
    );
    assert_wins(&out, &clicks);
    // Same seed, same file.
    let again = dir.path("again.json");
    json(&arcade(&[
        "tiles",
        "generate",
        "--layers",
        "16",
        "--difficulty",
        "0.8",
        "--seed",
        "4",
        "--out",
        &again,
        "--json",
    ]));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&again).unwrap());
    // The DE-swap approach writes a level the greedy player clears.
    let de = dir.path("de.json");
    let v = json(&arcade(&[
        "tiles", "generate", "--method", "de-swap", "--layers", "12", "--seed", "2", "--out", &de,
        "--json",
    ]));
    assert_eq!(v["greedy_clears"], v["greedy_wins"]);
}

#[test]
fn bench_json_has_the_documented_keys() {
    let v = json(&arcade(&[
        "tiles", "bench", "--layers", "12,14", "--games", "6", "--seed", "3", "--json",
    ]));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (row, layers) in rows.iter().zip([12, 14]) {
        assert_eq!(row["layers"], layers);
        assert_eq!(row["levels"], 6);
        assert_eq!(row["tiles"], 360);
        let g = &row["greedy"];
        assert!(g["wins"].as_u64().unwrap() <= 6);
        assert!(g["ci95"].as_array().unwrap().len() == 2);
        assert!(g["mean_share"].as_f64().unwrap() > 0.0);
        let e = &row["exact"];
        let total: u64 = ["solved", "unsolvable", "unknown"]
            .iter()
            .map(|k| e[k].as_u64().unwrap())
            .sum();
        assert_eq!(total, 6);
        assert_eq!(e["replay_failures"], 0);
        assert!(e["mean_seconds"].as_f64().is_some());
    }
    let c = json(&arcade(&[
        "tiles",
        "bench",
        "--layers",
        "14",
        "--games",
        "4",
        "--method",
        "construct",
        "--difficulty",
        "0.3",
        "--json",
    ]));
    assert_eq!(c["rows"][0]["exact"]["solved"], 4);
    assert_eq!(c["rows"][0]["make"]["made"], 4);
    assert_eq!(c["rows"][0]["difficulty"], 0.3);
}

/// Issue 30, item 10: the same non-UTF-8 bytes are bad input (exit 2) from a
/// file and from standard input.
#[test]
fn non_utf8_stdin_is_bad_input_like_a_file() {
    let dir = TempDir::new("utf8");
    let bytes = b"{\"tiles\": [\xff]}";
    let file = dir.path("bad.json");
    std::fs::write(&file, bytes).unwrap();
    assert_bad_input(&["tiles", "solve", &file], "not UTF-8");
    let o = crate::common::arcade_with_input(&["tiles", "solve", "-"], bytes);
    assert_eq!(o.status.code(), Some(2), "{}", crate::common::stderr(&o));
    assert!(crate::common::stderr(&o).contains("standard input is not UTF-8"));
    let level = dir.file("ok.json", r#"{"tiles":[]}"#);
    let o = crate::common::arcade_with_input(&["tiles", "check", &level, "-"], b"1 \xfe 2");
    assert_eq!(o.status.code(), Some(2), "{}", crate::common::stderr(&o));
}

/// Issue 30, items 3 and 5: absurd sizes and time limits are one-line errors
/// naming the option, never a panic or a huge allocation.
#[test]
fn absurd_layers_and_seconds_are_one_line_errors() {
    let dir = TempDir::new("absurd");
    let level = dir.file("ok.json", r#"{"tiles":[]}"#);
    assert_bad_input(
        &["tiles", "bench", "--layers", "2147483648", "--games", "1"],
        "--layers",
    );
    assert_bad_input(&["tiles", "bench", "--layers", "201"], "from 1 to 200");
    assert_bad_input(
        &["tiles", "solve", &level, "--seconds", "1e20"],
        "--seconds",
    );
    assert_bad_input(
        &["tiles", "bench", "--layers", "12", "--seconds", "1e308"],
        "--seconds",
    );
    assert_bad_input(
        &[
            "tiles",
            "generate",
            "--verify-seconds",
            "1e308",
            "--out",
            &dir.path("x.json"),
        ],
        "--verify-seconds",
    );
    assert_bad_input(
        &[
            "tiles",
            "bench",
            "--layers",
            "12",
            "--types",
            "4611686018427387904",
        ],
        "--types",
    );
}

/// Issue 30, item 10: a 20,000-tile single stack loads fast and `--seconds`
/// bounds the whole command (it took 57 s to load before).
#[test]
fn a_20000_tile_stack_loads_fast_and_respects_the_time_limit() {
    let dir = TempDir::new("stack");
    for n in [20_000usize, 19_998] {
        let tiles: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"type":{},"layer":{i},"x":0,"y":0}}"#, (i / 3) % 50))
            .collect();
        let level = dir.file(
            "stack.json",
            &format!(r#"{{"tiles":[{}]}}"#, tiles.join(",")),
        );
        let start = std::time::Instant::now();
        let o = arcade(&["tiles", "solve", &level, "--seconds", "1", "--json"]);
        let wall = start.elapsed().as_secs_f64();
        assert!(wall < 10.0, "{n} tiles took {wall:.1} s");
        assert!(
            o.status.code() == Some(0) || o.status.code() == Some(2),
            "{}",
            crate::common::stderr(&o)
        );
    }
}
