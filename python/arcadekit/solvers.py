"""arcade's solvers as functions. Reports are the dicts ``arcade … --json``
prints; bad input raises ``ValueError`` with the CLI's one-line message
(``TypeError`` for an argument of the wrong type)."""

from __future__ import annotations

import json
import math
import os
from typing import Callable, Optional, Sequence, Tuple, Union

import numpy as np

from ._native import native as _ak
from ._options import checked, is_integer
from .tetris import PIECES as TETROMINOES  # the engine's order, the indices TetrisEnv observes

__all__ = [
    "move_median",
    "sketch",
    "mines_analyze",
    "mines_play",
    "tetris_best_placement",
    "tetris_play",
    "tetris_ais",
    "tetris_features",
    "tetris_weights",
    "geek_replay",
    "geek_solve",
    "jumpin_solve",
    "jumpin_generate",
    "tiles_solve",
    "tiles_check",
    "tiles_generate",
]


#: NumPy's axis error (in ``numpy.exceptions`` from NumPy 1.25).
_AxisError = getattr(getattr(np, "exceptions", np), "AxisError")


def move_median(a, window: int, min_count: Optional[int] = None, axis: int = -1) -> np.ndarray:
    """Moving window median along ``axis``: a drop-in for
    ``bottleneck.move_median``. Output ``i`` is the median of the numbers among
    the last ``window`` values up to ``i`` (fewer at the start); NaNs take
    their place in the window but are left out; fewer than ``min_count``
    numbers (default: ``window``, as bottleneck) give NaN. Same shape as
    ``a``; ``float32`` in gives ``float32`` out, anything else ``float64``."""
    arr = np.asarray(a)
    if arr.ndim == 0:
        raise ValueError("moving window functions require ndim > 0")
    if arr.dtype.kind not in "biufO":  # a complex number would lose its imaginary part
        raise TypeError(f"move_median needs real numbers, got an array of {arr.dtype}")
    if not is_integer(window):
        raise TypeError(f"window must be an integer, not {type(window).__name__}")
    if min_count is not None and not is_integer(min_count):  # as bottleneck: int() would drop a fraction
        raise TypeError(f"min_count must be an integer or None, not {type(min_count).__name__}")
    if not is_integer(axis):
        raise TypeError(f"axis must be an integer, not {type(axis).__name__}")
    if not -arr.ndim <= axis < arr.ndim:  # NumPy's own error, as bottleneck raises
        raise _AxisError(int(axis), arr.ndim)
    moved = np.moveaxis(arr, int(axis), -1)
    n = moved.shape[-1]
    rows = np.ascontiguousarray(moved, dtype=np.float64).reshape(math.prod(moved.shape[:-1]), n)
    min_count = None if min_count is None else int(min_count)  # None: the window, as bottleneck
    out = _ak.move_median_rows(rows, int(window), min_count).reshape(moved.shape)
    out = np.moveaxis(out, -1, int(axis))
    return out.astype(np.float32) if arr.dtype == np.float32 else out


@checked
def sketch(
    image,
    depth: float = 10.0,
    elevation: float = math.pi / 2.2,
    azimuth: float = math.pi / 4,
) -> np.ndarray:
    """Pencil sketch of a grey ``(H, W)``, RGB ``(H, W, 3)`` or RGBA
    ``(H, W, 4)`` ``uint8`` image (alpha dropped; ``arcade sketch``): relief
    ``depth`` (above 0, at most 1000), light ``elevation`` (0 to π/2) and
    ``azimuth`` (−2π to 2π) in radians. Returns ``(H, W) uint8``."""
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise ValueError(f"image dtype is {arr.dtype}, expected uint8")
    return _ak.sketch(arr, float(depth), float(elevation), float(azimuth))


def _piece_letter(name: str, piece) -> str:
    """A Tetris piece as its letter: a letter passes through (the engine
    names a bad one), an index 0–6 of IOTSZJL becomes its letter."""
    if isinstance(piece, str):
        return piece
    if is_integer(piece):
        if 0 <= piece < len(TETROMINOES):
            return TETROMINOES[int(piece)]
        raise ValueError(f"{name} {piece} is out of range (0 to 6, the index in {TETROMINOES})")
    raise TypeError(f"{name} must be a letter of {TETROMINOES} or its index, got {piece!r} ({type(piece).__name__})")


