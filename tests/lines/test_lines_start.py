"""The line mode starts without Textual, and every command that plays offers it."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_the_line_mode_never_loads_textual_nor_the_app() -> None:
    code = (
        "import sys, mantis.cli, mantis.lines.launch, mantis.lines.local, mantis.lines.online, "
        "mantis.lines.replay, mantis.lines.review; "
        "print(' '.join(m for m in sys.modules if m.startswith(('textual', 'mantis.tui'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


@pytest.mark.parametrize("command", ["play", "host", "join", "quick", "watch", "replay", "review"])
def test_every_command_that_plays_has_lines(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mantis", command, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert "--lines, --no-lines" in done.stdout
