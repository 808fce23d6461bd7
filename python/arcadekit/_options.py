"""Yes/no options, checked rather than coerced: ``bool("false")`` is True, so
a flag read from a config file as a string would silently mean the opposite."""

from __future__ import annotations

import numpy as np


def flag(name: str, value) -> bool:
    """``value`` as a bool: ``True``, ``False`` or a NumPy bool; anything else
    raises a one-line ``TypeError``."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
