#!/usr/bin/env bash
# Runs the cargo-fuzz targets for a fixed time each and prints a table.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#
# SECONDS_PER_TARGET defaults to 60; no TARGET means every target. Each
# target fuzzes a scratch copy of its seed corpus (fuzz/corpus/TARGET stays
# as committed), nice'd, one target at a time. Crash reproducers are copied
# to fuzz/artifacts/TARGET/. Exits 1 if any target crashed (or found a
# timeout or an out-of-memory input), 2 on a usage error.
#
# Environment: FUZZ_SANITIZER (default none; `address` for ASan),
# FUZZ_JOBS (cargo build jobs, default 1), FUZZ_KEEP_CORPUS=1 keeps the
# evolved scratch corpora (their path is printed).
set -euo pipefail

CARGO_FUZZ_VERSION=0.13.2
fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$fuzz_dir")

seconds=${1:-60}
[ $# -gt 0 ] && shift
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...] (seconds: a whole number >= 1, got '$seconds')" >&2
    exit 2
fi
all=()
for f in "$fuzz_dir"/fuzz_targets/*.rs; do
    all+=("$(basename "$f" .rs)")
done
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
    if [ ! -f "$fuzz_dir/fuzz_targets/$t.rs" ]; then
        echo "fuzz/run.sh: unknown target '$t' (targets: ${all[*]})" >&2
        exit 2
    fi
done

# cargo-fuzz passes unstable flags to rustc; the stable toolchain accepts
# them with RUSTC_BOOTSTRAP. One rayon thread keeps a run on one core.
export RUSTC_BOOTSTRAP=1 RAYON_NUM_THREADS=1 CARGO_BUILD_JOBS="${FUZZ_JOBS:-1}"
if ! cargo fuzz --version 2>/dev/null | grep -qF "$CARGO_FUZZ_VERSION"; then
    echo "installing cargo-fuzz $CARGO_FUZZ_VERSION" >&2
    nice -n 19 cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

sanitizer=${FUZZ_SANITIZER:-none}
flags=(--release --debug-assertions --sanitizer "$sanitizer" --fuzz-dir "$fuzz_dir")
cd "$root"
echo "building the fuzz targets (sanitizer: $sanitizer)" >&2
if [ ${#targets[@]} -eq ${#all[@]} ]; then
    nice -n 19 cargo fuzz build "${flags[@]}"
else
    for t in "${targets[@]}"; do
        nice -n 19 cargo fuzz build "${flags[@]}" "$t"
    done
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/arcade-fuzz.XXXXXX")
rows=()
failed=0
for t in "${targets[@]}"; do
    corpus="$scratch/corpus/$t"
    found="$scratch/artifacts/$t"
    mkdir -p "$corpus" "$found"
    cp -R "$fuzz_dir/corpus/$t/." "$corpus/" 2>/dev/null || true
    log="$scratch/$t.log"
    echo "fuzzing $t for ${seconds}s" >&2
    set +e
    nice -n 19 cargo fuzz run "${flags[@]}" "$t" "$corpus" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$found/" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
    stats=$(grep -E '^#[0-9]+.*cov: [0-9]+' "$log" | tail -1 || true)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$stats" | grep -oE '[0-9]+' || true)
    ft=$(grep -oE 'ft: [0-9]+' <<<"$stats" | grep -oE '[0-9]+' || true)
    if [ -z "$execs" ]; then
        execs=$(grep -oE '^#[0-9]+' <<<"$stats" | tr -d '#' || true)
    fi
    crashes=$(find "$found" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
    if [ "$crashes" -gt 0 ]; then
        mkdir -p "$fuzz_dir/artifacts/$t"
        cp "$found"/* "$fuzz_dir/artifacts/$t/"
        failed=1
        echo "  $t: $(grep -m1 -E "panicked at|ERROR: libFuzzer" "$log" || echo 'see the log')" >&2
        grep -m1 -A2 "panicked at" "$log" | tail -n +2 | sed 's/^/    /' >&2 || true
        for f in "$found"/*; do echo "    reproducer: fuzz/artifacts/$t/$(basename "$f")" >&2; done
    elif [ "$rc" -ne 0 ] || [ -z "$stats" ]; then
        failed=1
        crashes="error"
        echo "  $t: the run failed (exit $rc); log: $log" >&2
        tail -5 "$log" | sed 's/^/    /' >&2
    fi
    rows+=("$(printf '| %-16s | %12s | %6s | %6s | %7s |' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes")")
done

echo
echo "fuzzing, ${seconds} s per target (logs in $scratch)"
echo
printf '| %-16s | %12s | %6s | %6s | %7s |\n' target executions cov ft crashes
printf '|%s|%s|%s|%s|%s|\n' ------------------ -------------: -------: -------: --------:
printf '%s\n' "${rows[@]}"
if [ "${FUZZ_KEEP_CORPUS:-0}" != 1 ]; then
    rm -rf "$scratch/corpus"
fi
exit "$failed"
