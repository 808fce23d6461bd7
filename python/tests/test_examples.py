"""The examples run (briefly) and do what they say."""

import subprocess
import sys

from conftest import ROOT


def run(script, *args):
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out.stdout


def test_action_mask_example():
    out = run("tetris_action_mask.py", "--games", "3")
    bcts = float(out.split("bcts: mean")[1].split()[0])
    assert bcts > 50, out


def test_training_example_learns():
    out = run("train_flappy_cem.py", "--generations", "12", "--population", "48")
    first = float(out.splitlines()[0].split("best")[1].split()[0])
    final = float(out.splitlines()[-1].split(":")[1].split()[0])
    assert final > first and final >= 5, out


def test_tetris_cem_example_learns_from_afterstate_features():
    out = run("train_tetris_cem.py", "--generations", "6", "--population", "24", "--max-pieces", "300")
    lines = out.splitlines()
    first = float(lines[0].split("best")[1].split()[0])
    final = float(lines[-1].split(":")[1].split()[0])
    bcts = float(lines[-1].split("BCTS:")[1].split(";")[0])
    # From random weights to within reach of the cap (120 rows in 300 pieces)
    # and of BCTS on the same unseen games.
    assert final > first and final >= 80 and bcts >= 100, out
