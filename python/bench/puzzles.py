"""Steps per second of the Rust vector environments of the puzzles (Sheep a
Sheep, Jump In') and of Minesweeper with exact probabilities, against
Gymnasium's ``SyncVectorEnv`` of the same single environments, side by side
in one run (random legal actions, the same number of games).

    target/venv/bin/python python/bench/puzzles.py [--seconds 3] [--envs 64] [--repeats 3]

Prints a Markdown table with the median of the repeats and the ratio."""

from __future__ import annotations

import gymnasium as gym

import arcadekit as ak
from envs import legal_batch, side_by_side, vector

CASES = [
    ("Tiles-v0, captured level", lambda n: ak.TilesVectorEnv(n, level="capture"), "arcadekit/Tiles-v0", {"level": "capture"}),
    ("Tiles-v0, generated levels", lambda n: ak.TilesVectorEnv(n), "arcadekit/Tiles-v0", {}),
    ("JumpIn-v0, official puzzles", lambda n: ak.JumpInVectorEnv(n), "arcadekit/JumpIn-v0", {}),
    ("Minesweeper-v0 expert, probabilities", lambda n: ak.MinesweeperVectorEnv(n, level="expert", probabilities=True),
     "arcadekit/Minesweeper-v0", {"level": "expert", "probabilities": True}),
]


def row(name, rust, env_id, kwargs):
    def theirs(n, s):
        return vector(gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kwargs), legal_batch, s)
    return name, lambda n, s: vector(rust(n), legal_batch, s), theirs


if __name__ == "__main__":
    side_by_side([row(*case) for case in CASES], "Rust vector steps/s", "SyncVectorEnv steps/s")
