//! `arcade serve`: prints its loopback URL and serves the home page.

use crate::common::assert_bad_input;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

#[test]
fn serves_the_home_page_on_the_printed_loopback_url() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arcade"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let result = std::panic::catch_unwind(|| {
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("/mines"));
    });
    child.kill().unwrap();
    child.wait().unwrap();
    result.unwrap();
}

#[test]
fn bad_options_are_bad_input() {
    assert_bad_input(&["serve", "--port", "70000"], "--port");
    assert_bad_input(&["serve", "--bind", "nowhere"], "--bind");
    assert_bad_input(&["serve", "--session-ttl", "0"], "--session-ttl");
}

#[test]
fn a_taken_port_is_one_line_that_says_what_to_do() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let o = crate::common::arcade(&["serve", "--port", &port]);
    let err = crate::common::stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("cannot serve on 127.0.0.1:{port}: ")),
        "{err}"
    );
    assert!(err.contains("--port 0 for any free one"), "{err}");
}
