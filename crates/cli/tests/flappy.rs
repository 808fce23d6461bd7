//! End-to-end checks of `arcade flappy`: JSON keys, reproducibility, policy
//! files written by `train` and read by `eval`/`play`, and one-line errors with
//! exit status 2 for bad policy files.

use crate::common::{TempDir, TempFile, arcade, assert_bad_input, json};

#[test]
fn eval_json_has_the_promised_keys_and_is_reproducible() {
    let args = [
        "flappy",
        "eval",
        "--policy",
        "heuristic",
        "--episodes",
        "30",
        "--max-pipes",
        "300",
        "--seed",
        "4",
        "--json",
        "--per-episode",
    ];
    let one = json(&arcade(&[&args[..], &["--threads", "1"]].concat()));
    let two = json(&arcade(&[&args[..], &["--threads", "2"]].concat()));
    for key in [
        "episodes",
        "mean_pipes",
        "ci95",
        "min_pipes",
        "max_pipes",
        "crashes",
        "seconds",
        "capped",
        "median_pipes",
        "frames",
    ] {
        assert!(one.get(key).is_some(), "missing {key}: {one}");
    }
    assert_eq!(one["episodes"], 30);
    assert_eq!(one["pipes"], two["pipes"]);
    let pipes: Vec<u64> = one["pipes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    let mean = pipes.iter().sum::<u64>() as f64 / 30.0;
    assert!((one["mean_pipes"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert_eq!(
        one["max_pipes"].as_u64().unwrap(),
        *pipes.iter().max().unwrap()
    );
    let capped = pipes.iter().filter(|&&p| p == 300).count() as u64;
    assert_eq!(one["capped"].as_u64().unwrap(), capped);
    assert_eq!(one["crashes"].as_u64().unwrap(), 30 - capped);
    // The heuristic is a real player but not a perfect one.
    assert!(mean > 5.0, "heuristic mean {mean}");
    let other = json(&arcade(&[
        "flappy",
        "eval",
        "--policy",
        "heuristic",
        "--episodes",
        "30",
        "--max-pipes",
        "300",
        "--seed",
        "5",
        "--json",
    ]));
    assert_ne!(other["mean_pipes"], one["mean_pipes"]);
}

#[test]
fn train_writes_a_policy_that_eval_and_play_read_and_same_seed_same_policy() {
    for method in ["cem", "pg", "reinforce"] {
        let dir = TempDir::new(&format!("flappy-train-{method}"));
        let (a, b) = (dir.path("a.json"), dir.path("b.json"));
        let run = |out: &str, threads: &str| {
            json(&arcade(&[
                "flappy",
                "train",
                "--method",
                method,
                "--iterations",
                "3",
                "--hidden",
                "4",
                "--inputs",
                "5",
                "--population",
                "8",
                "--episodes-per-eval",
                "2",
                "--batch",
                "4",
                "--games",
                "4",
                "--steps",
                "64",
                "--minibatch",
                "128",
                "--seed",
                "3",
                "--threads",
                threads,
                "--out",
                out,
                "--json",
            ]))
        };
        let summary = run(&a, "1");
        assert_eq!(summary["iterations"], 3, "{summary}");
        run(&b, "2");
        let read = |p: &str| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
        };
        let (pa, pb) = (read(&a), read(&b));
        assert_eq!(pa["sizes"], serde_json::json!([5, 4, 2]));
        assert_eq!(
            pa["layers"], pb["layers"],
            "{method}: same seed, same policy"
        );
        let e = json(&arcade(&[
            "flappy",
            "eval",
            "--policy",
            &a,
            "--episodes",
            "5",
            "--max-pipes",
            "50",
            "--json",
        ]));
        assert_eq!(e["episodes"], 5);
        let p = json(&arcade(&[
            "flappy",
            "play",
            "--policy",
            &a,
            "--max-pipes",
            "20",
            "--json",
        ]));
        assert!(p["pipes"].as_u64().unwrap() <= 20);
    }
}

#[test]
fn play_and_bench_report_json() {
    let p = json(&arcade(&[
        "flappy",
        "play",
        "--policy",
        "heuristic",
        "--seed",
        "2",
        "--json",
    ]));
    assert_eq!(p["crashed"], true, "the heuristic crashes without a cap");
    let frames = p["frames"].as_u64().unwrap();
    let pipes = p["pipes"].as_u64().unwrap();
    assert_eq!(p["reward"].as_f64().unwrap(), 60.0 * pipes as f64 - 450.0);
    assert!(frames > 36 * pipes);
    let text = arcade(&[
        "flappy",
        "play",
        "--policy",
        "heuristic",
        "--seed",
        "2",
        "--delay",
        "0",
    ]);
    assert!(text.status.success());
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.contains(&format!("{pipes} pipes in {frames} frames, crashed")),
        "{out}"
    );
    assert!(out.contains('@'), "draws the bird");
    let b = json(&arcade(&[
        "flappy", "bench", "--frames", "100000", "--json",
    ]));
    assert_eq!(b["frames"], 100_000);
    assert!(b["frames_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_policy_files_are_one_line_errors_with_status_2() {
    let garbage = TempFile::new("garbage.json", "{ not json");
    assert_bad_input(
        &["flappy", "eval", "--policy", garbage.path()],
        "not a policy file",
    );
    assert_bad_input(
        &["flappy", "eval", "--policy", garbage.path()],
        garbage.path(),
    );
    let wrong_input = TempFile::new(
        "six.json",
        r#"{"format": "arcade-flappy-policy", "sizes": [6, 2],
            "layers": [{"weights": [[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]], "bias": [0, 0]}]}"#,
    );
    assert_bad_input(
        &["flappy", "play", "--policy", wrong_input.path(), "--json"],
        "input size must be 5",
    );
    let ragged = TempFile::new(
        "ragged.json",
        r#"{"format": "arcade-flappy-policy", "sizes": [5, 2],
            "layers": [{"weights": [[0,0],[0,0],[0],[0,0],[0,0]], "bias": [0, 0]}]}"#,
    );
    assert_bad_input(
        &["flappy", "eval", "--policy", ragged.path()],
        "layers[0].weights[2] has 1 numbers, expected 2",
    );
    assert_bad_input(
        &["flappy", "eval", "--policy", "no-such-policy.json"],
        "no-such-policy.json",
    );
    assert_bad_input(
        &["flappy", "train", "--hidden", "16,x", "--iterations", "1"],
        "not a positive layer size",
    );
    assert_bad_input(
        &["flappy", "eval", "--policy", "heuristic", "--episodes", "0"],
        "--episodes must be at least 1",
    );
}

/// The policies kept in the repository still load and still fly: on 20
/// unseen games capped at 1,000 pipes they average over 500 (667, 855 and
/// 779 when shipped; the heuristic averages about 37 uncapped).
#[test]
fn shipped_policies_load_and_fly() {
    for name in ["cem-5min", "cem-15min", "pg-5min"] {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../flappy/policies/").to_owned() + name + ".json";
        let e = json(&arcade(&[
            "flappy",
            "eval",
            "--policy",
            &path,
            "--episodes",
            "20",
            "--max-pipes",
            "1000",
            "--seed",
            "1",
            "--json",
        ]));
        let mean = e["mean_pipes"].as_f64().unwrap();
        assert!(mean > 500.0, "{name}: {e}");
    }
}

/// The kernel report proves the game playable without a crash, with 13 px
/// of slack, and the oracle that plays by it does not crash.
#[test]
fn kernel_and_oracle() {
    let k = json(&arcade(&["flappy", "kernel", "--json"]));
    assert_eq!(k["largest_safe_margin"], 13, "{k}");
    assert_eq!(k["states"], 376 * 20);
    let kernels = k["kernels"].as_array().unwrap();
    assert_eq!(kernels[0]["narrowest_states"], 5010);
    assert_eq!(kernels.last().unwrap()["narrowest_states"], 0);
    let e = json(&arcade(&[
        "flappy",
        "eval",
        "--policy",
        "oracle",
        "--episodes",
        "6",
        "--max-pipes",
        "2000",
        "--json",
    ]));
    assert_eq!(e["crashes"], 0, "{e}");
    assert_eq!(e["mean_pipes"], 2000.0);
}

/// The imitation policy kept in the repository never crashed in 300 games
/// of 10,000 pipes when shipped; here 20 games of 2,000.
#[test]
fn shipped_imitation_policy_does_not_crash() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../flappy/policies/imitate.json"
    );
    let e = json(&arcade(&[
        "flappy",
        "eval",
        "--policy",
        path,
        "--episodes",
        "20",
        "--max-pipes",
        "2000",
        "--seed",
        "3",
        "--json",
    ]));
    assert_eq!(e["crashes"], 0, "{e}");
}
