"""Ray's fixed costs on a local cluster of 2 CPUs, for the scaling estimates
of docs/results/cluster.md: the round trip of one empty task (in sequence),
the throughput of many empty tasks (in flight together), the cost of one
shard_run call of one game, and moving a beam-sized object between
processes.

    target/venv/bin/python bench/cluster/overhead.py
"""

import json
import os
import statistics
import time

import ray

from arcadekit import _arcadekit


@ray.remote(num_cpus=1)
def empty():
    return None


@ray.remote(num_cpus=1)
def size_of(blob):
    return len(blob)


@ray.remote(num_cpus=1)
def one_game(spec):
    return _arcadekit.shard_run("mines-bench", spec, 0, 1, 1)


def median_ms(f, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.get([empty.remote() for _ in range(20)])  # start the workers
    spec = json.dumps({"level": "expert", "games": 1, "seed": 1})
    ray.get(one_game.remote(spec))
    print(f"load {os.getloadavg()[0]:.2f}")
    print(f"empty task round trip: median {median_ms(lambda: ray.get(empty.remote()), 200):.2f} ms")
    t = time.perf_counter()
    ray.get([empty.remote() for _ in range(2000)])
    print(f"2000 empty tasks in flight: {1e6 * (time.perf_counter() - t) / 2000:.0f} us per task")
    print(f"one expert game as a task (shard_run 0..1): median {median_ms(lambda: ray.get(one_game.remote(spec)), 50):.2f} ms")
    print(f"one expert game in process: median {median_ms(lambda: _arcadekit.shard_run('mines-bench', spec, 0, 1, 1), 50):.2f} ms")
    for mb in (8, 80):
        blob = os.urandom(mb << 20)
        print(f"{mb} MB to a task and its length back: median "
              f"{median_ms(lambda: ray.get(size_of.remote(blob)), 10):.1f} ms")
    ray.shutdown()


if __name__ == "__main__":
    main()
