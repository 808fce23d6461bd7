"""Ray's overhead on this machine (issue 34): the same benchmark run by the
local CLI (`--threads N`) and by arcadekit.distributed on a local Ray cluster
of N CPUs, alternately, R times; prints each wall time, the medians, the
overhead in % and whether the merged figures equal the CLI's.

    target/venv/bin/python bench/cluster/scaling.py mines --games 200000 --repeat 1
    target/venv/bin/python bench/cluster/scaling.py tetris --games 1000 --repeat 3

Ray's wall time is that of `run_bench` in a cluster already started (start-up,
about 10 s, is reported apart): the cost of the shards' tasks, their
scheduling and the merge. Each Ray run is a fresh process with its own
cluster, so the N=1 and N=2 clusters do not share workers.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARCADE = os.path.join(ROOT, "target", "release", "arcade")
TIMING = {"seconds", "threads", "games_per_sec", "pieces_per_sec", "frames_per_sec"}

SETUPS = {
    "mines": ("mines-bench", lambda g: {"level": "expert", "games": g, "seed": 1},
              lambda g: ["mines", "bench", "--level", "expert", "--games", str(g), "--seed", "1"]),
    "tetris": ("tetris-bench", lambda g: {"ai": "bcts", "board": "10x10", "games": g, "seed": 1},
               lambda g: ["tetris", "bench", "--ai", "bcts", "--board", "10x10", "--games", str(g), "--seed", "1"]),
}

RAY_CHILD = """
import json, sys, time
t0 = time.monotonic()
from arcadekit.distributed import connect, run_bench
kind, spec, cpus, per_task = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
connect(num_cpus=cpus)
# Start the workers before timing: a tiny run of the same benchmark.
run_bench(kind, {**spec, "games": 2 * cpus}, progress=False, threads_per_task=per_task)
started = time.monotonic() - t0
report = run_bench(kind, spec, progress=False, threads_per_task=per_task)
print(json.dumps({"report": report, "startup": started}))
"""


def local(args, threads):
    out = subprocess.run([ARCADE, *args, "--threads", str(threads), "--json"], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def on_ray(kind, spec, cpus, per_task):
    out = subprocess.run([sys.executable, "-c", RAY_CHILD, kind, json.dumps(spec), str(cpus), str(per_task)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def untimed(r):
    return {k: v for k, v in r.items() if k not in TIMING}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=SETUPS)
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--workers", type=lambda t: [int(v) for v in t.split(",")], default=[1, 2],
                   help="thread / worker counts to compare, e.g. 2 [1,2]")
    p.add_argument("--threads-per-task", type=int, default=1,
                   help="Rust threads per Ray task (N / this tasks at once) [1]")
    a = p.parse_args()
    kind, spec_of, cli_of = SETUPS[a.game]
    spec, cli = spec_of(a.games), cli_of(a.games)
    times = {(w, n): [] for w in ("local", "ray") for n in a.workers}
    reference, equal = None, True
    for r in range(a.repeat):
        for n in a.workers:
            rep = local(cli, n)
            times[("local", n)].append(rep["seconds"])
            reference = reference or untimed(rep)
            equal &= untimed(rep) == reference
            ray = on_ray(kind, spec, n, min(a.threads_per_task, n))
            times[("ray", n)].append(ray["report"]["seconds"])
            equal &= untimed(ray["report"]) == reference
            print(f"run {r + 1}: {n} thread(s) local {rep['seconds']:.2f} s, ray {ray['report']['seconds']:.2f} s "
                  f"(ray start-up {ray['startup']:.1f} s); load {os.getloadavg()[0]:.2f}", flush=True)
    for n in a.workers:
        lo, ra = statistics.median(times[("local", n)]), statistics.median(times[("ray", n)])
        print(f"{n} worker(s): local median {lo:.2f} s, ray median {ra:.2f} s, overhead {100 * (ra / lo - 1):+.1f}%")
    print("merged figures equal the CLI's:", equal)
    print("reference:", json.dumps(reference))


if __name__ == "__main__":
    main()
