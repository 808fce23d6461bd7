//! Helpers shared by the end-to-end tests of the `arcade` binary.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `arcade` with `args` and no input.
pub fn arcade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run arcade")
}

/// Runs `arcade` with `args`, sends it `signals` back to back after
/// `wait_ms` (a Ctrl-C, or a stop delivered twice as GNU `timeout` does),
/// and returns its output.
pub fn arcade_signalled(args: &[&str], wait_ms: u64, signals: &[libc::c_int]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arcade");
    std::thread::sleep(std::time::Duration::from_millis(wait_ms));
    for &signal in signals {
        // SAFETY: kill(2) on our own child's pid, which has not been waited for.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    }
    child.wait_with_output().expect("wait for arcade")
}

/// Runs `arcade` with `args`, writing `input` (text or raw bytes) to its
/// standard input.
pub fn arcade_with_input(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arcade");
    let mut stdin = child.stdin.take().expect("piped stdin");
    // A command may stop reading early (bad input): a broken pipe is fine.
    let _ = stdin.write_all(input.as_ref());
    drop(stdin);
    child.wait_with_output().expect("wait for arcade")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one JSON object a successful `--json` run prints.
pub fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "failed: {}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON object")
}

/// Bad input: exit status 2 and exactly one line naming the problem.
pub fn assert_bad_input(args: &[&str], expected: &str) {
    let o = arcade(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?} printed:\n{err}"
    );
    assert!(err.contains(expected), "{args:?} printed:\n{err}");
    // A system error's reason once, not again for each error wrapping it.
    assert!(
        err.matches("(os error").count() <= 1,
        "{args:?} printed:\n{err}"
    );
}

/// A temporary name, distinct per test process and per `name`.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("arcade-test-{}-{name}", std::process::id()))
}

/// A file holding `text` for the length of one test.
pub struct TempFile(PathBuf);

impl TempFile {
    pub fn new(name: &str, text: &str) -> TempFile {
        let path = temp_path(name);
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("temporary paths are UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A fresh directory for one test (tests run in parallel); the test removes it.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = temp_path(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch directory for one test, removed with everything in it.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        TempDir(temp_dir(name))
    }

    /// The path of `name` inside the directory.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }

    /// Writes `text` to `name` inside the directory and returns its path.
    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.path(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A file of the repository's public reference data (`data/`); the test
/// fails if it is missing.
pub fn data_file(path: &str) -> String {
    repo_file(&format!("data/{path}"))
}

/// A file of the repository, by its path from the root; the test fails if
/// it is missing.
pub fn repo_file(path: &str) -> String {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    assert!(
        file.exists(),
        "{}: missing from the repository",
        file.display()
    );
    file.to_str().expect("a UTF-8 path").to_owned()
}

/// Runs `arcade` with its standard output on a full disk (`/dev/full`) and
/// checks it fails with status 1 and one line saying so. Returns false
/// (checking nothing) on systems without `/dev/full`.
pub fn assert_full_disk_is_one_line(args: &[&str]) -> bool {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return false;
    };
    let o = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .expect("run arcade");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?} printed:\n{err}"
    );
    assert!(
        err.starts_with("error: writing to standard output"),
        "{args:?} printed:\n{err}"
    );
    true
}
