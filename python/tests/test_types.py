"""The package's types are checked by mypy: the stubs of the compiled module
(``_arcadekit.pyi``) name every class, function and constant with the real
parameters and defaults (``mypy.stubtest`` against the built module), and the
Python modules type-check against them and Gymnasium's own annotations. An
editor's completion and a user's type checker then see the real API, and a
stub cannot drift silently when a Rust signature changes."""

import subprocess
import sys

import pytest

from conftest import ROOT


def mypy(*args):
    """Runs ``python -m ARGS`` (mypy or its stubtest) from the repository,
    whose pyproject.toml holds the settings."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is missing: pip install mypy (scripts/test-python.sh installs it)")
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_the_stubs_match_the_compiled_module():
    out = mypy("mypy.stubtest", "--mypy-config-file", "pyproject.toml", "arcadekit._arcadekit")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues found in 1 module" in out.stdout, out.stdout


def test_the_package_type_checks():
    out = mypy("mypy", "--config-file", "pyproject.toml")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues found" in out.stdout and "source files" in out.stdout, out.stdout
