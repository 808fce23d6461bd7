"""Steps per second of the Rust vector environments of the puzzles (Sheep a
Sheep, Jump In') and of Minesweeper with exact probabilities, against
Gymnasium's ``SyncVectorEnv`` of the same single environments, side by side
in one run (random legal actions, the same number of games).

    target/venv/bin/python python/bench/puzzles.py [--seconds 3] [--envs 64] [--repeats 3]

Prints a Markdown table with the median of the repeats and the ratio."""

from __future__ import annotations

import argparse
import statistics

import gymnasium as gym

import arcadekit as ak
from envs import legal_batch, vector

CASES = [
    ("Tiles-v0, captured level", lambda n: ak.TilesVectorEnv(n, level="capture"), "arcadekit/Tiles-v0", {"level": "capture"}),
    ("Tiles-v0, generated levels", lambda n: ak.TilesVectorEnv(n), "arcadekit/Tiles-v0", {}),
    ("JumpIn-v0, official puzzles", lambda n: ak.JumpInVectorEnv(n), "arcadekit/JumpIn-v0", {}),
    ("Minesweeper-v0 expert, probabilities", lambda n: ak.MinesweeperVectorEnv(n, level="expert", probabilities=True),
     "arcadekit/Minesweeper-v0", {"level": "expert", "probabilities": True}),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    n, s = args.envs, args.seconds
    print(f"| environment ({n} games) | Rust vector steps/s | SyncVectorEnv steps/s | ratio |\n|---|---:|---:|---:|")
    for name, rust, env_id, kwargs in CASES:
        ours, theirs = [], []
        for _ in range(args.repeats):  # alternated, so both see the same load
            ours.append(vector(rust(n), legal_batch, s))
            sync = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kwargs)
            theirs.append(vector(sync, legal_batch, s))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"| {name} | {a:,.0f} | {b:,.0f} | {a / b:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
