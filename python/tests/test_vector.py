"""The Rust vector environments: same episodes at any num_envs, next-step
autoreset, equal to the single environments for the derived seeds."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, VectorEnv

import arcadekit as ak

MAKERS = {
    "tetris": lambda n, **kw: ak.TetrisVectorEnv(n, width=6, height=8, **kw),
    "flappy": lambda n, **kw: ak.FlappyVectorEnv(n, max_pipes=3, **kw),
    "mines": lambda n, **kw: ak.MinesweeperVectorEnv(n, level="6x6/5", **kw),
    "tiles": lambda n, **kw: ak.TilesVectorEnv(n, layers=14, difficulty=0.2, **kw),
    "tiles-win": lambda n, **kw: ak.TilesVectorEnv(n, level="capture", reward="win", **kw),
    "jumpin": lambda n, **kw: ak.JumpInVectorEnv(n, max_moves=6, **kw),
    "jumpin-gen": lambda n, **kw: ak.JumpInVectorEnv(n, puzzles="generated", moves=3, max_moves=8, **kw),
}
SINGLE = {
    "tetris": lambda: ak.TetrisEnv(width=6, height=8),
    "flappy": lambda: ak.FlappyEnv(max_pipes=3),
    "mines": lambda: ak.MinesweeperEnv(level="6x6/5"),
    "tiles": lambda: ak.TilesEnv(layers=14, difficulty=0.2),
    "tiles-win": lambda: ak.TilesEnv(level="capture", reward="win"),
    "jumpin": lambda: ak.JumpInEnv(max_moves=6),
    "jumpin-gen": lambda: ak.JumpInEnv(puzzles="generated", moves=3, max_moves=8),
}


def _game(obs, i=None):
    """Game ``i``'s observation of a vector step (or a single one's) as one
    flat array, for comparison."""
    if isinstance(obs, dict):
        parts = [obs[k] if i is None else obs[k][i] for k in sorted(obs)]
        return np.concatenate([np.asarray(p).ravel() for p in parts])
    return np.asarray(obs if i is None else obs[i])


def _actions(kind, info, t, n):
    """Sub-environment i's action at step t depends on (i, t) and its own
    mask only, so it is the same whatever num_envs is (legal when masked)."""
    i = np.arange(n)[:, None]
    if kind == "flappy":
        return (((i[:, 0] * 7919 + t * 104729) % 10) == 0).astype(np.int64)
    mask = np.asarray(info["action_mask"])
    key = (np.arange(mask.shape[1])[None, :] * 13 + i * 7 + t * 5) % 97 + 1
    return (key * mask).argmax(axis=1)


def _run(kind, num_envs, steps, seed=11):
    env = MAKERS[kind](num_envs)
    obs, info = env.reset(seed=seed)
    trace = []
    for t in range(steps):
        obs, reward, term, trunc, info = env.step(_actions(kind, info, t, num_envs))
        trace.append((_game(obs, 0).copy(), reward[0], term[0], trunc[0]))
    return trace


# Enough sub-environments to step on several threads (each game's PARALLEL_MIN).
PARALLEL = {"tetris": 260, "flappy": (1 << 16) + 8, "mines": 300, "tiles": 70, "tiles-win": 70, "jumpin": 70,
            "jumpin-gen": 70}


@pytest.mark.parametrize("kind", MAKERS)
def test_same_seed_same_episodes_at_any_num_envs(kind):
    steps = 300
    one = _run(kind, 1, steps)
    for n in [3, PARALLEL[kind]]:
        many = _run(kind, n, steps)
        for a, b in zip(one, many):
            np.testing.assert_array_equal(a[0], b[0])
            assert a[1:] == b[1:]
    assert sum(t[2] or t[3] for t in one) >= 2, "several episodes were played"


@pytest.mark.parametrize("kind", MAKERS)
def test_next_step_autoreset_replays_the_single_env_episodes(kind):
    env = MAKERS[kind](2)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    seed = 5
    obs, info = env.reset(seed=seed)
    single = SINGLE[kind]()
    s_obs, s_info = single.reset(seed=int(ak.episode_seed(seed, 1, 0)))
    episode, ended, checked = 0, False, 0
    for t in range(400):
        actions = _actions(kind, info, t, 2)
        obs, reward, term, trunc, info = env.step(actions)
        if ended:  # the autoreset step: reward 0, a fresh episode
            assert reward[1] == 0 and not term[1] and not trunc[1]
            episode += 1
            s_obs, s_info = single.reset(seed=int(ak.episode_seed(seed, 1, episode)))
        else:
            s_obs, s_reward, s_term, s_trunc, s_info = single.step(actions[1])
            assert (reward[1], term[1], trunc[1]) == (s_reward, s_term, s_trunc)
        np.testing.assert_array_equal(_game(obs, 1), _game(s_obs))
        if "action_mask" in info:
            np.testing.assert_array_equal(info["action_mask"][1], s_info["action_mask"])
        extra = {"tiles": ["cleared", "illegal_action"], "jumpin": ["moves", "solved", "illegal_action"]}
        for key in extra.get(kind.split("-")[0], []):
            assert info[key][1] == s_info[key], key
        checked += 1
        ended = term[1] or trunc[1]
    assert episode >= 1 and checked == 400


RENDERED = {
    "tetris": (lambda: ak.TetrisVectorEnv(2, width=6, height=8, render_mode="rgb_array"),
               lambda: ak.TetrisEnv(width=6, height=8, render_mode="rgb_array")),
    "flappy": (lambda: ak.FlappyVectorEnv(2, max_pipes=3, render_mode="rgb_array"),
               lambda: ak.FlappyEnv(max_pipes=3, render_mode="rgb_array")),
    "mines": (lambda: ak.MinesweeperVectorEnv(2, level="6x6/5", render_mode="rgb_array"),
              lambda: ak.MinesweeperEnv(level="6x6/5", render_mode="rgb_array")),
    "tiles": (lambda: ak.TilesVectorEnv(2, layers=14, difficulty=0.2, render_mode="rgb_array"),
              lambda: ak.TilesEnv(layers=14, difficulty=0.2, render_mode="rgb_array")),
    "jumpin": (lambda: ak.JumpInVectorEnv(2, max_moves=6, render_mode="rgb_array"),
               lambda: ak.JumpInEnv(max_moves=6, render_mode="rgb_array")),
}


@pytest.mark.parametrize("kind", RENDERED)
def test_vector_frames_are_the_single_env_frames(kind):
    """render() gives each game's frame, the single environment's frame of
    the same game, across episodes (the autoreset step shows the new one)."""
    make_vector, make_single = RENDERED[kind]
    env, single = make_vector(), make_single()
    # Before reset() it refuses, as the single environments do.
    with pytest.raises(ResetNeeded, match=r"^call reset\(\) before render\(\)$"):
        env.render()
    seed = 5
    _, info = env.reset(seed=seed)
    single.reset(seed=int(ak.episode_seed(seed, 1, 0)))
    episode, ended, changed = 0, False, 0
    last = single.render()
    for t in range(200):
        actions = _actions(kind, info, t, 2)
        _, _, term, trunc, info = env.step(actions)
        if ended:
            episode += 1
            single.reset(seed=int(ak.episode_seed(seed, 1, episode)))
        else:
            single.step(actions[1])
        frames = env.render()
        assert len(frames) == 2 and frames[0].dtype == np.uint8
        np.testing.assert_array_equal(frames[1], single.render())
        changed += not np.array_equal(frames[1], last)
        last = frames[1]
        ended = term[1] or trunc[1]
    assert episode >= 1 and changed >= 20, (episode, changed)
    assert env.metadata["render_fps"] == single.metadata["render_fps"]
    assert _reset(MAKERS[kind](1)).render() is None
    with pytest.raises(ValueError, match="unknown render_mode 'human'"):
        type(env)(1, render_mode="human")


def test_mines_vector_truncates_games_stuck_on_revealed_cells_as_the_single_env():
    """Clicking cell 0 again and again: each game ends by the first click (a
    win or a mine) or is truncated at width × height steps, as the single
    environment's game of the derived seed, and then autoresets."""
    env, single = ak.MinesweeperVectorEnv(3, level="5x4/3"), ak.MinesweeperEnv(level="5x4/3")
    seed = 7
    env.reset(seed=seed)
    single.reset(seed=int(ak.episode_seed(seed, 2, 0)))
    episode, ended, truncations = 0, False, 0
    for _ in range(200):
        _, reward, term, trunc, _ = env.step(np.zeros(3, dtype=np.int64))
        if ended:
            episode += 1
            single.reset(seed=int(ak.episode_seed(seed, 2, episode)))
            assert (reward[2], term[2], trunc[2]) == (0, False, False)
        else:
            _, s_reward, s_term, s_trunc, _ = single.step(0)
            assert (reward[2], term[2], trunc[2]) == (s_reward, s_term, s_trunc)
        truncations += trunc[2]
        ended = term[2] or trunc[2]
    assert truncations >= 2 and episode >= 3, (truncations, episode)


