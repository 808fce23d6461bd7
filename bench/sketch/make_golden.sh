#!/usr/bin/env bash
# Regenerates the golden images of crates/sketch/tests/data with NumPy and
# Pillow (in the shared benchmark virtual environment).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../venv.sh" numpy pillow
cd "$HERE"
"$PYTHON" make_golden.py "$ROOT/crates/sketch/tests/data"
