#!/usr/bin/env bash
# The Python package's tests: makes target/venv (Python 3.9+ with venv),
# installs maturin and the test dependencies from PyPI, builds arcadekit into
# it with `maturin develop --release` (reusing the workspace target/), builds
# the `arcade` binary the determinism tests compare against, and runs pytest.
# Never skips: a missing tool is an error that says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV=target/venv

need_python() {
    if ! command -v "$PYTHON" >/dev/null 2>&1 || ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "== installing python3 and python3-venv (apt-get)"
            apt-get update -qq && apt-get install -y -qq python3 python3-venv python3-dev >/dev/null
        else
            echo "error: scripts/test-python.sh needs Python 3.9+ with venv (Debian: apt-get install python3 python3-venv)" >&2
            exit 1
        fi
    fi
}

need_python
if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"
echo "== installing maturin and the test dependencies"
"$PY" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
"$PY" -m pip install -q --disable-pip-version-check \
    "maturin>=1.9,<2" "gymnasium>=1.0" "pettingzoo>=1.24" numpy bottleneck pytest mypy
# arcadekit.distributed's tests start a local Ray cluster (python/tests/test_distributed.py).
"$PY" -m pip install -q --disable-pip-version-check "ray[tune]>=2.9" tqdm

if [ -z "${ARCADE_CLI_FRESH:-}" ] || [ ! -x target/release/arcade ]; then
    echo "== cargo build --release -p arcade (the CLI the tests compare with)"
    cargo build --release -p arcade
fi

echo "== maturin develop --release"
VIRTUAL_ENV="$PWD/$VENV" PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/maturin" develop --release -q

echo "== pytest"
"$PY" -m pytest -q python/tests "$@"
