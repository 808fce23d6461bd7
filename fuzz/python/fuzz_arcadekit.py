"""Coverage-guided fuzzing of arcadekit's Python inputs with atheris.

    python fuzz/python/fuzz_arcadekit.py TARGET [libFuzzer options] [CORPUS_DIR]

Targets (each checks a property, not only "no crash"):

- ``move_median``: random arrays (NaN, inf, ties, float32/float64/int,
  1–3 dimensions), windows, ``min_count`` and axes, differentially against
  ``bottleneck.move_median``: both raise ``ValueError`` or both give the same
  array (NaNs in the same places), with the same shape and dtype.
- ``sketch``: random grey/RGB images and parameters (NaN, inf, negative):
  a ``(H, W) uint8`` result, the same on a second call, or a one-line error.
- ``mines_grid``: random grids (−3…9 cells, up to 12×12) and mine counts for
  ``mines_analyze``: probabilities in [0, 1] on hidden cells, NaN on
  numbers and known mines, summing to the mines left; or a one-line
  ``ValueError``.
- ``envs``: the five Gymnasium environments with random options and actions (out of range, negative, huge): every observation lies
  in its space, the same seed and actions replay the same observations, and
  bad options or actions are one-line ``ValueError``s; Sheep a Sheep's
  greedy and solver clicks are free tiles.
- ``texts``: random text into the text parsers reached from Python
  (``mines_analyze`` text, ``geek_replay``, ``jumpin_solve``, ``tiles_check``):
  a report or a one-line ``ValueError``.

Any other exception, a multi-line or empty message, or a crash of the
interpreter is a finding. ``fuzz/python/run.sh`` runs every target for a
fixed time and prints executions, coverage and crashes.
"""

import math
import sys
import warnings

import atheris
import bottleneck
import gymnasium as gym
import numpy as np

arcadekit = None  # imported by main(), instrumented

warnings.simplefilter("ignore")
ERRORS = (ValueError, TypeError, OverflowError)


def one_line(err):
    """A user error must be one non-empty line of reasonable length."""
    msg = str(err)
    if not msg or "\n" in msg or len(msg) > 1000:
        raise AssertionError(f"{type(err).__name__} message is not one line: {msg!r:.300}")


def call(fn, *args, **kwargs):
    """Runs ``fn``; returns (result, None) or (None, error) for a user error."""
    try:
        return fn(*args, **kwargs), None
    except ERRORS as err:
        one_line(err)
        return None, err


def floats(fdp, n, specials=True):
    """``n`` floats, a share of them NaN, ±inf or repeated (ties)."""
    values = []
    for _ in range(n):
        pick = fdp.ConsumeIntInRange(0, 15)
        if specials and pick == 0:
            values.append(math.nan)
        elif specials and pick == 1:
            values.append(math.inf if fdp.ConsumeBool() else -math.inf)
        elif pick <= 5 and values:
            values.append(values[fdp.ConsumeIntInRange(0, len(values) - 1)])
        else:
            values.append(fdp.ConsumeIntInRange(-1000, 1000) / 8)
    return values


def target_move_median(data):
    fdp = atheris.FuzzedDataProvider(data)
    ndim = fdp.ConsumeIntInRange(1, 3)
    shape = tuple(fdp.ConsumeIntInRange(0 if ndim == 1 else 1, 40 if ndim == 1 else 6) for _ in range(ndim))
    size = int(np.prod(shape))
    dtype = [np.float64, np.float32, np.int64][fdp.ConsumeIntInRange(0, 2)]
    a = np.array(floats(fdp, size, specials=dtype is not np.int64), dtype=dtype).reshape(shape)
    window = fdp.ConsumeIntInRange(-2, 45)
    min_count = None if fdp.ConsumeBool() else fdp.ConsumeIntInRange(-2, 45)
    axis = fdp.ConsumeIntInRange(-ndim - 1, ndim)
    ours, our_err = call(arcadekit.move_median, a, window, min_count=min_count, axis=axis)
    try:
        theirs = bottleneck.move_median(a, window, min_count=min_count, axis=axis)
        their_err = None
    except (ValueError, TypeError, np.exceptions.AxisError) as err:
        theirs, their_err = None, err
    if (our_err is None) != (their_err is None):
        raise AssertionError(f"arcadekit: {our_err!r}, bottleneck: {their_err!r} "
                             f"(shape {shape}, window {window}, min_count {min_count}, axis {axis})")
    if ours is None:
        return
    if ours.shape != theirs.shape or ours.dtype != theirs.dtype:
        raise AssertionError(f"shape/dtype {ours.shape} {ours.dtype} vs {theirs.shape} {theirs.dtype}")
    if not np.array_equal(ours, theirs, equal_nan=True):
        raise AssertionError(f"move_median differs from bottleneck on {a!r}, window {window}, "
                             f"min_count {min_count}, axis {axis}: {ours!r} vs {theirs!r}")


