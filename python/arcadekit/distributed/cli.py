"""``arcadekit-cluster``: arcade's long runs on a Ray cluster."""

from __future__ import annotations

import argparse
import json
import os
import sys

EPILOG = """\
Start a cluster first (docs/cluster.md): on the head node `ray start --head`,
on every other node `ray start --address HEAD:6379`; arcadekit must be
installed on every node. Then, on any node:

  arcadekit-cluster bench mines --level expert --games 200000 --seed 1 --address auto
  arcadekit-cluster bench tetris --ai arcade-tuned --board 10x20 --games 100 --address auto --store t.jsonl
  arcadekit-cluster tune tetris --generations 40 --out tuned.json --address auto
  arcadekit-cluster tune tetris --resume --out tuned.json --address auto
  arcadekit-cluster search tetris --samples 200 --address auto

Without --address a local cluster of --num-cpus CPUs starts for the run.
The bench report equals `arcade <game> <verb> --json` with the same options
(every count and mean; seconds and threads are this run's).
"""

# Options of each benchmark: (flag, type, help). None means "the CLI's
# default", which the Rust side fills in.
BENCH_OPTIONS = {
    "mines": ("mines-bench", "arcade mines bench", [
        ("--level", str, "beginner, intermediate, expert or WIDTHxHEIGHT/MINES [expert]"),
        ("--rule", str, "first-click rule: sfar, snr or none [sfar]"),
        ("--first", "xy", "first click X,Y [the rule's default]"),
        ("--solver", str, "solver strength: fast, standard or strong [standard]"),
        ("--games", int, "number of games [1000]"),
        ("--seed", int, "master seed: game i plays the layout of seed derive(S, i) [1]"),
    ]),
    "tetris": ("tetris-bench", "arcade tetris bench", [
        ("--ai", str, "dellacherie, el-tetris, bcts, arcade-tuned, bcts-expect or a weights file present on every node (required)"),
        ("--moves", str, "drop or reach [drop]"),
        ("--preview", "flag", "also look at the next piece"),
        ("--expect-from", int, "from this stack height, average over the unknown next piece [the AI's own]"),
        ("--board", str, "WIDTHxHEIGHT [10x10]"),
        ("--games", int, "number of games [100]"),
        ("--seed", int, "master seed [1]"),
        ("--pieces", str, "uniform or bag [uniform]"),
        ("--max-lines", int, "stop each game after this many lines"),
        ("--max-pieces", int, "stop each game after this many pieces"),
    ]),
    "tiles": ("tiles-bench", "arcade tiles bench", [
        ("--layers", "list", "layer counts, one row each, e.g. 12,14,16 (required)"),
        ("--types", int, "tile types [12]"),
        ("--groups", int, "triples of each type [10]"),
        ("--capacity", int, "tray slots [7]"),
        ("--games", int, "levels per row [100]"),
        ("--solver", str, "greedy, exact or both [both]"),
        ("--seconds", float, "exact solver's time limit per level [10]"),
        ("--nodes", int, "exact solver's node limit per level"),
        ("--method", str, "random, construct or de-swap [random]"),
        ("--difficulty", float, "construct: 0 to 1 [0.5]"),
        ("--de-generations", int, "de-swap: generations [100]"),
        ("--de-population", int, "de-swap: candidates per generation [40]"),
        ("--de-swaps", int, "de-swap: swaps per candidate [20]"),
        ("--seed", int, "master seed [1]"),
    ]),
    "flappy": ("flappy-eval", "arcade flappy eval", [
        ("--policy", str, "heuristic, oracle or a policy file present on every node (required)"),
        ("--episodes", int, "number of episodes [100]"),
        ("--max-pipes", int, "end each episode after this many pipes [10000]"),
        ("--seed", int, "master seed of the evaluation episodes [1]"),
    ]),
    "battle": ("mines-battle", "arcade mines battle (AI against AI)", [
        ("--a", str, "player A: rule, greedy or ev (required)"),
        ("--b", str, "player B: rule, greedy or ev (required)"),
        ("--games", int, "games, even: each layout once with each AI first [1000]"),
        ("--seed", int, "master seed [1]"),
        ("--level", str, "WIDTHxHEIGHT/MINES or a level name [16x16/51]"),
        ("--target", int, "mines needed to win [a majority]"),
    ]),
}

