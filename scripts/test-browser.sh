#!/usr/bin/env bash
# The browser tests of `arcade serve` (tests/browser): Debian's Chromium
# driven by playwright-core, against the release binary on a free loopback
# port. Installs Chromium with apt-get when missing (as root), the npm
# packages from the committed lock file, brings the binary up to date, and
# saves screenshots of failing pages under target/browser-failures/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "installing chromium with apt-get"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "error: the browser tests need Debian's chromium: run 'sudo apt-get install chromium'" >&2
        exit 1
    fi
fi
command -v node >/dev/null 2>&1 || { echo "error: the browser tests need Node.js 20 or later (node)" >&2; exit 1; }

(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)

# scripts/test.sh's `cargo test --workspace --release` has just built it.
if [ -z "${ARCADE_CLI_FRESH:-}" ] || [ ! -x target/release/arcade ]; then
    cargo build --release -p arcade --quiet
fi

# A free loopback port: bind port 0 and let the server say which it got.
rm -rf target/browser-failures
log=$(mktemp)
target/release/arcade serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 100); do
    url=$(grep -o 'http://[0-9.:]*/' "$log" || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; echo "error: arcade serve did not start" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { echo "error: arcade serve printed no URL in 10 s" >&2; exit 1; }

status=0
ARCADE_URL=$url ARCADE_BIN=$root/target/release/arcade ARCADE_FAILURES=$root/target/browser-failures \
    node --test --test-concurrency=1 --test-timeout=120000 tests/browser/ || status=$?
if [ "$status" != 0 ] && [ -d target/browser-failures ]; then
    echo "screenshots of the failing pages: target/browser-failures/" >&2
fi
exit "$status"
