"""``arcadekit/Tiles-v0``: Sheep a Sheep, one tile click per step."""

from __future__ import annotations

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._action import action_index
from ._native import native as _ak
from ._options import checked, is_integer
from ._render import tiles_frame, tiles_text
from ._seeding import after_reset, checked_seed, engine_seed, no_options, require_reset

REWARDS = ("triples", "win")


def node_budget(nodes) -> Optional[int]:
    """The exact solver's budget of positions as the engine takes it: an
    integer from 1 to ``MAX_COUNT``, as ``tiles_solve`` and the CLI's
    ``--nodes`` take it (a float is refused, not truncated), or ``None``."""
    if nodes is None:
        return None
    if not is_integer(nodes):
        raise TypeError(f"nodes must be an integer, got {nodes!r} ({type(nodes).__name__})")
    if not 1 <= int(nodes) <= _ak.MAX_COUNT:
        raise ValueError(f"nodes {int(nodes)} is out of range (1 to {_ak.MAX_COUNT})")
    return int(nodes)


class TilesEnv(gym.Env):
    """Sheep a Sheep (a triple-matching tile game) on arcade's engine.

    * **Action**: a tile id (``Discrete(N)``, N tiles in the level).
      ``info["action_mask"]`` (``int8``) marks the tiles nothing covers; a
      covered or taken tile ends the episode as a loss
      (``info["illegal_action"]``).
    * **Observation** (a ``Dict``): ``"kind"`` ``(N,) int32``, each tile's
      type 1–K (0 once taken); ``"covered"`` ``(N,) int32``, how many tiles
      still on the board cover it (0 = clickable); ``"tray"`` ``(capacity,)
      int32``, the tray's types in the game's order (a tile joins its kind;
      0 = empty slot); ``"position"`` ``(N, 3) int32``, each tile's layer and
      the x, y of its corner, in units of 1/8 tile (fixed within an episode; a
      generated level places its tiles anew for each seed).
    * **Reward**: ``reward="triples"`` (default): +1 for each triple that
      vanishes, so a won game returns N / 3 and a lost one the triples it
      cleared; ``reward="win"``: +1 for a win, −1 for a loss, 0 otherwise.
    * **Episode end**: terminated on a win (every tile taken), a full tray or
      an illegal click. Nothing truncates: every click takes a tile.
    * **Levels**: ``level=None`` generates a level solvable by construction
      (``layers``, ``types``, ``groups``, ``capacity``, ``difficulty`` as in
      ``arcade tiles generate``); ``reset(seed=s)`` plays the level of
      ``arcade tiles generate --seed s`` with the same options.
      ``level="capture"`` is the real game's captured level 90031, and any
      other string is a level's JSON text (a capture or arcade's format);
      those are the same level every episode.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    action_space: spaces.Discrete

    @checked
    def __init__(
        self,
        level: Optional[str] = None,
        layers: int = 26,
        types: int = 12,
        groups: int = 10,
        capacity: Optional[int] = None,
        difficulty: float = 0.5,
        reward: str = "triples",
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (expected ansi or rgb_array)")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (expected triples or win)")
        self._core = _ak.TilesCore(level, layers, types, groups, capacity, difficulty)
        self.render_mode = render_mode
        self._reward = reward
        n, k, cap = self._core.tiles, self._core.kinds, self._core.capacity
        low, high = self._core.geometry_bounds()
        self.observation_space = spaces.Dict(
            {
                "kind": spaces.Box(0, k, (n,), np.int32),
                "covered": spaces.Box(0, n, (n,), np.int32),
                "tray": spaces.Box(0, k, (cap,), np.int32),
                "position": spaces.Box(
                    np.tile(np.array(low[:3], np.int32), (n, 1)),
                    np.tile(np.array(high[:3], np.int32), (n, 1)),
                    (n, 3),
                    np.int32,
                ),
            }
        )
        self.action_space = spaces.Discrete(n)
        self._started = False

    def _out(self, illegal: bool = False):
        kind, covered, tray, mask = self._core.observe()
        obs = {
            "kind": kind,
            "covered": covered,
            "tray": tray,
            "position": self._geometry[:, :3].copy(),
        }
        info = {
            "action_mask": mask,
            "status": self._core.status,
            "cleared": self._core.cleared,
            "clicks": len(self._core.clicks),
            "illegal_action": illegal,
        }
        return obs, info

    @after_reset
    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's ``MaskablePPO`` reads this)."""
        return self._core.observe()[3].astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        seed = checked_seed(seed)
        super().reset(seed=seed)
        no_options(options)
        self._core.reset(engine_seed(seed, self.np_random))
        self._geometry = self._core.geometry()
        self._started = True
        return self._out()

    def step(self, action: Any):
        require_reset(self._started, "step")
        triples, terminated, illegal = self._core.step(action_index(action, self.action_space.n))
        if self._reward == "triples":
            reward = float(triples)
        else:
            reward = {"won": 1.0, "lost": -1.0}.get(self._core.status, 0.0)
        obs, info = self._out(illegal)
        return obs, reward, terminated, False, info

    @after_reset
    @checked
    def solver_action(self, seconds: Optional[float] = None, nodes: Optional[int] = None) -> Optional[int]:
        """The next click of a winning line from here (arcade's exact solver),
        or ``None`` when the position is lost or the search ran out. The
        search stops after ``seconds`` or ``nodes`` positions, whichever comes
        first (5 seconds when neither is given); ``nodes`` alone gives the
        same answer on any machine. Along the line it found, later calls
        answer at once."""
        return self._core.solver_action(seconds, node_budget(nodes))

    @after_reset
    def greedy_action(self) -> Optional[int]:
        """The greedy player's next click (the rule ``arcade tiles bench``
        measures: work toward the type that needs the fewest clicks for a
        triple), or ``None`` once the game is over."""
        return self._core.greedy_action()

    @property
    @after_reset
    def intended(self) -> list:
        """The winning clicks a generated level was built around."""
        return self._core.intended

    @after_reset
    def level_json(self) -> str:
        """The current level in arcade's JSON format (``arcade tiles solve``
        and :func:`arcadekit.tiles_solve` read it)."""
        return self._core.level_json()

    def render(self):
        require_reset(self._started, "render")
        if self.render_mode is None:
            return None
        kind, covered, tray, _ = self._core.observe()
        if self.render_mode == "ansi":
            return tiles_text(self._geometry, kind, covered, tray, self._core.status)
        return tiles_frame(self._geometry, kind, covered, tray)
