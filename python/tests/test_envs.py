"""The Gymnasium environments: the API checker, rendering, options, errors,
and the same episodes as the CLI engine for the same seeds."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcadekit

CASES = [
    ("Tetris-v0", {}),
    ("Tetris-v0", {"width": 6, "height": 8, "pieces": "bag", "next_piece": False}),
    ("Tetris-v0", {"scoring": "geek"}),
    ("Tetris-v0", {"pieces": "IOTSZJL", "max_pieces": 5}),
    ("Flappy-v0", {}),
    ("Flappy-v0", {"extended": True, "max_pipes": 2}),
    ("Minesweeper-v0", {}),
    ("Minesweeper-v0", {"level": "expert", "rule": "snr", "probabilities": True}),
    ("Minesweeper-v0", {"level": "5x4/3", "rule": "none"}),
]


@pytest.mark.parametrize("name,kwargs", CASES)
def test_check_env_passes(name, kwargs):
    env = gym.make(f"arcadekit/{name}", **kwargs)
    check_env(env.unwrapped)


@pytest.mark.parametrize("name", ["Tetris-v0", "Flappy-v0", "Minesweeper-v0"])
def test_render_modes(name):
    text = gym.make(f"arcadekit/{name}", render_mode="ansi")
    text.reset(seed=3)
    assert isinstance(text.render(), str) and len(text.render()) > 20
    rgb = gym.make(f"arcadekit/{name}", render_mode="rgb_array")
    rgb.reset(seed=3)
    frame = rgb.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) >= 2


def _mines_frame_naive(grid, cell):
    """The frame drawn cell by cell (the drawing before it was vectorized)."""
    from arcadekit._render import _NUMBER_COLOURS

    h, w = grid.shape
    frame = np.full((h * cell, w * cell, 3), 192, np.uint8)
    for y in range(h):
        for x in range(w):
            v = int(grid[y, x])
            block = frame[y * cell : (y + 1) * cell, x * cell : (x + 1) * cell]
            if v < 0:
                block[:] = 120
            elif v > 0:
                r = 2 + v * (cell // 2 - 3) // 8
                c = cell // 2
                block[c - r : c + r, c - r : c + r] = _NUMBER_COLOURS[v]
    frame[::cell, :, :] = 96
    frame[:, ::cell, :] = 96
    return frame


def test_mines_frames_match_the_naive_drawing_and_stay_small():
    from arcadekit._render import mines_frame

    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(30):
        grid = rng.integers(-1, 9, size=(int(rng.integers(1, 25)), int(rng.integers(1, 25))))
        for cell in (16, 7):
            np.testing.assert_array_equal(mines_frame(grid, cell), _mines_frame_naive(grid, cell))
            checked += 1
    assert checked == 60
    # A 1000×1000 board gets 2-pixel cells: a 12 MB frame, not 768 MB.
    env = arcadekit.MinesweeperEnv(level="1000x1000/1000", render_mode="rgb_array")
    env.reset(seed=0)
    env.step(0)
    frame = env.render()
    assert frame.shape == (2000, 2000, 3)
    assert (frame == 120).all(axis=2).any() and (frame == 192).all(axis=2).any()  # hidden, open


def test_tetris_mask_and_illegal_action():
    env = arcadekit.TetrisEnv()
    obs, info = env.reset(seed=1)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (40,)
    assert obs["board"].shape == (20, 10) and obs["board"].sum() == 0
    illegal = int(np.flatnonzero(mask == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (0.0, True, False, True)
    assert info["action_mask"].sum() == 0
    with pytest.raises(ValueError, match="the game is over"):
        env.step(0)


def test_tetris_random_legal_play_keeps_the_board_consistent():
    env = arcadekit.TetrisEnv(width=8, height=12)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    cells, lines = 0, 0
    for _ in range(500):
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        cells += 4
        lines += reward
        assert obs["board"].sum() == cells - 8 * lines
        if terminated or truncated:
            break
    assert terminated and info["lines"] == lines


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: arcadekit.TetrisEnv(width=40), "board width 40 is out of range"),
        (lambda: arcadekit.TetrisEnv(pieces="IOX"), "piece 3 is 'X'"),
        (lambda: arcadekit.TetrisEnv(pieces=""), "pieces: no pieces"),
        (lambda: arcadekit.TetrisEnv(pieces="I" * ((64 << 20) + 1)),
         "^pieces: a sequence of 67108865 bytes is longer than 64 MiB, as the CLI reads a file$"),
        (lambda: arcadekit.TetrisEnv(scoring="tetris"), "unknown scoring"),
        (lambda: arcadekit.TetrisEnv(width=8, scoring="geek"), "10x20 board"),
        (lambda: arcadekit.MinesweeperEnv(level="huge"), "huge"),
        (lambda: arcadekit.MinesweeperEnv(level="3x3/9", rule="sfar"), "do not fit"),
        (lambda: arcadekit.MinesweeperEnv(level="4x4/8", rule="snr"), "as few as 7 cells free"),
        (lambda: arcadekit.MinesweeperVectorEnv(2, level="3x3/1", rule="snr"), "as few as 0 cells free"),
        (lambda: arcadekit.MinesweeperEnv(rule="safe"), "unknown rule"),
        (lambda: arcadekit.FlappyEnv(max_pipes=0), "max_pipes"),
        (lambda: arcadekit.TetrisEnv(max_pieces=0), "^max_pieces must be at least 1$"),
        (lambda: arcadekit.TetrisEnv(max_pieces=-1), "^max_pieces must not be negative, got -1$"),
        (lambda: arcadekit.TetrisEnv(width=-3), "^width must not be negative, got -3$"),
        (lambda: arcadekit.FlappyEnv(max_pipes=2**70), f"^max_pipes {2**70} is too large$"),
        (lambda: arcadekit.TetrisEnv(render_mode="human"), "render_mode"),
    ],
)
def test_bad_options_are_value_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


FLAGS = [
    (arcadekit.TetrisEnv, "next_piece"),
    (arcadekit.FlappyEnv, "extended"),
    (arcadekit.MinesweeperEnv, "probabilities"),
    (lambda **kw: arcadekit.TetrisVectorEnv(2, **kw), "next_piece"),
    (lambda **kw: arcadekit.FlappyVectorEnv(2, **kw), "extended"),
    (lambda **kw: arcadekit.FlappyVectorEnv(2, **kw), "copy"),
    (lambda **kw: arcadekit.MinesweeperVectorEnv(2, **kw), "probabilities"),
]


@pytest.mark.parametrize("make,name", FLAGS)
def test_flags_are_true_or_false_not_truthy(make, name):
    """A flag read from a config file as "false" must not mean True."""
    for bad in ["false", 0, 1.0, None]:
        with pytest.raises(TypeError, match=f"^{name} must be True or False, got {bad!r} "):
            make(**{name: bad})
    for good in [False, np.bool_(False), True, np.bool_(True)]:
        env = make(**{name: good})
        env.reset(seed=0)


def test_misspelt_reset_options_are_value_errors():
    for env in [
        arcadekit.TetrisEnv(),
        arcadekit.FlappyEnv(),
        arcadekit.MinesweeperEnv(),
        arcadekit.TilesEnv(),
        arcadekit.TetrisVectorEnv(2),
    ]:
        env.reset(seed=1, options={})  # none given is fine
        with pytest.raises(ValueError, match=r"^reset options \['sede'\]: this environment takes none$"):
            env.reset(seed=1, options={"sede": 3})
        # A string or a list is not read as option names.
        for bad in ["abc", [1], 5]:
            with pytest.raises(TypeError, match=r"^options must be a dict or None, got "):
                env.reset(seed=1, options=bad)
    jumpin = arcadekit.JumpInEnv()
    with pytest.raises(TypeError, match=r"^options must be a dict or None, got 'abc' \(str\)$"):
        jumpin.reset(options="abc")
    with pytest.raises(ValueError, match=r"^reset options \['challenge', 'moves'\]: give one of them, not 2$"):
        jumpin.reset(options={"challenge": 1, "moves": 3})
    with pytest.raises(ValueError, match="^reset options \\['challange'\\]: expected one of challenge, puzzle or moves$"):
        jumpin.reset(options={"challange": 3})
    with pytest.raises(TypeError, match=r"^reset option challenge must be an integer, got 'x' \(str\)$"):
        jumpin.reset(options={"challenge": "x"})
    with pytest.raises(TypeError, match=r"^reset option moves must be an integer, got None \(NoneType\)$"):
        jumpin.reset(seed=2, options={"moves": None})


def test_bad_actions_are_value_errors():
    for env, bad in [
        (arcadekit.TetrisEnv(), 40),
        (arcadekit.TetrisEnv(), -1),
        (arcadekit.FlappyEnv(), 2),
        (arcadekit.FlappyEnv(), -1),
        (arcadekit.MinesweeperEnv(), 81),
    ]:
        env.reset(seed=0)
        with pytest.raises(ValueError, match=r"^action -?\d+ is out of range \(0 to \d+\)$"):
            env.step(bad)
    with pytest.raises(ValueError, match="seed"):
        arcadekit.TetrisEnv().reset(seed=2**64)


ENV_MAKERS = [
    arcadekit.TetrisEnv,
    arcadekit.FlappyEnv,
    arcadekit.MinesweeperEnv,
    lambda: arcadekit.TilesEnv(level="capture"),
    arcadekit.JumpInEnv,
]


def _episode(env, seed, steps=10):
    """The flattened observations of ``steps`` first-legal actions from ``reset(seed=seed)``."""
    obs, info = env.reset(seed=seed)
    seen = [gym.spaces.flatten(env.observation_space, obs)]
    for _ in range(steps):
        mask = info.get("action_mask", np.ones(env.action_space.n))
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        seen.append(gym.spaces.flatten(env.observation_space, obs))
        if terminated or truncated:
            break
    return np.concatenate(seen)


SEEDED_MAKERS = ENV_MAKERS[:3] + [lambda: arcadekit.TilesEnv(layers=12), ENV_MAKERS[4]]


@pytest.mark.parametrize("make", SEEDED_MAKERS)
def test_numpy_integer_seeds_are_the_same_seeds(make):
    """``reset(seed=np.int64(3))`` raised Gymnasium's "Seed must be a python
    integer" (a seed drawn with NumPy is one); it now plays seed 3's episode."""
    env = make()
    want = _episode(env, 3)
    assert not np.array_equal(_episode(env, 4), want), "seeds 3 and 4 must differ for the check to mean anything"
    for seed in [np.int64(3), np.uint32(3), np.int8(3)]:
        assert np.array_equal(_episode(env, seed), want)
        assert env.np_random_seed == 3


