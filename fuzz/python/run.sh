#!/usr/bin/env bash
# Runs the atheris targets of fuzz/python/fuzz_arcadekit.py (arcadekit's
# Python inputs) for a fixed time each and prints a table.
#
#   fuzz/python/run.sh [--native] [SECONDS_PER_TARGET] [TARGET...]
#
# Default: uses target/venv with arcadekit installed (scripts/test-python.sh
# makes it) and installs atheris there; coverage is that of arcadekit's
# Python code. --native builds the extension with libFuzzer's coverage
# instrumentation (sancov: 8-bit counters, PC table, comparisons) into its own
# target/fuzz-python and venv target/fuzz-venv, so the Rust code's edges
# guide the fuzzer too (a full build: a few minutes), with Debian's libFuzzer
# (libclang-rt-14-dev) preloaded. Each target fuzzes a scratch copy of its seed corpus
# (fuzz/python/corpus/TARGET, when there is one). Findings are copied to
# fuzz/artifacts/python-TARGET/. Exits 1 on a finding, 2 on a usage error.
set -euo pipefail

ATHERIS_VERSION=3.0.0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
harness="$here/fuzz_arcadekit.py"
native=0
if [ "${1:-}" = "--native" ]; then
    native=1
    shift
fi

seconds=${1:-60}
[ $# -gt 0 ] && shift
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: fuzz/python/run.sh [SECONDS_PER_TARGET] [TARGET...] (seconds: a whole number >= 1, got '$seconds')" >&2
    exit 2
fi
all=(move_median sketch mines_grid envs texts)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
    if [[ ! " ${all[*]} " == *" $t "* ]]; then
        echo "fuzz/python/run.sh: unknown target '$t' (targets: ${all[*]})" >&2
        exit 2
    fi
done
preload=""
if [ "$native" = 1 ]; then
    venv="$root/target/fuzz-venv"
    py="$venv/bin/python"
    out="$root/target/fuzz-python"
    [ -x "$py" ] || python3 -m venv "$venv"
    "$py" -m pip install -q --disable-pip-version-check "maturin>=1.9,<2" numpy bottleneck \
        "gymnasium>=1.0" "atheris==$ATHERIS_VERSION"
    # A plain libFuzzer to preload: the extension's hooks resolve to it, and
    # atheris, finding it, runs on it (the one bundled in atheris's wheel
    # keeps its symbols to itself). Debian's clang runtime has it.
    archive=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a
    if [ ! -f "$archive" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            apt-get install -y -qq libclang-rt-14-dev >/dev/null
        else
            echo "error: --native needs Debian's libclang-rt-14-dev (libFuzzer): apt-get install libclang-rt-14-dev" >&2
            exit 1
        fi
    fi
    mkdir -p "$out"
    preload="$out/libfuzzer.so"
    gcc -shared -o "$preload" -Wl,--whole-archive "$archive" -Wl,--no-whole-archive -lstdc++ -lpthread -lm
    echo "building arcadekit with coverage instrumentation ($out)" >&2
    # RUSTFLAGS replaces .cargo/config.toml's flags, so it repeats target-cpu.
    # An explicit --target keeps them off build scripts and proc macros,
    # which run in cargo without libFuzzer to call. A wheel, not `develop`:
    # the instrumented library must not replace target/venv's in python/.
    host=$(rustc -vV | sed -n 's/^host: //p')
    rm -rf "$out/wheels"
    (cd "$root" && CARGO_TARGET_DIR="$out" \
        RUSTFLAGS="-C target-cpu=x86-64-v2 -C passes=sancov-module -C llvm-args=-sanitizer-coverage-level=3 -C llvm-args=-sanitizer-coverage-inline-8bit-counters -C llvm-args=-sanitizer-coverage-pc-table -C llvm-args=-sanitizer-coverage-trace-compares" \
        nice -n 19 "$venv/bin/maturin" build --release -q --target "$host" -i "$py" -o "$out/wheels")
    "$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$out"/wheels/arcadekit-*.whl
else
    py="$root/target/venv/bin/python"
    if ! "$py" -c 'import arcadekit' 2>/dev/null; then
        echo "error: $py cannot import arcadekit: run scripts/test-python.sh first" >&2
        exit 1
    fi
    if ! "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('atheris') != '$ATHERIS_VERSION')" 2>/dev/null; then
        echo "installing atheris $ATHERIS_VERSION into target/venv" >&2
        "$py" -m pip install -q --disable-pip-version-check "atheris==$ATHERIS_VERSION"
    fi
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/arcadekit-fuzz.XXXXXX")
rows=()
failed=0
for t in "${targets[@]}"; do
    corpus="$scratch/corpus/$t"
    found="$scratch/artifacts/$t"
    mkdir -p "$corpus" "$found"
    cp -R "$here/corpus/$t/." "$corpus/" 2>/dev/null || true
    log="$scratch/$t.log"
    echo "fuzzing $t for ${seconds}s" >&2
    set +e
    nice -n 19 env LD_PRELOAD="$preload" RAYON_NUM_THREADS=1 "$py" "$harness" "$t" -max_total_time="$seconds" -timeout=20 \
        -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$found/" "$corpus" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
    stats=$(grep -E '^#[0-9]+.*cov: [0-9]+' "$log" | tail -1 || true)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$stats" | grep -oE '[0-9]+' || true)
    ft=$(grep -oE 'ft: [0-9]+' <<<"$stats" | grep -oE '[0-9]+' || true)
    crashes=$(find "$found" -type f | wc -l)
    if [ "$crashes" -gt 0 ] || [ "$rc" -ne 0 ]; then
        failed=1
        mkdir -p "$root/fuzz/artifacts/python-$t"
        cp "$found"/* "$root/fuzz/artifacts/python-$t/" 2>/dev/null || true
        echo "  $t: exit $rc; log: $log" >&2
        grep -m1 -B2 -A8 -E "Uncaught Python exception|AssertionError|ERROR: libFuzzer" "$log" | sed 's/^/    /' >&2 || tail -5 "$log" | sed 's/^/    /' >&2
        [ "$crashes" -gt 0 ] || crashes=error
    fi
    rows+=("$(printf '| %-12s | %10s | %6s | %6s | %7s |' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes")")
done

echo
echo "atheris, ${seconds} s per target, $([ "$native" = 1 ] && echo "Rust and Python coverage" || echo "Python coverage") (logs in $scratch)"
echo
printf '| %-12s | %10s | %6s | %6s | %7s |\n' target executions cov ft crashes
printf '|%s|%s|%s|%s|%s|\n' -------------- -----------: -------: -------: --------:
printf '%s\n' "${rows[@]}"
rm -rf "$scratch/corpus"
exit "$failed"
