"""``arcadekit/Flappy-v0``: one frame per step, flap or not."""

from __future__ import annotations

from typing import Any, Optional, Tuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._action import action_index
from ._native import native as _ak
from ._options import checked, flag
from ._render import flappy_frame
from ._seeding import after_reset, checked_seed, engine_seed, no_options, require_reset


class FlappyEnv(gym.Env):
    """Flappy Bird on arcade's integer-physics engine (FlapPyBird's constants).

    * **Action**: 0 = no flap, 1 = flap.
    * **Observation**: 5 ``float32`` features (horizontal distance to the
      pipe ahead, its gap top and bottom, the bird's height, its vertical
      speed, as shares of the screen), or 7 with ``extended=True`` (plus the
      next pipe's gap).
    * **Reward**: +60 per pipe cleared, −450 for a crash (the engine's values).
    * **Episode end**: terminated on a crash, truncated at ``max_pipes``.

    ``reset(seed=s)`` plays the game of ``arcade flappy play --seed s``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 30}
    action_space: spaces.Discrete

    @checked
    def __init__(
        self,
        extended: bool = False,
        max_pipes: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (expected ansi or rgb_array)")
        extended = flag("extended", extended)
        self._core = _ak.FlappyCore(max_pipes, extended)
        self.render_mode = render_mode
        n = 7 if extended else 5
        self.observation_space = spaces.Box(-1.0, 2.0, (n,), np.float32)
        self.action_space = spaces.Discrete(2)
        self._started = False

    def _info(self) -> dict:
        return {"pipes": self._core.pipes, "frames": self._core.frames}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        seed = checked_seed(seed)
        super().reset(seed=seed)
        no_options(options)
        self._core.reset(engine_seed(seed, self.np_random))
        self._started = True
        return self._core.obs(), self._info()

    def step(self, action: Any):
        require_reset(self._started, "step")
        reward, terminated, truncated = self._core.step(action_index(action, self.action_space.n))
        return self._core.obs(), reward, terminated, truncated, self._info()

    @after_reset
    def heuristic_action(self) -> Optional[int]:
        """What arcade's heuristic controller (``--policy heuristic``) would
        do, or ``None`` once the game is over."""
        return None if self._core.is_over else self._core.heuristic()

    @after_reset
    def viability_margins(self) -> Tuple[int, int]:
        """``(no flap, flap)``: after each action, the largest distance in
        pixels the bird can keep from every wall forever, whatever gaps come,
        or −1 when some gaps force a crash (both −1 once the episode is over).
        The exact analysis of ``arcade flappy kernel``; the first call in a
        process computes it (a few seconds), later ones take microseconds."""
        return self._core.margins()

    @after_reset
    def oracle_action(self) -> Optional[int]:
        """Perfect play (``arcade flappy play --policy oracle``): flap when
        that keeps the larger :meth:`viability_margins`. It never crashes, so
        it is an expert to imitate or a ceiling to compare with. ``None``
        once the game is over."""
        if self._core.is_over:
            return None
        stay, flap = self._core.margins()
        return int(flap > stay)

    def render(self):
        require_reset(self._started, "render")
        if self.render_mode == "ansi":
            return self._core.text()
        if self.render_mode == "rgb_array":
            return flappy_frame(self._core.bird_y, self._core.pipes_on_screen())
        return None
