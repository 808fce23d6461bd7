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
