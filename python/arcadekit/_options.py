"""Options, checked rather than coerced: ``bool("false")`` is True, so a flag
read from a config file as a string would silently mean the opposite; and
the compiled extension's own type errors (``'None' is not an instance of
'str'``) do not say which argument was wrong."""

from __future__ import annotations

import functools
import inspect
import reprlib
import typing
from typing import Callable, Optional, Tuple, TypeVar, Union

import numpy as np

F = TypeVar("F", bound=Callable)

# What each simple annotation accepts, in the words of the error.
_KINDS = {int: "an integer", str: "a string", float: "a number", bool: "True or False"}


def flag(name: str, value) -> bool:
    """``value`` as a bool: ``True``, ``False`` or a NumPy bool; anything else
    raises a one-line ``TypeError``."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")


def is_integer(value) -> bool:
    """A Python or NumPy integer, not a bool: the one test of a count or an
    index in the package."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _accepts(kind: type, value) -> bool:
    """Whether ``value`` is of ``kind`` as the package reads it: NumPy scalars
    count as Python ones (a count drawn with NumPy is an ``np.int64``), and a
    bool is not a number (``rabbits=True`` is a mistake, not 1 rabbit)."""
    if kind is bool:
        return isinstance(value, (bool, np.bool_))
    if isinstance(value, (bool, np.bool_)):
        return False
    if kind is int:
        return is_integer(value)
    if kind is float:
        return isinstance(value, (int, float, np.integer, np.floating))
    return isinstance(value, kind)


def _simple(hint) -> Optional[Tuple[type, bool]]:
    """``(kind, optional)`` for ``int``, ``str``, ``float`` and ``bool`` and
    ``Optional`` of one of them; ``None`` for any other annotation, which is
    left to the function's own checks."""
    if hint in _KINDS:
        return hint, False
    if typing.get_origin(hint) is Union:
        args = typing.get_args(hint)
        kinds = [a for a in args if a is not type(None)]
        if len(args) == 2 and len(kinds) == 1 and kinds[0] in _KINDS:
            return kinds[0], True
    return None


def checked(fn: F) -> F:
    """``fn`` with its simply annotated arguments checked before it runs: a
    wrong type is a one-line ``TypeError`` naming the argument
    (``level must be a string, got None (NoneType)``). Ranges stay with the
    engines, whose errors already name them. Written here rather than taken
    from a runtime type checker because the rules are the package's own:
    NumPy integers are integers and bools are not."""
    signature = inspect.signature(fn)
    hints = typing.get_type_hints(fn)
    rules = {name: rule for name in signature.parameters if (rule := _simple(hints.get(name))) is not None}

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            given = signature.bind(*args, **kwargs).arguments
        except TypeError:  # a missing or unknown argument: Python's own error says it
            return fn(*args, **kwargs)
        for name, value in given.items():
            rule = rules.get(name)
            if rule is None or (value is None and rule[1]) or _accepts(rule[0], value):
                continue
            kind, optional = rule
            wanted = _KINDS[kind] + (" or None" if optional else "")
            raise TypeError(f"{name} must be {wanted}, got {reprlib.repr(value)} ({type(value).__name__})")
        return fn(*args, **kwargs)

    return call  # type: ignore[return-value]
