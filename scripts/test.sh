#!/usr/bin/env bash
# Every test arcade has: the Rust workspace, then the Python package and the
# browser tests of `arcade serve`. Each suite script sets up what it needs
# (a virtual environment under target/, npm packages, Chromium) on a fresh
# machine, so this one command is the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust: cargo test --workspace --release"
cargo test --workspace --release
# That build also made target/release/arcade (the CLI's integration tests
# run it); the suites below use it instead of building it again with the
# CLI's own feature set, which costs minutes.
export ARCADE_CLI_FRESH=1

for suite in scripts/test-python.sh scripts/test-browser.sh; do
    if [ -e "$suite" ]; then
        echo "== $suite"
        "$suite"
    fi
done
