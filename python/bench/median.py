"""``arcadekit.move_median`` against ``bottleneck.move_median`` on the same
arrays, k = 3 … 100,001: best of ``--repeats`` runs each, one thread each
(a 1-D array is one row). Prints a Markdown table with the ratio.

    python python/bench/median.py [--n 1000000] [--repeats 3]"""

import argparse
import time

import bottleneck as bn
import numpy as np

import arcadekit as ak


def best(f, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--nan-share", type=float, default=0.0)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    x = rng.normal(size=a.n)
    if a.nan_share:
        x[rng.random(a.n) < a.nan_share] = np.nan
    print(f"n = {a.n:,}, NaN share {a.nan_share}\n")
    print("| k | bottleneck (s) | arcadekit (s) | ratio |\n|---:|---:|---:|---:|")
    for k in [3, 5, 10, 16, 17, 30, 100, 300, 1_001, 10_001, 100_001]:
        ours = ak.move_median(x, k, 1)
        ref = bn.move_median(x, k, 1)
        np.testing.assert_array_equal(ours, ref)
        tb = best(lambda: bn.move_median(x, k, 1), a.repeats)
        ta = best(lambda: ak.move_median(x, k, 1), a.repeats)
        print(f"| {k:,} | {tb:.4f} | {ta:.4f} | {tb / ta:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
