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
    // `tetris bench`'s name for the list is accepted too.
    let tetris_name = [&args[..args.len() - 1], &["--per-game"]].concat();
    assert_eq!(json(&arcade(&tetris_name))["pipes"], one["pipes"]);
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
            json(&arcade(
                &[
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
                    "--seed",
                    "3",
                    "--threads",
                    threads,
                    "--out",
                    out,
                    "--json",
                ]
                .iter()
                .copied()
                .chain(method_options(method).iter().copied())
                .collect::<Vec<_>>(),
            ))
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
    assert_eq!(p["crashed_into"], "pipe");
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
        out.contains(&format!(
            "{} in {frames} frames, crashed into a pipe",
            arcade_core::text::counted(pipes, "pipe")
        )),
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
    // A network too large to keep (it aborted on a failed allocation), and
    // a generation too long for the clock (it ran on past its minutes).
    assert_bad_input(
        &[
            "flappy",
            "train",
            "--hidden",
            "4096,4096,4096,4096",
            "--iterations",
            "1",
        ],
        "weights; at most 1048576 are allowed",
    );
    assert_bad_input(
        &[
            "flappy",
            "train",
            "--episodes-per-eval",
            "1000000",
            "--minutes",
            "0.05",
        ],
        "at most 65536 episodes per candidate",
    );
    assert_bad_input(
        &["flappy", "eval", "--policy", "heuristic", "--episodes", "0"],
        "invalid value '0' for '--episodes",
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
    // --threads (new for kernel and play) changes the speed, not the answer.
    let untimed = |mut report: serde_json::Value| {
        report.as_object_mut().unwrap().remove("seconds");
        report
    };
    let one = json(&arcade(&["flappy", "kernel", "--threads", "1", "--json"]));
    assert_eq!(untimed(one), untimed(k.clone()));
    let play = |threads: &str| {
        json(&arcade(&[
            "flappy",
            "play",
            "--policy",
            "oracle",
            "--max-pipes",
            "20",
            "--threads",
            threads,
            "--json",
        ]))
    };
    assert_eq!(play("1")["frames"], play("2")["frames"]);
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

/// Small settings of each method (each only takes its own).
fn method_options(method: &str) -> &'static [&'static str] {
    match method {
        "cem" => &["--population", "8", "--episodes-per-eval", "2"],
        "pg" => &["--envs", "4", "--steps", "64", "--minibatch", "128"],
        "reinforce" => &["--batch", "4"],
        _ => &[],
    }
}

/// Issue 29: an option of another method is an error naming its method,
/// never silently ignored; `--games` (which meant parallel environments) is gone.
#[test]
fn another_methods_option_is_rejected() {
    let dir = TempDir::new("flappy-reject");
    let out = dir.path("p.json");
    for (method, option, value) in [
        ("pg", "--batch", "4"),
        ("cem", "--envs", "4"),
        ("reinforce", "--lambda", "0.5"),
    ] {
        assert_bad_input(
            &[
                "flappy",
                "train",
                "--method",
                method,
                option,
                value,
                "--iterations",
                "1",
                "--out",
                &out,
            ],
            "is a setting of --method",
        );
    }
    assert_bad_input(
        &[
            "flappy", "train", "--method", "pg", "--games", "4", "--out", &out,
        ],
        "--games",
    );
    assert!(!std::path::Path::new(&out).exists());
}

/// Counts that would make training allocate without bound, or train for no
/// iteration at all, and settings out of range, are one-line errors before
/// anything runs.
#[test]
fn absurd_training_sizes_are_errors() {
    let dir = TempDir::new("flappy-sizes");
    let out = dir.path("p.json");
    for (method, option, value, expected) in [
        (
            "pg",
            "--envs",
            "100000000000",
            "PPO plays at most 65536 games at once",
        ),
        (
            "pg",
            "--steps",
            "100000000",
            "PPO holds at most 16777216 frames an update (games x steps), got 16 x 100000000",
        ),
        (
            "imitate",
            "--envs",
            "70000",
            "imitation plays at most 65536 games",
        ),
        (
            "reinforce",
            "--batch",
            "100000000",
            "policy gradient plays at most 65536 games",
        ),
        (
            "cem",
            "--iterations",
            "0",
            "'--iterations <N>': expected a whole number from 1",
        ),
        // A setting out of its range is named with its value (one catch-all
        // sentence named none of them).
        (
            "pg",
            "--gamma",
            "1.5",
            "invalid value '1.5' for '--gamma <G>'",
        ),
        (
            "pg",
            "--lambda",
            "2",
            "invalid value '2' for '--lambda <L>'",
        ),
        (
            "pg",
            "--entropy",
            "nan",
            "invalid value 'nan' for '--entropy <W>'",
        ),
        (
            "pg",
            "--learning-rate",
            "inf",
            "invalid value 'inf' for '--learning-rate <LR>'",
        ),
        (
            "imitate",
            "--learning-rate",
            "1e30",
            "invalid value '1e30' for '--learning-rate <LR>'",
        ),
        ("pg", "--envs", "0", "invalid value '0' for '--envs <N>'"),
        (
            "imitate",
            "--explore",
            "2",
            "invalid value '2' for '--explore <P>'",
        ),
        (
            "cem",
            "--validation-episodes",
            "0",
            "invalid value '0' for '--validation-episodes <N>'",
        ),
    ] {
        assert_bad_input(
            &[
                "flappy", "train", "--method", method, option, value, "--out", &out,
            ],
            expected,
        );
    }
    assert!(!std::path::Path::new(&out).exists());
}

/// Issue 30 item 2: a full disk on standard output is one line and exit 1.
#[test]
fn eval_to_a_full_disk_is_one_line_and_exit_1() {
    for json in [true, false] {
        let mut args = vec![
            "flappy",
            "eval",
            "--policy",
            "heuristic",
            "--episodes",
            "3",
            "--max-pipes",
            "5",
        ];
        if json {
            args.push("--json");
        }
        let o = to_dev_full(&args);
        assert_eq!(o.status.code(), Some(1), "{}", crate::common::stderr(&o));
        let err = crate::common::stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("error: writing to standard output"), "{err}");
    }
}

/// Issue 30 item 3: absurd episode counts are a parse error, and a huge
/// valid one streams (memory stays flat while it runs).
#[test]
fn huge_episode_counts_stream_or_are_rejected() {
    for bad in ["18446744073709551615", "4294967296000000", "0", "-1"] {
        assert_bad_input(
            &["flappy", "eval", "--policy", "heuristic", "--episodes", bad],
            "invalid value",
        );
    }
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args([
            "flappy",
            "eval",
            "--policy",
            "heuristic",
            "--episodes",
            "4294967296",
            "--max-pipes",
            "1",
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(3));
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    child.kill().ok();
    child.wait().ok();
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("the run was still going after 3 s");
    // 4,294,967,296 outcomes would take 137 GB; the stream keeps 2^20 pipe counts (8 MiB) at most.
    assert!(rss_kb < 200_000, "peak resident memory {rss_kb} kB");
}

/// Runs `arcade` with standard output on `/dev/full`.
pub fn to_dev_full(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap()
}
