"""The two-player Minesweeper battle as a PettingZoo ``AECEnv``.

Players share one board and race to find mines: clicking a mine captures it
and the same player moves again; a safe click opens cells and passes the
turn; the first to ``target`` mines (a majority by default) wins. The
built-in AIs (``rule``, ``greedy``, ``ev``) are available as opponents
through :meth:`MinesBattleEnv.ai_action`.

Needs ``pettingzoo`` (``pip install arcadekit[pettingzoo]``).
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._action import action_index
from ._native import native as _ak
from ._options import checked
from ._render import battle_frame
from ._seeding import after_reset, checked_seed, engine_seed, require_reset


class MinesBattleEnv(AECEnv):
    """Minesweeper battle for ``player_0`` (moves first) and ``player_1``.

    * **Action**: a cell, ``y * width + x``.
    * **Observation** (per agent): ``{"observation": (height, width) int8
      grid: −1 hidden, 0–8 numbers, −2 mines this agent captured, −3 mines
      the other captured; "action_mask": hidden cells, int8}``.
    * **Reward**: +1 to the winner and −1 to the loser when the game ends
      (0 each for a draw); with ``capture_reward`` also that much per mine
      captured. A click on a cell that is not hidden (a zero of the mask)
      ends the game as a loss for its player (−1, the other 0, and
      ``info["illegal_action"]``), so random agents never crash.
    * ``level``: ``"contest"`` (16×16, 51 mines, first to 26), a preset or
      ``"WxH/M"``; ``target`` overrides the mines needed to win.

    ``reset(seed=s)`` plays the first game of ``arcade mines battle --seed
    s`` (and the web arena's game of seed ``s``); :meth:`ai_action` draws
    from the same per-seat random streams, so two AIs replay it exactly.
    """

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "arcadekit_mines_battle_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    @checked
    def __init__(self, level: str = "contest", target: Optional[int] = None,
                 capture_reward: float = 0.0, render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (expected ansi, human or rgb_array)")
        self._core = _ak.BattleCore(level, target)
        self.render_mode = render_mode
        if not math.isfinite(capture_reward):  # its type is checked by @checked
            raise ValueError(f"capture_reward must be a finite number, got {capture_reward!r}")
        self._capture_reward = float(capture_reward)
        self.possible_agents = ["player_0", "player_1"]
        h, w = self._core.height, self._core.width
        obs = spaces.Dict(
            {
                "observation": spaces.Box(-3, 8, (h, w), np.int8),
                "action_mask": spaces.Box(0, 1, (h * w,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(h * w) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._started = False
        self._over = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        # Options are ignored: PettingZoo's api_test resets with made-up ones.
        seed = checked_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._core.reset(engine_seed(seed, self._rng))
        self._started = True
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self._core.to_move]

    def _require_players(self, call: str) -> None:
        """Refuses ``call`` once every player has left the finished game
        (PettingZoo's loop steps ``None`` for each before it ends)."""
        require_reset(self._started, call)
        if not self.agents:
            raise ValueError("the game is over: reset it first")

    def observe(self, agent):
        self._require_players("observe")
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r} (expected player_0 or player_1)")
        grid, mask = self._core.observe(self.possible_agents.index(agent))
        return {"observation": grid, "action_mask": mask}

    def last(self, observe: bool = True):
        self._require_players("last")
        return super().last(observe)

    def step(self, action):
        self._require_players("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("the game is over: reset it first (a finished player steps None)")
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        captured = self._core.play(action_index(action, self.action_spaces[agent].n))
        if captured is None:  # not a hidden cell
            self._end(illegal_by=agent)
        else:
            if captured:
                self.rewards[agent] += self._capture_reward
            if self._core.is_over:
                self._end()
            else:
                self.agent_selection = self.possible_agents[self._core.to_move]
        self._accumulate_rewards()

    def _end(self, illegal_by: Optional[str] = None) -> None:
        """Ends the game: +1/−1 by the engine's winner, or −1 to the player
        whose click was illegal (and 0 to the other)."""
        self._over = True
        winner = None if illegal_by else self._core.winner
        for i, a in enumerate(self.possible_agents):
            if illegal_by:
                self.rewards[a] += -1.0 if a == illegal_by else 0.0
            elif winner is not None:
                self.rewards[a] += 1.0 if i == winner else -1.0
            self.terminations[a] = True
        scores = self._core.scores
        for a in self.agents:
            self.infos[a] = {"scores": scores, "winner": winner}
            if illegal_by:
                self.infos[a]["illegal_action"] = True

    @after_reset
    @checked
    def ai_action(self, ai: str = "ev") -> int:
        """The built-in AI's click for the agent to move (``rule``, ``greedy`` or ``ev``)."""
        if self._over:
            raise ValueError("the game is over: reset it first")
        return self._core.ai_action(ai)

    @property
    @after_reset
    def scores(self):
        """The mines each player has captured so far, ``(player_0, player_1)``."""
        return self._core.scores

    def render(self):
        """``ansi``: the board as text (every mine shown once the game is
        over); ``human``: that text printed; ``rgb_array``: a frame, captured
        mines in their player's colour (player_0 blue, player_1 red, as on the
        web arena's /battle)."""
        require_reset(self._started, "render")
        if self.render_mode in ("ansi", "human"):
            text = self._core.text(self._core.is_over)
            if self.render_mode == "ansi":
                return text
            print(text)
        elif self.render_mode == "rgb_array":
            return battle_frame(self._core.observe(0)[0])
        return None

    def close(self):
        pass


def env(**kwargs) -> MinesBattleEnv:
    """PettingZoo-style constructor."""
    return MinesBattleEnv(**kwargs)
