"""The examples in docs/research.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_document_has_an_example_for_each_library():
    joined = "\n".join(BLOCKS)
    for library in ("mantis_v0", "Mantis-v0", "python_mantis", "OpenSpielCompatibilityV0"):
        assert library in joined


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_each_example_runs_as_written(number, capsys):
    exec(compile(BLOCKS[number], f"{DOC.name}, example {number + 1}", "exec"), {})
    assert capsys.readouterr().out.strip()  # each prints what it found
