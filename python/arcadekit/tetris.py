"""``arcadekit/Tetris-v0``: one placement per step, with the legal ones as a mask."""

from __future__ import annotations

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._action import action_index
from ._native import native as _ak
from ._options import checked, flag
from ._render import tetris_frame
from ._seeding import after_reset, checked_seed, engine_seed, no_options, require_reset

PIECES = "IOTSZJL"
"""Piece letters by index; index 7 in an observation means "no piece"."""


class TetrisEnv(gym.Env):
    """Tetris on arcade's bitboard engine.

    * **Action**: ``rotation * width + column`` (``Discrete(4 * width)``): the
      current piece turned to ``rotation``, its bounding box's left edge at
      ``column``, hard-dropped. ``info["action_mask"]`` (``int8``) marks the
      legal placements; an illegal one ends the episode as a loss
      (``info["illegal_action"]``).
    * **Observation**: ``{"board": (height, width) uint8, 1 = filled, top row
      first; "piece": current piece 0–6 (I O T S Z J L); "next": preview piece}``
      (``"next"`` only with ``next_piece=True``; 7 = no piece, when an explicit
      sequence ran out).
    * **Reward**: rows cleared (``scoring="lines"``) or the Geek Challenge's
      points (``scoring="geek"``: its 10×20 field, 10,000-piece sequence,
      rules and scoring).
    * **Episode end**: terminated on a top-out or when an explicit sequence
      runs out (no piece is left, so nothing more can be earned: a value
      should not bootstrap there); truncated at ``max_pieces``, where the
      game could go on.
    * **Info**: ``action_mask``, ``illegal_action``, and the game so far:
      ``lines``, ``pieces`` and ``score`` (rows cleared, or Geek points).

    ``reset(seed=s)`` plays the pieces of ``arcade tetris play --seed s``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 8}
    action_space: spaces.Discrete

    @checked
    def __init__(
        self,
        width: int = 10,
        height: int = 20,
        pieces: str = "uniform",
        scoring: str = "lines",
        next_piece: bool = True,
        max_pieces: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        """``pieces``: ``"uniform"``, ``"bag"``, ``"geek"`` (the challenge's
        sequence) or explicit letters such as ``"IOTSZJL"``."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (expected ansi or rgb_array)")
        self._core = _ak.TetrisCore(width, height, pieces, scoring, max_pieces)
        self.width, self.height = width, height
        self.render_mode = render_mode
        self._next = next_piece = flag("next_piece", next_piece)
        obs = {
            "board": spaces.Box(0, 1, (height, width), np.uint8),
            "piece": spaces.Discrete(8),
        }
        if next_piece:
            obs["next"] = spaces.Discrete(8)
        self.observation_space = spaces.Dict(obs)
        self.action_space = spaces.Discrete(self._core.actions)
        self._started = False

    def _obs(self) -> dict:
        obs = {"board": self._core.board(), "piece": np.int64(self._core.piece)}
        if self._next:
            obs["next"] = np.int64(self._core.next_piece)
        return obs

    def _info(self, illegal: bool = False) -> dict:
        return {
            "action_mask": self._core.mask(),
            "lines": self._core.lines,
            "pieces": self._core.pieces,
            "score": self._core.score,
            "illegal_action": illegal,
        }

    @after_reset
    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's ``MaskablePPO`` reads this)."""
        return self._core.mask().astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        seed = checked_seed(seed)
        super().reset(seed=seed)
        no_options(options)
        self._core.reset(engine_seed(seed, self.np_random))
        self._started = True
        return self._obs(), self._info()

    def step(self, action: Any):
        require_reset(self._started, "step")
        reward, terminated, truncated, illegal = self._core.step(action_index(action, self.action_space.n))
        return self._obs(), float(reward), terminated, truncated, self._info(illegal)

    @after_reset
    def afterstate_features(self) -> np.ndarray:
        """The features of the field each action would leave, ``(4·width,
        12) float64`` in the order of :func:`arcadekit.tetris_features`
        (landing height, eroded cells, row and column transitions, holes,
        well sums, hole depth, rows with holes, aggregate and max height,
        bumpiness, rows cleared); zeros for illegal actions. The classic AIs
        play a legal action of largest ``features @ tetris_weights(ai)``,
        so a linear value learnt on these (the cross-entropy method, CBMPI)
        plays as they do."""
        return self._core.afterstate_features()

    @after_reset
    @checked
    def ai_action(self, ai: str = "bcts") -> Optional[int]:
        """The action a classic AI (``bcts``, ``dellacherie``, ``el-tetris``,
        ``arcade-tuned``, ``bcts-expect`` or a weights file) would play now."""
        return self._core.ai_action(ai)

    def render(self):
        require_reset(self._started, "render")
        if self.render_mode == "ansi":
            return self._core.text()
        if self.render_mode == "rgb_array":
            return tetris_frame(self._core.board())
        return None
