"""The Python the documentation shows runs as written."""

import pathlib
import re

import numpy as np
import pytest

from conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks():
    """Every fenced ```python block of the README and docs/, with where it is."""
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for number, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S), 1):
            yield pytest.param(block, id=f"{path.name}-{number}")


BLOCKS = list(python_blocks())


def test_the_docs_show_python():
    # The scan found the blocks: the usage guide alone shows three.
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS)
def test_python_block_runs(block):
    if 'address="auto"' in block:
        pytest.skip("needs a running Ray cluster (tests/test_distributed.py covers run_bench)")
    # The battle example leaves the policy to the reader: any legal action does.
    namespace = {"my_policy": lambda obs, mask: int(np.flatnonzero(mask)[0])}
    exec(compile(block, "<docs>", "exec"), namespace)  # noqa: S102 - our own docs
