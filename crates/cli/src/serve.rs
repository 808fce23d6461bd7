//! `arcade serve`: the web arena on a local port.

use crate::output;
use anyhow::{Context, Result};
use arcade_web::ServeConfig;
use clap::Args;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; loopback unless you mean to share the arena.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Open the arena in the default browser (xdg-open).
    #[arg(long)]
    open: bool,
    /// Seconds a game may sit idle before it is dropped.
    #[arg(long, default_value_t = 1800, value_name = "S",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    session_ttl: u64,
    /// Most games held at once (the least recently used is dropped first).
    #[arg(long, default_value_t = 2000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_sessions: u64,
}

pub fn run(args: ServeArgs) -> Result<()> {
    let config = ServeConfig {
        bind: SocketAddr::new(args.bind, args.port),
        session_ttl: Duration::from_secs(args.session_ttl),
        max_sessions: args.max_sessions as usize,
        ..ServeConfig::default()
    };
    let open = args.open;
    let mut announced = Ok(());
    arcade_web::serve(config, |addr| {
        let url = format!("http://{addr}/");
        announced = output::print(format_args!("arcade web arena: {url} (Ctrl-C stops it)\n"));
        if open {
            open_browser(&url);
        }
    })
    .map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::AddrInUse => {
                " (is another arcade serve running? Choose a port with --port N, \
                 or --port 0 for any free one)"
            }
            _ => "",
        };
        let address = std::net::SocketAddr::new(args.bind, args.port);
        let reason = arcade_core::text::io_reason(&e);
        anyhow::anyhow!("cannot serve on {address}: {reason}{hint}")
    })?;
    announced.context("printing the URL")
}

/// Tries `xdg-open`; says so on stderr when it cannot: when it is missing,
/// and when it runs but fails (no browser, as on a server over SSH). It is
/// waited for on a thread of its own, so the server starts at once.
fn open_browser(url: &str) {
    match std::process::Command::new("xdg-open")
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => eprintln!(
                    "note: could not open a browser (xdg-open {status}); open {url} yourself"
                ),
                _ => {}
            });
        }
        Err(e) => eprintln!("note: could not open a browser ({e}); open {url} yourself"),
    }
}