def test_mines_vector_probabilities_are_the_single_env_probabilities():
    """infos["probabilities"] holds each game's exact probabilities: game 1's
    are the single environment's for the derived seed, across episodes."""
    env = ak.MinesweeperVectorEnv(3, level="8x8/10", probabilities=True)
    single = ak.MinesweeperEnv(level="8x8/10", probabilities=True)
    seed = 7
    _, info = env.reset(seed=seed)
    _, s_info = single.reset(seed=int(ak.episode_seed(seed, 1, 0)))
    episode, ended, compared = 0, False, 0
    for t in range(150):
        actions = _actions("mines", info, t, 3)
        obs, _, term, trunc, info = env.step(actions)
        if ended:
            episode += 1
            _, s_info = single.reset(seed=int(ak.episode_seed(seed, 1, episode)))
        else:
            _, _, _, _, s_info = single.step(actions[1])
        p = info["probabilities"]
        assert p.shape == (3, 8, 8) and p.dtype == np.float64
        np.testing.assert_array_equal(p[1], s_info["probabilities"])
        hidden = obs == -1
        assert np.all(p[~hidden] == 0) and np.all((p >= 0) & (p <= 1))
        compared += bool(np.any((p[1] > 0) & (p[1] < 1)))
        ended = term[1] or trunc[1]
    assert episode >= 2 and compared >= 20, (episode, compared)
    assert "probabilities" not in ak.MinesweeperVectorEnv(2).reset(seed=0)[1]