@pytest.mark.parametrize("make", ENV_MAKERS)
def test_actions_must_be_integers_not_truncated(make):
    """A float action (a policy's raw output) was floored to a legal one and
    played; now every environment refuses it, and takes any integer form."""
    env = make()
    n = env.action_space.n
    for bad in [0.5, 0.0, "0", None, [0]]:
        env.reset(seed=0)
        with pytest.raises(TypeError, match=rf"^action must be an integer \(0 to {n - 1}\), got "):
            env.step(bad)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"^action must be one integer, got an array of shape \(2,\)$"):
        env.step(np.array([0, 1]))
    with pytest.raises(ValueError, match=rf"^action {2**70} is out of range \(0 to {n - 1}\)$"):
        env.step(2**70)
    # The same legal action in every integer form plays the same step.
    legal = int(np.flatnonzero(env.reset(seed=0)[1].get("action_mask", np.ones(n)))[0])
    results = []
    for form in [legal, np.int64(legal), np.uint8(legal), np.array(legal), np.array([legal], dtype=np.int32)]:
        env.reset(seed=0)
        obs, reward, terminated, truncated, _ = env.step(form)
        flat = gym.spaces.flatten(env.observation_space, obs)
        results.append((reward, terminated, truncated, flat.tobytes()))
    assert all(r == results[0] for r in results)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tetris_replays_the_cli_game(arcade, seed):
    cli = arcade("tetris", "play", "--ai", "bcts", "--board", "10x10", "--seed", seed, "--max-pieces", 400)
    env = arcadekit.TetrisEnv(width=10, height=10, max_pieces=400)
    env.reset(seed=seed)
    lines, pieces, terminated, truncated = 0, 0, False, False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(env.ai_action("bcts"))
        lines += reward
        pieces += 1
    assert (lines, pieces) == (cli["lines"], cli["pieces"])
    assert truncated == (cli["end"] == "piece_limit")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_flappy_replays_the_cli_game(arcade, seed):
    cli = arcade("flappy", "play", "--policy", "heuristic", "--seed", seed, "--max-pipes", 40)
    env = arcadekit.FlappyEnv(max_pipes=40)
    env.reset(seed=seed)
    total, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(env.heuristic_action())
        total += reward
    assert (info["pipes"], info["frames"], terminated, total) == (
        cli["pipes"],
        cli["frames"],
        cli["crashed"],
        cli["reward"],
    )


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
def test_minesweeper_replays_the_cli_game(arcade, level):
    for seed in range(1, 9):
        cli = arcade("mines", "play", "--level", level, "--seed", seed)
        env = arcadekit.MinesweeperEnv(level=level, probabilities=True)
        _, info = env.reset(seed=seed)
        first = env.solver_action()
        assert first == 0  # SFAR's corner, as the CLI's default first click
        _, reward, terminated, _, info = env.step(first)
        guesses, last = 0, None
        while not terminated:
            cell = env.solver_action()
            p = info["probabilities"].flat[cell]
            if p > 0:
                guesses += 1
                last = [cell % env.width, cell // env.width], p
            _, reward, terminated, _, info = env.step(cell)
        assert (reward == 1.0) == cli["won"], seed
        assert guesses == cli["guesses"], seed
        if last is not None:
            assert last[0] == cli["last_guess"]["cell"]
            assert last[1] == pytest.approx(cli["last_guess"]["mine_probability"])


def test_version_is_the_installed_distribution_version():
    """``arcadekit.__version__`` (from the compiled engines) is what pip
    installed, so a log that records it names the engines that ran."""
    import importlib.metadata
    import re

    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", arcadekit.__version__)
    assert arcadekit.__version__ == importlib.metadata.version("arcadekit")


@pytest.mark.parametrize("seed", [1, 2])
def test_flappy_oracle_action_replays_the_cli_oracle(arcade, seed):
    cli = arcade("flappy", "play", "--policy", "oracle", "--seed", seed, "--max-pipes", 60)
    env = arcadekit.FlappyEnv(max_pipes=60)
    env.reset(seed=seed)
    terminated = truncated = False
    flaps = 0
    while not (terminated or truncated):
        action = env.oracle_action()
        stay, flap = env.viability_margins()
        assert action == int(flap > stay) and max(stay, flap) >= 0
        flaps += action
        _, _, terminated, truncated, info = env.step(action)
    assert (info["pipes"], info["frames"], terminated) == (cli["pipes"], cli["frames"], cli["crashed"])
    assert truncated and info["pipes"] == 60 and flaps > 100
    assert env.viability_margins() == (-1, -1)


@pytest.mark.parametrize("ai", ["bcts", "dellacherie", "el-tetris"])
def test_a_linear_value_over_afterstate_features_plays_as_the_ai(ai):
    # The AI's action must have the largest features @ weights of the legal
    # actions (ties go to the placement nearer the centre, so it need not be
    # the first argmax); illegal actions' rows are zero.
    names, weights = arcadekit.tetris_features(), arcadekit.tetris_weights(ai)
    assert len(names) == weights.shape[0] == 12 and names[0] == "landing_height"
    env = arcadekit.TetrisEnv(width=8, height=12)
    _, info = env.reset(seed=3)
    checked = unique = episodes = 0
    for t in range(1500):
        features = env.afterstate_features()
        legal = info["action_mask"].astype(bool)
        assert features.shape == (32, 12) and not features[~legal].any()
        value = features @ weights
        best = value[legal].max()
        action = env.ai_action(ai)
        assert value[action] >= best - 1e-9 * max(1.0, abs(best)), (t, action, value[action], best)
        unique += np.sum(value[legal] >= best - 1e-9 * max(1.0, abs(best))) == 1
        checked += 1
        _, _, terminated, truncated, info = env.step(action if t % 9 else int(np.flatnonzero(legal)[t % legal.sum()]))
        if terminated or truncated:
            episodes += 1
            _, info = env.reset(seed=100 + t)
    assert checked == 1500 and unique >= 1000 and episodes >= 2, (unique, episodes)


def test_tetris_weights_refuse_an_unknown_ai():
    with pytest.raises(ValueError, match="unknown AI"):
        arcadekit.tetris_weights("nope")


@pytest.mark.parametrize("make", ENV_MAKERS)
def test_step_and_render_before_reset_need_a_reset(make):
    """Built directly (not through ``gym.make``'s ``OrderEnforcing``), Tetris,
    Flappy Bird, Minesweeper and Jump In' stepped a game nobody had seeded,
    and Sheep a Sheep failed with an ``AttributeError``."""
    env = make()
    for call, name in [(lambda: env.step(0), "step"), (env.render, "render")]:
        with pytest.raises(gym.error.ResetNeeded, match=rf"^call reset\(\) before {name}\(\)$"):
            call()
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]) if hasattr(env, "action_masks") else 0)
    env.render()


