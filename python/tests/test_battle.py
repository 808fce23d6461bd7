"""The PettingZoo Minesweeper battle: the API test, the rules, and the arena's games."""

import re

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test

from arcadekit import _arcadekit as _ak
from arcadekit.battle import MinesBattleEnv


@pytest.mark.parametrize("kwargs", [{}, {"level": "8x8/10", "capture_reward": 0.1}, {"level": "5x5/3", "target": 1}])
def test_api_test_passes(kwargs):
    api_test(MinesBattleEnv(**kwargs), num_cycles=300)


def test_render_modes(capsys):
    render_test(lambda render_mode=None: MinesBattleEnv(level="8x8/10", render_mode=render_mode))
    # rgb_array: captured mines in their player's colour (A blue, B red, as
    # on the web arena), the rest a Minesweeper frame.
    env = MinesBattleEnv(level="8x8/10", render_mode="rgb_array")
    env.reset(seed=0)  # greedy against itself: 6 mines to 3
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
            continue
        env.step(env.ai_action("greedy"))
    frame = env.render()
    assert frame.shape == (128, 128, 3) and frame.dtype == np.uint8
    grid = env._core.observe(0)[0]  # seat 0's view; the players have left the game
    blue, red = (frame == [0x15, 0x65, 0xC0]).all(axis=2), (frame == [0xC6, 0x28, 0x28]).all(axis=2)
    assert blue.sum() == (grid == -2).sum() * 256 and red.sum() == (grid == -3).sum() * 256
    assert ((grid == -2).sum(), (grid == -3).sum()) == env.scores == (6, 3)
    human = MinesBattleEnv(level="8x8/10", render_mode="human")
    human.reset(seed=3)
    capsys.readouterr()
    assert human.render() is None and capsys.readouterr().out == human._core.text(False) + "\n"


def play_out(env, seed, first, second):
    """Game ``reset(seed)`` of ``first`` (player_0) against ``second``:
    (mines of first, mines of second, moves, the winner's seat or None)."""
    env.reset(seed=seed)
    players = {"player_0": first, "player_1": second}
    moves = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(env.ai_action(players[agent]))
        moves += 1
    return env.scores[0], env.scores[1], moves, info["winner"]


@pytest.mark.parametrize("first,second", [("ev", "greedy"), ("rule", "ev"), ("greedy", "rule")])
def test_ai_against_ai_replays_the_arena_game(first, second):
    env = MinesBattleEnv(level="10x10/21")
    for seed in range(4):
        a, b, moves, winner = play_out(env, seed, first, second)
        scores, arena_winner, arena_moves = _ak.battle_game(first, second, seed, "10x10/21")
        assert ((a, b), winner, moves) == (scores, arena_winner, arena_moves)
        assert sum(scores) >= 11 or winner is None


@pytest.mark.parametrize("seed", [1, 2, 7, 2**64 - 1])
def test_a_seed_is_the_cli_matchs_first_layout(arcade, seed):
    """``reset(seed=s)`` is game 0 of ``arcade mines battle --seed s``; game 1
    is the same layout with the seats swapped. Two games fix the CLI's means."""
    env = MinesBattleEnv(level="10x10/21")
    a0, b0, m0, winner0 = play_out(env, seed, "ev", "greedy")
    b1, a1, m1, winner1 = play_out(env, seed, "greedy", "ev")
    cli = arcade("mines", "battle", "--a", "ev", "--b", "greedy", "--games", 2, "--seed", seed,
                 "--level", "10x10/21", "--threads", 1)
    assert (cli["mean_mines_a"], cli["mean_mines_b"], cli["mean_moves"]) == ((a0 + a1) / 2, (b0 + b1) / 2, (m0 + m1) / 2)
    assert cli["a_wins"] == (winner0 == 0) + (winner1 == 1)