def test_make_vec_and_batched_spaces():
    env = gym.make_vec("arcadekit/Flappy-v0", num_envs=4, vectorization_mode="vector_entry_point")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4, 5) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    obs, reward, term, trunc, info = env.step(env.action_space.sample())
    assert reward.shape == term.shape == trunc.shape == (4,)
    tetris = ak.TetrisVectorEnv(3)
    obs, info = tetris.reset(seed=0)
    assert tetris.observation_space.contains(obs)


def test_vector_errors():
    env = ak.TetrisVectorEnv(2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.array([0, 99]))
    # The wrong number of actions reads the same in every vector environment,
    # whatever their type.
    for vec in [env, ak.FlappyVectorEnv(2), ak.MinesweeperVectorEnv(2)]:
        vec.reset(seed=0)
        for wrong in [np.array([0, 1, 0]), [0, 1, 0], np.array([0], dtype=np.int32)]:
            with pytest.raises(ValueError, match=r"^expected 2 actions, got [13]$"):
                vec.step(wrong)
    with pytest.raises(ValueError, match=r"^sub-environment 1: action 5 is out of range \(0 to 1\)$"):
        _reset(ak.FlappyVectorEnv(2)).step(np.array([0, 5]))
    # Float actions were truncated to integers and played; now refused.
    for vec in [env, ak.FlappyVectorEnv(2), ak.MinesweeperVectorEnv(2)]:
        vec.reset(seed=0)
        for floats in [np.array([0.0, 0.7]), [0.5, 1.0]]:
            with pytest.raises(TypeError, match=r"^actions must be integers, got an array of float64$"):
                vec.step(floats)
        vec.step(np.array([0, 1], dtype=np.uint8))
        vec.step([True, False])
    with pytest.raises(ValueError, match=r"^num_envs 0 is out of range \(1 to 1048576\)$"):
        ak.MinesweeperVectorEnv(0)
    # Too many games is an error, not an aborted allocation.
    with pytest.raises(ValueError, match=r"^num_envs 1000000000 is out of range"):
        ak.TetrisVectorEnv(10**9)
    with pytest.raises(ValueError, match=r"^num_envs 300 is too many for boards of 1000000 cells: at most 268 "):
        ak.MinesweeperVectorEnv(300, level="1000x1000/10")
    with pytest.raises(ValueError, match=r"^num_envs must not be negative, got -1$"):
        ak.FlappyVectorEnv(-1)
    for make in MAKERS.values():
        with pytest.raises(TypeError, match=r"^num_envs must be an integer, got True \(bool\)$"):
            type(make(1))(True)
    # Cast to int64, 2^64 - 1 read as action -1.
    with pytest.raises(ValueError, match=r"^action 18446744073709551615 is out of range \(0 to 39\)$"):
        env.step(np.array([0, 2**64 - 1], dtype=np.uint64))
    with pytest.raises(ValueError, match=r"^seed -1 is out of range \(0 to 2\*\*64 - 1\)$"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=[1, 2])
    # A NumPy integer seed is the same seed (Gymnasium's seeding refused it).
    for vec in [ak.TetrisVectorEnv(2), ak.FlappyVectorEnv(2), ak.MinesweeperVectorEnv(2)]:
        want = _first_legal_episode(vec, 5)
        assert not np.array_equal(_first_legal_episode(vec, 6), want)
        assert np.array_equal(_first_legal_episode(vec, np.int64(5)), want)


def _first_legal_episode(vec, seed, steps=5):
    """Every observation array of ``steps`` first-legal actions from ``reset(seed=seed)``, flattened."""
    obs, info = vec.reset(seed=seed)
    seen = []
    for _ in range(steps):
        seen += [np.ravel(v) for v in (obs.values() if isinstance(obs, dict) else [obs])]
        mask = info.get("action_mask")
        actions = np.zeros(vec.num_envs, dtype=np.int64) if mask is None else mask.argmax(1)
        obs, _, _, _, info = vec.step(actions)
    return np.concatenate([a.astype(np.float64) for a in seen])


