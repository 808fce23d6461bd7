"""arcadekit: arcade's game engines as Gymnasium environments and its solvers
as Python functions, all in Rust.

Environments (``gymnasium.make("arcadekit/<name>")``): ``Tetris-v0``,
``Flappy-v0``, ``Minesweeper-v0``, ``Tiles-v0`` (Sheep a Sheep),
``JumpIn-v0``; vector environments stepped in Rust:
:class:`TetrisVectorEnv`, :class:`FlappyVectorEnv`,
:class:`MinesweeperVectorEnv`, :class:`TilesVectorEnv`, :class:`JumpInVectorEnv`. Solvers: :func:`move_median`,
:func:`mines_analyze`, :func:`tetris_best_placement` and more (see
``help(arcadekit.solvers)``).
"""

from gymnasium.envs.registration import register as _register

from . import solvers
from .flappy import FlappyEnv
from .jumpin import JumpInEnv
from .minesweeper import MinesweeperEnv
from .solvers import *  # noqa: F401,F403
from .solvers import __all__ as _solver_names
from .tetris import TetrisEnv
from .tiles import TilesEnv
from ._native import native as _native
from ._options import checked as _checked
from .vector import FlappyVectorEnv, JumpInVectorEnv, MinesweeperVectorEnv, TetrisVectorEnv, TilesVectorEnv



@_checked
def episode_seed(master: int, env: int, episode: int) -> int:
    """The seed of episode ``episode`` of sub-environment ``env`` in a vector
    environment seeded ``master``: reset a single environment with it to
    replay that episode."""
    return _native.episode_seed(master, env, episode)


#: The package's version: the compiled engines' (the same as ``arcade --version``).
__version__: str = _native.__version__

__all__ = [
    "TetrisEnv",
    "FlappyEnv",
    "MinesweeperEnv",
    "TilesEnv",
    "JumpInEnv",
    "TetrisVectorEnv",
    "FlappyVectorEnv",
    "MinesweeperVectorEnv",
    "TilesVectorEnv",
    "JumpInVectorEnv",
    "episode_seed",
    "solvers",
    *_solver_names,
]

for _name, _single, _vector in [
    ("Tetris-v0", "tetris:TetrisEnv", "vector:TetrisVectorEnv"),
    ("Flappy-v0", "flappy:FlappyEnv", "vector:FlappyVectorEnv"),
    ("Minesweeper-v0", "minesweeper:MinesweeperEnv", "vector:MinesweeperVectorEnv"),
]:
    _register(
        id=f"arcadekit/{_name}",
        entry_point=f"arcadekit.{_single}",
        vector_entry_point=f"arcadekit.{_vector}",
    )

_register(
    id="arcadekit/Tiles-v0",
    entry_point="arcadekit.tiles:TilesEnv",
    vector_entry_point="arcadekit.vector:TilesVectorEnv",
)
_register(
    id="arcadekit/JumpIn-v0",
    entry_point="arcadekit.jumpin:JumpInEnv",
    vector_entry_point="arcadekit.vector:JumpInVectorEnv",
)