def test_a_capture_moves_again_and_a_safe_click_passes():
    env = MinesBattleEnv(level="6x6/12")
    env.reset(seed=3)
    seen_capture = seen_pass = False
    while not (seen_capture and seen_pass):
        agent = env.agent_selection
        obs = env.observe(agent)
        if env.terminations[agent]:
            break
        before = env.scores
        env.step(env.ai_action("greedy"))
        captured = env.scores != before
        if env.terminations[agent]:
            break
        if captured:
            seen_capture = True
            assert env.agent_selection == agent
            assert (env.observe(agent)["observation"] == -2).sum() == env.scores[int(agent[-1])]
        else:
            seen_pass = True
            assert env.agent_selection != agent
    assert seen_capture and seen_pass


def test_rewards_at_the_end_and_errors():
    env = MinesBattleEnv(level="5x5/3", target=2)
    env.reset(seed=1)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
    # After the game: PettingZoo's loop has stepped None for both players.
    for call in (lambda: env.step(None), env.last, lambda: env.observe("player_0")):
        with pytest.raises(ValueError, match=r"^the game is over: reset it first$"):
            call()
    with pytest.raises(ValueError, match=r"^the game is over: reset it first$"):
        env.ai_action()
    env.reset(seed=2)
    with pytest.raises(ValueError, match=r"^unknown agent 'player_7' \(expected player_0 or player_1\)$"):
        env.observe("player_7")
    for bad in (10_000, 25, -1):
        with pytest.raises(ValueError, match=rf"^action {bad} is out of range \(0 to 24\)$"):
            env.step(bad)
    with pytest.raises(TypeError, match=r"^action must be an integer \(0 to 24\), got 0.5 \(float\)$"):
        env.step(0.5)
    with pytest.raises(ValueError, match="unknown AI"):
        env.ai_action("smart")
    with pytest.raises(ValueError, match="target"):
        MinesBattleEnv(level="5x5/3", target=9)


def test_a_click_on_a_cell_not_hidden_loses_the_game():
    """As the other environments end an episode on an illegal action, so that
    a random agent sampling the action space never crashes."""
    cases = 0
    for seed in range(40):
        env = MinesBattleEnv(level="6x6/12")
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            if (mask == 0).any():
                break
            env.step(env.ai_action("greedy"))
        else:
            continue
        other = next(a for a in env.possible_agents if a != agent)
        scores = env.scores
        env.step(int(np.flatnonzero(mask == 0)[0]))
        assert env.terminations == {"player_0": True, "player_1": True}
        assert (env.rewards[agent], env.rewards[other]) == (-1.0, 0.0)
        assert env.infos[agent] == {"scores": scores, "winner": None, "illegal_action": True}
        obs, reward, term, trunc, info = env.last()
        assert term and info["illegal_action"]
        with pytest.raises(ValueError, match=r"^the game is over: reset it first \(a finished player steps None\)$"):
            env.step(0)
        cases += 1
    assert cases >= 30, cases


def test_capture_reward_is_a_finite_number():
    for bad in [float("nan"), float("inf")]:
        with pytest.raises(ValueError, match="^capture_reward must be a finite number, got "):
            MinesBattleEnv(capture_reward=bad)
    for bad, shown in [("1", "'1' (str)"), (True, "True (bool)"), (None, "None (NoneType)")]:
        with pytest.raises(TypeError, match=rf"^capture_reward must be a number, got {re.escape(shown)}$"):
            MinesBattleEnv(capture_reward=bad)
    assert MinesBattleEnv(capture_reward=np.float32(0.5))._capture_reward == 0.5


def test_calls_before_reset_and_bad_seeds_are_clear_errors():
    """Before ``reset()`` these failed with ``AttributeError:
    'MinesBattleEnv' object has no attribute 'agent_selection'``; a bad seed
    with NumPy's errors."""
    env = MinesBattleEnv()
    for call, name in [(lambda: env.step(0), "step"), (env.last, "last"),
                       (lambda: env.observe("player_0"), "observe"), (env.render, "render"),
                       (env.ai_action, "ai_action"), (lambda: env.scores, "scores")]:
        with pytest.raises(gym.error.ResetNeeded, match=rf"^call reset\(\) before {name}\(\)$"):
            call()
    for bad, error, message in [(-1, ValueError, r"^seed -1 is out of range"),
                                (1.5, TypeError, r"^seed must be an integer or None, got 1.5")]:
        with pytest.raises(error, match=message):
            env.reset(seed=bad)
    env.reset(seed=1)
    env.last()
