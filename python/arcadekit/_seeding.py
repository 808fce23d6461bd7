"""How a Gymnasium ``reset(seed=…)`` becomes an engine seed."""

from __future__ import annotations

from typing import Optional

import numpy as np

MAX_SEED = 2**64 - 1


def engine_seed(seed: Optional[int], rng: np.random.Generator) -> int:
    """``seed`` itself when given (so ``reset(seed=s)`` plays the CLI's game of
    ``--seed s``), else a draw from the environment's ``np_random``."""
    if seed is None:
        return int(rng.integers(0, 2**63, dtype=np.int64))
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} is out of range (0..2**64)")
    return int(seed)