@pytest.mark.parametrize("num_envs", [5, PARALLEL["tetris"]])
def test_tetris_fused_step_equals_step_then_observe(num_envs):
    """TetrisVectorEnv.step (one Rust pass: step, observe, mask, scores) gives
    what the core's separate step, observe and scores calls give."""
    env = ak.TetrisVectorEnv(num_envs, width=6, height=8)
    ref = ak._arcadekit.TetrisVectorCore(num_envs, 0, 6, 8)
    obs, info = env.reset(seed=5)
    ref.reset(5)
    rng = np.random.default_rng(1)
    ends = 0
    for t in range(200):
        acts = (info["action_mask"] * rng.random(info["action_mask"].shape)).argmax(1)
        # Every other step, actions Rust cannot take as they are (converted first).
        given = acts if t % 2 else acts.astype(np.int32)[:, None]
        obs, reward, term, trunc, info = env.step(given)
        r_reward, r_term, r_trunc = ref.step(acts)
        board, piece, nxt, mask = ref.observe()
        np.testing.assert_array_equal(obs["board"], board)
        np.testing.assert_array_equal(obs["piece"], piece)
        np.testing.assert_array_equal(obs["next"], nxt)
        np.testing.assert_array_equal(info["action_mask"], mask)
        np.testing.assert_array_equal(info["score"], ref.scores())
        np.testing.assert_array_equal(reward, r_reward)
        np.testing.assert_array_equal(term, r_term)
        np.testing.assert_array_equal(trunc, r_trunc)
        assert info["action_mask"].dtype == np.int8 and reward.dtype == np.float64
        ends += int((term | trunc).sum())
    assert ends >= num_envs, "episodes ended and were reset along the way"


def test_tetris_sample_legal_actions_are_legal_uniform_and_seeded():
    """sample_legal_actions draws a legal placement for every game, each legal
    one about equally often, and sub-environment i draws the same actions for
    the same seed whatever num_envs is."""
    env = ak.TetrisVectorEnv(4, width=6, height=8)
    _, info = env.reset(seed=3)
    mask = info["action_mask"]
    draws = np.stack([env.sample_legal_actions() for _ in range(6000)])
    assert draws.dtype == np.int64 and draws.shape == (6000, 4)
    checked = 0
    for i in range(4):
        legal = np.flatnonzero(mask[i])
        counts = np.bincount(draws[:, i], minlength=mask.shape[1])
        assert set(np.flatnonzero(counts)) == set(legal), "every legal one drawn, nothing else"
        expected = 6000 / len(legal)
        assert np.all(np.abs(counts[legal] - expected) < 5 * np.sqrt(expected))
        checked += len(legal)
    assert checked >= 4 * 10

    def trace(n, steps=300):
        env = ak.TetrisVectorEnv(n, width=6, height=8)
        _, info = env.reset(seed=9)
        out, ends = [], 0
        for _ in range(steps):
            acts = env.sample_legal_actions()
            mask = info["action_mask"]
            # A game that just ended may have no legal placement (its action is
            # ignored: the next step resets it); it draws 0.
            playable = mask.any(axis=1)
            assert np.all(mask[np.arange(n), acts][playable] == 1)
            assert np.all(acts[~playable] == 0)
            out.append(acts[0])
            _, _, term, trunc, info = env.step(acts)
            ends += int(term[0] or trunc[0])
        return out, ends

    one, ends = trace(1)
    assert one == trace(7)[0]
    assert ends >= 2, "several episodes were played"
    assert len(set(one)) >= 10, "the draws vary"


@pytest.mark.parametrize("num_envs", [5, 300])
def test_flappy_fused_step_equals_step_then_observe(num_envs):
    """FlappyVectorEnv.step (one Rust call, the GIL kept below 256 games and
    released from there) gives what the core's separate step, observe and
    scores calls give, and fresh arrays every step."""
    env = ak.FlappyVectorEnv(num_envs, max_pipes=2)
    ref = ak._arcadekit.FlappyVectorCore(num_envs, 0, 2)
    env.reset(seed=3)
    ref.reset(3)
    rng = np.random.default_rng(2)
    ends, kept = 0, None
    for t in range(400):
        acts = (rng.random(num_envs) < 0.1).astype(np.int64)
        # Every third step, actions Rust cannot take as they are (converted first).
        given = acts.astype(np.int8)[:, None] if t % 3 == 0 else acts
        obs, reward, term, trunc, info = env.step(given)
        r_reward, r_term, r_trunc = ref.step(acts)
        np.testing.assert_array_equal(obs, ref.observe())
        np.testing.assert_array_equal(info["pipes"], ref.scores())
        np.testing.assert_array_equal(reward, r_reward)
        np.testing.assert_array_equal(term, r_term)
        np.testing.assert_array_equal(trunc, r_trunc)
        assert obs.dtype == np.float32 and info["pipes"].dtype == np.uint64
        if kept is not None:  # the previous step's arrays stay as they were returned
            prev_obs, prev_reward, obs_then, reward_then = kept
            np.testing.assert_array_equal(prev_obs, obs_then)
            np.testing.assert_array_equal(prev_reward, reward_then)
        kept = (obs, reward, obs.copy(), reward.copy())
        ends += int((term | trunc).sum())
    assert ends >= num_envs, "episodes ended and were reset along the way"


