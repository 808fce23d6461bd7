"""Sharded benchmarks: a run split into seed ranges, one Ray task each,
merged exactly (the Rust side merges the integer partials) into the report
the CLI prints with ``--json``."""

from __future__ import annotations

import json
import time
from typing import Callable, Optional

from .._native import native as _arcadekit
from .cluster import connect
from .progress import Bar
from .store import ShardStore

#: The benchmarks that shard, and the CLI command each equals.
KINDS = {
    "mines-bench": "arcade mines bench",
    "tetris-bench": "arcade tetris bench",
    "tiles-bench": "arcade tiles bench",
    "flappy-eval": "arcade flappy eval",
    "mines-battle": "arcade mines battle",
}

#: Retries of a shard whose task raised or whose worker died.
MAX_RETRIES = 3

_remote = None


def _play_task():
    """The Ray task playing one shard (made on first use, so importing this
    module does not import Ray)."""
    global _remote
    if _remote is None:
        import ray

        @ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=True)
        def play(kind, spec, start, end, threads, on_shard):
            if on_shard is not None:
                on_shard(start, end)
            return start, _arcadekit.shard_run(kind, spec, start, end, threads)

        _remote = play
    return _remote


def plan(units: int, shard_size: int):
    """The ranges ``[start, end)`` of shards of ``shard_size`` covering ``0..units``."""
    return [(s, min(s + shard_size, units)) for s in range(0, units, shard_size)]


#: Shards per CPU by default: at the end of a run a CPU waits for at most
#: one shard of another, so more shards leave less idle; each costs Ray
#: about 6 ms (docs/results/cluster.md).
SHARDS_PER_CPU = 32


def default_shard_size(units: int, cpus: int) -> int:
    """:data:`SHARDS_PER_CPU` shards per CPU, never fewer than one game per
    shard."""
    return max(1, -(-units // (SHARDS_PER_CPU * max(cpus, 1))))


def run_bench(
    kind: str,
    spec: dict,
    *,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    shard_size: Optional[int] = None,
    threads_per_task: int = 1,
    store: Optional[str] = None,
    progress: bool = True,
    on_shard: Optional[Callable[[int, int], None]] = None,
) -> dict:
    """Runs benchmark ``kind`` (a key of :data:`KINDS`) with ``spec`` (the
    CLI's options as a dict, e.g. ``{"level": "expert", "games": 200000,
    "seed": 1}``) on the Ray cluster at ``address`` (None: a local cluster of
    ``num_cpus`` CPUs) and returns the report ``arcade ... --json`` prints
    for the same options: equal on every count and mean; ``seconds`` is the
    wall time here and ``threads`` the CPUs the tasks used.

    ``store``: a JSON-lines file of finished shards; run again with the same
    arguments after an interruption and only the missing shards are played.
    ``on_shard(start, end)`` is called in the worker before each shard (a
    hook for fault-injection tests). Raises ``ValueError`` with one line for
    a bad spec, :class:`~arcadekit.distributed.ClusterError` for a bad
    address."""
    if kind not in KINDS:
        raise ValueError(f"unknown benchmark {kind!r} (expected one of {', '.join(KINDS)})")
    spec_text = json.dumps(spec, sort_keys=True)
    units = _arcadekit.shard_units(kind, spec_text)
    if shard_size is not None and shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, found {shard_size}")
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task must be at least 1, found {threads_per_task}")
    cpus = connect(address, num_cpus)
    size = shard_size or default_shard_size(units, cpus // threads_per_task)
    header = {"kind": kind, "spec": spec, "shard_size": size, "units": units}
    shards = ShardStore(store, json.loads(json.dumps(header)))
    try:
        return _run(kind, spec_text, units, size, threads_per_task, cpus, shards, progress, on_shard)
    finally:
        shards.close()


def _run(kind, spec_text, units, size, threads, cpus, shards, progress, on_shard):
    import ray

    todo = [(s, e) for s, e in plan(units, size) if s not in shards.shards]
    bar = Bar(units, "games" if kind != "flappy-eval" else "episodes", show=progress, done=units - sum(e - s for s, e in todo))
    task = _play_task().options(num_cpus=threads)
    spec_ref = ray.put(spec_text)
    started = time.monotonic()
    pending = {task.remote(kind, spec_ref, s, e, threads, on_shard): e - s for s, e in todo}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                start, shard = ray.get(ref)
                shards.add(start, shard)
                bar.update(pending.pop(ref))
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    finally:
        bar.close()
    seconds = time.monotonic() - started
    used = min(cpus // threads or 1, len(plan(units, size))) * threads
    return json.loads(_arcadekit.shard_report(kind, spec_text, shards.done(), seconds, used))
