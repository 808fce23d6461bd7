"""The compiled extension, with errors that name a bad integer argument.

PyO3 reports a negative or too large integer for an unsigned parameter as a
bare ``OverflowError`` ("can't convert negative int to unsigned") that does
not say which argument it was; :data:`native` re-raises it as the package's
usual ``ValueError``, naming the argument. Everything else passes through.
"""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Sequence

import numpy as np

from . import _arcadekit
from ._options import is_integer


def _out_of_range(names: Sequence[str], args: tuple, kwargs: Dict[str, Any]) -> Optional[ValueError]:
    """The error naming the integer argument that could not be converted,
    or ``None`` when it cannot be told which one it was."""
    given = {**dict(zip(names, args)), **kwargs}
    ints = {
        name: int(v)
        for name, v in given.items()
        if is_integer(v)
    }
    for name, v in ints.items():
        if v < 0:
            return ValueError(f"{name} must not be negative, got {v}")
    for name, v in given.items():  # a pair or list of counts, such as a cell (x, y)
        if isinstance(v, (tuple, list)) and v and all(isinstance(x, (int, np.integer)) for x in v):
            if min(v) < 0:
                return ValueError(f"{name} must not be negative, got {tuple(int(x) for x in v)}")
    # No parameter takes 2^64, so a value past it is the culprit even beside
    # a large seed; past 2^32, only when it is the only such value but a
    # seed (seeds take any 64-bit value, and an unseeded reset draws one).
    values = [*ints.items(), *_pair_items(given)]
    for limit, seeds in ((2**64, True), (2**32, False)):
        large = [(name, v) for name, v in values if v >= limit and (seeds or "seed" not in name)]
        if len(large) == 1:
            name, v = large[0]
            return ValueError(f"{name} {v} is too large")
    return None


def _pair_items(given: Dict[str, Any]):
    """The integers of pair or list arguments, such as a cell ``(x, y)``,
    each named by its argument."""
    for name, v in given.items():
        if isinstance(v, (tuple, list)):
            yield from ((name, int(x)) for x in v if is_integer(x))


def _naming(fn: Callable) -> Callable:
    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except OverflowError as err:
            clear = _out_of_range(names, args, kwargs)
            if clear is None:
                raise
            raise clear from err

    return call


def named(method: Callable) -> Callable:
    """``method`` (a bound method of a native object, which :data:`native`
    does not wrap: a proxy on every call would slow the environments' steps)
    with the errors of :func:`_naming`. For the calls that take counts from
    the user; it looks the signature up on every call."""
    return _naming(method)


class _Native:
    """``_arcadekit`` with each function and class constructor wrapped by
    :func:`_naming` (looked up once, then cached)."""

    def __getattr__(self, name: str) -> Any:
        value = getattr(_arcadekit, name)
        if callable(value):
            value = _naming(value)
        setattr(self, name, value)
        return value


if TYPE_CHECKING:
    # The wrapper keeps every signature, so calls are checked against the stub.
    native = _arcadekit
else:
    native = _Native()
