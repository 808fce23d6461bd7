"""How a Gymnasium ``reset(seed=…, options=…)`` becomes an engine seed, and
the checks of its options."""

from __future__ import annotations

from typing import Optional

import numpy as np

MAX_SEED = 2**64 - 1


def python_seed(seed):
    """A NumPy integer seed as a Python int (Gymnasium's seeding takes only
    Python ints, and a seed drawn with NumPy is a NumPy integer)."""
    return int(seed) if isinstance(seed, np.integer) else seed


def engine_seed(seed: Optional[int], rng: np.random.Generator) -> int:
    """``seed`` itself when given (so ``reset(seed=s)`` plays the CLI's game of
    ``--seed s``), else a draw from the environment's ``np_random``."""
    if seed is None:
        return int(rng.integers(0, 2**63, dtype=np.int64))
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} is out of range (0..2**64)")
    return int(seed)


def no_options(options: Optional[dict]) -> None:
    """Refuses reset options for an environment that takes none, so a
    misspelt option is an error rather than silently ignored."""
    if options:
        raise ValueError(f"reset options {sorted(options)}: this environment takes none")


def int_option(options: dict, name: str) -> int:
    """The integer reset option ``name`` (a Python or NumPy integer, not a
    float, whose fraction ``int`` would drop), or a one-line error naming it."""
    value = options[name]
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise ValueError(f"reset option {name} must be an integer, got {value!r}")