def _integers(name: str, values, dims: str, check_shape=None) -> np.ndarray:
    """``values`` as an int64 array shaped as ``dims`` says (``"(height,
    width)"`` or ``"(a list)"``). Integers and whole floats pass; a fraction,
    NaN or string is an error naming the first such cell, rather than cast
    (0.5 became 0, 256 a ``uint8`` 0). ``check_shape(*shape)`` refuses a
    shape before any cell is converted or checked."""
    try:
        arr = np.asarray(values)
    except ValueError:
        raise ValueError(f"{name} is ragged: its rows differ in length") from None
    if arr.dtype.kind in "US" and not isinstance(values, np.ndarray):
        arr = np.asarray(values, dtype=object)  # to name the text, not a stringified number
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)
    ndim = dims.count(",") + 1
    if arr.ndim != ndim:
        raise ValueError(f"{name} has {arr.ndim} dimensions, expected {ndim} {dims}")
    if check_shape is not None:
        check_shape(*arr.shape)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64)
    if arr.dtype.kind == "f":
        bad = ~(np.isfinite(arr) & (arr == np.round(arr)) & (np.abs(arr) < 2**62))
    elif arr.dtype.kind == "O":  # None, or Python ints too large for int64
        bad = np.vectorize(lambda v: not isinstance(v, (int, np.integer)) or abs(int(v)) >= 2**62, otypes=[bool])(arr)
    else:  # text
        bad = np.ones(arr.shape, dtype=bool)
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        where = f"index {at[0]}" if ndim == 1 else str(at)
        value = arr[at]
        value = value.item() if isinstance(value, np.generic) else value
        if isinstance(value, (int, float)) and float(value).is_integer():
            raise ValueError(f"{name} holds {value} at {where}: too large")
        raise ValueError(f"{name} must hold integers, got {value!r} at {where}")
    return arr.astype(np.int64)


def _analysis(report: dict) -> dict:
    probs = np.array(
        [[np.nan if p is None else p for p in row] for row in report["probabilities"]],
        dtype=np.float64,
    )
    report["probabilities"] = probs
    return report


@checked
def mines_analyze(position: Union[str, np.ndarray], mines: Optional[int] = None, strength: str = "standard") -> dict:
    """Exact mine probabilities of a Minesweeper position (``arcade mines analyze``).

    ``position`` is arcade's text format, or a grid (−1 hidden, −2 known mine,
    0–8 numbers) with ``mines`` the board's mine count. Returns the report with
    ``"probabilities"`` as an ``(H, W)`` array (NaN for revealed cells), the
    certain cells, and ``"best"``: the solver's move ``[x, y]``."""
    if isinstance(position, str):
        if mines is not None:
            raise ValueError("mines comes from the text's header; give it only with a grid")
        return _analysis(json.loads(_ak.mines_analyze_text(position, strength)))
    if position is None or isinstance(position, (bytes, bytearray)):
        got = "None" if position is None else f"{type(position).__name__} (decode it first: position.decode())"
        raise TypeError(f"position must be arcade's text format (a str) or a grid (an array), got {got}")
    if mines is None:
        raise ValueError("give the board's mine count: mines_analyze(grid, mines)")
    grid = _integers("grid", position, "(height, width)", _ak.mines_check_size)
    return _analysis(json.loads(_ak.mines_analyze(grid, int(mines), strength)))


@checked
def mines_play(level: str = "expert", rule: str = "sfar", seed: int = 1, first: Optional[Tuple[int, int]] = None, strength: str = "standard") -> dict:
    """One seeded game played by the solver (``arcade mines play --json``)."""
    if first is not None:
        pair = not isinstance(first, (str, bytes)) and hasattr(first, "__len__") and len(first) == 2
        if not (pair and all(is_integer(v) for v in first)):
            raise TypeError(f"first must be a cell (x, y) of two integers or None, got {first!r}")
        first = (int(first[0]), int(first[1]))
    return json.loads(_ak.mines_play(level, rule, seed, first, strength))


