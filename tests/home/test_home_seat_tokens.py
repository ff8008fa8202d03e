"""Seat tokens kept by several apps at once (terminals, browser tabs) are all kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mantis.home.seat_tokens import SeatTokens

#: One app: sits down at ``count`` tables in a row, keeping each seat's token.
APP = """
import sys
from mantis.home.seat_tokens import SeatTokens
path, app, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
tokens = SeatTokens(path)
print("ready", flush=True)
sys.stdin.readline()  # every app starts at once
for n in range(count):
    tokens.remember("ws://server", f"{app}{n:03}", f"token-{app}-{n}", f"Player {app}")
"""


def test_apps_keeping_seats_at_once_lose_none_of_them(tmp_path: Path) -> None:
    path = tmp_path / "online-seats.json"
    apps = [
        subprocess.Popen(
            [sys.executable, "-c", APP, str(path), app, "40"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "MANTIS_HOME": str(tmp_path)},
        )
        for app in "ABCD"
    ]
    for app in apps:
        assert app.stdout is not None and app.stdout.readline() == "ready\n"
    for app in apps:
        assert app.stdin is not None
        app.stdin.write("go\n")
        app.stdin.close()
    for app in apps:
        assert app.wait(timeout=120) == 0
    tokens = SeatTokens(path)
    missing = [
        f"{app}{n:03}"
        for app in "ABCD"
        for n in range(40)
        if tokens.token("ws://server", f"{app}{n:03}") != f"token-{app}-{n}"
    ]
    assert missing == []


def test_forgetting_one_seat_keeps_the_others(tmp_path: Path) -> None:
    tokens = SeatTokens(tmp_path / "online-seats.json")
    tokens.remember("ws://server", "BCDF", "t1", "Ann")
    tokens.remember("ws://server", "GHJK", "t2", "Ann")
    tokens.forget("ws://server", "bcdf")
    assert tokens.token("ws://server", "BCDF") is None
    assert tokens.token("ws://server", "GHJK") == "t2"