EXPERTS = ["action_masks", "afterstate_features", "ai_action", "heuristic_action", "viability_margins",
           "oracle_action", "legal_moves", "solver_action", "code", "greedy_action", "intended", "level_json"]


@pytest.mark.parametrize("make", ENV_MAKERS)
def test_experts_and_masks_before_reset_need_a_reset(make):
    """They answered for a game nobody had seeded; each works after reset."""
    env = make()
    methods = [name for name in EXPERTS if hasattr(type(env), name)]
    assert methods

    def use(name):  # a method is called; a property (``code``, ``intended``) read
        value = getattr(env, name)
        return value() if callable(value) else value

    for name in methods:
        with pytest.raises(gym.error.ResetNeeded, match=rf"^call reset\(\) before {name}\(\)$"):
            use(name)
    env.reset(seed=0)
    for name in methods:
        use(name)


def test_method_arguments_of_the_wrong_type_are_named():
    tetris, mines, tiles = arcadekit.TetrisEnv(), arcadekit.MinesweeperEnv(), arcadekit.TilesEnv()
    for env in (tetris, mines, tiles):
        env.reset(seed=0)
    for call, message in [
        (lambda: tetris.ai_action(None), r"^ai must be a string, got None \(NoneType\)$"),
        (lambda: mines.solver_action(3), r"^strength must be a string, got 3 \(int\)$"),
        (lambda: tiles.solver_action(seconds="1"), r"^seconds must be a number or None, got '1' \(str\)$"),
    ]:
        with pytest.raises(TypeError, match=message):
            call()