def test_flappy_copy_false_overwrites_the_returned_arrays():
    """copy=False plays the same games as the default, but every step
    returns the same arrays, overwritten in place: the previous step's
    observation then holds the new one (the default's stays as returned)."""
    n = 70
    fresh, reused = ak.FlappyVectorEnv(n, max_pipes=2), ak.FlappyVectorEnv(n, max_pipes=2, copy=False)
    fresh.reset(seed=4)
    reused.reset(seed=4)
    rng = np.random.default_rng(3)
    prev_fresh = prev_reused = None
    ends = 0
    for t in range(300):
        acts = (rng.random(n) < 0.1).astype(np.int64)
        a = fresh.step(acts)
        b = reused.step(acts if t % 2 else list(acts))
        for x, y in zip(a[:4], b[:4]):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(a[4]["pipes"], b[4]["pipes"])
        if prev_reused is not None:
            assert all(x is y for x, y in zip(prev_reused[:4], b[:4]))
            assert prev_reused[4]["pipes"] is b[4]["pipes"]
            assert not np.shares_memory(prev_fresh[0], a[0])
            if not np.array_equal(prev_fresh[0], a[0]):  # the default kept the old frame
                assert not np.array_equal(prev_reused[0], prev_fresh[0])
        prev_fresh, prev_reused = a, b
        ends += int((a[2] | a[3]).sum())
    assert ends >= n, "episodes ended and were reset along the way"


def test_flappy_subclass_step_is_kept():
    class Counting(ak.FlappyVectorEnv):
        calls = 0

        def step(self, actions):
            Counting.calls += 1
            return super().step(actions)

    env = Counting(2)
    env.reset(seed=0)
    env.step(np.zeros(2, np.int64))
    assert Counting.calls == 1


def test_tiles_vector_illegal_click_ends_only_that_game():
    env = ak.TilesVectorEnv(2, reward="win")
    _, info = env.reset(seed=0)
    covered = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    free = int(np.flatnonzero(info["action_mask"][1])[0])
    _, reward, term, _, info = env.step([covered, free])
    assert term[0] and info["illegal_action"][0] and reward[0] == -1.0
    assert not term[1] and not info["illegal_action"][1] and info["action_mask"][0].sum() == 0
    with pytest.raises(ValueError, match=r"action 360 is out of range \(0 to 359\)"):
        env.step([0, 360])
    free = int(np.flatnonzero(info["action_mask"][1])[0])
    _, reward, term, _, info = env.step([0, free])  # game 0 starts its next episode
    assert reward[0] == 0 and not term[0] and not info["illegal_action"][0] and info["action_mask"][0].any()
    assert not info["illegal_action"][1]


def test_tiles_vector_num_envs_is_bounded_by_memory():
    """A game of 360 tiles keeps about 110 KB, so the bound counts tiles."""
    with pytest.raises(ValueError, match=r"^num_envs 30000 is too many for levels of 360 tiles: at most 23301 "):
        ak.TilesVectorEnv(30000)


@pytest.mark.parametrize("kind", ["tetris", "tiles"])
def test_pickling_a_vector_env_says_what_to_do_instead(kind):
    import copy
    import pickle

    env = MAKERS[kind](2)
    env.reset(seed=1)
    name = type(env).__name__
    for attempt in (pickle.dumps, copy.deepcopy, copy.copy):
        with pytest.raises(TypeError, match=f"^{name} cannot be pickled or deep-copied: build it where it runs"):
            attempt(env)


def _follow(env, single, seed, steps, act):
    """Steps ``env`` ``steps`` times with ``act(t, info, ended)``'s actions,
    its sub-environment 1 followed by ``single``, reset with the derived seed
    of each of its episodes. ``act`` runs before each step, while game 1 and
    ``single`` hold the same game (unless ``ended``: game 1 waits for its
    autoreset). Returns (episodes game 1 began after its first, of which
    ended by termination)."""
    _, info = env.reset(seed=seed)
    single.reset(seed=int(ak.episode_seed(seed, 1, 0)))
    episode, terminated, ended = 0, 0, False
    for t in range(steps):
        actions = act(t, info, ended)
        _, _, term, trunc, info = env.step(actions)
        if ended:
            episode += 1
            single.reset(seed=int(ak.episode_seed(seed, 1, episode)))
        else:
            _, _, s_term, s_trunc, _ = single.step(int(actions[1]))
            assert (term[1], trunc[1]) == (s_term, s_trunc)
            terminated += s_term
        ended = term[1] or trunc[1]
    return episode, terminated