@checked
def tetris_best_placement(board, piece: Union[str, int], next: Union[None, str, int] = None, ai: str = "bcts") -> Optional[Tuple[int, int, int]]:
    """Where a classic AI puts ``piece`` on ``board`` (0/1 cells, ``(height,
    width)``, top row first): ``(rotation, column, row)`` with ``row``
    counted from the bottom, or ``None`` if it cannot be placed. A piece is
    a letter of IOTSZJL or its index 0–6 in that order, as ``TetrisEnv``
    observes it. With ``next`` (7 or ``None``: none), the AI looks one
    piece ahead. ``ai`` is a shipped name (``tetris_ais()``) or a weights
    file."""
    piece = _piece_letter("piece", piece)
    if is_integer(next) and next == len(TETROMINOES):  # the observation's "no next piece"
        next = None
    next = None if next is None else _piece_letter("next", next)
    cells = _integers("board", board, "(height, width)", _ak.tetris_check_size)
    if cells.size and not np.isin(cells, (0, 1)).all():
        at = tuple(int(i) for i in np.argwhere(~np.isin(cells, (0, 1)))[0])
        raise ValueError(f"board cell {at} is {cells[at]}, expected 0 or 1")
    return _ak.tetris_best_placement(np.ascontiguousarray(cells, dtype=np.uint8), piece, next, ai)


@checked
def tetris_play(ai: str = "bcts", width: int = 10, height: int = 20, seed: int = 1, pieces: str = "uniform", max_pieces: Optional[int] = None) -> dict:
    """One game by a classic AI (``arcade tetris play --json``)."""
    return json.loads(_ak.tetris_play(ai, width, height, seed, pieces, max_pieces))


def tetris_ais() -> list:
    """Names of the shipped Tetris AIs."""
    return list(_ak.tetris_ais())


def tetris_features() -> list:
    """Names of the afterstate features, in the order of
    ``TetrisEnv.afterstate_features()`` and :func:`tetris_weights`."""
    return list(_ak.tetris_features())


@checked
def tetris_weights(ai: str = "bcts") -> np.ndarray:
    """A classic AI's weights (a shipped name or a weights file), ``(12,)
    float64`` in the order of :func:`tetris_features`: the AI plays a legal
    action of largest ``env.afterstate_features() @ weights`` (ties go to the
    placement nearer the centre; ``bcts-expect`` also averages over the next
    piece near the top)."""
    return np.array(_ak.tetris_weights(ai), dtype=np.float64)


@checked
def geek_replay(record: str) -> dict:
    """Replays a Geek Challenge operation record (its text) and scores it."""
    return json.loads(_ak.geek_replay(record))


@checked
def geek_solve(
    out: Union[str, os.PathLike],
    beam: int = 1000,
    pieces: int = 10_000,
    seconds: Optional[float] = None,
    progress: Union[None, bool, Callable[[int, Optional[int]], None]] = None,
    moves: str = "reach",
    floating: bool = True,
    reserve: Optional[int] = None,
) -> dict:
    """The Geek Challenge beam search (``arcade geek solve``); the record
    is written to ``out``. ``seconds``: a time budget, as the CLI's
    ``--seconds``: rounds of a doubled beam while the next is expected to
    fit, the best record kept; the first round, at ``beam``, always runs to
    its end, however long it takes. ``progress``: a callable ``(pieces_done, total)``
    called five times a second and once at the end, or ``True`` for a ``tqdm`` bar. Ctrl-C
    stops the search within a piece and raises ``KeyboardInterrupt`` (a
    round that finished before it, with ``seconds``, is written to ``out``).
    ``moves`` (``"drop"`` or ``"reach"``), ``floating`` and ``reserve`` are
    the CLI's ``--moves``, ``--float`` and ``--reserve`` (``None``: an
    eighth of the beam). The defaults are the records' moves, reach and
    floating, where the CLI's are drop: ``arcade geek solve --moves reach
    --float`` searches as ``geek_solve`` does."""
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise TypeError(f"progress must be True, False, None or a callable (done, total), got {progress!r}")
    bar = None
    if progress is True:
        try:
            from tqdm import tqdm
        except ImportError:
            raise ImportError("progress=True draws a tqdm bar: pip install tqdm, or pass a callable (done, total)") from None

        bar = tqdm(total=pieces, unit="piece")

        def progress(done, total):
            bar.total = total or bar.total
            bar.n = done
            bar.refresh()

    try:
        return json.loads(_ak.geek_solve(out, beam, pieces, seconds, progress or None, moves, floating, reserve))
    finally:
        if bar is not None:
            bar.close()


