"""The ``terminal`` fixture: ``mantis`` in a pseudo-terminal, always ended after the test."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from journeykit import SIZES, Server, Size, Terminal, environment


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    """Start ``mantis ARGS`` at a size: ``terminal("play", "--seed", "7", size=size)``.

    The app runs with the test's own ``MANTIS_HOME``, or ``home`` (a second
    person's, say); whatever still runs when the test ends, passed or failed,
    is killed.
    """
    started: list[Terminal] = []

    def start(*args: str, size: Size = SIZES[0], home: Path | None = None) -> Terminal:
        where = str(home) if home is not None else os.environ["MANTIS_HOME"]
        term = Terminal(args, size, environment(size, where))
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start ``mantis serve OPTIONS`` on a free port: ``serve("--bot-pace", "0").url``.

    Its tables are kept in a folder of the test's own; it is stopped when the test ends.
    """
    started: list[Server] = []

    def start(*options: str) -> Server:
        server = Server(options, tmp_path / f"server-{len(started) + 1}")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
