"""A process forked after the parent used the Rust threads can use them too.

Rayon's global pool does not survive ``fork()`` (its threads are not
copied), and ``multiprocessing`` and ``AsyncVectorEnv`` fork by default on
Linux: a child that needed the pool used to wait forever. The extension runs
its parallel work on a pool of its own process instead (``crates/python/src/
pool.rs``), whose threads are named ``arcadekit-N``. Here every call that
goes parallel runs in a fresh process, which must have started no other
thread (no global pool), then in a child forked from it, within a deadline."""

import multiprocessing
import os
import subprocess
import sys
import textwrap

import gymnasium as gym
import numpy as np
import pytest

import arcadekit
from arcadekit.battle import MinesBattleEnv
from conftest import ROOT

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's default start method")


def every_parallel_call(tmp):
    """Each call that runs on the Rust threads, at a size that does, and each
    single game's call that stays on the caller's (``detach_serial``), which
    must not start a pool either."""
    tetris = arcadekit.TetrisVectorEnv(512, seed=1)
    tetris.reset()
    tetris.step(tetris.ai_actions())
    tetris.afterstate_features()
    mines = arcadekit.MinesweeperVectorEnv(256, seed=1)
    mines.reset()
    mines.step(mines.solver_actions())
    flappy = arcadekit.FlappyVectorEnv(1 << 16, seed=1)
    flappy.reset()
    flappy.step(np.zeros(1 << 16, dtype=np.int64))
    flappy = arcadekit.FlappyVectorEnv(64, seed=1)
    flappy.reset()
    flappy.step(flappy.oracle_actions())
    tiles = arcadekit.TilesVectorEnv(64, seed=1, layers=12)
    tiles.reset()
    tiles.step(tiles.greedy_actions())
    jumpin = arcadekit.JumpInVectorEnv(64, seed=1, puzzles="generated", moves=3)
    jumpin.reset()
    jumpin.step(jumpin.solver_actions())
    gym.make("arcadekit/JumpIn-v0", puzzles="generated", moves=3).reset(seed=5)
    arcadekit.jumpin_generate(4, seed=2)
    arcadekit.tiles_generate(layers=12, seed=3)
    arcadekit.geek_solve(os.path.join(tmp, f"geek-{os.getpid()}.txt"), beam=20, pieces=50)
    arcadekit.mines_play(level="beginner", seed=4)
    arcadekit.move_median(np.arange(200_000, dtype=np.float64).reshape(4, -1), 101)
    arcadekit.sketch(np.zeros((64, 64, 3), dtype=np.uint8))
    # One game's serial work.
    mines_env = arcadekit.MinesweeperEnv(level="beginner", probabilities=True)
    mines_env.reset(seed=1)
    mines_env.step(mines_env.solver_action())
    arcadekit.mines_analyze("3 3 1\n1..\n...\n...\n")
    battle = MinesBattleEnv(level="9x9/10")
    battle.reset(seed=1)
    battle.step(battle.ai_action("ev"))
    jumpin_env = arcadekit.JumpInEnv()
    jumpin_env.reset(seed=1)
    jumpin_env.step(jumpin_env.solver_action())
    arcadekit.jumpin_solve("C31B42G34M302203FE11")
    tiles_env = arcadekit.TilesEnv(layers=12)
    tiles_env.reset(seed=1)
    tiles_env.step(tiles_env.solver_action(nodes=1000) or tiles_env.greedy_action())
    arcadekit.geek_replay((ROOT / "crates/tetris/records/geek-1428236.txt").read_text())


def test_the_extension_starts_no_global_pool(tmp_path):
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_fork import every_parallel_call
        every_parallel_call({str(tmp_path)!r})
        tasks = os.listdir("/proc/self/task")
        print(*(open(f"/proc/self/task/{{t}}/comm").read().strip() for t in tasks))
    """)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "RAYON_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    threads = out.stdout.split()
    # The main thread, and the extension's pool; a global pool's threads
    # would carry the main thread's name.
    assert sorted(threads)[:-1] == ["arcadekit-0", "arcadekit-1"], threads


def test_a_forked_child_uses_the_threads_the_parent_used(tmp_path):
    every_parallel_call(str(tmp_path))
    child = multiprocessing.get_context("fork").Process(target=every_parallel_call, args=(str(tmp_path),))
    child.start()
    child.join(120)
    hung = child.is_alive()
    if hung:
        child.kill()
        child.join()
    assert not hung, "the forked child hung on the Rust threads"
    assert child.exitcode == 0
