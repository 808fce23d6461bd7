"""The vector environments against the Rust engine doing the same work, side
by side. Flappy Bird:
the engine figure is `flappy_engine_seconds` (N games in lock step, a frame
each with a flap chance of 1/10 from 16 action vectors drawn beforehand, the
observation and pipes written, ended games reset, all in Rust), the vector
environment is `FlappyVectorEnv.step` from Python with 16 action arrays
drawn by NumPy beforehand (the same chance), fresh arrays each step (the
default) and `copy=False`; "separate calls" is the earlier path (step,
observe and scores as three Rust calls). Tetris (10 × 20):
`tetris_engine_seconds` (a uniformly random legal placement per game, each
game played, observed and masked in one pass, in Rust) against
`TetrisVectorEnv.step` with the random legal actions picked from the mask
by NumPy, and with them drawn by `sample_legal_actions` (in Rust, as the
engine figure draws them). Median of ``--repeats``
runs, the rows of one size interleaved; every figure is per CPU second of
the process (steady on a machine shared with other work, unlike wall time).

    python python/bench/vector_engine.py [--repeats 5]"""

import argparse
import statistics
import time

import numpy as np

import arcadekit as ak
from arcadekit import _arcadekit as _ak


def cpu(f):
    """CPU seconds of the process spent in `f` (steady on a shared machine)."""
    t = time.process_time()
    f()
    return time.process_time() - t


def vector_seconds(env, steps, rng):
    n = env.num_envs
    env.reset(seed=1)
    actions = [(rng.random(n) < 0.1).astype(np.int64) for _ in range(16)]
    t = time.process_time()
    for i in range(steps):
        env.step(actions[i % 16])
    return time.process_time() - t


def separate_seconds(core, n, steps, rng):
    core.reset(1)
    actions = [(rng.random(n) < 0.1).astype(np.int64) for _ in range(16)]
    t = time.process_time()
    for i in range(steps):
        core.step(actions[i % 16])
        core.observe()
        core.scores()
    return time.process_time() - t


def tetris_seconds(env, steps, rng):
    obs, info = env.reset(seed=1)
    t = time.process_time()
    for _ in range(steps):
        mask = info["action_mask"]
        actions = (mask * rng.random(mask.shape)).argmax(1)
        obs, _, _, _, info = env.step(actions)
    return time.process_time() - t


def tetris_sampled_seconds(env, steps):
    env.reset(seed=1)
    t = time.process_time()
    for _ in range(steps):
        env.step(env.sample_legal_actions())
    return time.process_time() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--frames", type=int, default=4_000_000, help="frames per run and row")
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    print("| num_envs | Rust engine + obs (M frames/s) | FlappyVectorEnv (M/s) | ratio "
          "| copy=False (M/s) | ratio | separate calls (M/s) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in [64, 1024, 8192]:
        steps = max(a.frames // n, 10)
        env = ak.FlappyVectorEnv(n)
        in_place = ak.FlappyVectorEnv(n, copy=False)
        core = _ak.FlappyVectorCore(n, 0)
        eng, vec, inp, sep = [], [], [], []
        for _ in range(a.repeats):
            eng.append(cpu(lambda: _ak.flappy_engine_seconds(n, steps)))
            vec.append(vector_seconds(env, steps, rng))
            inp.append(vector_seconds(in_place, steps, rng))
            sep.append(separate_seconds(core, n, steps, rng))
        f = n * steps / 1e6
        e, v, i, s = (f / statistics.median(x) for x in (eng, vec, inp, sep))
        print(f"| {n:,} | {e:.1f} | {v:.1f} | {e / v:.2f}x | {i:.1f} | {e / i:.2f}x | {s:.1f} |", flush=True)
    print("\n| num_envs | Rust engine + obs (k placements/s) | TetrisVectorEnv, NumPy's choice (k/s) "
          "| ratio | TetrisVectorEnv, sample_legal_actions (k/s) | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in [1, 8, 64, 1024]:
        steps = max(a.frames // 40 // n, 10)
        env = ak.TetrisVectorEnv(n)
        eng, vec, smp = [], [], []
        for _ in range(a.repeats):
            eng.append(cpu(lambda: _ak.tetris_engine_seconds(n, steps)))
            vec.append(tetris_seconds(env, steps, rng))
            smp.append(tetris_sampled_seconds(env, steps))
        f = n * steps / 1e3
        e, v, m = (f / statistics.median(x) for x in (eng, vec, smp))
        print(f"| {n:,} | {e:,.0f} | {v:,.0f} | {e / v:.2f}x | {m:,.0f} | {e / m:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