def target_sketch(data):
    fdp = atheris.FuzzedDataProvider(data)
    h, w = fdp.ConsumeIntInRange(0, 24), fdp.ConsumeIntInRange(0, 24)
    shape = [(h, w), (h, w, 3), (h, w, 4), (h,)][fdp.ConsumeIntInRange(0, 3)]
    dtype = np.uint8 if fdp.ConsumeIntInRange(0, 7) else np.float64
    pixels = np.frombuffer(fdp.ConsumeBytes(int(np.prod(shape))).ljust(int(np.prod(shape)), b"\0"), dtype=np.uint8)
    image = pixels.reshape(shape).astype(dtype)
    depth, elevation, azimuth = floats(fdp, 3)
    out, err = call(arcadekit.sketch, image, depth, elevation, azimuth)
    if out is None:
        return
    if out.shape != (h, w) or out.dtype != np.uint8:
        raise AssertionError(f"sketch of {shape} gave {out.shape} {out.dtype}")
    again = arcadekit.sketch(image, depth, elevation, azimuth)
    if not np.array_equal(out, again):
        raise AssertionError("sketch is not deterministic")


def target_mines_grid(data):
    fdp = atheris.FuzzedDataProvider(data)
    h, w = fdp.ConsumeIntInRange(0, 12), fdp.ConsumeIntInRange(0, 12)
    grid = np.array([fdp.ConsumeIntInRange(-3, 9) for _ in range(h * w)], dtype=np.int64).reshape(h, w)
    mines = fdp.ConsumeIntInRange(-2, h * w + 2)
    strength = ["standard", "fast", "bogus"][fdp.ConsumeIntInRange(0, 2)]
    report, err = call(arcadekit.mines_analyze, grid, mines, strength=strength)
    if report is None:
        return
    p = report["probabilities"]
    if p.shape != grid.shape:
        raise AssertionError(f"probabilities {p.shape} for a {grid.shape} grid")
    # Hidden cells (-1) have a probability; numbers and known mines (-2) NaN.
    hidden = grid == -1
    if np.isnan(p[hidden]).any() or not np.isnan(p[~hidden]).all():
        raise AssertionError(f"NaN pattern does not match the hidden cells: {grid!r} {p!r}")
    if ((p[hidden] < 0) | (p[hidden] > 1)).any():
        raise AssertionError(f"a probability outside [0, 1]: {p!r}")
    left = mines - (grid == -2).sum()
    total = p[hidden].sum()
    if abs(total - left) > 1e-6 * max(1, hidden.sum()):
        raise AssertionError(f"probabilities sum to {total}, {left} mines are left: {grid!r}")


ENVS = [
    ("arcadekit/Tetris-v0", [{}, {"width": 6, "height": 8}, {"pieces": "bag"}, {"pieces": "IOX"},
                             {"width": 3}, {"height": 99}, {"scoring": "geek"}, {"max_pieces": 5}]),
    ("arcadekit/Flappy-v0", [{}, {"extended": True}, {"max_pipes": 1}, {"max_pipes": -1}]),
    ("arcadekit/Minesweeper-v0", [{}, {"level": "4x4/3"}, {"level": "2x2/9"}, {"rule": "snr"},
                                  {"rule": "bogus"}, {"probabilities": True}, {"level": "1x1/0"}]),
    ("arcadekit/Tiles-v0", [{"layers": 12}, {"layers": 12, "capacity": 3}, {"level": "capture"},
                            {"layers": 2}, {"difficulty": 2.0}, {"reward": "win", "layers": 12},
                            {"level": "{}"}]),
    ("arcadekit/JumpIn-v0", [{}, {"puzzles": 60}, {"puzzles": 0}, {"puzzles": "C3"}, {"moves": 3},
                             {"rabbits": 9}, {"max_moves": 2}]),
]


