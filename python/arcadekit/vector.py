"""Vector environments stepped in Rust: one ``step`` call plays all
``num_envs`` games on Rust threads with the GIL released and returns NumPy
arrays, with no Python object per sub-environment.

* **Autoreset**: Gymnasium's default, ``AutoresetMode.NEXT_STEP``: when a
  sub-environment's episode ends, the next ``step`` resets it (ignoring its
  action) and returns its first observation with reward 0 and
  ``terminated = truncated = False``.
* **Rendering**: ``render_mode="rgb_array"`` makes ``render()`` return one
  frame per game, as ``SyncVectorEnv`` does (the single environment's
  frames); a game that just ended shows its last position until the next
  ``step`` resets it.
* **Seeds**: ``reset(seed=s)`` starts episode ``e`` of sub-environment ``i``
  from the engine seed ``derive_seed(derive_seed(s, i), e)`` (arcade's
  splitmix64 derivation), so sub-environment ``i`` plays the same episodes
  for the same actions whatever ``num_envs`` is. The constructor's ``seed``
  is the seed of a first ``reset()`` that gives none (without it, that
  reset draws one, as Gymnasium's do).
* **Order**: ``step``, ``render`` and the experts raise Gymnasium's
  ``ResetNeeded`` before the first ``reset()``, as ``gym.make``'s
  environments do.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._action import action_array
from ._native import native as _ak
from ._options import checked, flag
from ._render import flappy_frame, jumpin_frame, mines_frame, tetris_frame, tiles_frame
from ._seeding import after_reset, checked_seed, no_options, require_reset
from .flappy import FlappyEnv
from .jumpin import JumpInEnv
from .minesweeper import MinesweeperEnv
from .tetris import TetrisEnv
from .tiles import TilesEnv, node_budget


def _core_seed(seed) -> int:
    """The seed the Rust core starts its games from: the constructor's,
    checked, or 0 (nothing plays them before ``reset`` reseeds them)."""
    return checked_seed(seed) or 0


class _RustVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}

    def _setup(self, single, core, num_envs: int, seed: Optional[int], render_mode: Optional[str]):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"unknown render_mode {render_mode!r} (vector environments draw rgb_array frames)")
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "render_fps": single.metadata["render_fps"]}
        self.num_envs = num_envs
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self._num_actions = int(single.action_space.n)  # every game's actions are Discrete
        self._observation_space: Optional[spaces.Space] = None  # built on first use: see observation_space
        self.action_space = batch_space(single.action_space, num_envs)
        self._core = core
        self._first_seed = seed
        self._started = False

    @property
    def observation_space(self):
        """The batched observation space, built on first use: Gymnasium's
        ``batch_space`` spends seconds on the bounds of a million boards."""
        if self._observation_space is None:
            self._observation_space = batch_space(self.single_observation_space, self.num_envs)
        return self._observation_space

    @observation_space.setter
    def observation_space(self, space):
        self._observation_space = space

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        if isinstance(seed, np.ndarray) and seed.shape == ():
            seed = seed.item()  # a 0-d array is one integer
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise ValueError("seed must be one integer: sub-environment seeds derive from it")
        no_options(options)
        seed = checked_seed(seed)
        if seed is None and not self._started:
            seed = self._first_seed
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63, dtype=np.int64))
        self._core.reset(seed)
        self._started = True
        return self._obs(), self._info()

    def _actions(self, actions) -> np.ndarray:
        """``actions`` as the contiguous int64 array of one action a game."""
        return action_array(actions, self.num_envs, self._num_actions)

    def _obs(self):
        """Every game's observation, batched (each game's class builds its own)."""
        raise NotImplementedError

    def _frames(self):
        """One RGB frame per game (each game's class draws its own)."""
        raise NotImplementedError

    def step(self, actions):
        require_reset(self._started, "step")
        reward, terminated, truncated = self._core.step(self._actions(actions))
        return self._obs(), reward, terminated, truncated, self._info()

    def _info(self) -> dict:
        return {}

    def __reduce__(self):
        # The games live in one Rust object that keeps no record of how they
        # started; say what to do instead of "cannot pickle 'TetrisVectorCore'".
        name = type(self).__name__
        raise TypeError(
            f"{name} cannot be pickled or deep-copied: build it where it runs (send a function that "
            f"makes it, as AsyncVectorEnv and Ray do), or use the single environments, which pickle mid-episode"
        )

    def render(self):
        """A tuple of one RGB frame per game with ``render_mode="rgb_array"``,
        else ``None``."""
        require_reset(self._started, "render")
        if self.render_mode != "rgb_array":
            return None
        return self._frames()


class TetrisVectorEnv(_RustVectorEnv):
    """``num_envs`` Tetris games (options as :class:`TetrisEnv`); observations
    are the batched dict, ``infos["action_mask"]`` is ``(num_envs, 4·width)
    int8`` and ``infos["score"]`` each game's points this episode (rows
    cleared, or Geek points)."""

    @checked
    def __init__(self, num_envs: int, width: int = 10, height: int = 20, pieces: str = "uniform",
                 scoring: str = "lines", next_piece: bool = True, max_pieces: Optional[int] = None,
                 seed: Optional[int] = None, render_mode: Optional[str] = None):
        num_envs = int(num_envs)  # an integer, not a bool: @checked
        single = TetrisEnv(width, height, pieces, scoring, next_piece, max_pieces)
        core = _ak.TetrisVectorCore(num_envs, _core_seed(seed), width, height, pieces, scoring, max_pieces)
        self._next = flag("next_piece", next_piece)
        self._setup(single, core, num_envs, checked_seed(seed), render_mode)

    def step(self, actions):
        require_reset(self._started, "step")
        # One Rust pass steps, observes and scores every game into fresh arrays;
        # it takes a contiguous 1-D int64 array as it is, anything else is converted.
        try:
            out = self._core.step_observe(actions)
        except TypeError:
            out = self._core.step_observe(self._actions(actions))
        board, piece, nxt, mask, reward, terminated, truncated, score = out
        self._mask, self._board = mask, board
        obs = {"board": board, "piece": piece, "next": nxt} if self._next else {"board": board, "piece": piece}
        return obs, reward, terminated, truncated, {"action_mask": mask, "score": score}

    @after_reset
    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal placement for every game, ``(num_envs,)
        int64``, drawn in Rust from the masks of the last observation (0 for a
        game without one). Each sub-environment draws from its own generator,
        seeded by ``reset(seed=s)``: a random agent's episodes are then the
        same for the same seed whatever ``num_envs`` is. Several times faster
        than choosing from ``infos["action_mask"]`` with NumPy."""
        return self._core.sample_legal()

    @after_reset
    def afterstate_features(self) -> np.ndarray:
        """Every game's :meth:`TetrisEnv.afterstate_features`, ``(num_envs,
        4·width, 12) float64``, on Rust threads (zeros for a game that is
        over)."""
        return self._core.afterstate_features()

    @after_reset
    @checked
    def ai_actions(self, ai: str = "bcts") -> np.ndarray:
        """Every game's :meth:`TetrisEnv.ai_action` by one classic AI
        (``bcts``, ``dellacherie``, ``el-tetris``, ``arcade-tuned``,
        ``bcts-expect`` or a weights file), ``(num_envs,) int64``, chosen on
        Rust threads: an expert to imitate or a baseline. 0 for a game that
        is over (the next ``step`` resets it and ignores its action)."""
        return self._core.ai_actions(ai)

    def _obs(self):
        board, piece, nxt, mask = self._core.observe()
        self._mask, self._board = mask, board
        obs = {"board": board, "piece": piece}
        if self._next:
            obs["next"] = nxt
        return obs

    def _info(self) -> dict:
        return {"action_mask": self._mask, "score": self._core.scores()}

    def _frames(self):
        return tuple(tetris_frame(b) for b in self._board)


class FlappyVectorEnv(_RustVectorEnv):
    """``num_envs`` Flappy Bird games (options as :class:`FlappyEnv`);
    observations ``(num_envs, 5 or 7) float32``, ``infos["pipes"]`` the pipes
    cleared in each episode so far.

    ``copy=False``: every ``step`` returns the same observation, reward,
    termination, truncation and pipes arrays, overwritten by the next
    ``step`` (unlike ``SyncVectorEnv(copy=False)``, which shares only the
    observations); copy what must outlive a step. A fifth of a step faster
    at 64 games (no fresh arrays). The default returns fresh arrays."""

    @checked
    def __init__(self, num_envs: int, extended: bool = False, max_pipes: Optional[int] = None, seed: Optional[int] = None,
                 copy: bool = True, render_mode: Optional[str] = None):
        num_envs = int(num_envs)  # an integer, not a bool: @checked
        single = FlappyEnv(extended, max_pipes)
        core = _ak.FlappyVectorCore(num_envs, _core_seed(seed), max_pipes, extended)
        self._setup(single, core, num_envs, checked_seed(seed), render_mode)
        self._rust_step = core.step_observe if flag("copy", copy) else core.step_in_place

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        out = super().reset(seed=seed, options=options)
        if type(self).step is FlappyVectorEnv.step:  # unless a subclass overrides it
            # From the first reset, `step` is the Rust call itself, bound per
            # instance: a Python frame in between cost a tenth of a step at 64 games.
            self.step = self._rust_step  # type: ignore[method-assign]
        return out

    def step(self, actions):
        """Steps every game (one Rust call, which converts ``actions`` unless
        it is a contiguous 1-D int64 array): ``(obs, reward, terminated,
        truncated, {"pipes": …})``. After the first reset, instances call
        the Rust step directly."""
        require_reset(self._started, "step")
        return self._rust_step(actions)

    def _obs(self):
        return self._core.observe()

    def _info(self) -> dict:
        return {"pipes": self._core.scores()}

    @after_reset
    def viability_margins(self) -> np.ndarray:
        """Every game's :meth:`FlappyEnv.viability_margins`, ``(num_envs, 2)
        int32`` (no flap, flap), on Rust threads; ``(-1, -1)`` for a game
        that ended and resets at the next ``step``."""
        return self._core.margins()

    @after_reset
    def oracle_actions(self) -> np.ndarray:
        """Perfect play for every game, ``(num_envs,) int64``:
        :meth:`FlappyEnv.oracle_action` (an expert for imitation learning
        or DAgger; 0 for a game that ended)."""
        margins = self._core.margins()
        return (margins[:, 1] > margins[:, 0]).astype(np.int64)

    def _frames(self):
        return tuple(flappy_frame(y, pipes) for y, pipes in self._core.scenes())


class MinesweeperVectorEnv(_RustVectorEnv):
    """``num_envs`` Minesweeper games (options as :class:`MinesweeperEnv`);
    ``infos["action_mask"]`` marks hidden cells, and ``probabilities=True``
    adds ``infos["probabilities"]``, ``(num_envs, H, W) float64``, every
    game's exact mine probabilities, computed on Rust threads."""

    @checked
    def __init__(self, num_envs: int, level: str = "beginner", rule: str = "sfar", seed: Optional[int] = None,
                 render_mode: Optional[str] = None, probabilities: bool = False):
        num_envs = int(num_envs)  # an integer, not a bool: @checked
        single = MinesweeperEnv(level, rule)
        core = _ak.MinesVectorCore(num_envs, _core_seed(seed), level, rule)
        self._probabilities = flag("probabilities", probabilities)
        self._setup(single, core, num_envs, checked_seed(seed), render_mode)

    @after_reset
    @checked
    def solver_actions(self, strength: str = "standard") -> np.ndarray:
        """Every game's :meth:`MinesweeperEnv.solver_action` (a safe cell if
        one is known, else the solver's best guess; the rule's first click
        before the first reveal), ``(num_envs,) int64``, on Rust threads. 0
        for a game that is over (the next ``step`` resets it)."""
        return self._core.solver_actions(strength)

    def _obs(self):
        grid, mask = self._core.observe()
        self._mask, self._grid = mask, grid
        return grid

    def _info(self) -> dict:
        if self._probabilities:
            return {"action_mask": self._mask, "probabilities": self._core.probabilities()}
        return {"action_mask": self._mask}

    def _frames(self):
        return tuple(mines_frame(g) for g in self._grid)


