"""copy.deepcopy and pickle of an environment mid-episode: the copy plays on
exactly as the original would, and stepping it leaves the original untouched
(what a tree search over a Gymnasium or PettingZoo environment relies on, and
multiprocessing or Ray when they send one to another process)."""

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

import arcadekit
from arcadekit import _arcadekit as _ak
from arcadekit.battle import MinesBattleEnv

CASES = [
    ("Tetris-v0", {}),
    ("Tetris-v0", {"scoring": "geek"}),
    ("Flappy-v0", {}),
    ("Minesweeper-v0", {"level": "intermediate"}),
    ("Tiles-v0", {}),
    ("JumpIn-v0", {"puzzles": "generated", "moves": 12}),
]


def flat(obs):
    """An observation as one tuple of arrays, for comparison."""
    if isinstance(obs, dict):
        return tuple(np.asarray(obs[k]).copy() for k in sorted(obs))
    return (np.asarray(obs).copy(),)


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def action(env, info, rng):
    mask = info.get("action_mask")
    if mask is None:
        return int(rng.integers(env.action_space.n))
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


def play(env, info, rng, steps):
    """Random legal steps from `info`; returns the trajectory and the last info."""
    trajectory = []
    for _ in range(steps):
        a = action(env, info, rng)
        obs, reward, terminated, truncated, info = env.step(a)
        trajectory.append((a, flat(obs), reward, terminated, truncated))
        if terminated or truncated:
            break
    return trajectory, info


@pytest.mark.parametrize("name,kwargs", CASES)
def test_a_deep_copy_plays_on_as_the_original(name, kwargs):
    exercised = 0
    for seed in range(6):
        env = gym.make(f"arcadekit/{name}", render_mode="ansi", **kwargs)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        before, info = play(env, info, rng, seed)  # 0–5 steps into the episode
        if before and (before[-1][3] or before[-1][4]):
            continue
        now = before[-1][1] if before else flat(obs)
        picture = env.render()
        twin = copy.deepcopy(env)
        # The copy's steps leave the original where it was ...
        first, _ = play(twin, copy.deepcopy(info), np.random.default_rng(100 + seed), 40)
        assert env.render() == picture
        # ... and the original, given the same actions, plays the same game.
        for a, o, r, term, trunc in first:
            got = env.step(a)
            assert same(flat(got[0]), o) and got[1:4] == (r, term, trunc)
        exercised += len(first) > 0 and any(not same(o, now) for _, o, *_ in first)
    assert exercised >= 4, f"only {exercised} seeds changed the observation"


def test_a_deep_copy_of_the_battle_plays_on_as_the_original():
    exercised = 0
    for seed in range(6):
        env = MinesBattleEnv(level="8x8/10")
        env.reset(seed=seed)
        for _ in range(seed):
            env.step(env.ai_action("greedy"))
        if any(env.terminations.values()):
            continue
        twin = copy.deepcopy(env)
        moves = []
        for agent in twin.agent_iter():
            if twin.terminations[agent]:
                twin.step(None)
                continue
            cell = twin.ai_action("ev")
            twin.step(cell)
            moves.append((agent, cell, twin.observe("player_0")["observation"].copy(), twin.scores))
        for agent, cell, seen, scores in moves:
            assert env.agent_selection == agent
            env.step(cell)
            assert np.array_equal(env.observe("player_0")["observation"], seen)
            assert env.scores == scores
        exercised += len(moves) > 0
    assert exercised >= 4



@pytest.mark.parametrize("name,kwargs", CASES)
def test_a_pickled_env_plays_on_as_the_original(name, kwargs):
    exercised = 0
    for seed in range(6):
        env = gym.make(f"arcadekit/{name}", render_mode="ansi", **kwargs)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        before, info = play(env, info, rng, seed)  # 0–5 steps in
        if before and (before[-1][3] or before[-1][4]):
            continue
        twin = pickle.loads(pickle.dumps(env))
        assert twin.render() == env.render()
        ahead, _ = play(env, info, np.random.default_rng(100 + seed), 40)
        for a, o, r, term, trunc in ahead:
            got = twin.step(a)
            assert same(flat(got[0]), o) and got[1:4] == (r, term, trunc)
        exercised += len(ahead) > 0
    assert exercised >= 4, f"only {exercised} seeds played on"


def test_long_games_and_their_copies_pickle():
    """Games of thousands of moves (over several of the shared blocks of
    1,024 moves a copy keeps), copied mid-game and played on apart: each
    pickles to its own game, not to one it shares blocks with."""
    rng = np.random.default_rng(3)
    games = [_ak.TetrisCore()]
    games[0].reset(9)
    for piece in range(3000):
        if piece in (700, 1500, 2600):
            games.append(copy.deepcopy(games[rng.integers(len(games))]))
            games[-1].step(int(rng.choice(np.flatnonzero(games[-1].mask()))))
        for g in games:
            g.step(g.ai_action("el-tetris", False))
    assert len({g.board().tobytes() for g in games}) == len(games)
    for g in games:
        twin = pickle.loads(pickle.dumps(g))
        assert (twin.pieces, twin.lines, twin.score) == (g.pieces, g.lines, g.score)
        for _ in range(50):
            a = g.ai_action("el-tetris", False)
            assert twin.ai_action("el-tetris", False) == a
            assert twin.step(a) == g.step(a)
        assert np.array_equal(twin.board(), g.board())
    assert min(g.pieces for g in games) > 2 * 1024


def test_a_pickled_battle_draws_the_same_ai_moves():
    """The `rule` AI draws random cells from its seat's stream: a pickled
    battle draws the same ones, so the streams were restored too."""
    exercised = 0
    for seed in range(6):
        env = MinesBattleEnv(level="8x8/10")
        env.reset(seed=seed)
        for _ in range(seed):
            env.step(env.ai_action("rule"))
        if any(env.terminations.values()):
            continue
        twin = pickle.loads(pickle.dumps(env))
        moves = 0
        for agent in env.agent_iter():
            if env.terminations[agent]:
                env.step(None)
                twin.step(None)
                continue
            cell = env.ai_action("rule")
            assert twin.agent_selection == agent and twin.ai_action("rule") == cell
            env.step(cell)
            twin.step(cell)
            assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
            moves += 1
        assert twin.scores == env.scores
        exercised += moves > 0
    assert exercised >= 4


def test_a_bad_pickled_state_is_a_clear_error():
    core = _ak.TetrisCore()
    with pytest.raises(ValueError, match="4 bytes each, got 3 bytes"):
        core.__setstate__((0, b"abc"))
    with pytest.raises(ValueError, match="out of range"):
        core.__setstate__((0, (10**6).to_bytes(4, "little")))
