"""Every argument of the public API annotated as a plain integer, string,
number or flag refuses a value of another type with a one-line ``TypeError``
naming it. The compiled extension's own errors did not say which argument
was wrong (``MinesweeperEnv(level=None)``: "'None' is not an instance of
'str'"), and a bool passed as a count (``JumpInEnv(rabbits=True)`` played 1
rabbit)."""

import inspect
import typing

import numpy as np
import pytest

import arcadekit
from arcadekit import solvers
from arcadekit.battle import MinesBattleEnv

CALLABLES = [
    arcadekit.TetrisEnv,
    arcadekit.FlappyEnv,
    arcadekit.MinesweeperEnv,
    arcadekit.TilesEnv,
    arcadekit.JumpInEnv,
    MinesBattleEnv,
    arcadekit.TetrisVectorEnv,
    arcadekit.FlappyVectorEnv,
    arcadekit.MinesweeperVectorEnv,
    arcadekit.TilesVectorEnv,
    arcadekit.JumpInVectorEnv,
    # move_median keeps bottleneck's own messages (test_solvers.py).
    *(getattr(solvers, name) for name in solvers.__all__ if name != "move_median"),
]

# Values of the right type for the required arguments, so that only the
# argument under test is wrong (it is refused before anything runs).
REQUIRED = {
    "num_envs": 2,
    "out": "/nonexistent/record.txt",  # never written, even if a check were missing
    "record": "",
    "moves": 5,
    "puzzle": "C31",
    "level": "capture",
    "clicks": [],
    "image": np.zeros((2, 2), np.uint8),
    "board": np.zeros((4, 4), np.uint8),
    "piece": "I",
    "position": "",
}

KINDS = {int: "an integer", str: "a string", float: "a number", bool: "True or False"}
WRONG = {
    int: ["3", 2.5, True, None],
    str: [None, 3, True, b"x"],
    float: ["1", True, None],
    bool: [1, "yes", None],
}


def simple_parameters(fn):
    """``(name, kind, optional)`` for each argument annotated ``int``,
    ``str``, ``float``, ``bool`` or ``Optional`` of one of them."""
    target = inspect.unwrap(fn.__init__ if inspect.isclass(fn) else fn)
    hints = typing.get_type_hints(target)
    for name in inspect.signature(target).parameters:
        hint = hints.get(name)
        args = typing.get_args(hint)
        if hint in KINDS:
            yield name, hint, False
        elif len(args) == 2 and type(None) in args:
            kind = next(a for a in args if a is not type(None))
            if kind in KINDS:
                yield name, kind, True


CASES = [
    pytest.param(fn, name, kind, optional, value, id=f"{fn.__name__}-{name}-{value!r}")
    for fn in CALLABLES
    for name, kind, optional in simple_parameters(fn)
    for value in WRONG[kind]
    if not (optional and value is None)
]


def test_every_public_callable_has_checked_arguments():
    # The cases are not few by accident: every callable but tetris_ais and
    # tetris_features (which take no argument) has some.
    assert len({c.values[0] for c in CASES}) == len(CALLABLES) - 2
    assert len(CASES) > 200


@pytest.mark.parametrize("fn,name,kind,optional,value", CASES)
def test_a_wrong_type_is_named(fn, name, kind, optional, value):
    required = {
        p: REQUIRED[p]
        for p, spec in inspect.signature(fn).parameters.items()
        if spec.default is inspect.Parameter.empty and p != name
    }
    wanted = KINDS[kind] + (" or None" if optional else "")
    with pytest.raises(TypeError, match=rf"^{name} must be {wanted}, got .* \({type(value).__name__}\)$"):
        fn(**required, **{name: value})


def test_the_audits_cases():
    with pytest.raises(TypeError, match=r"^level must be a string, got None \(NoneType\)$"):
        arcadekit.MinesweeperEnv(level=None)
    with pytest.raises(TypeError, match=r"^rabbits must be an integer, got True \(bool\)$"):
        arcadekit.JumpInEnv(puzzles="generated", rabbits=True)
    with pytest.raises(TypeError, match=r"^first must be a cell \(x, y\) of two integers or None, got \(1,\)$"):
        arcadekit.mines_play(first=(1,))
    # A list is a cell as well as a tuple; NumPy integers are integers.
    games = [arcadekit.mines_play(level="beginner", first=cell) for cell in ([1, 2], (1, 2))]
    for game in games:
        del game["seconds"]
    assert games[0] == games[1] and games[0]["first"] == [1, 2]
    env = arcadekit.TetrisEnv(width=np.int64(6), height=np.int32(8))
    assert env.observation_space["board"].shape == (8, 6)
