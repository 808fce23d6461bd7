"""Shared helpers: the `arcade` binary the determinism tests compare against."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def arcade():
    """Runs `target/release/arcade ARGS --json` and returns the parsed report."""
    exe = pathlib.Path(os.environ.get("ARCADE_BIN", ROOT / "target" / "release" / "arcade"))
    if not exe.exists():
        pytest.fail(f"{exe} is missing: build it with `cargo build --release -p arcade`")

    def run(*args):
        out = subprocess.run(
            [str(exe), *map(str, args), "--json"], check=True, capture_output=True, text=True
        )
        return json.loads(out.stdout)

    return run
