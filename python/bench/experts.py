"""Steps per second of the vector environments stepped by their experts
(Tetris's BCTS, the Minesweeper, Sheep a Sheep and Jump In' solvers, Flappy
Bird's perfect-play oracle), chosen for every game on Rust threads, against
Gymnasium's ``SyncVectorEnv`` of the same single environments asking each
game's expert in a Python loop, side by side in one run (the same number of
games).

    target/venv/bin/python python/bench/experts.py [--seconds 3] [--envs 64] [--repeats 3]

Prints a Markdown table with the median of the repeats and the ratio."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import arcadekit as ak
from envs import side_by_side, vector


def each(method, *args):
    """A SyncVectorEnv's actions: every sub-environment's expert in turn (0
    for one that ended: the autoreset ignores it)."""
    def pick(sync):
        moves = (getattr(e.unwrapped, method)(*args) for e in sync.envs)
        return np.array([0 if m is None else m for m in moves], dtype=np.int64)
    return pick


def tiles_each(sync):
    """Each Sheep a Sheep game's solver click within 100,000 positions, else
    its greedy click: what ``TilesVectorEnv.solver_actions()`` answers."""
    def pick(env):
        move = env.solver_action(nodes=100_000)
        move = env.greedy_action() if move is None else move
        return 0 if move is None else move
    return np.array([pick(e.unwrapped) for e in sync.envs], dtype=np.int64)


CASES = [
    ("Tetris-v0 10×20, BCTS", lambda n: ak.TetrisVectorEnv(n), lambda env: env.ai_actions("bcts"),
     "arcadekit/Tetris-v0", {}, each("ai_action", "bcts")),
    ("Minesweeper-v0 expert, the solver", lambda n: ak.MinesweeperVectorEnv(n, level="expert"),
     lambda env: env.solver_actions(), "arcadekit/Minesweeper-v0", {"level": "expert"}, each("solver_action")),
    ("Tiles-v0 generated, the solver", lambda n: ak.TilesVectorEnv(n), lambda env: env.solver_actions(),
     "arcadekit/Tiles-v0", {}, tiles_each),
    ("JumpIn-v0 official, the solver", lambda n: ak.JumpInVectorEnv(n), lambda env: env.solver_actions(),
     "arcadekit/JumpIn-v0", {}, each("solver_action")),
    ("Flappy-v0, the oracle", lambda n: ak.FlappyVectorEnv(n), lambda env: env.oracle_actions(),
     "arcadekit/Flappy-v0", {}, each("oracle_action")),
]


def row(name, rust, expert, env_id, kwargs, loop):
    def ours(n, s):
        env = rust(n)
        env.reset(seed=0)
        expert(env)  # the oracle's analysis is computed once per process, untimed
        return vector(env, lambda _info: expert(env), s)

    def theirs(n, s):
        sync = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kwargs)
        return vector(sync, lambda _info: loop(sync), s)
    return name, ours, theirs


if __name__ == "__main__":
    side_by_side([row(*case) for case in CASES], "Rust vector + experts steps/s", "SyncVectorEnv + a loop steps/s")
