"""``arcadekit.move_median`` against ``bottleneck.move_median`` on the same
arrays, k = 3 … 100,001: best of ``--repeats`` runs each, one thread each
(a 1-D array is one row). Prints a Markdown table with the ratio. The clock
is the process's CPU time by default (``--clock cpu``: steady on a machine
shared with other work, where wall time moves by ±30%), or ``--clock wall``.

    python python/bench/median.py [--n 1000000] [--repeats 3] [--sorted]"""

import argparse
import time

import bottleneck as bn
import numpy as np

import arcadekit as ak


def best(f, repeats, clock):
    times = []
    for _ in range(repeats):
        t = clock()
        f()
        times.append(clock() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--nan-share", type=float, default=0.0)
    ap.add_argument("--sorted", action="store_true", help="sorted input instead of random")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    a = ap.parse_args()
    clock = time.process_time if a.clock == "cpu" else time.perf_counter
    rng = np.random.default_rng(0)
    x = rng.normal(size=a.n)
    if a.sorted:
        x.sort()
    if a.nan_share:
        x[rng.random(a.n) < a.nan_share] = np.nan
    print(f"n = {a.n:,}, NaN share {a.nan_share}, sorted {a.sorted}, {a.clock} time\n")
    print("| k | bottleneck (s) | arcadekit (s) | ratio |\n|---:|---:|---:|---:|")
    for k in [3, 5, 10, 16, 17, 20, 24, 30, 32, 33, 48, 64, 100, 300, 1_001, 10_001, 100_001]:
        ours = ak.move_median(x, k, 1)
        ref = bn.move_median(x, k, 1)
        np.testing.assert_array_equal(ours, ref)
        tb = best(lambda: bn.move_median(x, k, 1), a.repeats, clock)
        ta = best(lambda: ak.move_median(x, k, 1), a.repeats, clock)
        print(f"| {k:,} | {tb:.4f} | {ta:.4f} | {tb / ta:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
