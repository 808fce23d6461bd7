"""Tiles-v0 (Sheep a Sheep) and JumpIn-v0: the API checker, rendering,
rewards, errors, and the same levels, puzzles and outcomes as the CLI."""

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcadekit
from arcadekit.jumpin import CHALLENGES, action_of

SMALL = {"layers": 6, "types": 4, "groups": 2}


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("Tiles-v0", {}),
        ("Tiles-v0", {"level": "capture"}),
        ("Tiles-v0", {**SMALL, "difficulty": 0.9, "capacity": 5, "reward": "win"}),
        ("JumpIn-v0", {}),
        ("JumpIn-v0", {"puzzles": 60, "max_moves": 3}),
        ("JumpIn-v0", {"puzzles": "generated", "moves": 5}),
    ],
)
def test_check_env_passes(name, kwargs):
    check_env(gym.make(f"arcadekit/{name}", **kwargs).unwrapped)


@pytest.mark.parametrize("name", ["Tiles-v0", "JumpIn-v0"])
def test_render_modes(name):
    text = gym.make(f"arcadekit/{name}", render_mode="ansi")
    text.reset(seed=3)
    assert isinstance(text.render(), str) and len(text.render()) > 20
    rgb = gym.make(f"arcadekit/{name}", render_mode="rgb_array")
    rgb.reset(seed=3)
    frame = rgb.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) >= 4


def test_tiles_intended_clicks_win_and_rewards_count_triples():
    env = arcadekit.TilesEnv(**SMALL, difficulty=0.8)
    obs, info = env.reset(seed=5)
    n = env.action_space.n
    assert n == 3 * 4 * 2 and obs["kind"].min() >= 1 and obs["tray"].sum() == 0
    assert np.array_equal(info["action_mask"], (obs["covered"] == 0).astype(np.int8))
    total = 0.0
    for tile in env.intended:
        assert info["action_mask"][tile] == 1
        obs, reward, terminated, truncated, info = env.step(tile)
        total += reward
        assert obs["kind"][tile] == 0
        assert (obs["tray"] > 0).sum() == info["clicks"] - 3 * info["cleared"]
    assert (terminated, truncated, info["status"], total) == (True, False, "won", n / 3)
    assert info["action_mask"].sum() == 0


def test_tiles_illegal_and_bad_input():
    env = arcadekit.TilesEnv(**SMALL)
    obs, info = env.reset(seed=1)
    covered = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(covered)
    assert (reward, terminated, info["illegal_action"], info["status"]) == (0.0, True, True, "lost")
    with pytest.raises(ValueError, match="the game is over"):
        env.step(0)
    env.reset(seed=1)
    for bad in (-1, env.action_space.n):
        with pytest.raises(ValueError, match="out of range"):
            env.step(bad)
    for kwargs, message in [
        ({"layers": 0}, "layers 0 is out of range"),
        ({"layers": 2}, "do not fit"),
        ({"difficulty": 1.5}, "difficulty"),
        ({"capacity": 2}, "capacity"),
        ({"level": "{"}, r"^not JSON: line 1, column 1: the text ends inside an object \(a } is missing\)$"),
        ({"reward": "lines"}, "unknown reward"),
        ({"level": '{"tiles": []}'}, "^the level has no tiles: there is nothing to play$"),
    ]:
        with pytest.raises(ValueError, match=message):
            arcadekit.TilesEnv(**kwargs)


def test_tiles_levels_from_files_and_editors(tmp_path):
    text, _ = arcadekit.tiles_generate(layers=3, types=2, groups=1, seed=4)
    path = tmp_path / "level.json"
    path.write_text(text)
    # A path where the text belongs says so (the CLI takes paths).
    with pytest.raises(ValueError, match=r"is a file's path: pass the level's JSON text"):
        arcadekit.tiles_solve(str(path))
    # A byte-order mark, as some editors save, is read past.
    with_mark = arcadekit.tiles_solve("\ufeff" + text)
    assert with_mark["verdict"] == arcadekit.tiles_solve(text)["verdict"] == "solved"
    # True is not tile 1.
    with pytest.raises(TypeError, match=r"^clicks must be tile ids \(integers\), got True at index 0$"):
        arcadekit.tiles_check(text, [True, 0])
    # The vector env names the limit that applies.
    with pytest.raises(ValueError, match=r"^num_envs 1000000 is too many for levels of 360 tiles: at most 23301"):
        arcadekit.TilesVectorEnv(10**6)


def test_tiles_capture_is_the_real_level():
    env = arcadekit.TilesEnv(level="capture")
    obs, info = env.reset(seed=0)
    again, _ = env.reset(seed=9)  # a fixed level: the seed changes nothing
    assert np.array_equal(obs["kind"], again["kind"])
    solved = arcadekit.tiles_solve(env.level_json(), seconds=30)
    assert len(obs["kind"]) == solved["tiles"]