#: One command each sub-command's --help shows.
BENCH_EXAMPLES = {
    "mines": "arcadekit-cluster bench mines --level expert --games 1000000 --address auto --store m.jsonl",
    "tetris": "arcadekit-cluster bench tetris --ai bcts --board 10x20 --games 20 --address auto --store t.jsonl "
              "--shard-size 1   # one game a task: 10x20 games are long",
    "tiles": "arcadekit-cluster bench tiles --layers 12,14,16 --games 1000 --address auto",
    "flappy": "arcadekit-cluster bench flappy --policy oracle --episodes 1000 --address auto",
    "battle": "arcadekit-cluster bench battle --a ev --b greedy --games 10000 --address auto",
}

TUNE_EXAMPLES = {
    ("tune", "tetris"): "--board 10x10 --generations 40 --out tuned.json --address auto "
                        "  # add --resume to go on after an interruption",
    ("tune", "geek"): "--beam 200,250 --pieces 10000 --moves reach --float --out geek.json --address auto",
    ("search", "tetris"): "--samples 200 --address auto > search.json",
    ("search", "geek"): "--samples 50 --beam 20 --address auto > search.json",
}

TUNE_OPTIONS = {
    "tetris": ("arcade tetris tune", [
        ("--method", str, "cem, de or pso [cem]"),
        ("--population", int, "candidates per generation [CEM 100, DE 10 per weight, PSO 30]"),
        ("--spread", float, "initial spread (CEM's standard deviation, DE/PSO box half-width) [10]"),
        ("--seed", int, "master seed of the optimizer and of its games [1]"),
        ("--board", str, "WIDTHxHEIGHT [10x10]"),
        ("--games-per-eval", int, "games per fitness evaluation [10]"),
        ("--max-lines", int, "stop each tuning game at this many lines"),
        ("--features", str, "a built-in AI's features, all, or a comma list [bcts]"),
        ("--init", str, "start from these weights (built-in name or file) [zero]"),
        ("--moves", str, "drop or reach [drop]"),
    ]),
    "geek": ("arcade geek tune", [
        ("--method", str, "cem, de or pso [cem]"),
        ("--population", int, "candidates per generation"),
        ("--spread", float, "initial spread of the multipliers [0.3]"),
        ("--seed", int, "master seed [1]"),
        ("--beam", "list", "beam width(s) of the scoring searches; several (200,250,300) score by the mean [20]"),
        ("--pieces", int, "pieces each search plays [3000]"),
        ("--moves", str, "drop or reach [drop]"),
        ("--float", "flag", "let the searches use floating placements"),
        ("--reserve", int, "low fields kept beyond the beam [the first beam/8, at least 4]"),
        ("--init", str, "a weights file to scale instead of the built-in weights"),
    ]),
}