class TilesVectorEnv(_RustVectorEnv):
    """``num_envs`` Sheep a Sheep games (options as :class:`TilesEnv`);
    observations are the batched dict (``"position"`` is each game's level,
    new for every episode of a generated level); ``infos["action_mask"]``
    marks the clickable tiles, ``infos["cleared"]`` the triples cleared this
    episode and ``infos["illegal_action"]`` a game ended by a covered or
    taken tile."""

    @checked
    def __init__(self, num_envs: int, level: Optional[str] = None, layers: int = 26, types: int = 12,
                 groups: int = 10, capacity: Optional[int] = None, difficulty: float = 0.5,
                 reward: str = "triples", seed: Optional[int] = None, render_mode: Optional[str] = None):
        num_envs = int(num_envs)  # an integer, not a bool: @checked
        single = TilesEnv(level, layers, types, groups, capacity, difficulty, reward)
        core = _ak.TilesVectorCore(num_envs, _core_seed(seed), level, layers, types, groups, capacity, difficulty,
                                   reward == "win")
        self._setup(single, core, num_envs, checked_seed(seed), render_mode)

    @after_reset
    @checked
    def solver_actions(self, nodes: int = 100_000, fallback: Optional[str] = "greedy") -> np.ndarray:
        """Every game's :meth:`TilesEnv.solver_action` with a budget of
        ``nodes`` positions (the same answers on any machine), on Rust threads.
        Where the solver knows no winning click (the position is lost, or
        undecided within the budget), the greedy player's click
        (:meth:`TilesEnv.greedy_action`), or -1 with ``fallback=None``; 0 for
        a game that ended (its autoreset ignores it)."""
        return self._core.solver_actions(node_budget(nodes), fallback)

    @after_reset
    def greedy_actions(self) -> np.ndarray:
        """Every game's :meth:`TilesEnv.greedy_action` (a baseline that wins
        some levels), 0 for a game that ended, on Rust threads."""
        return self._core.greedy_actions()

    def _obs(self):
        kind, covered, tray, mask, cleared, illegal = self._core.observe()
        self._geometry = self._core.geometry()
        self._mask, self._cleared, self._illegal = mask, cleared, illegal
        self._kind, self._covered, self._tray = kind, covered, tray
        position = np.ascontiguousarray(self._geometry[:, :, :3])
        return {"kind": kind, "covered": covered, "tray": tray, "position": position}

    def _info(self) -> dict:
        return {"action_mask": self._mask, "cleared": self._cleared, "illegal_action": self._illegal}

    def _frames(self):
        parts = zip(self._geometry, self._kind, self._covered, self._tray)
        return tuple(tiles_frame(g, k, c, t) for g, k, c, t in parts)