@pytest.mark.parametrize("seed", [2, 3])
def test_tiles_plays_the_cli_level(arcade, tmp_path, seed):
    """The level of `arcade tiles generate --seed s` tile for tile, and random
    legal clicks end as `arcade tiles check` says."""
    path = tmp_path / "level.json"
    arcade("tiles", "generate", "--layers", 8, "--types", 5, "--groups", 3, "--difficulty", 0.7,
           "--seed", seed, "--out", path)
    cli_tiles = json.loads(path.read_text())["tiles"]
    env = arcadekit.TilesEnv(layers=8, types=5, groups=3, difficulty=0.7)
    obs, info = env.reset(seed=seed)
    assert json.loads(env.level_json())["tiles"] == cli_tiles
    rng = np.random.default_rng(seed)
    clicks, total, terminated = [], 0.0, False
    while not terminated:
        tile = int(rng.choice(np.flatnonzero(info["action_mask"])))
        clicks.append(tile)
        obs, reward, terminated, _, info = env.step(tile)
        total += reward
    clicks_path = tmp_path / "clicks.json"
    clicks_path.write_text(json.dumps(clicks))
    cli = arcadekit.tiles_check(path.read_text(), clicks)
    assert cli["won"] == (info["status"] == "won")
    assert cli["taken"] == len(clicks)
    assert total == (cli["taken"] - len(cli["tray"])) // 3


def test_tiles_observation_is_the_naive_count_from_the_geometry():
    # A tile is covered by every tile still on the board, on a higher layer,
    # whose rectangle overlaps its own; the kept board must agree at every
    # click of random games, won and lost.
    env = arcadekit.TilesEnv(**SMALL, difficulty=0.8)
    rng = np.random.default_rng(2)
    checked, endings = 0, set()
    for episode in range(24):
        obs, info = env.reset(seed=episode)
        layer, x, y, w, h = env.unwrapped._core.geometry().T
        over = ((layer[:, None] > layer[None, :]) & (x[:, None] < x[None, :] + w[None, :])
                & (x[None, :] < x[:, None] + w[:, None]) & (y[:, None] < y[None, :] + h[None, :])
                & (y[None, :] < y[:, None] + h[:, None]))  # over[j, i]: j covers i
        terminated = False
        while not terminated:
            on_board = obs["kind"] > 0
            naive = np.where(on_board, (over & on_board[:, None]).sum(axis=0), 0)
            np.testing.assert_array_equal(obs["covered"], naive)
            np.testing.assert_array_equal(info["action_mask"], (on_board & (naive == 0)).astype(np.int8))
            checked += 1
            tile = env.intended[info["clicks"]] if rng.random() < 0.7 else rng.choice(np.flatnonzero(info["action_mask"]))
            if info["action_mask"][tile] == 0:
                tile = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, _, terminated, _, info = env.step(int(tile))
        endings.add(info["status"])
    assert checked >= 350 and endings == {"won", "lost"}, (checked, endings)


def test_tiles_solver_action_wins_the_captured_level():
    env = arcadekit.TilesEnv(level="capture")
    _, info = env.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(env.solver_action(seconds=30))
    assert info["status"] == "won"


def test_jumpin_follows_the_cli_solution(arcade):
    for number in (1, 20, 41, 60):
        code = CHALLENGES[number - 1][1]
        cli = arcade("jumpin", "solve", "--code", code)
        env = arcadekit.JumpInEnv(render_mode="ansi")
        obs, info = env.reset(seed=0, options={"challenge": number})
        assert env.render().splitlines() == cli["start"]["board"]
        assert info["optimal"] == cli["moves"] == CHALLENGES[number - 1][2]
        total, terminated = 0.0, False
        for step in cli["solution"]:
            assert not terminated
            (action,) = [a for a, piece, frm, to, _ in env.legal_moves()
                         if (piece, list(frm), list(to)) == (step["piece"], step["from"], step["to"])]
            assert info["action_mask"][action] == 1
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
        assert terminated and info["solved"] and total == -cli["moves"]
        # Every rabbit in a hole: the rabbit plane lies inside the hole plane.
        assert (obs[0] <= obs[2]).all()


@pytest.mark.parametrize("seed", [1, 2])
def test_jumpin_generates_the_cli_puzzle(arcade, seed):
    cli = arcade("jumpin", "generate", "--moves", 7, "--seed", seed)
    env = arcadekit.JumpInEnv(puzzles="generated", moves=7, render_mode="ansi")
    _, info = env.reset(seed=seed)
    assert env.render().splitlines() == cli["board"]
    assert info["optimal"] == cli["moves"]
    moves, terminated = 0, False
    while not terminated:
        _, _, terminated, _, info = env.step(env.solver_action())
        moves += 1
    assert moves == cli["moves"] and info["solved"]


