"""Steps per second of arcadekit's environments against the pure-Python ones
people use (tetris-gymnasium, flappy-bird-gymnasium), side by side in one run.

Run from a scratch venv holding arcadekit and the competitors:
    python python/bench/envs.py [--seconds 3]
Every figure is a time-bounded loop (``--seconds`` each) with random actions:
legal placements for Tetris, flap with probability 1/10 for Flappy Bird.
Prints a Markdown table."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import arcadekit as ak

ROOT = Path(__file__).resolve().parents[2]


def timed(step, seconds):
    """Calls ``step()`` (which returns steps done) until ``seconds`` pass."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += step()
    return done / elapsed


def single(env, pick, seconds, seed=0):
    obs, info = env.reset(seed=seed)
    state = {"obs": obs, "info": info}

    def step():
        for _ in range(100):
            obs, r, term, trunc, info = env.step(pick(state["info"]))
            if term or trunc:
                obs, info = env.reset()
            state["info"] = info
        return 100

    return timed(step, seconds)


def vector(env, pick, seconds, seed=0):
    obs, info = env.reset(seed=seed)
    state = {"info": info}

    def step():
        for _ in range(10):
            obs, r, term, trunc, info = env.step(pick(state["info"]))
            state["info"] = info
        return 10 * env.num_envs

    return timed(step, seconds)


def side_by_side(rows, ours: str, theirs: str):
    """Times each row's ``(name, ours(n, seconds), theirs(n, seconds))``
    steps per second, alternated ``--repeats`` times so both see the same
    load, and prints a Markdown table of the medians and their ratio
    (options ``--seconds``, ``--envs``, ``--repeats``)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    n, s = args.envs, args.seconds
    print(f"| environment ({n} games) | {ours} | {theirs} | ratio |\n|---|---:|---:|---:|")
    for name, run_ours, run_theirs in rows:
        a, b = [], []
        for _ in range(args.repeats):
            a.append(run_ours(n, s))
            b.append(run_theirs(n, s))
        a, b = statistics.median(a), statistics.median(b)
        print(f"| {name} | {a:,.0f} | {b:,.0f} | {a / b:.1f}× |", flush=True)


rng = np.random.default_rng(0)


def legal(info):
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def legal_batch(info):
    m = np.asarray(info["action_mask"])
    return (m * (rng.random(m.shape) + 0.01)).argmax(axis=1)


def flap(_info):
    return int(rng.random() < 0.1)


def cli(*args):
    out = subprocess.run([str(ROOT / "target/release/arcade"), *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    s = ap.parse_args().seconds
    rows = []

    def row(name, per_s, note=""):
        rows.append((name, per_s, note))
        print(f"{name:<58} {per_s:>14,.0f}  {note}", flush=True)

    # Tetris
    import tetris_gymnasium.envs  # noqa: F401
    from tetris_gymnasium.wrappers.grouped import GroupedActionsObservations

    row("arcadekit Tetris-v0 (placements)", single(ak.TetrisEnv(), legal, s))
    for n in (1, 8, 64, 1024):
        row(f"arcadekit TetrisVectorEnv num_envs={n}", vector(ak.TetrisVectorEnv(n), legal_batch, s))
    sync = gym.vector.SyncVectorEnv([lambda: ak.TetrisEnv() for _ in range(8)])
    row("SyncVectorEnv(8 x arcadekit Tetris-v0)", vector(sync, legal_batch, s))

    def tg_grouped():
        return GroupedActionsObservations(gym.make("tetris_gymnasium/Tetris"))

    row("tetris-gymnasium + GroupedActions (placements)", single(tg_grouped(), legal, s))
    row("tetris-gymnasium (one move per step)", single(gym.make("tetris_gymnasium/Tetris"), lambda i: int(rng.integers(8)), s))
    tg_sync = gym.vector.SyncVectorEnv([tg_grouped for _ in range(8)])
    row("SyncVectorEnv(8 x tetris-gymnasium grouped)", vector(tg_sync, legal_batch, s))
    tg_async = gym.vector.AsyncVectorEnv([tg_grouped for _ in range(8)])
    row("AsyncVectorEnv(8 x tetris-gymnasium grouped)", vector(tg_async, legal_batch, s))
    tg_async.close()

    # Flappy Bird
    import flappy_bird_gymnasium  # noqa: F401

    row("arcadekit Flappy-v0 (frames)", single(ak.FlappyEnv(), flap, s))
    for n in (1, 8, 64, 1024, 8192):
        row(f"arcadekit FlappyVectorEnv num_envs={n}", vector(ak.FlappyVectorEnv(n), lambda i, n=n: (rng.random(n) < 0.1).astype(np.int64), s))
    sync = gym.vector.SyncVectorEnv([lambda: ak.FlappyEnv() for _ in range(8)])
    row("SyncVectorEnv(8 x arcadekit Flappy-v0)", vector(sync, lambda i: (rng.random(8) < 0.1).astype(np.int64), s))

    def fb():
        return gym.make("FlappyBird-v0", use_lidar=False)

    row("flappy-bird-gymnasium FlappyBird-v0 (frames)", single(fb(), flap, s))
    fb_sync = gym.vector.SyncVectorEnv([fb for _ in range(8)])
    row("SyncVectorEnv(8 x flappy-bird-gymnasium)", vector(fb_sync, lambda i: (rng.random(8) < 0.1).astype(np.int64), s))
    fb_async = gym.vector.AsyncVectorEnv([fb for _ in range(8)])
    row("AsyncVectorEnv(8 x flappy-bird-gymnasium)", vector(fb_async, lambda i: (rng.random(8) < 0.1).astype(np.int64), s))
    fb_async.close()

    engine = cli("flappy", "bench", "--policy", "heuristic", "--frames", "20000000")
    row("arcade flappy bench (Rust engine + heuristic, 1 thread)", engine["frames_per_sec"])
    engine = cli("tetris", "bench", "--ai", "bcts", "--board", "10x20", "--games", "4", "--max-pieces", "50000", "--threads", "1")
    row("arcade tetris bench (Rust engine + bcts AI, 1 thread, pieces)", engine["pieces_per_sec"])

    print("\n| environment | steps/s |\n|---|---:|")
    for name, per_s, _ in rows:
        print(f"| {name} | {per_s:,.0f} |")


if __name__ == "__main__":
    main()
