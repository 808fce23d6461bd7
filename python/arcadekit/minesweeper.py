"""``arcadekit/Minesweeper-v0``: one reveal per step."""

from __future__ import annotations

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._action import action_index
from ._native import native as _ak
from ._options import checked, flag
from ._render import mines_frame
from ._seeding import after_reset, checked_seed, engine_seed, no_options, require_reset


class MinesweeperEnv(gym.Env):
    """Minesweeper on arcade's engine.

    * **Action**: a cell, ``y * width + x``. ``info["action_mask"]`` marks the
      hidden cells; revealing a revealed cell does nothing.
    * **Observation**: the revealed grid, ``(height, width) int8``: −1 hidden,
      0–8 the number of adjacent mines.
    * **Reward**: +1 for the win, −1 for a mine, 0 otherwise.
    * **Episode end**: terminated on a win or a mine; truncated after
      ``width × height`` steps, which only an agent that keeps revealing
      revealed cells reaches (a board has fewer safe cells than that).
    * **Levels and rules** as in the CLI: ``"beginner"``, ``"intermediate"``,
      ``"expert"`` or ``"WxH/M"``; rule ``"sfar"`` (first cell safe), ``"snr"``
      (first cell and its neighbours safe) or ``"none"``. The layout is drawn
      at the first reveal, so that cell is protected: ``reset(seed=s)`` with a
      first action at ``(x, y)`` plays the layout of ``arcade mines play
      --seed s --first x,y``.
    * ``probabilities=True`` puts the exact mine probability of every hidden
      cell (0 for revealed cells, which hold no mine) in ``info["probabilities"]`` (costs an analysis per step).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    action_space: spaces.Discrete

    @checked
    def __init__(
        self,
        level: str = "beginner",
        rule: str = "sfar",
        probabilities: bool = False,
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (expected ansi or rgb_array)")
        self._core = _ak.MinesCore(level, rule)
        self.width, self.height, self.mines = self._core.width, self._core.height, self._core.mines
        self.render_mode = render_mode
        self._probabilities = flag("probabilities", probabilities)
        self.observation_space = spaces.Box(-1, 8, (self.height, self.width), np.int8)
        self.action_space = spaces.Discrete(self.width * self.height)
        self._started = False

    def _step_out(self):
        grid, mask = self._core.observe()
        info = {"action_mask": mask, "status": self._core.status}
        if self._probabilities:
            info["probabilities"] = self._core.probabilities()
        return grid, info

    @after_reset
    def action_masks(self) -> np.ndarray:
        """The hidden cells as booleans, all ``False`` once the game is over
        (sb3-contrib's ``MaskablePPO`` reads this)."""
        return self._core.observe()[1].astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        seed = checked_seed(seed)
        super().reset(seed=seed)
        no_options(options)
        self._core.reset(engine_seed(seed, self.np_random))
        self._started = True
        return self._step_out()

    def step(self, action: Any):
        require_reset(self._started, "step")
        reward, terminated, truncated = self._core.step(action_index(action, self.action_space.n))
        grid, info = self._step_out()
        return grid, reward, terminated, truncated, info

    @after_reset
    @checked
    def solver_action(self, strength: str = "standard") -> Optional[int]:
        """arcade's solver's move: a safe cell if one is known, else its best guess."""
        return self._core.solver_action(strength)

    def render(self):
        require_reset(self._started, "render")
        if self.render_mode == "ansi":
            return self._core.text()
        if self.render_mode == "rgb_array":
            return mines_frame(self._core.observe()[0])
        return None
