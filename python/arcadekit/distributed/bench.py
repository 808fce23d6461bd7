"""Sharded benchmarks: a run split into seed ranges, one Ray task each,
merged exactly (the Rust side merges the integer partials) into the report
the CLI prints with ``--json``."""

from __future__ import annotations

import json
import math
import os
import time
from typing import Any, Callable, Dict, Optional

from .._native import native as _arcadekit
from .cluster import cancelling, check_cpus, connect
from .progress import Bar
from .store import ShardStore, stored_header

#: The benchmarks that shard, and the CLI command each equals.
KINDS = {
    "mines-bench": "arcade mines bench",
    "tetris-bench": "arcade tetris bench",
    "tiles-bench": "arcade tiles bench",
    "flappy-eval": "arcade flappy eval",
    "mines-battle": "arcade mines battle",
}

#: Retries of a shard whose worker died. An exception a shard raises is not
#: retried: the same games raise it again.
MAX_RETRIES = 3

#: Most shards in a run: each costs Ray about 6 ms and the driver a little
#: memory, so a shard size of one game over a huge run is refused.
MAX_SHARDS = 10_000_000

#: Spec options that name a file the workers read.
FILE_OPTIONS = ("ai", "policy", "init")

_remote = None


def _play_task():
    """The Ray task playing one shard (made on first use, so importing this
    module does not import Ray)."""
    global _remote
    if _remote is None:
        import ray

        @ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)
        def play(kind, spec, start, end, threads, on_shard):
            if on_shard is not None:
                on_shard(start, end)
            return start, _arcadekit.shard_run(kind, spec, start, end, threads)

        _remote = play
    return _remote


def plan(units: int, shard_size: int):
    """The ranges ``[start, end)`` of shards of ``shard_size`` covering ``0..units``."""
    return [(s, min(s + shard_size, units)) for s in range(0, units, shard_size)]


def with_absolute_paths(spec: dict) -> dict:
    """``spec`` with relative file paths made absolute: the workers run in
    Ray's directory, not this one. A built-in name (no ``/``, no ``.json``)
    is left as it is."""
    out = dict(spec)
    for key in FILE_OPTIONS:
        value = out.get(key)
        if isinstance(value, str) and ("/" in value or value.endswith(".json")) and not os.path.isabs(value):
            out[key] = os.path.abspath(value)
    return out


def spec_json(spec: dict) -> str:
    """``spec`` as the JSON the engines read: a NaN or infinity, which JSON
    cannot hold, is refused naming its option rather than sent as text
    the engines cannot parse."""
    for key, value in spec.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{key} must be a finite number, got {value!r}")
    return json.dumps(spec, sort_keys=True)


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
    a bad spec (``TypeError`` for one that is not a dict),
    :class:`~arcadekit.distributed.ClusterError` for a bad address."""
    if kind not in KINDS:
        raise ValueError(f"unknown benchmark {kind!r} (expected one of {', '.join(KINDS)})")
    if not isinstance(spec, dict):
        raise TypeError(f"spec must be a dict of the CLI's options, not {type(spec).__name__}")
    spec = with_absolute_paths(spec)
    spec_text = spec_json(spec)
    units = _arcadekit.shard_units(kind, spec_text)
    if shard_size is not None and shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, found {shard_size}")
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task must be at least 1, found {threads_per_task}")
    # Every option spelled out, so that `games=100` given or left to its
    # default is one run.
    header = {"kind": kind, "spec": json.loads(_arcadekit.shard_spec(kind, spec_text)), "units": units}
    earlier = stored_header(store)
    if earlier is not None and _same_run(earlier, header):
        # A store written before specs were spelled out keeps its spelling.
        header["spec"] = earlier["spec"]
        if shard_size is None:
            # Resume in the store's shards, whatever the CPU count is now.
            shard_size = earlier["shard_size"]
    if shard_size is not None and -(-units // shard_size) > MAX_SHARDS:
        raise ValueError(f"{units} games in shards of {shard_size} make more than {MAX_SHARDS} shards: "
                         "choose a larger shard size")
    cpus = connect(address, num_cpus)
    check_cpus(cpus, threads_per_task)
    size = shard_size or default_shard_size(units, cpus // threads_per_task)
    header = {**header, "shard_size": size, "version": _arcadekit.__version__}
    shards = ShardStore(store, json.loads(json.dumps(header)), lambda line: _arcadekit.shard_check(kind, spec_text, line))
    try:
        return _run(kind, spec_text, units, size, threads_per_task, cpus, shards, progress, on_shard)
    finally:
        shards.close()


def _same_run(stored: dict, header: dict) -> bool:
    """Whether a store's header is of this run, whatever its shard size and
    however its spec is spelled."""
    try:
        spec = json.loads(_arcadekit.shard_spec(header["kind"], json.dumps(stored.get("spec"))))
    except (TypeError, ValueError):
        return False
    return all(({**stored, "spec": spec}).get(k) == v for k, v in header.items())


#: Rate fields of the reports, which a resumed run's report computes from the
#: games of this session only.
RATES = ("games_per_sec", "pieces_per_sec", "frames_per_sec")


def _run(kind, spec_text, units, size, threads, cpus, shards, progress, on_shard):
    import ray

    stored = sum(shard["end"] - shard["start"] for shard in map(json.loads, shards.done()))
    bar = Bar(units, "games" if kind != "flappy-eval" else "episodes", show=progress, done=stored)
    task = _play_task().options(num_cpus=threads)
    spec_ref = ray.put(spec_text)
    # Shards are submitted as earlier ones finish, a few per CPU at a time,
    # so the driver's memory does not grow with the number of shards.
    window = 4 * max(1, cpus // threads)
    todo = ((s, min(s + size, units)) for s in range(0, units, size) if s not in shards.shards)
    started = time.monotonic()
    pending: Dict[Any, int] = {}  # a shard task → its units
    with cancelling(pending, bar):
        while True:
            for s, e in todo:
                pending[task.remote(kind, spec_ref, s, e, threads, on_shard)] = e - s
                if len(pending) >= window:
                    break
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                start, shard = ray.get(ref)
                shards.add(start, shard)
                bar.update(pending.pop(ref))
    seconds = time.monotonic() - started
    used = min(cpus // threads or 1, -(-units // size)) * threads
    report = json.loads(_arcadekit.shard_report(kind, spec_text, shards.done(), seconds, used))
    if stored:
        # The time is this session's: so are the rates, scaled to its share of the games.
        share = (units - stored) / units
        for key in RATES:
            if isinstance(report.get(key), (int, float)):
                report[key] *= share
        report["resumed_games"] = stored
    return report