def test_flappy_oracle_margins_are_the_single_envs_through_autoresets():
    # Game 1 of 3 follows the oracle but flaps at random one frame in six,
    # so it crashes and resets; its margins must be the single env's for
    # each derived seed, and (-1, -1) on the frame after it ended.
    env = ak.FlappyVectorEnv(3, max_pipes=4)
    single = ak.FlappyEnv(max_pipes=4)
    rng = np.random.default_rng(0)
    counts = {"split": 0, "doomed": 0, "ended": 0}

    def act(t, info, ended):
        margins = env.viability_margins()
        assert margins.shape == (3, 2) and margins.dtype == np.int32
        actions = env.oracle_actions()
        np.testing.assert_array_equal(actions, (margins[:, 1] > margins[:, 0]).astype(np.int64))
        if ended:
            assert tuple(margins[1]) == (-1, -1)
            counts["ended"] += 1
        else:
            assert tuple(margins[1]) == single.viability_margins()
            assert actions[1] == single.oracle_action()
            counts["split"] += margins[1, 0] != margins[1, 1]
            counts["doomed"] += min(margins[1]) == -1
        if rng.random() < 1 / 6:
            actions[1] = 1
        return actions

    episodes, crashes = _follow(env, single, 9, 1500, act)
    # Exercised: the actions' margins differ, some states are doomed, and
    # several episodes ended (crashes among them).
    assert counts["split"] >= 100 and counts["doomed"] >= 5, counts
    assert episodes == counts["ended"] >= 3 and crashes >= 2, (counts, crashes)


EXPERTS = {
    "tetris": ("ai_actions", "ai_action", "bcts"),
    "mines": ("solver_actions", "solver_action", "standard"),
    "jumpin": ("solver_actions", "solver_action", None),
}


@pytest.mark.parametrize("kind", EXPERTS)
def test_expert_actions_are_the_single_envs_through_autoresets(kind):
    # Game 1 of 3 follows the expert but takes a random legal action one step
    # in four, so it loses and resets; its expert action must be the single
    # env's for each derived seed.
    vector_method, single_method, arg = EXPERTS[kind]
    args = [arg][:arg is not None]
    env, single = MAKERS[kind](3), SINGLE[kind]()
    rng = np.random.default_rng(1)
    counts = {"compared": 0, "off_expert": 0}

    def act(t, info, ended):
        actions = getattr(env, vector_method)(*args)
        assert actions.shape == (3,) and actions.dtype == np.int64
        if ended:
            assert actions[1] == 0
            return actions
        assert actions[1] == getattr(single, single_method)(*args)
        counts["compared"] += 1
        if rng.random() < 0.25:
            actions[1] = rng.choice(np.flatnonzero(info["action_mask"][1]))
            counts["off_expert"] += 1
        return actions

    episodes, _ = _follow(env, single, 4, 300, act)
    assert counts["compared"] >= 200 and counts["off_expert"] >= 30 and episodes >= 3, (counts, episodes)


def _reset(env):
    env.reset(seed=0)
    return env


def test_expert_actions_refuse_an_unknown_ai_or_strength():
    with pytest.raises(ValueError, match="unknown"):
        _reset(MAKERS["tetris"](2)).ai_actions("no-such-ai")
    with pytest.raises(ValueError, match="unknown solver strength"):
        _reset(MAKERS["mines"](2)).solver_actions("strongest")
    with pytest.raises(TypeError, match=r"^ai must be a string, got None \(NoneType\)$"):
        _reset(MAKERS["tetris"](2)).ai_actions(None)


