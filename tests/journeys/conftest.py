"""The ``terminal`` fixture: ``mantis`` in a pseudo-terminal, always ended after the test."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
from journeykit import SIZES, Size, Terminal, environment


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    """Start ``mantis ARGS`` at a size: ``terminal("play", "--seed", "7", size=size)``.

    The app runs with the test's own ``MANTIS_HOME``; whatever still runs when
    the test ends, passed or failed, is killed.
    """
    started: list[Terminal] = []

    def start(*args: str, size: Size = SIZES[0]) -> Terminal:
        term = Terminal(args, size, environment(size, os.environ["MANTIS_HOME"]))
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()
