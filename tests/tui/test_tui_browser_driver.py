"""A browser tab's app ends once its server is gone (``mantis web``'s driver).

Each tab's app reads its input from the server; when that input ends, the
server is gone and nobody can see or reach the app any more.  It quits by
itself, as if the tab had closed; one too busy to quit ends all the same
after a while, rather than running on unseen.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from mantis.tui.browser_driver import ENDED

#: Generous bound on a process ending (a slow machine is slower, never red).
WAIT = 60

APP = """
import os, sys, time
from textual.app import App
from textual.widgets import Static
from mantis.tui.browser_driver import BrowserDriver

class Driver(BrowserDriver):
    quit_within = 0.5

class Tab(App):
    def compose(self):
        yield Static("ready")

    def on_mount(self):
        os.write(int(sys.argv[2]), b"M")  # (Textual takes the app's stdout and stderr)
        if sys.argv[1] == "stuck":
            self.call_later(lambda: time.sleep(3600))  # too busy for anything, quitting included

Tab(driver_class=Driver).run()
"""


def _tab(tmp_path: Path, how: str, mounted: int) -> subprocess.Popen[bytes]:
    script = tmp_path / "tab.py"
    script.write_text(APP, encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, str(script), how, str(mounted)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(mounted,),
        env={**os.environ, "COLUMNS": "80", "LINES": "24"},
    )


@pytest.mark.parametrize(("how", "status"), [("quits", 0), ("stuck", ENDED)])
def test_an_app_whose_server_is_gone_ends(tmp_path: Path, how: str, status: int) -> None:
    said, mounted = os.pipe()
    tab = _tab(tmp_path, how, mounted)
    os.close(mounted)
    try:
        assert tab.stdin is not None
        ready, _, _ = select.select([said], [], [], WAIT)
        assert ready and os.read(said, 1) == b"M"  # running, its input still open
        tab.stdin.close()  # the server is gone
        assert tab.wait(WAIT) == status
    finally:
        if tab.poll() is None:
            tab.kill()
            tab.wait()
        os.close(said)
