#!/usr/bin/env bash
# Pencil sketch: arcade's filter against the NumPy recipe, in one run. First
# remakes the golden test images with NumPy and checks them against the
# committed ones and arcade's output (±1 per pixel), then times both on a
# generated 3840x2160 photo (decode and encode not timed).
#
# Usage: bench/sketch/run.sh [--width W] [--height H] [--repeats R] [--seed S]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../venv.sh" numpy pillow
cd "$ROOT"
cargo build --release --quiet -p arcade-sketch --example sketch_bench
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/sketch_bench"
cd "$HERE"
exec "$PYTHON" compare.py --arcade "$BIN" --golden-dir "$ROOT/crates/sketch/tests/data" "$@"
