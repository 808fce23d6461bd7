"""Distributed tuning: the library's optimizer (CEM, DE or PSO, its state in
the CLI's checkpoint format) asks for a generation's candidates, their
fitness evaluations run as Ray tasks, and the scores are told back, so a run
here equals ``arcade tetris tune`` / ``arcade geek tune`` with the same
options, generation for generation, and either resumes the other's
checkpoint. :func:`tune_search` scores the same fitness under Ray Tune."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Callable, Optional

from .._native import native as _arcadekit
from .bench import spec_json, with_absolute_paths
from .cluster import cancelling, check_cpus, connect
from .progress import Bar

#: The tuners, and the CLI command each equals.
TUNERS = {"tetris": "arcade tetris tune", "geek": "arcade geek tune"}

#: Retries of an evaluation whose worker died (an exception it raises is
#: not retried: the same games raise it again).
MAX_RETRIES = 3

_remote = None


def _fitness_task():
    global _remote
    if _remote is None:
        import ray

        @ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)
        def fitness(kind, setup, x, seed, threads):
            return _arcadekit.tune_fitness(kind, setup, x, seed, threads)

        _remote = fitness
    return _remote


def _check_kind(kind: str) -> None:
    if kind not in TUNERS:
        raise ValueError(f"unknown tuner {kind!r} (expected tetris or geek)")


def tune(
    kind: str,
    spec: Optional[dict] = None,
    *,
    checkpoint: str,
    out: Optional[str] = None,
    name: Optional[str] = None,
    resume: bool = False,
    generations: Optional[int] = None,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    threads_per_task: int = 1,
    progress: bool = True,
    on_generation: Optional[Callable[[dict], None]] = None,
) -> dict:
    """Tunes ``kind`` (``"tetris"`` or ``"geek"``) with ``spec`` (the CLI's
    ``tune`` options as a dict), spreading each generation's fitness
    evaluations over the Ray cluster. After every generation the run is
    saved to ``checkpoint`` (the CLI's format: ``arcade ... tune --resume``
    continues it, and so does ``resume=True`` here, ``generations`` then
    being the new target) and the result file written to ``out``. Returns
    ``{"generations": [...], "run": <the run>, "result": <the result file>}``."""
    _check_kind(kind)
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task must be at least 1, found {threads_per_task}")
    # A bad path is found now, not after the first generation's games.
    for path in filter(None, [checkpoint, out]):
        _check_writable(path)
    if resume:
        if spec:
            raise ValueError("resume continues the checkpoint's run: give no spec")
        run = _arcadekit.tune_load(kind, checkpoint)
        if generations is not None:
            state = json.loads(run)
            state["generations"] = generations
            run = json.dumps(state)
    else:
        if os.path.exists(checkpoint):
            raise ValueError(f"{checkpoint} exists: resume it, or choose another checkpoint")
        spec = with_absolute_paths(spec or {})
        if generations is not None:
            spec["generations"] = generations
        run = _arcadekit.tune_new(kind, spec_json(spec))
    name = name or (os.path.splitext(os.path.basename(out))[0] if out else "tuned")
    check_cpus(connect(address, num_cpus), threads_per_task)
    import ray

    state = json.loads(run)
    setup = ray.put(json.dumps(state["setup"]))
    task = _fitness_task().options(num_cpus=threads_per_task)
    history = []
    while len(state["history"]) < state["generations"]:
        candidates, seed = _arcadekit.tune_ask(kind, run)
        bar = Bar(len(candidates), "evals", show=progress)
        refs = [task.remote(kind, setup, x, seed, threads_per_task) for x in candidates]
        index = {ref: i for i, ref in enumerate(refs)}
        scores = [0.0] * len(refs)
        pending = list(refs)
        with cancelling(pending, bar):
            while pending:
                ready, pending[:] = ray.wait(pending, num_returns=1)
                scores[index[ready[0]]] = ray.get(ready[0])
                bar.update(1)
        run, generation = _arcadekit.tune_tell(kind, run, scores)
        _arcadekit.tune_save(kind, run, checkpoint)
        result = _arcadekit.tune_result(kind, run, name)
        if out:
            _write_atomic(out, result)
        state = json.loads(run)
        g = json.loads(generation)
        history.append(g)
        if on_generation is not None:
            on_generation(g)
        elif progress:
            print(f"generation {g['index'] + 1}/{state['generations']}: best {g['best']:.6g}, "
                  f"mean {g['mean']:.6g}, best ever {g['best_ever']:.6g}", file=sys.stderr)
    return {"generations": history, "run": state, "result": _arcadekit.tune_result(kind, run, name)}


def _check_writable(path: str) -> None:
    """Refuses, in one line, a file that could not be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        raise ValueError(f"cannot write {path}: no directory {folder}")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write {path}: {folder} is not writable")


