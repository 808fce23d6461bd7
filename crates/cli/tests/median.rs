//! `arcade median`: output, CSV columns, bad lines, streaming.

use crate::common::{arcade_with_input as arcade_with_stdin, stderr, stdout};

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn leetcode_example_from_stdin() {
    let o = arcade_with_stdin(&["median", "--window", "3"], "1\n3\n-1\n-3\n5\n3\n6\n7\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1\n-1\n-1\n3\n5\n6\n");
}

#[test]
fn even_window_csv_column_with_header_and_nan() {
    let csv = "day;price;volume\n1;10;5\n2; 20 ;6\n3;\"30\";7\n4;NaN;8\n5;50;9\n";
    let o = arcade_with_stdin(
        &[
            "median",
            "-k",
            "2",
            "--column",
            "2",
            "--delimiter",
            ";",
            "--header",
        ],
        csv,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // NaN is skipped inside its windows: [30, NaN] → 30, [NaN, 50] → 50.
    assert_eq!(stdout(&o), "15\n25\n30\n50\n");
}

#[test]
fn bad_line_names_its_number_and_exits_2_unless_skipped() {
    let input = "1\n2\nthree\n4\n";
    let o = arcade_with_stdin(&["median", "-k", "2"], input);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("line 3") && err.contains("\"three\""), "{err}");
    assert!(err.contains("--skip-bad skips such lines"), "{err}");

    let o = arcade_with_stdin(&["median", "-k", "2", "--skip-bad"], input);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "1.5\n3\n");
    assert!(stderr(&o).contains("skipped 1 line"));

    let o = arcade_with_stdin(&["median", "-k", "2", "--column", "3"], "1,2,3\n4,5\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2: no column 3"), "{}", stderr(&o));
}

#[test]
fn bad_arguments_and_missing_file_exit_2() {
    let o = arcade_with_stdin(&["median", "-k", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = arcade_with_stdin(&["median", "-k", "3", "--input", "/no/such/file"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /no/such/file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn short_input_gives_no_medians_and_a_note() {
    let o = arcade_with_stdin(&["median", "-k", "5"], "1\n2\n");
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("fewer than the window"));
    let o = arcade_with_stdin(&["median", "-k", "5", "--quiet"], "1\n2\n");
    assert_eq!(stderr(&o), "");
}

#[test]
fn file_input_matches_stdin() {
    let dir = std::env::temp_dir().join(format!("arcade-median-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let values: String = (0..5000)
        .map(|i| format!("{}\n", (i * 7919) % 1000))
        .collect();
    let file = dir.join("values.txt");
    std::fs::write(&file, &values).unwrap();
    let from_file = arcade_with_stdin(
        &["median", "-k", "101", "--input", file.to_str().unwrap()],
        "",
    );
    let from_stdin = arcade_with_stdin(&["median", "-k", "101"], &values);
    let positional = arcade_with_stdin(&["median", "-k", "101", file.to_str().unwrap()], "");
    assert!(from_file.status.success());
    assert_eq!(stdout(&from_file).lines().count(), 5000 - 100);
    assert_eq!(from_file.stdout, from_stdin.stdout);
    assert_eq!(positional.stdout, from_stdin.stdout);
    let both = arcade_with_stdin(&["median", "-k", "3", "a.txt", "--input", "b.txt"], "");
    assert_eq!(both.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// A median appears as soon as its window is complete, before the input
/// ends: the command streams.
#[test]
fn medians_arrive_before_the_input_ends() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(["median", "-k", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"5\n1\n3\n").unwrap();
    stdin.flush().unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).unwrap();
        tx.send(line).unwrap();
    });
    let first = rx.recv_timeout(Duration::from_secs(20));
    drop(stdin); // end the input either way
    child.wait().unwrap();
    assert_eq!(first.expect("no median before the input ended"), "3\n");
}

/// A window bigger than memory can hold is refused as it outgrows the room
/// (here a 1.5 GB address-space limit), not ended by a failed allocation.
#[test]
fn a_window_that_outgrows_memory_is_a_clear_error() {
    let script = format!(
        "ulimit -v 1500000 && yes 1.5 | head -n 100000000 | {} median --window 2147483647 >/dev/null",
        env!("CARGO_BIN_EXE_arcade")
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the window holds") && err.contains("use a smaller --window"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
