"""``mantis ... --lines`` driven as a person at a screen reader uses it: in a pseudo-terminal.

``Lines`` spawns the installed command (``sys.executable -m mantis``) with its
own ``MANTIS_HOME``, types lines, waits for text with generous bounds (never
for a time), and keeps every byte the program wrote, so a test can check
that none of it moves the cursor or clears the screen.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect

#: Generous bound on any one wait (a slow machine is slower, never red).
WAIT = 60
#: A prompt: the question, then "> " with nothing after it.
PROMPT = re.compile(rb"> $")
#: A turn played here, as its prompt asks it.
YOUR_TURN = re.compile(rb"Your turn[^\n]*> ")
#: Every colour, as the lines spell it.
COLOURS = ("red", "green", "blue", "purple", "pink", "yellow", "orange")


def settle_speed(home: Path, speed: str = "instant") -> None:
    """Bots at ``speed`` in this home's settings (the tests never wait on a pace)."""
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"speed": speed}), encoding="utf-8")


class Lines:
    """One ``mantis`` command running in lines in a pseudo-terminal."""

    def __init__(self, home: Path, *args: str, env: dict[str, str] | None = None) -> None:
        environment = {**os.environ, "MANTIS_HOME": str(home)}
        environment.pop("MANTIS_LINES", None)  # each test says how it wants its lines
        # A terminal that would obey any escape sequence it was sent.
        environment.update(TERM="xterm-256color", COLUMNS="80", LINES="24", **(env or {}))
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "mantis", *args],
            env=environment,
            timeout=WAIT,
            dimensions=(24, 80),
        )
        # What is typed goes at once: the line mode reads whole lines, so pexpect's pause
        # before each (for programs that drop early keystrokes) only slows the tests.
        self.child.delaybeforesend = None
        self.seen = b""
        """Every byte read from the program so far."""

    def expect(self, pattern: str | bytes | re.Pattern[bytes]) -> re.Match[bytes]:
        """Wait for ``pattern`` (text is matched exactly); the match."""
        if isinstance(pattern, str):
            pattern = re.compile(re.escape(pattern.encode()))
        elif isinstance(pattern, bytes):
            pattern = re.compile(re.escape(pattern))
        self.child.expect(pattern)
        self.seen += self.child.before + self.child.after
        match = self.child.match
        assert isinstance(match, re.Match)
        return match

    async def expect_async(self, pattern: str | re.Pattern[bytes]) -> re.Match[bytes]:
        """``expect`` without blocking the event loop (a server may run in this test)."""
        if isinstance(pattern, str):
            pattern = re.compile(re.escape(pattern.encode()))
        await self.child.expect(pattern, async_=True)
        self.seen += self.child.before + self.child.after
        match = self.child.match
        assert isinstance(match, re.Match)
        return match

    def type(self, line: str) -> None:
        self.child.sendline(line)

    def finish(self) -> int:
        """Read to the end of the program; its exit status."""
        self.child.expect(pexpect.EOF)
        self.seen += self.child.before
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)

    @property
    def text(self) -> str:
        return self.seen.decode("utf-8", "replace")

    def lines(self) -> list[str]:
        """What was written, a line each (the prompt's line with the answer typed after it)."""
        return [line.rstrip("\r") for line in self.text.split("\n")]


#: The question at the end of a game.
WHAT_NEXT = re.compile(rb"What next\?[^\n]*> ")


def play_out(lines: Lines, answer: str = "s") -> None:
    """Answer every question of a turn with ``answer`` until the game is over (and the
    question of what next is asked)."""
    while True:
        found = lines.expect(re.compile(YOUR_TURN.pattern + b"|" + WHAT_NEXT.pattern))
        if found.group(0).startswith(b"What next"):
            return
        lines.type(answer)


#: Anything but plain text and line ends: ESC (every escape sequence: cursor moves, clears,
#: colours, titles), other C0 controls, and C1's CSI.
CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]")


def controls_in(seen: bytes) -> list[bytes]:
    """Every control byte the program wrote, but the ends of lines (CR, LF) and the BEL-free
    terminal's own echo of what was typed."""
    return CONTROL.findall(seen)
