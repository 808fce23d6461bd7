#!/usr/bin/env bash
# Rolling median: arcade's batch `rolling_median` against
# `bottleneck.move_median`, in one run, on the same data (2,000,000 uniform
# random floats and the same values sorted; k = 3, 101, 1001, 10001, 100001).
# Prints k, input, elements/s of each and the ratio, and checks that both
# give the same medians (also on data with NaNs, against min_count=1).
#
# Usage: bench/median/run.sh [--n N] [--windows K,K,...] [--rounds R] [--repeats R] [--seed S]
#                            [--inputs uniform,sorted,reversed]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../venv.sh" numpy bottleneck
cd "$ROOT"
cargo build --release --quiet -p arcade-signal --example median_bench
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/median_bench"
exec "$PYTHON" "$HERE/compare.py" --arcade "$BIN" "$@"