def _xy(text: str):
    try:
        x, y = text.split(",")
        return [int(x), int(y)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y such as 3,3, found {text!r}") from None


def _int_list(text: str):
    try:
        return [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, found {text!r}") from None


def _whole(text: str) -> int:
    """A count or seed: a whole number the engine's 64 bits hold."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to {2**64 - 1}, found {text!r}")
    return value


def _add_options(parser, options):
    group = parser.add_argument_group("options of the command it runs")
    for flag, kind, help_text in options:
        if kind == "flag":
            group.add_argument(flag, action="store_true", default=None, help=help_text)
        else:
            convert = {"xy": _xy, "list": _int_list, int: _whole}.get(kind, kind)
            group.add_argument(flag, type=convert, help=help_text, required="(required)" in help_text)


def _add_cluster(parser):
    group = parser.add_argument_group("cluster")
    group.add_argument("--address", help="Ray cluster: auto (the one this node joined), HEAD:6379 or ray://HEAD:10001 "
                       "[none: start a local cluster for this run]")
    group.add_argument("--num-cpus", type=int, help="CPUs of the local cluster [all] (not with --address)")
    group.add_argument("--threads-per-task", type=int, default=1, help="CPUs (Rust threads) per Ray task [1]")
    group.add_argument("--quiet", action="store_true", help="no progress on stderr (bench and tune show a bar with "
                       "the rate and time left; search shows Ray Tune's status table)")


def _spec(args, options):
    spec = {}
    for flag, _, _ in options:
        value = getattr(args, flag[2:].replace("-", "_"))
        if value is not None:
            spec[flag[2:].replace("-", "_")] = value
    return spec


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="arcadekit-cluster",
        description="arcade's long runs on a Ray cluster: sharded benchmarks merged exactly, "
        "distributed tuning with checkpoints, and Ray Tune's random search.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = top.add_subparsers(dest="verb", required=True, metavar="{bench,tune,search}")
    bench = verbs.add_parser("bench", help="a benchmark split into seed-range shards, merged exactly",
                             description="Play a benchmark as shards of games on the cluster and print the merged "
                             "report (as the CLI's --json). With --store, finished shards are kept as JSON lines "
                             "and a rerun of the same command resumes.")
    games = bench.add_subparsers(dest="game", required=True, metavar="{mines,tetris,tiles,flappy,battle}")
    for game, (_, command, options) in BENCH_OPTIONS.items():
        p = games.add_parser(game, help=f"as `{command}`", description=f"As `{command} --json`, on the cluster.",
                             epilog=f"Example: {BENCH_EXAMPLES[game]}")
        _add_options(p, options)
        p.add_argument("--store", help="JSON-lines file of finished shards (resume by running the same command again)")
        p.add_argument("--shard-size", type=int, help="games per shard [the games over 32 shards per CPU]")
        _add_cluster(p)
    for verb, help_text in [("tune", "tune weights with the evaluations spread over the cluster"),
                            ("search", "Ray Tune's random search on the same fitness, to compare with CEM")]:
        v = verbs.add_parser(verb, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        tuners = v.add_subparsers(dest="game", required=True, metavar="{tetris,geek}")
        for game, (command, options) in TUNE_OPTIONS.items():
            p = tuners.add_parser(game, help=f"as `{command}`", description=f"As `{command}`, on the cluster.",
                                  epilog=f"Example: arcadekit-cluster {verb} {game} {TUNE_EXAMPLES[verb, game]}")
            _add_options(p, options)
            if verb == "tune":
                p.add_argument("--generations", type=int, help="generations to run [tetris 50, geek 30; "
                               "on --resume: the checkpoint's target]")
                p.add_argument("--out", required=True, help="result file, rewritten after every generation")
                p.add_argument("--checkpoint", help="checkpoint [OUT with extension .checkpoint.json]; "
                               "the CLI's format: either tool resumes the other's")
                p.add_argument("--resume", action="store_true", help="continue the checkpoint's run (its options win "
                               "over the ones given here, as with the CLI's --resume)")
                p.add_argument("--name", help="name stored in the weights file [the file stem]")
            else:
                p.add_argument("--samples", type=int, default=100, help="candidates to score [100]")
                p.add_argument("--storage", help="where Ray Tune keeps its results [~/ray_results]")
            _add_cluster(p)
    return top


def main(argv=None) -> int:
    from .bench import run_bench
    from .cluster import ClusterError
    from .tuning import tune, tune_search

    args = parser().parse_args(argv)
    common = dict(address=args.address, num_cpus=args.num_cpus)
    cores = os.cpu_count() or 1
    if args.address is None and args.num_cpus is not None and args.num_cpus > cores:
        _warn(f"--num-cpus {args.num_cpus} is more than this machine's {cores} cores: "
              "the tasks will share them (the results are the same, the run is slower)")
    try:
        if args.verb == "bench":
            kind, _, options = BENCH_OPTIONS[args.game]
            report = run_bench(kind, _spec(args, options), store=args.store, shard_size=args.shard_size,
                               threads_per_task=args.threads_per_task, progress=not args.quiet, **common)
        elif args.verb == "tune":
            _, options = TUNE_OPTIONS[args.game]
            spec = _spec(args, options)
            checkpoint = args.checkpoint or _with_suffix(args.out)
            if args.resume:
                if spec:
                    unused = ", ".join("--" + key.replace("_", "-") for key in spec)
                    _warn(f"--resume continues the checkpoint's run with its saved settings; not used: {unused}")
                spec = None
            result = tune(args.game, spec, checkpoint=checkpoint, out=args.out, name=args.name,
                          resume=args.resume, generations=args.generations,
                          threads_per_task=args.threads_per_task, progress=not args.quiet, **common)
            report = {"out": args.out, "checkpoint": checkpoint,
                      "generations": len(result["run"]["history"]), "last": result["generations"][-1:]}
        else:
            _, options = TUNE_OPTIONS[args.game]
            seed = args.seed if args.seed is not None else 1
            report = tune_search(args.game, _spec(args, options), samples=args.samples, seed=seed,
                                 threads_per_task=args.threads_per_task, storage=args.storage,
                                 progress=not args.quiet, **common)
    except (ValueError, ClusterError, OSError) as e:
        print(f"error: {_one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted (with --store or a checkpoint, run the same command again to resume)", file=sys.stderr)
        return 130
    except Exception as e:  # a shard failed on every retry, a worker kept dying
        print(f"error: {_one_line(e)}", file=sys.stderr)
        return 1
    print(json.dumps(report))
    return 0


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _with_suffix(out: str) -> str:
    root, _ = os.path.splitext(out)
    return root + ".checkpoint.json"


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    # Ray wraps a task's exception with its traceback; its last line is the error.
    return lines[-1].strip() if lines else type(e).__name__


if __name__ == "__main__":
    sys.exit(main())
