"""Actions as the engines take them: integers, never truncated floats.

Gymnasium's ``Discrete`` space holds only integers, so a float action is a
bug in the caller (a policy's raw output, a forgotten ``argmax``); turning
0.7 into 0 would hide it."""

from __future__ import annotations

from typing import Union

import numpy as np

_I64 = (-(2**63), 2**63 - 1)


def action_index(action, n: Union[int, np.integer]) -> int:
    """``action`` as a Python int: an int, a bool, a NumPy integer, or an
    integer array of one element. Anything else raises a one-line error."""
    value = action
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise ValueError(f"action must be one integer, got an array of shape {value.shape}")
        value = value.reshape(())[()]
    if not isinstance(value, (int, np.integer, np.bool_)):
        raise TypeError(f"action must be an integer (0 to {n - 1}), got {value!r} ({type(value).__name__})")
    index = int(value)
    if not _I64[0] <= index <= _I64[1]:
        raise ValueError(f"action {index} is out of range (0 to {n - 1})")
    return index


def action_array(actions, num_envs: int, n: Union[int, np.integer]) -> np.ndarray:
    """``actions`` as the contiguous 1-D int64 array of one action a game,
    from shape ``(num_envs,)`` or a column ``(num_envs, 1)`` (a policy's
    ``argmax(keepdims=True)``); any other shape, and float, string or object
    arrays, raise a one-line error. ``n`` is the number of actions a game,
    for the range the errors state (the engines check each action)."""
    if actions is None:
        raise TypeError(f"actions must be {num_envs} integers, got None")
    acts = np.asarray(actions)
    if acts.dtype == object:  # Python ints past int64, or mixed types
        acts = _object_actions(acts, n)
    if acts.size != num_envs:
        raise ValueError(f"expected {num_envs} actions, got {acts.size}")
    if acts.shape not in ((num_envs,), (num_envs, 1)):
        # A (2, 2) array for 4 games is a batch laid out wrongly, not 4 actions.
        raise ValueError(f"expected actions of shape ({num_envs},) or ({num_envs}, 1), got {acts.shape}")
    if acts.dtype.kind not in "iub":
        raise TypeError(f"actions must be integers, got an array of {acts.dtype}")
    if acts.dtype.kind == "u" and acts.size and int(acts.max()) > _I64[1]:
        # Cast to int64 it would wrap, and be reported as a negative action.
        raise ValueError(f"action {int(acts.max())} is out of range (0 to {n - 1})")
    return np.ascontiguousarray(acts.reshape(num_envs), dtype=np.int64)


def _object_actions(acts: np.ndarray, n: Union[int, np.integer]) -> np.ndarray:
    """An object array of actions as int64, or the one-line error of its
    first element that is not an integer in int64's range."""
    for value in acts.flat:
        if not isinstance(value, (int, np.integer, np.bool_)):
            raise TypeError(f"actions must be integers, got {value!r} ({type(value).__name__})")
        if not _I64[0] <= int(value) <= _I64[1]:
            raise ValueError(f"action {int(value)} is out of range (0 to {n - 1})")
    return acts.astype(np.int64)