def play(env, seed, actions):
    """Observations of one seeded episode under ``actions`` (user errors kept)."""
    seen = []
    obs, info = env.reset(seed=seed)
    check_obs(env.observation_space, obs)
    seen.append(obs)
    for a in actions:
        out, err = call(env.step, a)
        if err is not None:
            seen.append(str(err))
            continue
        obs, reward, terminated, truncated, info = out
        check_obs(env.observation_space, obs)
        if not math.isfinite(float(reward)):
            raise AssertionError(f"reward {reward}")
        if not (terminated or truncated):
            check_experts(env.unwrapped, info)
        seen.append(obs)
        if terminated or truncated:
            obs, info = env.reset()
            seen.append(obs)
    return seen


def check_experts(env, info):
    """Sheep a Sheep's experts offer a clickable tile (the solver may have
    none within its budget; the greedy player always has one)."""
    if not hasattr(env, "greedy_action"):
        return
    mask = info["action_mask"]
    greedy, solver = env.greedy_action(), env.solver_action(nodes=500)
    if greedy is None or not mask[greedy] or (solver is not None and not mask[solver]):
        raise AssertionError(f"expert clicks {greedy}, {solver} are not free tiles")


def check_obs(space, obs):
    if not space.contains(obs):
        raise AssertionError(f"observation outside {space}: {obs!r:.500}")


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, str):
        return a == b
    return np.array_equal(a, b)


def target_envs(data):
    fdp = atheris.FuzzedDataProvider(data)
    env_id, option_sets = ENVS[fdp.ConsumeIntInRange(0, len(ENVS) - 1)]
    kwargs = option_sets[fdp.ConsumeIntInRange(0, len(option_sets) - 1)]
    env, err = call(gym.make, env_id, disable_env_checker=True, **kwargs)
    if env is None:
        return
    seed = fdp.ConsumeUInt(8)
    n = int(env.action_space.n)
    actions = []
    for _ in range(fdp.ConsumeIntInRange(0, 30)):
        pick = fdp.ConsumeIntInRange(0, 9)
        if pick == 0:
            actions.append(fdp.ConsumeInt(9))
        elif pick == 1:
            actions.append(n + fdp.ConsumeIntInRange(0, 3))
        else:
            actions.append(fdp.ConsumeIntInRange(0, n - 1))
    first = play(env, seed, actions)
    second = play(env, seed, actions)
    if len(first) != len(second) or not all(same(a, b) for a, b in zip(first, second)):
        raise AssertionError(f"{env_id} {kwargs}: seed {seed} replayed differently")
    env.close()


def target_texts(data):
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 3)
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 400))
    if which == 0:
        report, _ = call(arcadekit.mines_analyze, text)
        if report is not None:
            p = report["probabilities"]
            hidden = ~np.isnan(p)
            if ((p[hidden] < 0) | (p[hidden] > 1)).any():
                raise AssertionError(f"a probability outside [0, 1] for {text!r}")
    elif which == 1:
        call(arcadekit.geek_replay, text)
    elif which == 2:
        call(arcadekit.jumpin_solve, text)
    else:
        clicks = [fdp.ConsumeIntInRange(-5, 400) for _ in range(fdp.ConsumeIntInRange(0, 20))]
        call(arcadekit.tiles_check, text, clicks)


TARGETS = {
    "move_median": target_move_median,
    "sketch": target_sketch,
    "mines_grid": target_mines_grid,
    "envs": target_envs,
    "texts": target_texts,
}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: fuzz_arcadekit.py TARGET [libFuzzer options] (targets: {', '.join(TARGETS)})")
    target = TARGETS[sys.argv[1]]
    atheris.Setup([sys.argv[0], *sys.argv[2:]], target)
    # Python coverage of arcadekit's own wrappers (NumPy and Gymnasium stay
    # uninstrumented: their coverage would swamp it and slow every run). The
    # extension's Rust code is instrumented when built for it (run.sh
    # --native).
    global arcadekit
    with atheris.instrument_imports(include=["arcadekit"]):
        import arcadekit as package
    arcadekit = package
    atheris.Fuzz()


if __name__ == "__main__":
    main()