def test_tiles_solver_actions_are_the_single_envs_with_the_greedy_fallback():
    # Game 1 of 3 follows the solver (1,000 positions a click, so some
    # positions stay undecided) but clicks at random one step in four, so it
    # loses positions and resets; its action must be the single env's solver
    # click, else its greedy click, and -1 without a fallback; its greedy
    # click the single env's.
    make = dict(layers=14, difficulty=0.8)
    env, single = ak.TilesVectorEnv(3, **make), ak.TilesEnv(**make)
    rng = np.random.default_rng(1)
    counts = {"compared": 0, "fallback": 0, "off_expert": 0}

    def act(t, info, ended):
        actions, bare = env.solver_actions(1000), env.solver_actions(1000, fallback=None)
        assert actions.shape == (3,) and actions.dtype == np.int64
        np.testing.assert_array_equal(actions[bare >= 0], bare[bare >= 0])
        if ended:
            assert actions[1] == bare[1] == env.greedy_actions()[1] == 0
            return actions
        solver = single.solver_action(nodes=1000)
        assert bare[1] == (-1 if solver is None else solver)
        assert env.greedy_actions()[1] == single.greedy_action()
        assert actions[1] == (single.greedy_action() if solver is None else solver)
        assert info["action_mask"][1][actions[1]] == 1
        counts["compared"] += 1
        counts["fallback"] += solver is None
        if rng.random() < 0.25:
            actions[1] = rng.choice(np.flatnonzero(info["action_mask"][1]))
            counts["off_expert"] += 1
        return actions

    episodes, _ = _follow(env, single, 4, 300, act)
    assert counts["compared"] >= 250 and counts["fallback"] >= 20 and counts["off_expert"] >= 40, counts
    assert episodes >= 3, episodes


