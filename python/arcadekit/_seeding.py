"""How a Gymnasium ``reset(seed=…, options=…)`` becomes an engine seed, the
checks of its options, and the refusal to play before the first ``reset``."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Callable, Optional, TypeVar

import numpy as np
from gymnasium.error import ResetNeeded

from ._options import is_integer

MAX_SEED = 2**64 - 1

M = TypeVar("M", bound=Callable)


def checked_seed(seed) -> Optional[int]:
    """``seed`` as a Python int (Gymnasium's seeding takes only Python ints,
    and a seed drawn with NumPy is a NumPy integer), or ``None``. Checked
    before Gymnasium sees it, so that every bad seed gets this module's
    one-line error (``TypeError`` for the wrong type, ``ValueError`` out of
    range) rather than Gymnasium's or NumPy's."""
    if seed is None:
        return None
    if not is_integer(seed):
        raise TypeError(f"seed must be an integer or None, got {seed!r} ({type(seed).__name__})")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} is out of range (0 to 2**64 - 1)")
    return int(seed)


def engine_seed(seed: Optional[int], rng: np.random.Generator) -> int:
    """``seed`` itself when given (so ``reset(seed=s)`` plays the CLI's game of
    ``--seed s``), else a draw from the environment's ``np_random``."""
    checked = checked_seed(seed)
    if checked is None:
        return int(rng.integers(0, 2**63, dtype=np.int64))
    return checked


def checked_options(options: Optional[dict]) -> dict:
    """``reset``'s ``options`` as a dict: a string or a list is refused, not
    read as option names."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict or None, got {options!r} ({type(options).__name__})")
    return dict(options)


def no_options(options: Optional[dict]) -> None:
    """Refuses reset options for an environment that takes none, so a
    misspelt option is an error rather than silently ignored."""
    given = checked_options(options)
    if given:
        raise ValueError(f"reset options {sorted(given)}: this environment takes none")


def int_option(options: dict, name: str) -> int:
    """The integer reset option ``name`` (a Python or NumPy integer, not a
    float, whose fraction ``int`` would drop), or a one-line error naming it."""
    value = options[name]
    if is_integer(value):
        return int(value)
    raise TypeError(f"reset option {name} must be an integer, got {value!r} ({type(value).__name__})")


def require_reset(started: bool, call: str) -> None:
    """Refuses ``call`` before the first ``reset()``, as Gymnasium's
    ``OrderEnforcing`` wrapper does for ``gym.make``: an environment built
    directly would otherwise play a game nobody seeded, or fail on state
    that ``reset`` creates."""
    if not started:
        raise ResetNeeded(f"call reset() before {call}()")


def after_reset(method: M) -> M:
    """``method`` refused before the first ``reset()`` (:func:`require_reset`):
    an expert's move or a mask of a game nobody seeded would mislead."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        require_reset(self._started, method.__name__)
        return method(self, *args, **kwargs)

    return call  # type: ignore[return-value]
