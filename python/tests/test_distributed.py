"""arcadekit.distributed on a local Ray cluster of 2 CPUs: sharded runs equal
the CLI's, a dead worker's shard is retried, an interrupted run resumes, a
bad address is a one-line error, and distributed tuning equals the CLI's."""

import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

ray = pytest.importorskip("ray", reason="scripts/test-python.sh installs ray")

from arcadekit import _arcadekit  # noqa: E402
from arcadekit.distributed import ClusterError, connect, run_bench, tune, tune_search  # noqa: E402
from arcadekit.distributed.bench import plan  # noqa: E402
from arcadekit.distributed.store import StoreError  # noqa: E402

#: Report fields that time the run rather than describe its games.
TIMING = {"seconds", "threads", "games_per_sec", "pieces_per_sec", "frames_per_sec", "resumed_games"}


@pytest.fixture(scope="session")
def cluster():
    connect(num_cpus=2)
    yield
    ray.shutdown()


def untimed(report):
    """The report without its timing fields (tiles: in every row too)."""
    out = {k: v for k, v in report.items() if k not in TIMING}
    if "rows" in out:
        out["rows"] = [{k: v for k, v in row.items() if k not in TIMING} for row in out["rows"]]
    return out


# Each benchmark with the CLI command it equals; sizes keep each run ~0.1 s.
CASES = [
    ("mines-bench", {"level": "beginner", "games": 600, "seed": 7},
     ["mines", "bench", "--level", "beginner", "--games", 600, "--seed", 7]),
    ("tetris-bench", {"ai": "dellacherie", "board": "6x8", "games": 50, "seed": 3},
     ["tetris", "bench", "--ai", "dellacherie", "--board", "6x8", "--games", 50, "--seed", 3]),
    ("tiles-bench", {"layers": [12, 14], "games": 30, "solver": "greedy", "seed": 2},
     ["tiles", "bench", "--layers", "12,14", "--games", 30, "--solver", "greedy", "--seed", 2]),
    ("flappy-eval", {"policy": "heuristic", "episodes": 40, "max_pipes": 30, "seed": 5},
     ["flappy", "eval", "--policy", "heuristic", "--episodes", 40, "--max-pipes", 30, "--seed", 5]),
    ("mines-battle", {"a": "greedy", "b": "rule", "games": 40, "level": "9x9/10", "seed": 4},
     ["mines", "battle", "--a", "greedy", "--b", "rule", "--games", 40, "--level", "9x9/10", "--seed", 4]),
]