@pytest.mark.parametrize("make", ENV_MAKERS)
def test_bad_seeds_are_value_errors_naming_the_seed(make):
    """``seed=-1`` raised Gymnasium's own error before the package's check."""
    env = make()
    for bad, error, message in [
        (-1, ValueError, r"^seed -1 is out of range \(0 to 2\*\*64 - 1\)$"),
        (2**64, ValueError, r"^seed 18446744073709551616 is out of range \(0 to 2\*\*64 - 1\)$"),
        (np.int64(-3), ValueError, r"^seed -3 is out of range"),
        (1.5, TypeError, r"^seed must be an integer or None, got 1.5 \(float\)$"),
        (True, TypeError, r"^seed must be an integer or None, got True \(bool\)$"),
        ("3", TypeError, r"^seed must be an integer or None, got '3' \(str\)$"),
    ]:
        with pytest.raises(error, match=message):
            env.reset(seed=bad)
    env.reset(seed=2**64 - 1)


def test_minesweeper_truncates_an_agent_stuck_on_revealed_cells():
    """Revealing a revealed cell does nothing, so an agent that kept doing it
    played one episode forever; it is truncated after width × height steps."""
    env = arcadekit.MinesweeperEnv(level="5x4/3")
    for seed in range(20):
        env.reset(seed=seed)
        grid, _, terminated, truncated, info = env.step(0)
        if not terminated:
            break
    assert not terminated, "some seed must leave the game running after the first click"
    revealed = int(np.flatnonzero(grid.ravel() >= 0)[0])
    outcomes = [env.step(revealed)[2:4] for _ in range(18)]
    assert outcomes == [(False, False)] * 18 and info["status"] == "playing"
    grid, reward, terminated, truncated, info = env.step(revealed)  # the 20th step
    assert (reward, terminated, truncated, info["status"]) == (0.0, False, True, "playing")
    # The game could go on: the mask still holds its hidden cells.
    np.testing.assert_array_equal(info["action_mask"], (grid.ravel() == -1).astype(np.int8))
    assert info["action_mask"].any() and env.solver_action() is None
    with pytest.raises(ValueError, match=r"^the game is over: reset it first$"):
        env.step(revealed)
    # A game that reveals no cell twice ends before the limit: the solver's
    # games all end by a win or a mine.
    for seed in range(30):
        env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            _, _, terminated, truncated, _ = env.step(env.solver_action())
            steps, done = steps + 1, terminated or truncated
            assert not truncated
        assert steps < 20


