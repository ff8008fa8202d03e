"""The terminal of the line mode: lines written once, in order, and lines typed at a prompt.

Output is appended and never redrawn: no cursor movement, no clearing, no
colour.  Every line goes through ``mantis.base.printable``, so nothing from
outside (a name, a server's words) can slip an escape sequence into it.

The prompt is always the last thing written while input is read, so a
screen reader's review cursor finds it at the bottom and what is typed
never runs into a line said after it:

- a question ends with ``> `` and no newline; a line said while it is open
  (a move, a clock warning, talk) starts on a line of its own, and the
  question's keys are asked again after it ("s, 2 or 3 > "), never a bare
  ``> ``;
- while nothing is asked (the waiting room, another seat's turn, watching),
  every burst of lines ends with a bare ``> ``, on a line of its own, for
  whatever the person may type.

The bell (a setting) rings before a line that matters to the person: their
turn, a steal from them, a clock warning, the end of a game.

Input is read by a daemon thread (a blocking ``readline`` on standard
input, in the terminal's own line editing), never on the event loop: the
table plays on while the person types.  The end of input (Ctrl+D, a closed
pipe) reads as ``None``.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from ..base.printable import printable

PROMPT = "> "
BELL = "\a"


class Console:
    """Lines out, lines in: one per program run."""

    def __init__(
        self,
        out: TextIO | None = None,
        source: TextIO | None = None,
        *,
        bell: Callable[[], bool] = lambda: False,
    ) -> None:
        """``bell``: whether the bell rings now (the setting, read each time)."""
        self.out = out if out is not None else sys.stdout
        self.source = source if source is not None else sys.stdin
        self.bell = bell
        self.keys: str | None = None
        """The open question's keys, asked again after any line said while it is open
        (None: nothing is asked)."""
        self.idle = False
        """Input is read while nothing is asked: every burst of lines ends with a bare
        prompt."""
        self._open = False
        """The last line written is a prompt's, not ended yet."""
        self._prompts = 0
        """Prompts written so far (a line typed before the last one was written is told apart:
        the terminal echoed it above that prompt, whose line is still open)."""
        self._idle_due = False
        self._lines: asyncio.Queue[tuple[str | None, int]] | None = None
        self._pending: asyncio.Task[str | None] | None = None

    @property
    def prompting(self) -> bool:
        """A question is open, waiting for its answer."""
        return self.keys is not None

    # ------------------------------------------------------------------ output

    def say(self, *lines: str, ring: bool = False) -> None:
        """Write each line, whole; an open question's keys are asked again after them
        (``ring``: the bell first, if it is on)."""
        if not lines:
            return
        if self._open:
            self.out.write("\n")  # the prompt's line is left as it was, never overwritten
            self._open = False
        if ring and self.bell():
            self.out.write(BELL)
        for line in lines:
            self.out.write(printable(line) + "\n")
        if self.keys is not None:
            self._write_prompt(self.keys)
        else:
            self._idle_soon()
        self.out.flush()

    def prompt(self, question: str, keys: str | None = None, *, ring: bool = False) -> None:
        """Ask: the question, then ``> `` on the same line, waiting for an answer; ``keys``
        (default: the question) is what is asked again after a line said meanwhile."""
        if self._open:
            self.out.write("\n")
            self._open = False
        if ring and self.bell():
            self.out.write(BELL)
        self.keys = keys if keys is not None else question
        self._write_prompt(question)
        self.out.flush()

    def ask_after(self, keys: str) -> None:
        """A question whose keys are asked after the next line said (an answer to what was
        just typed is on its way, and comes first)."""
        self.keys = keys

    def reask(self) -> None:
        """The open question's keys again (after an answer that answered nothing)."""
        if self.keys is not None:
            if self._open:
                self.out.write("\n")
                self._open = False
            self._write_prompt(self.keys)
            self.out.flush()

    def settle(self) -> None:
        """No question waits any more (it is answered, or moot)."""
        self.keys = None
        self._idle_soon()

    def end(self) -> None:
        """The program is done with the terminal: the last line is ended."""
        self.idle = False
        self.keys = None
        if self._open:
            self.out.write("\n")
            self._open = False
            self.out.flush()

    def _write_prompt(self, text: str) -> None:
        self.out.write(printable(text) + " " + PROMPT)
        self._prompts += 1
        self._open = True

    def _idle_soon(self) -> None:
        """A bare prompt once this burst of lines is written (if still nothing is asked)."""
        if not self.idle or self._idle_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop: nothing is read
        self._idle_due = True
        loop.call_soon(self._idle_prompt)

    def _idle_prompt(self) -> None:
        self._idle_due = False
        if self.idle and self.keys is None and not self._open:
            self.out.write(PROMPT)
            self._prompts += 1
            self._open = True
            self.out.flush()

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
        self._idle_prompt()
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
        self.keys = None  # answered: whoever reads it asks again if it answered nothing
        return line

    async def line_or(self, event: asyncio.Event) -> str | None | Interrupted:
        """The next line typed, or ``INTERRUPTED`` if ``event`` is set first (the line being
        typed then is kept for the next call)."""
        self._idle_prompt()  # waiting for a line: the prompt is the last thing written
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