def test_jumpin_mask_actions_and_errors():
    env = arcadekit.JumpInEnv(puzzles="C31B42G34M302203FE11", max_moves=2)
    _, info = env.reset(seed=0)
    legal = env.legal_moves()
    assert sorted(a for a, *_ in legal) == list(np.flatnonzero(info["action_mask"]))
    a, _, frm, _, target = legal[0]
    assert a == action_of(frm, target)
    _, _, terminated, truncated, _ = env.step(a)
    _, _, terminated, truncated, _ = env.step(env.legal_moves()[0][0])
    assert (terminated, truncated) == (False, True)
    # It used to play on past max_moves.
    with pytest.raises(ValueError, match=r"^the game is over: reset it first$"):
        env.step(env.legal_moves()[0][0])
    env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="over"):
        env.step(a)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        env.step(625)
    for make, message in [
        (lambda: arcadekit.JumpInEnv(puzzles=61), "challenge 61"),
        (lambda: arcadekit.JumpInEnv(puzzles="C99"), "off the board"),
        (lambda: arcadekit.JumpInEnv(puzzles="generated", rabbits=5), "rabbits"),
        (lambda: arcadekit.JumpInEnv(puzzles="generated", moves=0), "moves 0"),
        (lambda: arcadekit.JumpInEnv(max_moves=0), "max_moves"),
        (lambda: arcadekit.JumpInEnv().reset(options={"level": 3}), "reset options"),
        (lambda: arcadekit.JumpInEnv(max_moves=-3), r"^max_moves -3 is out of range \(1 to 4294967295\)$"),
        (lambda: arcadekit.JumpInEnv(max_moves=2**32), r"^max_moves 4294967296 is out of range \(1 to 4294967295\)$"),
        (lambda: arcadekit.JumpInVectorEnv(2, max_moves=0), r"^max_moves 0 is out of range \(1 to 4294967295\)$"),
        (lambda: arcadekit.JumpInEnv(rabbits=-1), r"^rabbits must not be negative, got -1$"),
        # Official puzzles generate too (reset(options={"moves": m})): the
        # piece set was refused only at such a reset.
        (lambda: arcadekit.JumpInEnv(rabbits=0), r"^rabbits must be 1 to 4, not 0$"),
        (lambda: arcadekit.JumpInEnv(puzzles=3, foxes=4), r"^foxes"),
        (lambda: arcadekit.JumpInVectorEnv(2, mushrooms=13), r"^mushrooms"),
        # PyO3's bare OverflowError before: negative and huge counts are named.
        (lambda: arcadekit.JumpInEnv(puzzles=-1), r"^challenge -1 is out of range \(1 to 60\)$"),
        (lambda: arcadekit.JumpInEnv(puzzles=2**70), r"^challenge 1180591620717411303424 is out of range"),
        (lambda: arcadekit.JumpInEnv().reset(options={"challenge": -1}), r"^challenge -1 is out of range"),
        (lambda: arcadekit.JumpInEnv(puzzles="generated", moves=-1), r"^moves must not be negative, got -1$"),
        (lambda: arcadekit.JumpInEnv(puzzles="generated", foxes=-1), r"^foxes must not be negative, got -1$"),
        (lambda: arcadekit.JumpInEnv().reset(options={"moves": -1}), r"^moves must not be negative, got -1$"),
        (lambda: arcadekit.JumpInEnv().reset(options={"moves": 2**70}), r"^moves 1180591620717411303424 is too large$"),
        # Unseeded, the reset draws a seed past 2^32 too: the count is still named.
        (lambda: arcadekit.JumpInEnv().reset(options={"moves": 2**40}), r"^moves 1099511627776 is too large$"),
        (lambda: arcadekit.JumpInEnv(max_moves=2**33), r"^max_moves 8589934592 is out of range \(1 to 4294967295\)$"),
        (lambda: arcadekit.mines_play("beginner", first=(2**70, 0)), r"^first 1180591620717411303424 is too large$"),
        (lambda: arcadekit.move_median([1.0, 2.0], 2**70), r"^window 1180591620717411303424 is too large$"),
    ]:
        with pytest.raises(ValueError, match=message):
            make()
    # int() would have played challenge 2 and a 12-move puzzle.
    for options, message in [
        ({"challenge": 2.7}, r"^reset option challenge must be an integer, got 2.7 \(float\)$"),
        ({"moves": "12"}, r"^reset option moves must be an integer, got '12' \(str\)$"),
    ]:
        with pytest.raises(TypeError, match=message):
            arcadekit.JumpInEnv().reset(options=options)


def test_jumpin_numpy_integers_are_integers():
    env = arcadekit.JumpInEnv(max_moves=np.int64(2))
    assert env.max_moves == 2 and type(env.max_moves) is int
    env.reset(seed=0, options={"challenge": np.int32(5)})
    other = arcadekit.JumpInEnv()
    other.reset(seed=0, options={"challenge": 5})
    assert env.code == other.code
    other.reset(seed=0, options={"challenge": 6})
    assert env.code != other.code


def test_jumpin_official_draws_depend_on_the_seed():
    env = arcadekit.JumpInEnv()
    codes = set()
    for seed in range(12):
        env.reset(seed=seed)
        first = env.code
        env.reset(seed=seed)
        assert env.code == first
        codes.add(first)
    assert len(codes) >= 5
