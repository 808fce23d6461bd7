"""``arcadekit/JumpIn-v0``: Jump In', one move per step."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._action import action_index
from ._native import named
from ._native import native as _ak
from ._options import checked, is_integer
from ._render import jumpin_frame
from ._seeding import after_reset, checked_options, checked_seed, engine_seed, int_option, require_reset

CHALLENGES: List[Tuple[int, str, int]] = _ak.jumpin_challenges()
"""The 60 official challenges: ``(number, code, minimum moves)``."""


def action_of(frm: Tuple[int, int], target: Tuple[int, int]) -> int:
    """The action moving the piece on cell ``frm`` (a fox's top or left cell)
    so that it lands on, or slides into, ``target``; cells are ``(x, y)``."""
    return (frm[1] * 5 + frm[0]) * 25 + target[1] * 5 + target[0]


class JumpInEnv(gym.Env):
    """Jump In' (rabbits jump over pieces into holes; foxes slide) on arcade's
    engine and its optimal solver.

    * **Action**: ``from * 25 + target`` (``Discrete(625)``), cells numbered
      ``y * 5 + x``: the piece on ``from`` (a rabbit, or a fox by its top or
      left cell) moves so that it lands on (a rabbit) or slides into (a fox)
      ``target``. ``info["action_mask"]`` marks the legal moves, one action
      each; any other action ends the episode (``info["illegal_action"]``).
      :func:`action_of` builds an action, :meth:`legal_moves` lists them.
    * **Observation**: ``(5, 5, 5) uint8`` planes, row 0 at the top:
      rabbits, mushrooms, holes, horizontal fox cells, vertical fox cells.
    * **Reward**: −1 per move; terminated when every rabbit is in a hole,
      truncated after ``max_moves``.
    * **Puzzles**: ``puzzles="official"`` (default) draws one of the 60
      official challenges per episode (uniformly, from the seed; the same
      one :class:`JumpInVectorEnv` plays for that seed);
      ``puzzles="generated"`` plays ``arcade jumpin generate --moves M
      --seed s`` (``moves``, ``rabbits``, ``foxes``, ``mushrooms``) for
      ``reset(seed=s)``; or a challenge number, code or board text for one
      fixed puzzle. ``reset(options={"challenge": n})``, ``{"puzzle":
      code_or_board}`` or ``{"moves": m}`` (a generated one) override it for
      one episode. ``info["optimal"]`` is the puzzle's optimal move count.
      A ``moves`` no puzzle of the piece set needs gives one of the longest
      below it, after a search of every layout at each reset and in the
      constructor, which checks the options (about 3 s: the default set's
      longest is 86 moves).
    * A step after ``terminated`` or ``truncated`` is a ``ValueError``:
      reset first.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}
    action_space: spaces.Discrete

    @checked
    def __init__(
        self,
        puzzles: Union[str, int] = "official",
        moves: int = 10,
        rabbits: int = 3,
        foxes: int = 2,
        mushrooms: int = 3,
        max_moves: int = 200,
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (expected ansi or rgb_array)")
        # Its type, and the counts', are checked by @checked; the top is what
        # JumpInVectorEnv's games count to.
        if not 1 <= max_moves < 2**32:
            raise ValueError(f"max_moves {max_moves} is out of range (1 to {2**32 - 1})")
        max_moves = int(max_moves)
        for name, count in [("moves", moves), ("rabbits", rabbits), ("foxes", foxes), ("mushrooms", mushrooms)]:
            if count < 0:  # refused even where only generated puzzles would read it
                raise ValueError(f"{name} must not be negative, got {count}")
        # Every kind of puzzles can generate (reset(options={"moves": m})),
        # so the generator's options are checked whatever `puzzles` is.
        named(_ak.jumpin_check_generator)(moves, rabbits, foxes, mushrooms)
        self._core = _ak.JumpinCore()
        self._generate = (moves, rabbits, foxes, mushrooms)
        self._puzzles = puzzles
        if puzzles not in ("official", "generated"):
            self._load(puzzles)
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, (5, 5, 5), np.uint8)
        self.action_space = spaces.Discrete(625)
        self._moves = 0
        self._started = False

    def _load(self, puzzle: Union[str, int]) -> None:
        if is_integer(puzzle):
            self._load_challenge(int(puzzle))
        elif isinstance(puzzle, str):
            self._core.load(puzzle)
        else:
            raise ValueError(f"puzzle {puzzle!r} is not a challenge number, code or board")

    def _load_challenge(self, number: int) -> None:
        if not 1 <= number <= len(CHALLENGES):
            raise ValueError(f"challenge {number} is out of range (1 to {len(CHALLENGES)})")
        self._core.load_challenge(number)

    def _generate_puzzle(self, moves: int, seed: int) -> None:
        """``arcade jumpin generate --moves moves --seed seed`` with this
        environment's piece set; a negative or huge count is a ``ValueError``
        naming it (``named`` turns PyO3's bare ``OverflowError``)."""
        _, rabbits, foxes, mushrooms = self._generate
        named(self._core.generate)(moves, rabbits, foxes, mushrooms, seed)

    def _out(self, illegal: bool = False):
        planes, mask = self._core.observe()
        info = {
            "action_mask": mask,
            "moves": self._moves,
            "optimal": self._core.optimal,
            "solved": self._core.solved,
            "illegal_action": illegal,
        }
        return planes, info

    @after_reset
    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's ``MaskablePPO`` reads this)."""
        return self._core.observe()[1].astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        seed = checked_seed(seed)
        super().reset(seed=seed)
        options = checked_options(options)
        unknown = set(options) - {"challenge", "puzzle", "moves"}
        if unknown:
            raise ValueError(
                f"reset options {sorted(options)}: expected one of challenge, puzzle or moves"
            )
        if len(options) > 1:
            raise ValueError(f"reset options {sorted(options)}: give one of them, not {len(options)}")
        if "challenge" in options:
            self._load_challenge(int_option(options, "challenge"))
        elif "puzzle" in options:
            self._load(options["puzzle"])
        elif "moves" in options or self._puzzles == "generated":
            moves = int_option(options, "moves") if "moves" in options else self._generate[0]
            self._generate_puzzle(moves, engine_seed(seed, self.np_random))
        elif self._puzzles == "official":
            self._core.load_official(engine_seed(seed, self.np_random))
        else:
            self._load(self._puzzles)
        self._moves = 0
        self._started = True
        return self._out()

    def step(self, action: Any):
        require_reset(self._started, "step")
        if self._moves >= self.max_moves:
            raise ValueError("the game is over: reset it first")
        terminated, illegal = self._core.step(action_index(action, self.action_space.n))
        self._moves += 1
        truncated = not terminated and self._moves >= self.max_moves
        obs, info = self._out(illegal)
        return obs, -1.0, terminated, truncated, info

    @after_reset
    def legal_moves(self) -> List[Tuple[int, str, Tuple[int, int], Tuple[int, int], Tuple[int, int]]]:
        """``(action, piece, from, to, target)`` for each legal move, cells as
        ``(x, y)``; ``to`` is where a fox's top or left cell ends up, as
        ``arcade jumpin solve`` prints moves."""
        return self._core.legal_moves()

    @after_reset
    def solver_action(self) -> Optional[int]:
        """The first move of a shortest solution from here (arcade's solver).
        While play follows the last solution found, its next move comes
        without a new search (the rest of a shortest solution is one), so
        where several shortest solutions exist the move depends on which one
        was found last (a deep copy keeps it; an unpickled copy searches
        afresh)."""
        return self._core.solver_action()

    @property
    @after_reset
    def code(self) -> Optional[str]:
        """The challenge code of the current position."""
        return self._core.code

    def render(self):
        require_reset(self._started, "render")
        if self.render_mode == "ansi":
            return self._core.text()
        if self.render_mode == "rgb_array":
            return jumpin_frame(self._core.observe()[0])
        return None
