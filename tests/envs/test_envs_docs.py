"""The examples in docs/research.md run as written, each in a fresh process.

A fresh process is what a reader has: inside pytest, other test modules have
already imported (and so registered) the environments, which hides a block
that forgets to.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_document_has_an_example_for_each_entry_point():
    joined = "\n".join(BLOCKS)
    for name in (
        "mantis_v0",
        "Mantis-v0",
        "python_mantis",
        "OpenSpielCompatibilityV0",
        "BotPolicy",
        "expectiminimax",
    ):
        assert name in joined


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_each_example_runs_as_written_in_a_fresh_process(number, tmp_path):
    needs = re.match(r"# needs: (\S+)", BLOCKS[number])
    if needs and importlib.util.find_spec(needs.group(1)) is None:
        pytest.skip(f"example {number + 1} needs {needs.group(1)}, not installed")
    env = {**os.environ, "MANTIS_HOME": str(tmp_path), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", BLOCKS[number]],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout: the installed package, as a reader has it
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, f"example {number + 1} failed:\n{done.stderr}"
    assert done.stdout.strip()  # each prints what it found