def test_tiles_solver_actions_win_generated_levels():
    # Generated levels are solvable by construction, and the solver's clicks
    # win every one of them.
    env = ak.TilesVectorEnv(4, layers=14)
    env.reset(seed=2)
    results = []
    while len(results) < 12:
        _, _, term, _, info = env.step(env.solver_actions())
        results += [info["cleared"][i] for i in np.flatnonzero(term)]
    # A won level has cleared all its tiles, three at a time.
    assert results == [env.single_observation_space["kind"].shape[0] // 3] * len(results), results


def test_tiles_solver_budgets_are_checked():
    env = _reset(ak.TilesVectorEnv(2))
    # The same range and words as tiles_solve's (and the CLI's --nodes).
    for bad in (0, -5, 10**12 + 1, 2**70):
        with pytest.raises(ValueError, match=rf"^nodes {bad} is out of range \(1 to 1000000000000\)$"):
            env.solver_actions(bad)
    with pytest.raises(ValueError, match='^unknown fallback "random"'):
        env.solver_actions(fallback="random")
    for bad in (1.5, "10", None, True):
        with pytest.raises(TypeError, match="^nodes must be an integer, got "):
            env.solver_actions(bad)
    assert env.solver_actions(10**12).shape == (2,)
    single = ak.TilesEnv()
    single.reset(seed=0)
    # A huge number is quoted as 1e300, not as its 301 digits.
    for bad, shown in ((float("nan"), "nan"), (0.0, "0"), (1e300, "1e300"), (-1e-300, "-1e-300")):
        with pytest.raises(ValueError, match=rf"^seconds: expected a number of seconds above 0 and at most 31536000 \(a year\), got {shown}$"):
            single.solver_action(seconds=bad)
    for bad in (0, -1, 2**70):
        with pytest.raises(ValueError, match=rf"^nodes {bad} is out of range \(1 to 1000000000000\)$"):
            single.solver_action(nodes=bad)
    with pytest.raises(TypeError, match=r"^nodes must be an integer or None, got 1\.5 \(float\)$"):
        single.solver_action(nodes=1.5)


def test_tetris_afterstate_features_are_the_single_envs_through_autoresets():
    env, single = MAKERS["tetris"](3), SINGLE["tetris"]()
    compared = 0

    def act(t, info, ended):
        nonlocal compared
        features = env.afterstate_features()
        assert features.shape == (3, 24, 12)
        if ended:
            assert not features[1].any()
        else:
            np.testing.assert_array_equal(features[1], single.afterstate_features())
            compared += 1
        return _actions("tetris", info, t, 3)

    episodes, _ = _follow(env, single, 6, 200, act)
    assert compared >= 150 and episodes >= 3, (compared, episodes)


EXPERT_METHODS = {
    "tetris": ["sample_legal_actions", "afterstate_features", "ai_actions"],
    "flappy": ["viability_margins", "oracle_actions"],
    "mines": ["solver_actions"],
    "tiles": ["solver_actions", "greedy_actions"],
    "jumpin": ["solver_actions"],
}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_vector_envs_refuse_play_before_reset(kind):
    """step, render and every expert raise ResetNeeded before the first
    reset, as the single environments do; they work after it."""
    env = MAKERS[kind](2)
    calls = {"step": lambda: env.step(np.zeros(2, np.int64)), "render": env.render}
    calls.update({name: getattr(env, name) for name in EXPERT_METHODS[kind.split("-")[0]]})
    for name, call in calls.items():
        with pytest.raises(ResetNeeded, match=rf"^call reset\(\) before {name}\(\)$"):
            call()
    env.reset(seed=0)
    for name in EXPERT_METHODS[kind.split("-")[0]]:
        assert np.asarray(getattr(env, name)()).shape[0] == 2
    env.step(np.zeros(2, np.int64))


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_constructor_seed_seeds_the_first_unseeded_reset(kind):
    """seed=s in the constructor: a first reset() without one plays reset(seed=s)'s
    games; without it, two environments draw different seeds."""
    a, b, c = MAKERS[kind](3, seed=11), MAKERS[kind](3), MAKERS[kind](3)
    first = a.reset()[0]
    again = a.reset(seed=11)[0]
    for x, y in zip(_leaves(first), _leaves(again)):
        np.testing.assert_array_equal(x, y)
    # Unseeded: the episode seeds come from Gymnasium's np_random, drawn anew.
    b.reset()
    c.reset()
    assert b.np_random_seed != c.np_random_seed


def _leaves(obs):
    return [obs[k] for k in sorted(obs)] if isinstance(obs, dict) else [obs]


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_actions_of_another_shape_are_refused(kind):
    """(num_envs,) and (num_envs, 1) are actions; a (2, 2) array of the right
    size is a batch laid out wrongly. An unsigned action past 2^63 is named,
    not wrapped to a negative one (Flappy Bird's Rust path included)."""
    env = _reset(MAKERS[kind](4))
    with pytest.raises(ValueError, match=r"^expected actions of shape \(4,\) or \(4, 1\), got \(2, 2\)$"):
        env.step(np.zeros((2, 2), np.int64))
    top = env.single_action_space.n - 1
    with pytest.raises(ValueError, match=rf"^action {2**63} is out of range \(0 to {top}\)$"):
        env.step(np.full(4, 2**63, np.uint64))
    with pytest.raises(ValueError, match=rf"^action {2**70} is out of range \(0 to {top}\)$"):
        env.step([2**70, 0, 0, 0])
    env.step(np.zeros((4, 1), np.int32))


def test_flappy_margins_of_more_games_than_judges_fit_are_the_same():
    # Past a gigabyte of judges (about 2,300 games) the games share a judge a
    # thread instead of keeping one each (65,536 games asked for 30 GB): the
    # margins must not change. Game i is the same game at any num_envs.
    many, few = ak.FlappyVectorEnv(3000, seed=3), ak.FlappyVectorEnv(32, seed=3)
    many.reset()
    few.reset()
    for _ in range(90):  # to the first pipe; games past the 32 fall and restart
        actions = np.zeros(3000, dtype=np.int64)
        actions[:32] = few.oracle_actions()
        many.step(actions)
        few.step(actions[:32])
    seen = set()
    for _ in range(12):
        margins = many.viability_margins()
        np.testing.assert_array_equal(margins[:32], few.viability_margins())
        seen |= {tuple(m) for m in margins[:32]}
        actions = many.oracle_actions()
        np.testing.assert_array_equal(actions[:32], few.oracle_actions())
        many.step(actions)
        few.step(actions[:32])
    assert len(seen) >= 10, seen


def test_an_ended_game_ignores_its_action_whatever_it_is():
    # NEXT_STEP autoreset: the step after an episode ends starts the next one
    # and ignores that game's action, so a placeholder such as -1 is fine
    # there (as in SyncVectorEnv); elsewhere it is still an error.
    env = ak.TetrisVectorEnv(2, max_pieces=2, seed=1)
    env.reset()
    env.step(env.ai_actions())
    _, _, _, truncs, _ = env.step(env.ai_actions())
    assert truncs.all()
    fresh = ak.TetrisVectorEnv(2, seed=1)
    fresh.reset()
    with pytest.raises(ValueError, match=r"sub-environment 0: action -1 is out of range"):
        fresh.step([-1, 0])
    _, rewards, terms, truncs, _ = env.step([-1, 10**6])
    assert not terms.any() and not truncs.any() and (rewards == 0).all()


def test_a_zero_dimensional_seed_is_one_integer():
    a, b = ak.MinesweeperVectorEnv(2), ak.MinesweeperVectorEnv(2)
    a.reset(seed=np.array(7))
    b.reset(seed=7)
    first, second = a.step([40, 40])[0], b.step([40, 40])[0]
    np.testing.assert_array_equal(first, second)
    assert (first >= 0).sum() > 2  # the boards were opened, not only compared hidden
    with pytest.raises(ValueError, match="seed must be one integer"):
        a.reset(seed=np.array([7]))


def test_odd_action_containers_get_a_clear_error():
    env = _reset(ak.TetrisVectorEnv(2))
    with pytest.raises(TypeError, match=r"^actions must be 2 integers, got None$"):
        env.step(None)
    with pytest.raises(ValueError, match=r"^action 1180591620717411303424 is out of range \(0 to 39\)$"):
        env.step([0, 2**70])
    with pytest.raises(TypeError, match=r"^actions must be integers, got 'a' \(str\)$"):
        env.step(np.array([0, "a"], dtype=object))
    env.step(np.array([0, np.int64(1)], dtype=object))  # integers in an object array are fine