class JumpInVectorEnv(_RustVectorEnv):
    """``num_envs`` Jump In' puzzles (options as :class:`JumpInEnv`);
    observations ``(num_envs, 5, 5, 5) uint8``; ``infos["action_mask"]``
    ``(num_envs, 625) int8``, and ``infos["moves"]``, ``infos["solved"]`` and
    ``infos["illegal_action"]`` per game. Unlike the single environment's,
    the infos leave out each puzzle's optimal length (a solve a step)."""

    @checked
    def __init__(self, num_envs: int, puzzles="official", moves: int = 10, rabbits: int = 3,
                 foxes: int = 2, mushrooms: int = 3, max_moves: int = 200, seed: Optional[int] = None,
                 render_mode: Optional[str] = None):
        num_envs = int(num_envs)  # an integer, not a bool: @checked
        single = JumpInEnv(puzzles, moves, rabbits, foxes, mushrooms, max_moves)
        core = _ak.JumpinVectorCore(num_envs, _core_seed(seed), puzzles, moves, rabbits, foxes, mushrooms,
                                    single.max_moves)
        self._setup(single, core, num_envs, checked_seed(seed), render_mode)

    @after_reset
    def solver_actions(self) -> np.ndarray:
        """Every game's :meth:`JumpInEnv.solver_action` (the first move of a
        shortest solution), ``(num_envs,) int64``, on Rust threads. 0 for a
        game that ended (the next ``step`` resets it)."""
        return self._core.solver_actions()

    def _obs(self):
        planes, mask, moves, solved, illegal = self._core.observe()
        self._planes, self._mask = planes, mask
        self._more = {"moves": moves, "solved": solved, "illegal_action": illegal}
        return planes

    def _info(self) -> dict:
        return {"action_mask": self._mask, **self._more}

    def _frames(self):
        return tuple(jumpin_frame(p) for p in self._planes)
