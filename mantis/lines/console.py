"""The terminal of the line mode: lines written once, in order, and lines typed at a prompt.

Output is appended and never redrawn: no cursor movement, no clearing, no
colour.  Every line goes through ``mantis.printable``, so nothing from
outside (a name, a server's words) can slip an escape sequence into it.  A
prompt ends with ``> `` and no newline; a line said while a prompt waits
starts on a line of its own, and the prompt is written again after it, so a
screen reader always has the prompt last.

Input is read by a daemon thread (a blocking ``readline`` on standard
input, in the terminal's own line editing), never on the event loop: the
table plays on while the person types.  The end of input (Ctrl+D, a closed
pipe) reads as ``None``.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from ..printable import printable

PROMPT = "> "


class Console:
    """Lines out, lines in: one per program run."""

    def __init__(self, out: TextIO | None = None, source: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.source = source if source is not None else sys.stdin
        self.prompting = False
        """A prompt is written and waits for its answer."""
        self._open = False
        self._prompts = 0
        """Prompts written so far (a line typed before the last one was written is told apart:
        the terminal echoed it above that prompt, whose line is still open)."""
        self._lines: asyncio.Queue[tuple[str | None, int]] | None = None
        self._pending: asyncio.Task[str | None] | None = None

    # ------------------------------------------------------------------ output

    def say(self, *lines: str) -> None:
        """Write each line, whole; a prompt waiting is written again after them."""
        waiting = self.prompting
        if self._open:
            self.out.write("\n")  # the prompt's line is left as it was, never overwritten
        for line in lines:
            self.out.write(printable(line) + "\n")
        self._open = False
        if waiting:
            self.out.write(PROMPT)
            self._prompts += 1
            self._open = True
        self.out.flush()

    def prompt(self, question: str) -> None:
        """Ask: the question, then ``> `` on the same line, waiting for an answer."""
        if self._open:
            self.out.write("\n")
        self.out.write(printable(question) + " " + PROMPT)
        self.out.flush()
        self._prompts += 1
        self.prompting = True
        self._open = True

    def settle(self) -> None:
        """No prompt waits any more (its question is answered, or moot)."""
        self.prompting = False

    # ------------------------------------------------------------------ input

    def start_reading(self) -> None:
        """Start reading typed lines (on a daemon thread); ``read`` returns them in order."""
        if self._lines is not None:
            return
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[tuple[str | None, int]] = asyncio.Queue()
        self._lines = lines

        def read() -> None:
            buffer = getattr(self.source, "buffer", None)
            while True:
                try:
                    raw = buffer.readline() if buffer is not None else self.source.readline()
                except (OSError, ValueError):
                    raw = b""
                text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
                line = None if not text else text.rstrip("\r\n")
                try:
                    loop.call_soon_threadsafe(lines.put_nowait, (line, self._prompts))
                except RuntimeError:
                    return  # the loop is gone: the program is ending
                if line is None:
                    return

        threading.Thread(target=read, name="typed-lines", daemon=True).start()

    async def line(self) -> str | None:
        """The next line typed (None: input ended)."""
        if self._pending is None or self._pending.done():
            self._pending = asyncio.ensure_future(self._read())
        pending = self._pending
        try:
            return await asyncio.shield(pending)
        finally:
            if pending.done():
                self._pending = None

    async def _read(self) -> str | None:
        self.start_reading()
        assert self._lines is not None
        line, prompts = await self._lines.get()
        # The Enter that ended it moved the terminal to a new line, unless a prompt was
        # written after it was typed: that prompt's line is still open.
        self._open = self._open and prompts < self._prompts
        self.prompting = False
        return line

    async def line_or(self, event: asyncio.Event) -> str | None | Interrupted:
        """The next line typed, or ``INTERRUPTED`` if ``event`` is set first (the line being
        typed then is kept for the next call)."""
        if self._pending is None or self._pending.done():
            self._pending = asyncio.ensure_future(self._read())
        if event.is_set():
            return INTERRUPTED
        waiting = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait((self._pending, waiting), return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
        if self._pending.done():
            line = self._pending.result()
            self._pending = None
            return line
        return INTERRUPTED


class Interrupted:
    """What ``line_or`` returns when its event came before a line."""


INTERRUPTED = Interrupted()