@checked
def jumpin_solve(puzzle: str) -> dict:
    """Shortest solution of a Jump In' challenge code or board text."""
    return json.loads(_ak.jumpin_solve(puzzle))


@checked
def jumpin_generate(moves: int, rabbits: int = 3, foxes: int = 2, mushrooms: int = 3, seed: int = 1) -> dict:
    """A Jump In' puzzle whose shortest solution takes ``moves`` moves."""
    return json.loads(_ak.jumpin_generate(moves, rabbits, foxes, mushrooms, seed))


@checked
def tiles_solve(level: str, solver: str = "exact", seconds: float = 10.0, nodes: Optional[int] = None, capacity: Optional[int] = None) -> dict:
    """Solves a Sheep a Sheep level (its JSON text, or ``"capture"`` for the
    real level 90031): ``"exact"`` proves it solvable or not within the
    limits, ``"greedy"`` plays it once."""
    return json.loads(_ak.tiles_solve(level, solver, seconds, nodes, capacity))


@checked
def tiles_check(level: str, clicks: Sequence[int], capacity: Optional[int] = None) -> dict:
    """Replays ``clicks`` (tile ids) on a Sheep a Sheep level (JSON text or
    ``"capture"``)."""
    if isinstance(clicks, (str, bytes)) or not hasattr(clicks, "__iter__"):
        raise TypeError(f"clicks must be a sequence of tile ids (integers), not {type(clicks).__name__}")
    clicks = list(clicks)
    for at, c in enumerate(clicks):
        if isinstance(c, (bool, np.bool_)):  # True would be tile 1
            raise TypeError(f"clicks must be tile ids (integers), got {c!r} at index {at}")
    ids = _integers("clicks", clicks, "(a list)")
    if ids.size and ids.min() < 0:
        at = int(np.argmax(ids < 0))
        raise ValueError(f"clicks must be tile ids from 0, got {ids[at]} at index {at}")
    return json.loads(_ak.tiles_check(level, ids.tolist(), capacity))


@checked
def tiles_generate(
    layers: int = 26,
    types: int = 12,
    groups: int = 10,
    capacity: int = 7,
    difficulty: Optional[float] = None,
    seed: int = 1,
    verify_seconds: float = 10.0,
    method: str = "construct",
    de_generations: Optional[int] = None,
    de_population: Optional[int] = None,
    de_swaps: Optional[int] = None,
) -> Tuple[str, dict]:
    """A Sheep a Sheep level, verified by the exact solver within
    ``verify_seconds``: ``(level_json, report)``.

    ``method="construct"`` (the default) builds the level around a random
    legal removal order, so it is solvable by construction; ``difficulty``
    (0 to 1, default 0.5) is how long tiles wait in the tray.
    ``method="de-swap"`` is the published approach: differential evolution
    swaps tiles of a random deal until the greedy player clears it
    (``de_generations`` 100, ``de_population`` 40, ``de_swaps`` 20 by
    default). A de-swap level is returned only when it is known solvable;
    otherwise a ``ValueError`` says which argument to raise."""
    level, report = _ak.tiles_generate(
        layers, types, groups, capacity, difficulty, seed, verify_seconds, method, de_generations, de_population, de_swaps
    )
    return level, json.loads(report)