@pytest.mark.parametrize("kind,spec,cli", CASES, ids=[c[0] for c in CASES])
def test_a_sharded_run_equals_the_cli(cluster, arcade, kind, spec, cli):
    units = _arcadekit.shard_units(kind, json.dumps(spec))
    ours = run_bench(kind, spec, shard_size=units // 7 + 1, progress=False)
    theirs = arcade(*cli)
    assert untimed(ours) == untimed(theirs)
    assert ours["threads"] == 2


def test_shards_merge_in_any_order_and_must_tile_the_run():
    spec = json.dumps({"level": "beginner", "games": 100, "seed": 2})
    shards = [_arcadekit.shard_run("mines-bench", spec, s, e, 1) for s, e in plan(100, 30)]
    forward = json.loads(_arcadekit.shard_report("mines-bench", spec, shards, 1.0, 1))
    backward = json.loads(_arcadekit.shard_report("mines-bench", spec, shards[::-1], 1.0, 1))
    assert forward == backward and forward["games"] == 100
    with pytest.raises(ValueError, match="cover 0..90, not the whole run 0..100"):
        _arcadekit.shard_report("mines-bench", spec, shards[:3], 1.0, 1)
    with pytest.raises(ValueError, match="do not tile"):
        _arcadekit.shard_report("mines-bench", spec, shards + shards[:1], 1.0, 1)
    with pytest.raises(ValueError, match="not a non-empty range within 0..100"):
        _arcadekit.shard_run("mines-bench", spec, 90, 101)


def test_a_battle_spec_takes_the_contest_level_as_the_cli_does():
    spec = json.dumps({"a": "greedy", "b": "rule", "level": "contest", "games": 2})
    assert json.loads(_arcadekit.shard_spec("mines-battle", spec))["level"] == "contest"
    assert _arcadekit.shard_units("mines-battle", spec) == 2


def test_an_edited_shard_whose_rows_are_not_its_range_is_refused():
    spec = json.dumps({"layers": [12, 14], "games": 5, "solver": "greedy", "seed": 2})
    shards = [_arcadekit.shard_run("tiles-bench", spec, s, e, 1) for s, e in [(0, 4), (4, 10)]]
    whole = json.loads(_arcadekit.shard_report("tiles-bench", spec, shards, 1.0, 1))
    assert [r["levels"] for r in whole["rows"]] == [5, 5]
    second = json.loads(shards[1])
    assert [r["row"] for r in second["partial"]] == [0, 1]
    edits = 0
    for row, levels in [(9, None), (1, None), (None, 4)]:
        bad = json.loads(shards[1])
        if row is not None:
            bad["partial"][0]["row"] = row
        if levels is not None:
            bad["partial"][1]["partial"]["levels"] = levels
        text = json.dumps(bad)
        with pytest.raises(ValueError, match="rows"):
            _arcadekit.shard_check("tiles-bench", spec, text)
        # It panicked (PanicException, not an Exception) on row 9.
        with pytest.raises(ValueError, match="shard 1: its rows"):
            _arcadekit.shard_report("tiles-bench", spec, [shards[0], text], 1.0, 1)
        edits += 1
    assert edits == 3


@pytest.mark.parametrize("kind,spec,message", [
    ("mines-bench", {"level": "3x3/20"}, "level"),
    ("mines-bench", {"levle": "expert"}, 'unknown key "levle"'),
    # In the user's words, not serde's ("invalid type: string, expected u64").
    ("mines-bench", {"games": "x"}, '^mines-bench spec: games: expected a whole number 0 or more, found "x"$'),
    ("mines-bench", {"games": float("nan")}, "^games must be a finite number, got nan$"),
    ("tetris-bench", {"ai": "nobody"}, "ai:"),
    ("tetris-bench", {"ai": "bcts", "board": "99x3"}, "board"),
    ("mines-battle", {"a": "greedy", "b": "ev", "games": 3}, "even"),
    ("tiles-bench", {"layers": [4], "method": "construct", "de_swaps": 3}, "de-swap"),
    # As the CLI's: the player would change silently, or a limit is a year.
    ("tetris-bench", {"ai": "bcts-expect", "preview": True}, "preview: bcts-expect averages over the unknown next piece"),
    ("tetris-bench", {"ai": "bcts", "expect_from": 50}, "expect_from 50: above the board's 10 rows"),
    ("tetris-bench", {"ai": "bcts", "expect_from": 5, "preview": True}, "expect_from: not with preview"),
    ("tiles-bench", {"layers": [4], "seconds": 1e300}, "seconds: expected a number of seconds above 0"),
    ("flappy-eval", {"policy": "heuristic", "episodes": 0}, "episodes"),
    ("sudoku", {}, "unknown benchmark"),
])
def test_a_bad_spec_is_a_one_line_error(kind, spec, message):
    with pytest.raises(ValueError, match=message) as e:
        run_bench(kind, spec, progress=False)
    assert "\n" not in str(e.value)


def test_a_killed_worker_is_retried_and_the_result_is_unchanged(cluster, arcade, tmp_path):
    marker = str(tmp_path / "crashed")

    def crash_once(start, end):
        if start == 0 and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # the worker process dies mid-run

    spec = {"level": "beginner", "games": 300, "seed": 9}
    ours = run_bench("mines-bench", spec, shard_size=100, progress=False, on_shard=crash_once)
    assert os.path.exists(marker), "the first attempt ran and died"
    assert untimed(ours) == untimed(arcade("mines", "bench", "--level", "beginner", "--games", 300, "--seed", 9))


def test_an_interrupted_run_resumes_from_its_store(cluster, arcade, tmp_path):
    store = str(tmp_path / "run.jsonl")
    spec = {"ai": "dellacherie", "board": "6x8", "games": 60, "seed": 11}
    whole = run_bench("tetris-bench", spec, shard_size=10, store=store, progress=False)
    lines = open(store).read().splitlines()
    assert len(lines) == 1 + 6
    # As if killed after 3 shards, half way through writing the 4th.
    with open(store, "w") as f:
        f.write("\n".join(lines[:4]) + "\n" + lines[4][:25])
    played = tmp_path / "played"
    played.mkdir()

    def record(start, end):
        open(os.path.join(str(played), str(start)), "w").close()

    resumed = run_bench("tetris-bench", spec, shard_size=10, store=store, progress=False, on_shard=record)
    kept = {json.loads(line)["start"] for line in lines[1:4]}  # shards finish in any order
    assert sorted(int(p) for p in os.listdir(played)) == sorted({0, 10, 20, 30, 40, 50} - kept)
    assert untimed(resumed) == untimed(whole)
    assert untimed(resumed) == untimed(arcade("tetris", "bench", "--ai", "dellacherie", "--board", "6x8",
                                               "--games", 60, "--seed", 11))
    assert len(open(store).read().splitlines()) == 1 + 6
    # The rate is this session's: its half of the pieces over its time.
    assert resumed["resumed_games"] == 30 and "resumed_games" not in whole
    pieces = whole["pieces_per_sec"] * whole["seconds"]
    assert resumed["pieces_per_sec"] * resumed["seconds"] == pytest.approx(pieces / 2)
    with pytest.raises(StoreError, match="holds another run"):
        run_bench("tetris-bench", {**spec, "seed": 12}, shard_size=10, store=store, progress=False)
    # Without a shard size, the store's is used (the default depends on the CPUs).
    again = run_bench("tetris-bench", spec, store=store, progress=False)
    assert untimed(again) == untimed(whole)
    # Options spelled out at their defaults, or left out, are the same run.
    spelled = {**spec, "moves": "drop", "preview": False, "pieces": "uniform"}
    assert untimed(run_bench("tetris-bench", spelled, store=store, progress=False)) == untimed(whole)
    assert open(store).read().splitlines()[0] == lines[0]


def test_a_store_header_spells_out_every_option(cluster, tmp_path):
    store = str(tmp_path / "run.jsonl")
    run_bench("mines-bench", {"level": "beginner", "games": 20}, store=store, progress=False)
    header = json.loads(open(store).readline())
    assert header["spec"] == {"level": "beginner", "rule": "sfar", "first": None, "solver": "standard",
                              "games": 20, "seed": 1}
    # A store written with the spec as given (before specs were spelled out) still resumes.
    header["spec"] = {"level": "beginner", "games": 20, "seed": 1}
    rest = open(store).read().splitlines()[1:]
    with open(store, "w") as f:
        f.write("\n".join([json.dumps(header, sort_keys=True)] + rest) + "\n")
    again = run_bench("mines-bench", {"level": "beginner", "games": 20, "rule": "sfar"}, store=store,
                      progress=False)
    assert again["resumed_games"] == 20 and again["games"] == 20


def test_a_bad_store_is_named_before_anything_is_played(cluster, tmp_path):
    store = tmp_path / "run.jsonl"
    spec = {"level": "beginner", "games": 40, "seed": 3}
    run_bench("mines-bench", spec, shard_size=10, store=str(store), progress=False)
    lines = store.read_text().splitlines()
    played = []
    for bad, message in [
        (lines[:2] + [lines[2].replace('"games":', '"gamez":')] + lines[3:], "line 3 is not a shard.*games"),
        (lines[:2] + [lines[2].replace('"start":', '"start":9').replace('"end":', '"end":9')], "line 3 is not a shard"),
        (["[1, 2]"] + lines[1:], "line 1 is not a run header"),
    ]:
        store.write_text("\n".join(bad) + "\n")
        with pytest.raises(StoreError, match=message):
            run_bench("mines-bench", spec, store=str(store), progress=False, on_shard=lambda s, e: played.append(s))
    assert played == []
    store.write_bytes(b"\xff\xfe\n")
    with pytest.raises(StoreError, match="not a text file"):
        run_bench("mines-bench", spec, store=str(store), progress=False)


def test_runs_the_cluster_cannot_hold_are_refused_at_once(cluster, tmp_path):
    spec = {"level": "beginner", "games": 40, "seed": 3}
    with pytest.raises(ClusterError, match="a task needs 3 CPUs .* the cluster has 2"):
        run_bench("mines-bench", spec, threads_per_task=3, progress=False)
    with pytest.raises(ValueError, match="more than 10000000 shards"):
        run_bench("mines-bench", {**spec, "games": 10**12}, shard_size=1, progress=False)
    with pytest.raises(ClusterError, match="a task needs 3 CPUs"):
        tune("tetris", {"board": "6x8"}, checkpoint=str(tmp_path / "c.json"), threads_per_task=3, progress=False)
    with pytest.raises(ValueError, match="no directory"):
        tune("tetris", {"board": "6x8"}, checkpoint=str(tmp_path / "no" / "c.json"), progress=False)


def test_a_relative_weights_path_reaches_the_workers(cluster, arcade, tmp_path, monkeypatch):
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "mine.json").write_text(json.dumps({"features": {"holes": -10.0, "landing_height": -1.0}}))
    monkeypatch.chdir(tmp_path)
    spec = {"ai": "w/mine.json", "board": "6x8", "games": 6, "seed": 2}
    ours = run_bench("tetris-bench", spec, shard_size=2, progress=False)
    theirs = arcade("tetris", "bench", "--ai", str(tmp_path / "w" / "mine.json"), "--board", "6x8", "--games", 6,
                    "--seed", 2)
    assert untimed(ours) == untimed(theirs)