def _write_atomic(path: str, text: str) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def tune_search(
    kind: str,
    spec: Optional[dict] = None,
    *,
    samples: int = 100,
    seed: int = 1,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    threads_per_task: int = 1,
    storage: Optional[str] = None,
    progress: bool = False,
) -> dict:
    """Ray Tune's random search (``BasicVariantGenerator``, shipped with Ray
    Tune) over the box CEM starts from: each weight uniform within
    ``spread`` of the start (``init``), ``samples`` candidates, each scored by
    the same fitness as :func:`tune` on the games of CEM's first generation
    (common random numbers, so the scores compare with that generation's).
    Each trial plays on ``threads_per_task`` CPUs; ``progress`` shows Ray
    Tune's status table on stderr. Returns the best candidate, its fitness
    and every trial's fitness."""
    _check_kind(kind)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, found {samples}")
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task must be at least 1, found {threads_per_task}")
    spec = with_absolute_paths(spec or {})
    run = _arcadekit.tune_new(kind, spec_json(spec))
    centre = _arcadekit.tune_recommendation(kind, run)
    spread = float(spec.get("spread", 10.0 if kind == "tetris" else 0.3))
    _, eval_seed = _arcadekit.tune_ask(kind, run)
    setup = json.dumps(json.loads(run)["setup"])
    check_cpus(connect(address, num_cpus), threads_per_task)
    from ray import tune as ray_tune
    from ray.tune.search.basic_variant import BasicVariantGenerator

    def trainable(config):
        x = [config[f"x{i}"] for i in range(len(centre))]
        return {"fitness": _arcadekit.tune_fitness(kind, setup, x, eval_seed, threads_per_task)}

    space = {f"x{i}": ray_tune.uniform(c - abs(spread), c + abs(spread)) for i, c in enumerate(centre)}
    started = time.monotonic()
    tuner = ray_tune.Tuner(
        ray_tune.with_resources(trainable, {"cpu": threads_per_task}),
        param_space=space,
        tune_config=ray_tune.TuneConfig(
            num_samples=samples,
            metric="fitness",
            mode="max",
            search_alg=BasicVariantGenerator(random_state=seed),
        ),
        run_config=ray_tune.RunConfig(
            name=f"arcadekit-{kind}-search",
            storage_path=os.path.abspath(storage) if storage else None,
            verbose=1 if progress else 0,
        ),
    )
    # Ray Tune prints its banner and tables to stdout, which is the result's.
    with contextlib.redirect_stdout(sys.stderr):
        results = tuner.fit()
    best = results.get_best_result()
    assert best.config is not None and best.metrics is not None, "Ray Tune reported no trial"
    trials = [results[i] for i in range(len(results))]
    return {
        "best": [best.config[f"x{i}"] for i in range(len(centre))],
        "best_fitness": best.metrics["fitness"],
        "fitness": sorted((r.metrics["fitness"] for r in trials if r.metrics), reverse=True),
        "samples": samples,
        "eval_seed": eval_seed,
        "seconds": time.monotonic() - started,
    }
