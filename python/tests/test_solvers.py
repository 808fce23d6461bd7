"""The solvers as functions: equal to bottleneck and to the CLI, errors as ValueError."""

import json
import math
import pathlib
import signal
import subprocess
import sys
import time

import bottleneck as bn
import numpy as np
import pytest

import arcadekit as ak
from conftest import ROOT


def _random_with_nans(rng, shape, share):
    a = rng.normal(size=shape)
    a[rng.random(shape) < share] = np.nan
    return a


@pytest.mark.parametrize("window", [1, 2, 3, 4, 7, 16, 17, 50, 333, 1000])
@pytest.mark.parametrize("share", [0.0, 0.05, 0.6])
def test_move_median_equals_bottleneck(window, share):
    rng = np.random.default_rng(window * 7 + int(share * 100))
    a = _random_with_nans(rng, (3, 1000), share)
    for min_count in {None, 1, 2, max(1, window // 2), window}:
        if min_count is not None and min_count > window:
            continue
        ours = ak.move_median(a, window, min_count)
        ref = bn.move_median(a, window, min_count)
        assert ours.shape == ref.shape and ours.dtype == ref.dtype
        np.testing.assert_array_equal(ours, ref)


@pytest.mark.parametrize("window", [17, 24, 32, 33, 100])
def test_move_median_one_row_random_and_monotone(window):
    """One row runs on the calling thread; windows 17–100 take the AVX2
    sorted window (or the scalar one) on random input and the blocks on
    monotone input."""
    rng = np.random.default_rng(window)
    for a in [rng.normal(size=5000), np.sort(rng.normal(size=5000)), -np.arange(5000.0)]:
        a[rng.random(a.shape) < 0.02] = np.nan
        for min_count in [1, window]:
            np.testing.assert_array_equal(
                ak.move_median(a, window, min_count), bn.move_median(a, window, min_count)
            )


@pytest.mark.parametrize("window", [129, 300, 1001, 12_000, 12_001])
def test_move_median_long_rows_equal_bottleneck(window):
    """Long enough for the ranks' many spans (16 windows each) and for the
    blocks above 12,000, with NaN runs and min_count."""
    rng = np.random.default_rng(window)
    a = _random_with_nans(rng, 60_000, 0.05)
    a[20_000:33_000] = np.nan
    for min_count in (1, window // 2):
        np.testing.assert_array_equal(
            ak.move_median(a, window, min_count), bn.move_median(a, window, min_count)
        )


@pytest.mark.parametrize("algorithm", ["sorted", "lanes", "heap", "blocks", "ranks"])
@pytest.mark.parametrize("window", [5, 13, 64, 160])
def test_move_median_each_algorithm_equals_bottleneck(algorithm, window):
    """Every batch algorithm, whichever `auto` would pick, with NaN runs."""
    from arcadekit._arcadekit import move_median_rows

    rng = np.random.default_rng(window)
    a = _random_with_nans(rng, (1, 2000), 0.05)
    a[0, 500:700] = np.nan
    np.testing.assert_array_equal(
        move_median_rows(a, window, 1, algorithm), bn.move_median(a, window, 1)
    )


def test_move_median_axes_dtypes_and_ties():
    rng = np.random.default_rng(1)
    a = _random_with_nans(rng, (4, 50, 6), 0.1)
    for axis in [0, 1, 2, -1, -2]:
        np.testing.assert_array_equal(
            ak.move_median(a, 3, 1, axis=axis), bn.move_median(a, 3, 1, axis=axis)
        )
    f32 = a.astype(np.float32)
    assert ak.move_median(f32, 5, 1).dtype == bn.move_median(f32, 5, 1).dtype == np.float32
    ints = rng.integers(0, 5, 300)  # many ties, integer input
    np.testing.assert_array_equal(ak.move_median(ints, 10), bn.move_median(ints, 10))
    assert ak.move_median([1.0, 2.0, 3.0, 4.0], 4, 1).tolist() == [1.0, 1.5, 2.0, 2.5]


def test_move_median_errors():
    a = np.arange(10.0)
    for window, min_count in [(0, None), (11, None), (3, 4), (3, 0), (-1, None), (3, -2)]:
        with pytest.raises(ValueError):
            ak.move_median(a, window, min_count)
        with pytest.raises(ValueError):
            bn.move_median(a, window, min_count)
    with pytest.raises(ValueError):
        ak.move_median(np.float64(1.0), 1)
    # A negative window reads as bottleneck's, word for word.
    with pytest.raises(ValueError, match=r"^Moving window \(=-1\) must between 1 and 10, inclusive$"):
        ak.move_median(a, -1)
    with pytest.raises(ValueError, match=r"^Moving window \(=-1\) must between 1 and 10, inclusive$"):
        bn.move_median(a, -1)
    # An empty axis takes no window, as in bottleneck (it was a reshape error).
    for f in (ak.move_median, bn.move_median):
        with pytest.raises(ValueError, match=r"^Moving window \(=1\) must between 1 and 0, inclusive$"):
            f([], 1)
    # Complex numbers lost their imaginary part.
    with pytest.raises(TypeError, match=r"^move_median needs real numbers, got an array of complex128$"):
        ak.move_median(np.array([1 + 2j, 3, 4]), 3)


def test_sketch_grey_and_rgb_agree_and_bad_input_is_rejected():
    rng = np.random.default_rng(2)
    grey = rng.integers(0, 256, (37, 53), dtype=np.uint8)
    out = ak.sketch(grey)
    assert out.shape == grey.shape and out.dtype == np.uint8
    rgb = np.repeat(grey[:, :, None], 3, axis=2)
    np.testing.assert_array_equal(ak.sketch(rgb), out)
    flat = ak.sketch(np.full((20, 20), 128, np.uint8))
    assert len(np.unique(flat)) == 1  # no relief, one shade
    assert not np.array_equal(ak.sketch(grey, azimuth=math.pi), out)
    with pytest.raises(ValueError, match="uint8"):
        ak.sketch(grey.astype(np.float64))
    with pytest.raises(ValueError, match="shape"):
        ak.sketch(np.zeros((4, 4, 2), np.uint8))
    # RGBA: alpha dropped, as `arcade sketch` drops it from a file.
    rgba = np.concatenate([rgb, rng.integers(0, 256, (37, 53, 1), dtype=np.uint8)], axis=2)
    np.testing.assert_array_equal(ak.sketch(rgba), out)
    with pytest.raises(ValueError, match=r"^depth must be above 0 and at most 1000, got nan$"):
        ak.sketch(grey, depth=float("nan"))
    with pytest.raises(ValueError, match=r"^elevation must be from 0 to π/2"):
        ak.sketch(grey, elevation=90)
    with pytest.raises(ValueError, match=r"^azimuth must be from -2π to 2π"):
        ak.sketch(grey, azimuth=-45)


POSITION = """5 4 3
01...
12...
.....
.....
"""


def test_mines_analyze_equals_the_cli(arcade, tmp_path):
    path = tmp_path / "pos.txt"
    path.write_text(POSITION)
    cli = arcade("mines", "analyze", path)
    ours = ak.mines_analyze(POSITION)
    assert ours["safe"] == cli["safe"] and ours["best"] == cli["best"]
    probs = np.array([[np.nan if p is None else p for p in r] for r in cli["probabilities"]])
    np.testing.assert_allclose(ours["probabilities"], probs)
    grid = np.array([[0, 1, -1, -1, -1], [1, 2, -1, -1, -1], [-1] * 5, [-1] * 5])
    from_grid = ak.mines_analyze(grid, 3)
    np.testing.assert_allclose(from_grid["probabilities"], probs)
    assert abs(np.nansum(probs) - 3) < 1e-9


def test_mines_analyze_errors():
    with pytest.raises(ValueError, match="line"):
        ak.mines_analyze("5 4\n")
    with pytest.raises(ValueError, match="expected -1"):
        ak.mines_analyze(np.full((3, 3), 9), 1)
    with pytest.raises(ValueError, match="mine count"):
        ak.mines_analyze(np.full((3, 3), -1))
    with pytest.raises(TypeError, match=r"^position must be arcade's text format \(a str\) or a grid \(an array\), got None$"):
        ak.mines_analyze(None)
    # Bytes were taken for a grid and asked for a mine count.
    with pytest.raises(TypeError, match=r"got bytes \(decode it first: position.decode\(\)\)$"):
        ak.mines_analyze(b"2 1 1\n1.\n")
    with pytest.raises(ValueError, match="strength"):
        ak.mines_analyze(POSITION, strength="best")


def test_grid_sizes_are_refused_before_the_cells_are_read():
    """A grid past the engine's size is refused by its shape: a 20000×20000
    int8 view was converted to 3.2 GB of int64 only to be refused, and a
    grid of text was named for its first cell rather than its size."""
    huge = np.broadcast_to(np.int8(-1), (20000, 20000))  # no memory of its own
    with pytest.raises(ValueError, match=r"^board size 20000x20000 is out of range \(each side 1 to 1000\)$"):
        ak.mines_analyze(huge, 10)
    with pytest.raises(ValueError, match=r"^board size 3x1001 is out of range"):
        ak.mines_analyze(np.full((1001, 3), "x"), 1)
    tall = np.broadcast_to(np.uint8(2), (100000, 10))
    with pytest.raises(ValueError, match="height"):
        ak.tetris_best_placement(tall, "I")
    with pytest.raises(ValueError, match="width"):
        ak.tetris_best_placement(np.full((20, 17), "x"), "I")


def test_tetris_best_placement_is_the_engine_ai():
    empty = np.zeros((20, 10), np.uint8)
    assert ak.tetris_best_placement(empty, "O") is not None
    board = np.zeros((20, 10), np.uint8)
    board[-1, :9] = 1  # one gap at the right: an I stood up there clears the row
    rot, col, row = ak.tetris_best_placement(board, "I")
    assert (col, row) == (9, 0) and rot % 2 == 1
    assert "arcade-tuned" in ak.tetris_ais()
    with pytest.raises(ValueError, match="piece"):
        ak.tetris_best_placement(empty, "Q")
    with pytest.raises(ValueError, match="expected 0 or 1"):
        ak.tetris_best_placement(empty + 2, "I")
    with pytest.raises(ValueError, match="weights|unknown"):
        ak.tetris_best_placement(empty, "I", ai="nobody")


def test_tetris_best_placement_takes_the_observations_piece_indices():
    """The observation's "piece" is an index 0–6; it was refused as "piece
    must be a string", so an agent had to know the letters' order."""
    env = ak.TetrisEnv()
    seen = set()
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        piece, nxt = int(obs["piece"]), int(obs["next"])
        seen.add(piece)
        by_letter = ak.tetris_best_placement(obs["board"], "IOTSZJL"[piece], "IOTSZJL"[nxt])
        assert ak.tetris_best_placement(obs["board"], obs["piece"], obs["next"]) == by_letter
    assert seen == set(range(7))  # every index was exercised
    # 7 is the observation's "no next piece".
    assert ak.tetris_best_placement(obs["board"], 0, 7) == ak.tetris_best_placement(obs["board"], 0)
    with pytest.raises(ValueError, match=r"^piece 7 is out of range \(0 to 6, the index in IOTSZJL\)$"):
        ak.tetris_best_placement(obs["board"], 7)
    with pytest.raises(TypeError, match=r"^next must be a letter of IOTSZJL or its index, got 1.5 \(float\)$"):
        ak.tetris_best_placement(obs["board"], 0, 1.5)
    with pytest.raises(ValueError, match=r'^next "abc" is not one of I O T S Z J L$'):
        ak.tetris_best_placement(obs["board"], "T", next="abc")


def test_counts_are_integers_not_cast():
    """min_count 2.5 was read as 2 and mines 10.7 as 10: refused, as
    bottleneck refuses such a min_count."""
    a = np.arange(10.0)
    for bad in [2.5, "2", True]:
        with pytest.raises(TypeError, match="^min_count must be an integer or None, not "):
            ak.move_median(a, 3, bad)
        with pytest.raises(TypeError):
            bn.move_median(a, 3, bad)
    np.testing.assert_array_equal(ak.move_median(a, 3, np.int8(2)), bn.move_median(a, 3, 2))
    grid = np.full((9, 9), -1)
    for bad in [10.7, "10", True]:
        with pytest.raises(TypeError, match=f"^mines must be an integer or None, got {bad!r} "):
            ak.mines_analyze(grid, bad)
    assert ak.mines_analyze(grid, np.int64(10))["best"] == ak.mines_analyze(grid, 10)["best"]


def test_grids_and_clicks_are_integers_not_cast():
    """Fractions, NaN, text and out-of-range cells were cast (0.5 played as
    0, 256 as a uint8 0, 2**70 an OverflowError); each is now a one-line
    error naming the cell, while whole floats and any integer type pass."""
    level = "capture"
    cases = [
        (lambda: ak.tiles_check(level, [0.5, 1]), r"^clicks must hold integers, got 0\.5 at index 0$"),
        (lambda: ak.tiles_check(level, [1, "a"]), r"^clicks must hold integers, got 'a' at index 1$"),
        (lambda: ak.tiles_check(level, [1, None]), r"^clicks must hold integers, got None at index 1$"),
        (lambda: ak.tiles_check(level, [2**70]), r"^clicks holds 1180591620717411303424 at index 0: too large$"),
        (lambda: ak.tiles_check(level, [3, -1]), r"^clicks must be tile ids from 0, got -1 at index 1$"),
        (lambda: ak.tiles_check(level, [[1, 2]]), r"^clicks has 2 dimensions, expected 1 \(a list\)$"),
        (lambda: ak.mines_analyze(np.array([[-1, np.nan]]), 1), r"^grid must hold integers, got nan at \(0, 1\)$"),
        (lambda: ak.mines_analyze([[-1, 0.5]], 1), r"^grid must hold integers, got 0\.5 at \(0, 1\)$"),
        (lambda: ak.mines_analyze([[-1, -1], [-1]], 1), r"^grid is ragged: its rows differ in length$"),
        (lambda: ak.tetris_best_placement(np.full((20, 10), 0.5), "T"), r"^board must hold integers, got 0\.5 at \(0, 0\)$"),
        (lambda: ak.tetris_best_placement(np.full((20, 10), 256), "T"), r"^board cell \(0, 0\) is 256, expected 0 or 1$"),
        (lambda: ak.tetris_best_placement(np.zeros((20, 10, 2)), "T"), r"^board has 3 dimensions, expected 2 \(height, width\)$"),
        (lambda: ak.mines_play("beginner", first=(-1, 0)), r"^first must not be negative, got \(-1, 0\)$"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    for clicks, name in [("123", "str"), (None, "NoneType"), (7, "int")]:
        with pytest.raises(TypeError, match=f"^clicks must be a sequence of tile ids \\(integers\\), not {name}$"):
            ak.tiles_check(level, clicks)
    # Whole floats, NumPy and object integers give the same answers as ints.
    clicks = [0, 1, 2]
    want = ak.tiles_check(level, clicks)
    for same in [[0.0, 1.0, 2.0], np.array(clicks, dtype=np.uint16), np.array(clicks, dtype=object), iter(clicks)]:
        assert ak.tiles_check(level, same) == want
    board = np.zeros((20, 10), np.uint8)
    board[-1, :9] = 1
    want = ak.tetris_best_placement(board, "I")
    for same in [board.astype(float), board.astype(bool), board.tolist()]:
        assert ak.tetris_best_placement(same, "I") == want
    grid = np.full((4, 4), -1)
    grid[0, 0] = 1
    want = ak.mines_analyze(grid, 3)["best"]
    assert ak.mines_analyze(grid.astype(np.float32), 3)["best"] == want


def test_tetris_play_equals_the_cli(arcade):
    cli = arcade("tetris", "play", "--ai", "dellacherie", "--board", "10x10", "--seed", 5)
    ours = ak.tetris_play("dellacherie", 10, 10, seed=5)
    assert (ours["lines"], ours["pieces"], ours["end"]) == (cli["lines"], cli["pieces"], cli["end"])
    # As `--max-pieces 0` and Tetris-v0(max_pieces=0): it played no piece.
    with pytest.raises(ValueError, match="^max_pieces must be at least 1$"):
        ak.tetris_play(max_pieces=0)


def test_geek_replay_equals_the_cli(arcade):
    path = ROOT / "data" / "geek-tetris" / "record-1378178.txt"
    ours = ak.geek_replay(path.read_text())
    assert ours == arcade("geek", "replay", path)
    assert ours["score"] == 1378178
    with pytest.raises(ValueError):
        ak.geek_replay("not a record")


def test_geek_solve_calls_progress_and_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "record.txt"
    calls = []
    report = ak.geek_solve(str(out), beam=20, pieces=3000, progress=lambda d, t: calls.append((d, t)))
    # The last call comes when the search has ended, so a bar ends where the
    # game did (this narrow beam tops out before the 3,000th piece).
    assert calls and all(t == 3000 for _, t in calls) and calls[-1] == (report["pieces"], 3000)
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))
    assert ak.geek_replay(out.read_text())["score"] == report["score"] > 0
    with pytest.raises(ValueError, match="beam"):
        ak.geek_solve(str(out), beam=0)
    # A negative count names its argument (PyO3 alone says only "can't
    # convert negative int to unsigned").
    with pytest.raises(ValueError, match="^beam must not be negative, got -5$"):
        ak.geek_solve(str(out), beam=-5)
    with pytest.raises(ValueError, match="^moves must not be negative, got -1$"):
        ak.jumpin_generate(-1)
    with pytest.raises(ValueError, match="^master must not be negative, got -2$"):
        ak.episode_seed(-2, 0, 0)
    with pytest.raises(TypeError, match=r"^master must be an integer, got 'x' \(str\)$"):
        ak.episode_seed("x", 0, 0)
    # move_median's axis: a wrong type or an axis the array lacks, in
    # NumPy's words (bottleneck raises its AxisError), not "'NoneType' object
    # is not iterable" or a bare OverflowError.
    with pytest.raises(TypeError, match="^axis must be an integer, not NoneType$"):
        ak.move_median(np.arange(10.0), 3, axis=None)
    for axis in (1, -2, 2**70):
        with pytest.raises(ValueError, match=f"^axis {axis} is out of bounds for array of dimension 1$"):
            ak.move_median(np.arange(10.0), 3, axis=axis)
    assert np.array_equal(ak.move_median(np.ones((2, 3)), 1, axis=-2), np.ones((2, 3)))


def test_geek_solve_searches_as_the_cli_with_the_same_options(tmp_path, arcade):
    """geek_solve always searched with reach + floating moves, so at the
    CLI's default options it scored differently with nothing to say why;
    moves, floating and reserve are now its options."""
    for moves, floating, flags in [("drop", False, []), ("reach", True, ["--moves", "reach", "--float"])]:
        for reserve in [None, 0]:
            extra = [] if reserve is None else ["--reserve", reserve]
            ours = ak.geek_solve(str(tmp_path / "ours.txt"), beam=20, pieces=200, moves=moves, floating=floating, reserve=reserve)
            cli = arcade("geek", "solve", "--beam", 20, "--pieces", 200, *flags, *extra, "--out", tmp_path / "cli.txt")
            assert (ours["score"], ours["moves"], ours["float"]) == (cli["score"], cli["moves"], cli["float"])
    # With seconds, every wider round keeps the reserve asked for, as the
    # CLI's do (it once went back to beam/8 after the first round).
    timed = ak.geek_solve(str(tmp_path / "t.txt"), beam=20, pieces=1500, reserve=0, seconds=2)
    second = next(r for r in timed["rounds"] if r["beam"] == 40)
    cli = arcade("geek", "solve", "--beam", 40, "--pieces", 1500, "--reserve", 0, "--moves", "reach", "--float", "--out", tmp_path / "c40.txt")
    assert second["score"] == cli["score"]
    # A path is a path (its annotation once made the argument check refuse it).
    assert ak.geek_solve(tmp_path / "d.txt", beam=20, pieces=200)["moves"] == "reach"
    with pytest.raises(ValueError, match=r'^unknown moves "tuck" \(expected drop or reach\)$'):
        ak.geek_solve(str(tmp_path / "x.txt"), moves="tuck")
    with pytest.raises(ValueError, match="^reserve must not be negative, got -1$"):
        ak.geek_solve(str(tmp_path / "x.txt"), reserve=-1)
    with pytest.raises(TypeError, match=r"^floating must be True or False, got 1 \(int\)$"):
        ak.geek_solve(str(tmp_path / "x.txt"), floating=1)


def test_geek_solve_progress_bar_without_tqdm_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now fails
    with pytest.raises(ImportError, match="^progress=True draws a tqdm bar: pip install tqdm"):
        ak.geek_solve(str(tmp_path / "r.txt"), beam=1, pieces=10, progress=True)
    assert not (tmp_path / "r.txt").exists()


def test_geek_solve_progress_bar_ends_full_and_bad_progress_is_refused(tmp_path, monkeypatch):
    """The tqdm bar closed at the last callback's count (97% in a quick run),
    and a game that topped out showed a full bar; ``progress=5`` failed only
    when the search first called it."""
    import tqdm

    bars = []

    class Recorder(tqdm.tqdm):
        def close(self):
            bars.append((self.n, self.total))
            super().close()

    monkeypatch.setattr(tqdm, "tqdm", Recorder)
    ak.geek_solve(str(tmp_path / "r.txt"), beam=50, pieces=2000, progress=True)
    assert bars[0] == (2000, 2000)  # (tqdm closes again when collected)
    topped = ak.geek_solve(str(tmp_path / "t.txt"), beam=20, pieces=3000, progress=True)
    assert topped["pieces"] < 3000 and bars[-1] == (topped["pieces"], 3000)
    for bad in (5, "yes"):
        with pytest.raises(TypeError, match=r"^progress must be True, False, None or a callable \(done, total\), got "):
            ak.geek_solve(str(tmp_path / "bad.txt"), beam=1, pieces=10, progress=bad)
    assert not (tmp_path / "bad.txt").exists()


def test_geek_solve_progress_errors_propagate(tmp_path):
    def boom(done, total):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        ak.geek_solve(str(tmp_path / "r.txt"), beam=20, pieces=3000, progress=boom)


@pytest.mark.parametrize(
    "call",
    [
        "ak.geek_solve({out!r}, beam=50000)",
        "ak.geek_solve({out!r}, beam=50000, progress=lambda d, t: None)",
        # BCTS on 10×20 plays tens of millions of lines: minutes of work.
        "ak.tetris_play()",
    ],
)
def test_a_long_call_stops_at_ctrl_c(tmp_path, call):
    """Ctrl-C (SIGINT) ends a call that would run for minutes within a
    second or two, as KeyboardInterrupt."""
    script = (
        "import arcadekit as ak\n"
        "print('started', flush=True)\n"
        f"{call.format(out=str(tmp_path / 'r.txt'))}\n"
        "print('finished', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        start = time.monotonic()
        out, err = child.communicate(timeout=60)
        stopped_in = time.monotonic() - start
    finally:
        child.kill()
    assert "KeyboardInterrupt" in err and "finished" not in out, err
    assert child.returncode != 0
    assert stopped_in < 10, f"{call}: {stopped_in:.1f} s after the signal"


def test_jumpin_solve_matches_the_official_minimums():
    lines = (ROOT / "data" / "jumpin" / "challenges.txt").read_text().splitlines()
    rows = [l.split() for l in lines if l.strip() and not l.startswith("#")]
    for code, number, moves in rows[:: max(1, len(rows) // 12)]:
        report = ak.jumpin_solve(code)
        assert report["solvable"] and report["moves"] == int(moves), number
    with pytest.raises(ValueError):
        ak.jumpin_solve("Cxyz")


def test_jumpin_generate_gives_a_puzzle_of_that_length():
    g = ak.jumpin_generate(6, seed=4)
    assert ak.jumpin_solve(g["code"])["moves"] == g["moves"] == 6
    with pytest.raises(ValueError, match="^rabbits must be 1 to 4, not 9$"):
        ak.jumpin_generate(5, rabbits=9)


def test_tiles_generate_de_swap_returns_only_levels_known_solvable():
    level, report = ak.tiles_generate(layers=4, types=4, groups=1, method="de-swap", de_generations=2, seed=5)
    meta = json.loads(level)["meta"]
    assert meta["generator"] == report["generator"] == "de-swap"
    # Greedy cleared it, so its clicks are kept and replay to a win.
    assert report["greedy_clears"] and len(meta["intended"]) == report["tiles"] == 12
    assert ak.tiles_check(level, meta["intended"])["won"]
    # A tray of 3 on 12 layers with one tiny generation: not known solvable,
    # so nothing is returned and the error names what to raise.
    # (Undecided within half a second here; a faster machine may refute it.)
    advice = r"\((raise verify_seconds or de_generations|raise de_generations, or try another seed or a larger capacity)\)"
    with pytest.raises(ValueError, match=rf"^de-swap found no level the greedy player clears, .*; nothing was made {advice}$"):
        ak.tiles_generate(layers=12, capacity=3, method="de-swap", de_generations=1, de_population=4, verify_seconds=0.5)
    # Each method refuses the other's settings, as the CLI does.
    with pytest.raises(ValueError, match='^difficulty only applies to method="construct"$'):
        ak.tiles_generate(method="de-swap", difficulty=0.3)
    with pytest.raises(ValueError, match='^de_generations, de_population and de_swaps only apply to method="de-swap"$'):
        ak.tiles_generate(de_swaps=3)
    with pytest.raises(ValueError, match=r"^de-swap population 3 is out of range \(4 to 100000\)$"):
        ak.tiles_generate(method="de-swap", de_population=3)
    with pytest.raises(ValueError, match=r'^unknown method "x" \(expected "construct" or "de-swap"\)$'):
        ak.tiles_generate(method="x")


def test_tiles_shapes_get_the_same_message_from_every_entry():
    for bad, message in [(dict(layers=0), r"layers 0 is out of range \(1 to 200\)"), (dict(types=0), "types must be at least 1"), (dict(groups=0), "groups must be at least 1")]:
        for make in (ak.tiles_generate, ak.TilesEnv):
            with pytest.raises(ValueError, match=f"^{message}$"):
                make(**bad)


def test_tiles_generate_solve_and_check():
    # The CLI's bound on layers holds here too (the library checks it).
    with pytest.raises(ValueError, match=r"^layers 1000000 is out of range \(1 to 200\)$"):
        ak.tiles_generate(layers=10**6)
    # The one message for a tray size, as TilesEnv and tiles_check give it.
    for bad in (2, 65):
        with pytest.raises(ValueError, match=rf"^tray capacity must be from 3 \(for a triple to vanish\) to 64, got {bad}$"):
            ak.tiles_generate(capacity=bad)
    level, report = ak.tiles_generate(layers=6, types=6, groups=2, seed=3, verify_seconds=5)
    assert report["verdict"] == "solved"
    solved = ak.tiles_solve(level)
    assert solved["verdict"] == "solved"
    check = ak.tiles_check(level, solved["clicks"])
    assert check["won"] and check["legal"]
    assert not ak.tiles_check(level, solved["clicks"][:-3])["won"]
    captured = (ROOT / "data" / "sheep" / "capture-level-90031.json").read_text()
    greedy = ak.tiles_solve(captured, solver="greedy")
    assert greedy["tiles"] > 0
    # "capture" names the same level, as it does for Tiles-v0.
    by_name = ak.tiles_solve("capture", solver="greedy")
    assert {**by_name, "seconds": 0} == {**greedy, "seconds": 0}
    with pytest.raises(ValueError, match="not a level"):
        ak.tiles_solve("{}")
    with pytest.raises(ValueError, match="^not JSON: line 1, column 1: expected a value$"):
        ak.tiles_check("level-90031.json", [])
    with pytest.raises(ValueError, match="solver"):
        ak.tiles_solve(level, solver="magic")
    for nodes in (0, 10**12 + 1):  # the CLI's --nodes range
        with pytest.raises(ValueError, match=rf"^nodes {nodes} is out of range \(1 to 1000000000000\)$"):
            ak.tiles_solve(level, nodes=nodes)
    # The CLI's --seconds range: above 0, at most a year.
    year = r"expected a number of seconds above 0 and at most 31536000 \(a year\), got "
    for seconds in (0, -1, 1e300, float("inf")):
        with pytest.raises(ValueError, match=rf"^seconds: {year}"):
            ak.tiles_solve(level, seconds=seconds)
        with pytest.raises(ValueError, match=rf"^verify_seconds: {year}"):
            ak.tiles_generate(layers=6, types=6, groups=2, verify_seconds=seconds)
    # The library names the setting, not the CLI's flag.
    # The same range as a generated level's: below 3 no triple can vanish.
    with pytest.raises(ValueError, match=r"^capacity: tray capacity must be from 3 \(for a triple to vanish\) to 64, got 2$"):
        ak.tiles_check("capture", [], capacity=2)


def test_geek_solve_refuses_a_beam_past_the_free_memory(tmp_path):
    meminfo = pathlib.Path("/proc/meminfo")
    free_kib = next((int(line.split()[1]) for line in meminfo.read_text().splitlines()
                     if line.startswith("MemAvailable:")), None) if meminfo.exists() else None
    if free_kib is None or free_kib >= 70_000_000:
        pytest.skip("needs a machine with under 70 GB free (10^7 fields need about 80 GB)")
    with pytest.raises(ValueError, match="GB free here"):
        ak.geek_solve(beam=10_000_000, pieces=5, out=str(tmp_path / "g.txt"))
    assert not (tmp_path / "g.txt").exists()
