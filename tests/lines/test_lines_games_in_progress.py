"""Your games in progress in lines: after a crash, ``join`` with no code takes the seat back,
and a session on the server says the other games in progress, each with its command.

A real server process (``mantis serve``); the line mode in a pseudo-terminal, killed as a
crash would, then started again from the same home.
"""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from linekit import YOUR_TURN, Lines, controls_in, settle_speed
from netkit import ServerProcess


@pytest.fixture
def home(_mantis_home: Path) -> Path:
    settle_speed(_mantis_home)
    return _mantis_home


def test_after_a_crash_join_without_a_code_takes_the_seat_back_and_others_are_said(
    home: Path, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "server", 0, "--bot-pace", "0")
    url = server.url
    first = Lines(home, "host", url, "--seats", "human,greedy", "--name", "Ann", "--lines")
    try:
        code = first.expect(re.compile(rb"Table ([A-Z-]+), spelt")).group(1).decode()
        first.expect("Every seat is taken: type start.")
        first.type("start")
        first.expect(YOUR_TURN)
        first.child.kill(signal.SIGKILL)  # a crash: nothing said, nothing saved on the way
        first.child.wait()

        # No code to remember: the newest game in progress here is taken back.
        again = Lines(home, "join", url, "--lines")
        again.expect(f"Table {code}, spelt")
        again.expect(YOUR_TURN)
        again.type("s")
        again.expect(re.compile(rb"\nYou (scored|missed a score)"))
        again.expect(YOUR_TURN)
        again.type("q")
        again.expect("takes it back.")
        assert again.finish() == 0

        # A new table on the server: the game left playing is said, with its command.
        other = Lines(home, "host", url, "--seats", "human,open", "--name", "Ann", "--lines")
        other.expect("You have 1 other game in progress on this server.")
        other.expect(f"mantis join --lines {url} {code} takes your seat back.")
        other.expect("Waiting for 1 more person to join")
        other.type("q")
        assert other.finish() == 0
        assert controls_in(again.seen + other.seen) == []

        # Someone with no game here is told so, in one line.
        nobody = tmp_path / "nobody"
        settle_speed(nobody)
        nothing = Lines(nobody, "join", url, "--lines")
        status = nothing.finish()
        said = [line for line in nothing.lines() if line.strip()]
        assert status == 1, said
        assert said[-1] == f"mantis: you have no game in progress on {url}: give a table's code"
    finally:
        first.close()
        server.stop()