def test_an_open_port_that_is_not_ray_is_refused_in_seconds(cluster):
    from arcadekit.distributed.cluster import _check_reachable

    # A GCS speaks gRPC: the local cluster's passes the check.
    _check_reachable(ray.get_runtime_context().gcs_address)
    for reply in [b"HTTP/1.1 400 Bad Request\r\n\r\n", b""]:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()

        def answer(reply=reply):
            conn, _ = server.accept()
            conn.recv(64)
            if reply:
                conn.sendall(reply)
            else:
                time.sleep(8)  # silent past the check's 5 s
            conn.close()

        threading.Thread(target=answer, daemon=True).start()
        started = time.monotonic()
        with pytest.raises(ClusterError, match="not as a Ray cluster does"):
            _check_reachable(f"127.0.0.1:{server.getsockname()[1]}")
        assert time.monotonic() - started < 7
        server.close()


def test_a_bad_address_is_a_one_line_error(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "arcadekit-cluster")
    for address, message in [("127.0.0.1:1", "cannot reach a Ray cluster"), ("nowhere", "bad cluster address")]:
        out = subprocess.run([exe, "bench", "mines", "--games", "10", "--address", address, "--quiet"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, out.stderr
        assert out.stderr.count("\n") == 1 and message in out.stderr, out.stderr
        assert out.stdout == ""


def test_the_console_command_teaches():
    exe = os.path.join(os.path.dirname(sys.executable), "arcadekit-cluster")
    out = subprocess.run([exe, "bench", "mines", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--level" in out.stdout and "--store" in out.stdout
    assert "Example: arcadekit-cluster bench mines" in out.stdout
    # A bad count names its flag before any cluster starts.
    out = subprocess.run([exe, "bench", "mines", "--games", "-5"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "argument --games: expected a whole number" in out.stderr, out.stderr


def test_search_prints_only_json_on_stdout(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "arcadekit-cluster")
    out = subprocess.run([exe, "search", "tetris", *map(str, TETRIS_TUNE), "--samples", "2", "--num-cpus", "2",
                          "--seed", "0", "--storage", str(tmp_path / "tune")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout)
    assert len(found["fitness"]) == 2


TETRIS_TUNE = ["--board", "6x8", "--games-per-eval", 2, "--population", 6, "--features", "dellacherie",
               "--max-lines", 20, "--seed", 3]


def _cli_tune(arcade, tmp_path, game, flags, generations):
    out = tmp_path / f"cli-{game}.json"
    arcade(game, "tune", *flags, "--generations", generations, "--out", out)
    return json.loads(open(tmp_path / f"cli-{game}.checkpoint.json").read())


def _spec(flags):
    return {flags[i][2:].replace("-", "_"): flags[i + 1] for i in range(0, len(flags), 2)}


def test_distributed_tetris_tuning_equals_the_cli_and_resumes(cluster, arcade, tmp_path):
    checkpoint = str(tmp_path / "ray.checkpoint.json")
    first = tune("tetris", _spec(TETRIS_TUNE), checkpoint=checkpoint, out=str(tmp_path / "ray.json"),
                 generations=1, progress=False)
    assert len(first["generations"]) == 1
    resumed = tune("tetris", checkpoint=checkpoint, out=str(tmp_path / "ray.json"), resume=True,
                   generations=2, progress=False)
    cli = _cli_tune(arcade, tmp_path, "tetris", TETRIS_TUNE, 2)
    assert resumed["run"] == cli
    assert json.loads(open(checkpoint).read()) == cli
    assert json.loads(open(tmp_path / "ray.json").read())["features"] == \
        json.loads(open(tmp_path / "cli-tetris.json").read())["features"]


def test_the_console_command_names_what_it_will_not_use(cluster, tmp_path):
    checkpoint = str(tmp_path / "t.checkpoint.json")
    tune("tetris", _spec(TETRIS_TUNE), checkpoint=checkpoint, generations=1, progress=False)
    exe = os.path.join(os.path.dirname(sys.executable), "arcadekit-cluster")
    cores = os.cpu_count()
    out = subprocess.run([exe, "tune", "tetris", "--resume", "--checkpoint", checkpoint, "--out", str(tmp_path / "t.json"),
                          "--generations", "1", "--board", "6x8", "--seed", "4", "--num-cpus", str(cores + 1),
                          "--quiet"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "warning: --resume continues the checkpoint's run with its saved settings; not used: --seed, --board\n" \
        in out.stderr, out.stderr
    assert f"warning: --num-cpus {cores + 1} is more than this machine's {cores} cores" in out.stderr
    assert json.loads(out.stdout)["generations"] == 1


def test_distributed_geek_tuning_equals_the_cli(cluster, arcade, tmp_path):
    flags = ["--beam", "2,3", "--pieces", 40, "--population", 4, "--seed", 2]
    spec = {**_spec(flags), "beam": [2, 3]}  # the fitness: the mean of the two widths
    ours = tune("geek", spec, checkpoint=str(tmp_path / "g.checkpoint.json"), generations=2,
                progress=False)
    cli = _cli_tune(arcade, tmp_path, "geek", flags, 2)
    assert cli["setup"]["beams"] == [2, 3]
    assert ours["run"] == cli


def test_ray_tune_random_search_scores_the_same_fitness(cluster, tmp_path):
    spec = _spec(TETRIS_TUNE)
    found = tune_search("tetris", spec, samples=3, seed=5, storage=str(tmp_path / "tune"))
    assert len(found["fitness"]) == 3 and found["best_fitness"] == max(found["fitness"])
    run = json.loads(_arcadekit.tune_new("tetris", json.dumps(spec)))
    again = _arcadekit.tune_fitness("tetris", json.dumps(run["setup"]), found["best"], found["eval_seed"])
    assert again == found["best_fitness"]


@pytest.mark.parametrize("method", ["de", "pso"])
def test_de_and_pso_tuning_equal_the_cli(cluster, arcade, tmp_path, method):
    flags = TETRIS_TUNE[:4] + ["--population", 8, "--features", "dellacherie", "--max-lines", 20,
                               "--seed", 3, "--method", method]
    ours = tune("tetris", _spec(flags), checkpoint=str(tmp_path / "r.checkpoint.json"), generations=2,
                progress=False)
    assert ours["run"] == _cli_tune(arcade, tmp_path, "tetris", flags, 2)


@pytest.mark.parametrize("change,message", [
    ({"spread": 0}, "spread: expected a number above 0"),
    ({"spread": -1}, "spread: expected a number above 0"),
    ({"spread": 1e300}, "spread: expected a number above 0 and at most 1e6"),
    ({"features": "holes,holes"}, "features: holes is named twice"),
    ({"features": "bcts-expect"}, None),
    ({"features": "sudoku"}, r"features: unknown feature \"sudoku\"; expected a built-in AI's set \(dellacherie, el-tetris, bcts, arcade-tuned, bcts-expect\)"),
    ({"games_per_eval": 0}, "games_per_eval must be from 1 to 1000000, found 0"),
])
def test_a_tuning_spec_is_checked_as_the_cli_checks_its_options(change, message):
    # The CLI refuses these (a spread of 0 searches nothing); Python took them.
    spec = json.dumps({**_spec(TETRIS_TUNE), "spread": 10, **change})
    if message is None:
        assert len(json.loads(_arcadekit.tune_new("tetris", spec))["setup"]["features"]) == 8  # bcts-expect's set
        return
    with pytest.raises(ValueError, match=message):
        _arcadekit.tune_new("tetris", spec)