def test_flappy_helpers_say_none_once_the_game_is_over():
    env = arcadekit.FlappyEnv()
    env.reset(seed=1)
    assert env.heuristic_action() in (0, 1)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(0)
    assert env.heuristic_action() is None and env.oracle_action() is None
    assert env.viability_margins() == (-1, -1)


def test_a_truncated_game_keeps_its_action_mask():
    # Truncation is where a learner bootstraps from the last state: its mask
    # (and Tetris's afterstate features) are the game's, as if uncapped.
    capped, free = arcadekit.TetrisEnv(max_pieces=5), arcadekit.TetrisEnv()
    _, info = capped.reset(seed=2)
    free.reset(seed=2)
    truncated = False
    while not truncated:
        a = capped.ai_action()
        _, _, terminated, truncated, info = capped.step(a)
        _, _, _, _, free_info = free.step(a)
        assert not terminated
    assert info["action_mask"].sum() > 0
    np.testing.assert_array_equal(info["action_mask"], free_info["action_mask"])
    np.testing.assert_array_equal(capped.afterstate_features(), free.afterstate_features())

    vector = arcadekit.TetrisVectorEnv(3, max_pieces=5, seed=4)
    _, infos = vector.reset()
    for _ in range(5):
        _, _, terms, truncs, infos = vector.step(vector.ai_actions())
    assert truncs.all() and not terms.any() and (infos["action_mask"].sum(axis=1) > 0).all()

    mines = arcadekit.MinesweeperEnv(level="beginner")
    obs, _ = mines.reset(seed=1)
    obs, *_ = mines.step(40)
    opened = int(np.flatnonzero(obs.ravel() >= 0)[0])
    truncated = False
    while not truncated:  # an agent stuck on an open cell is cut off
        obs, _, terminated, truncated, info = mines.step(opened)
        assert not terminated
    np.testing.assert_array_equal(info["action_mask"], (obs.ravel() == -1).astype(np.int8))
    assert info["action_mask"].sum() > 0
