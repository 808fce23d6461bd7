"""Times arcade's rolling median (the median_bench example, a separate
process reading the same bytes) and bottleneck.move_median on identical
data, and checks that their outputs agree. Run through run.sh."""

import argparse
import os
import subprocess
import tempfile
import time

import bottleneck as bn
import numpy as np


MIN_SECONDS = 0.5


def arcade(binary, path, k, repeats, out_path):
    """Best elements/s of arcade on the f64 file `path`: at least `repeats`
    runs, and as many as fit in half a second."""
    line = subprocess.run(
        [binary, path, str(k), "auto", str(repeats), out_path],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    return float(line[4]), np.fromfile(out_path, dtype="<f8")


def bottleneck(data, k, repeats, min_count=None):
    """Best elements/s of at least `repeats` runs and of as many as fit in
    half a second (as the arcade side does)."""
    best, out, runs, started = float("inf"), None, 0, time.perf_counter()
    while runs < repeats or time.perf_counter() - started < MIN_SECONDS:
        runs += 1
        t = time.perf_counter()
        out = bn.move_median(data, k, min_count=min_count)
        best = min(best, time.perf_counter() - t)
    return len(data) / best, out


def same(arcade_out, bn_out, k):
    """bottleneck returns n values, NaN for the first k-1 (incomplete)."""
    return np.array_equal(arcade_out, bn_out[k - 1:], equal_nan=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arcade", required=True)
    p.add_argument("--n", type=int, default=2_000_000)
    p.add_argument("--windows", default="3,101,1001,10001,100001")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per round")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--inputs", default="uniform,sorted",
                   help="of uniform, sorted, reversed (the sorted values backwards)")
    args = p.parse_args()
    windows = [int(k) for k in args.windows.split(",")]

    rng = np.random.default_rng(args.seed)
    uniform = rng.random(args.n)
    with_nans = uniform.copy()
    with_nans[rng.random(args.n) < 0.01] = np.nan
    all_inputs = {"uniform": uniform, "sorted": np.sort(uniform), "reversed": np.sort(uniform)[::-1].copy()}
    inputs = {kind: all_inputs[kind] for kind in args.inputs.split(",")}

    print(f"n = {args.n:,}, best of {args.rounds} alternating rounds x {args.repeats} runs, single thread")
    print(f"{'k':>7}  {'input':<8} {'arcade el/s':>14} {'bottleneck el/s':>16} {'ratio':>7}")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "out.f64")
        for k in windows:
            for kind, data in inputs.items():
                path = os.path.join(tmp, f"{kind}.f64")
                if not os.path.exists(path):
                    data.astype("<f8").tofile(path)
                # Alternate the two so a burst of load elsewhere on the
                # machine hits both; keep the best of every round.
                a_rate = b_rate = 0.0
                for _ in range(args.rounds):
                    a, a_out = arcade(args.arcade, path, k, args.repeats, out_path)
                    b, b_out = bottleneck(data, k, args.repeats)
                    a_rate, b_rate = max(a_rate, a), max(b_rate, b)
                if not same(a_out, b_out, k):
                    raise SystemExit(f"outputs differ: k={k} input={kind}")
                ratios.append(a_rate / b_rate)
                print(f"{k:>7}  {kind:<8} {a_rate:>14,.0f} {b_rate:>16,.0f} {a_rate / b_rate:>6.2f}x", flush=True)
        # NaN policy: arcade skips NaNs like bottleneck with min_count=1.
        path = os.path.join(tmp, "nans.f64")
        with_nans.astype("<f8").tofile(path)
        for k in windows:
            _, a_out = arcade(args.arcade, path, k, 1, out_path)
            _, b_out = bottleneck(with_nans, k, 1, min_count=1)
            if not same(a_out, b_out, k):
                raise SystemExit(f"outputs differ on data with NaNs: k={k}")
    print(f"outputs identical to bottleneck's (and to move_median(min_count=1) with 1% NaNs)")
    print(f"min ratio {min(ratios):.2f}x, geometric mean {np.exp(np.mean(np.log(ratios))):.2f}x")


if __name__ == "__main__":
    main()
