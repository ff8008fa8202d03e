"""Journeys: the installed ``mantis`` run in a pseudo-terminal, its screen read as a person sees it.

A journey starts the ``mantis`` console script (the one beside the running
Python, as CI installs it) in a pseudo-terminal of a given size, feeds every
byte it writes to a ``pyte`` screen, presses keys as a terminal sends them,
and waits on what the screen shows, never on time. A failure says what was
awaited and shows the whole screen.

Writing one: take the ``terminal`` fixture (``tests/journeys/conftest.py``),
which starts the app with the test's own ``MANTIS_HOME`` and always ends it,
even when the test fails; mark the test ``journey``::

    @pytest.mark.journey
    @pytest.mark.parametrize("size", SIZES, ids=str)
    def test_help_opens_and_closes(terminal, size: Size) -> None:
        term = terminal("play", "--seats", "human,greedy", "--seed", "7", size=size)
        assert_table_whole(term.settle("▶ YOUR TURN"))
        term.press("f1")
        term.wait_for("Help · Esc closes")
        term.press("escape")
        term.wait_for(lambda lines: not any("Help · Esc" in line for line in lines))
        assert term.quit() == 0, term.printed()

``wait_for(what)`` waits until ``what`` (a text, or a predicate over the
screen's lines) holds; ``settle(what)`` also waits for the app to stop
drawing for a moment (Textual draws in bursts), so a check of the whole
screen sees a finished frame. ``press`` takes Textual's key names
(``"enter"``, ``"ctrl+s"``, ``"f1"``, ``"?"``), ``type`` types text,
``resize`` changes the terminal's size, ``kill`` ends the app at once (as a
crash would) and ``quit`` presses ctrl+q and returns the exit status.
``printed()`` is what the app printed outside its full screen (an error, a
traceback), ``dump()`` the screen as text and ``cell(x, y)`` one character
with its colours and attributes.  ``mark()`` and ``frames_since(mark)`` give
every frame drawn whole in between, so a journey can check each frame a
person saw, not only the last.

Online journeys take a ``serve`` fixture too: ``mantis serve`` run as a
process of its own on a free port, stopped after the test. Each person
plays from a home of their own (``person_home``: a ``MANTIS_HOME`` with the
settings they start with), as two people on two computers would.
"""

from __future__ import annotations

import inspect
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyte
from ptyprocess import PtyProcess
from screenkit import dump

Lines = list[str]
Awaited = str | Callable[[Lines], object]

TIMEOUT = 60.0
"""How long a journey waits for a state before failing: far beyond what a loaded machine needs."""

QUIET = 0.3
"""Seconds without output after which a screen is taken as drawn (always with a state to hold)."""

ALTERNATE_SCREEN = 1049
"""The private mode of xterm's alternate screen, which full-screen apps draw on."""

SYNCHRONIZED_OUTPUT = 2026
"""The private mode an app sets while it draws a frame, and resets when the frame is whole."""

_ASKS_SYNCHRONIZED = b"\x1b[?2026$p"
_SUPPORTS_SYNCHRONIZED = b"\x1b[?2026;2$y"


@dataclass(frozen=True)
class Size:
    """A terminal's size, and whether it has ``NO_COLOR`` set."""

    columns: int
    lines: int
    no_color: bool = False

    def __str__(self) -> str:
        return f"{self.columns}x{self.lines}" + ("-no-color" if self.no_color else "")


SIZES = (Size(80, 24, no_color=True), Size(100, 30))
"""The sizes every journey runs at: the smallest the app supports (without colour), and larger.

(A third, 120x40, found nothing the other two did not and cost CI about 25 s.)"""

# As a terminal sends them. Escape goes as the kitty keyboard protocol's CSI 27 u, which
# Textual asks the terminal for: a lone ESC byte is only told from the start of a sequence
# after Textual's escape delay, so a key pressed soon after it would be read as alt+key.
KEYS: dict[str, str] = {
    "enter": "\r",
    "tab": "\t",
    "shift+tab": "\x1b[Z",
    "escape": "\x1b[27u",
    "space": " ",
    "backspace": "\x7f",
    "delete": "\x1b[3~",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "f1": "\x1bOP",
    "f2": "\x1bOQ",
    "f3": "\x1bOR",
    "f4": "\x1bOS",
}

_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def key_bytes(key: str) -> bytes:
    """What a terminal sends for one of Textual's key names (a single character is itself)."""
    if key in KEYS:
        return KEYS[key].encode()
    if len(key) == 1:
        return key.encode()
    if key.startswith("ctrl+") and len(key) == 6 and key[5].isalpha():
        return bytes([ord(key[5].lower()) - ord("a") + 1])
    raise ValueError(f"no byte sequence known for the key {key!r}")


def mantis_script() -> Path:
    """The installed ``mantis`` console script: the one beside the running Python."""
    script = Path(sys.executable).with_name("mantis")
    if not script.exists():
        raise RuntimeError(f"no installed mantis script at {script}: install the project first")
    return script


class TerminalScreen(pyte.Screen):
    """pyte's screen with two things of today's terminals that pyte leaves out.

    The alternate screen: an app draws on it; when it ends, the terminal shows
    again what was there before, and what the app prints after (an error, a
    traceback) lands there.  Synchronized output: while the app draws a frame,
    the terminal goes on showing the last whole one (``shown``), so nobody, a
    test included, sees a frame half drawn.
    """

    def __init__(self, columns: int, lines: int, answer: Callable[[str], None]) -> None:
        super().__init__(columns, lines)
        self._main: tuple[object, object] | None = None
        self._answer = answer
        self.held: tuple[list[str], dict[int, dict[int, pyte.screens.Char]]] | None = None
        """The frame on show while the next one is drawn (None: the screen as it is)."""
        self.frames: list[list[str]] = []
        """Every frame drawn whole (between the marks of synchronized output), in order."""

    def shown_lines(self) -> list[str]:
        """The rows the terminal shows."""
        return self.held[0] if self.held is not None else list(self.display)

    def shown_cells(self) -> dict[int, dict[int, pyte.screens.Char]]:
        """The cells the terminal shows, by row and column (a blank cell is left out)."""
        if self.held is not None:
            return self.held[1]
        return {y: dict(self.buffer[y]) for y in range(self.lines)}

    def write_process_input(self, data: str) -> None:
        # pyte's answers to the app's questions (device attributes, cursor position).
        self._answer(data)

    def set_mode(self, *modes: int, **kwargs: object) -> None:
        if kwargs.get("private"):
            if SYNCHRONIZED_OUTPUT in modes and self.held is None:
                self.held = (self.shown_lines(), self.shown_cells())
            if ALTERNATE_SCREEN in modes and self._main is None:
                self._main = (self.buffer, self.cursor)
                self.buffer = type(self.buffer)(self.buffer.default_factory)
                self.cursor = pyte.screens.Cursor(0, 0)
                self.dirty.update(range(self.lines))
        super().set_mode(*modes, **kwargs)

    def reset_mode(self, *modes: int, **kwargs: object) -> None:
        if kwargs.get("private"):
            if SYNCHRONIZED_OUTPUT in modes and self.held is not None:
                self.held = None
                self.frames.append(list(self.display))
            if ALTERNATE_SCREEN in modes and self._main is not None:
                self.buffer, self.cursor = self._main  # type: ignore[assignment]
                self._main = None
                self.dirty.update(range(self.lines))
        super().reset_mode(*modes, **kwargs)


class Terminal:
    """``mantis`` running in a pseudo-terminal, with the screen a terminal would show."""

    def __init__(self, args: Sequence[str], size: Size, env: dict[str, str]) -> None:
        self.args = tuple(args)
        self.size = size
        self._changed = threading.Condition()
        self._screen = TerminalScreen(size.columns, size.lines, self._answer)
        self._stream = pyte.ByteStream(self._screen)
        self._raw = bytearray()
        self._held = b""
        self._last_output = time.monotonic()
        self._ended = False
        self.process = PtyProcess.spawn(
            [str(mantis_script()), *self.args],
            env=env,
            dimensions=(size.lines, size.columns),
        )
        self._reader = threading.Thread(target=self._read, name="journey-reader", daemon=True)
        self._reader.start()

    # ------------------------------------------------------------------ reading

    def _read(self) -> None:
        while True:
            try:
                data = self.process.read(65536)
            except EOFError:
                break
            with self._changed:
                self._raw += data
                self._feed(data)
                self._last_output = time.monotonic()
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def _answer(self, data: str) -> None:
        self.process.write(data.encode())

    def _feed(self, data: bytes) -> None:
        # Textual asks whether the terminal draws frames whole (synchronized output), as
        # most terminals today do: yes, so it marks where each frame starts and ends.
        if _ASKS_SYNCHRONIZED in self._raw[-len(data) - len(_ASKS_SYNCHRONIZED) :]:
            self.process.write(_SUPPORTS_SYNCHRONIZED)
        # pyte draws the kitty keyboard protocol's "pop" (CSI < u) as a "u": read as the
        # harmless "push" form it skips. A sequence cut between two reads waits for the rest.
        data = self._held + data
        cut = data.rfind(b"\x1b")
        if cut >= 0 and len(data) - cut < 3:
            data, self._held = data[:cut], data[cut:]
        else:
            self._held = b""
        self._stream.feed(data.replace(b"\x1b[<", b"\x1b[>"))

    def lines(self) -> Lines:
        """The screen as shown now, one string per row, as wide as the terminal."""
        with self._changed:
            return self._screen.shown_lines()

    def mark(self) -> int:
        """A mark in the frames drawn so far, for ``frames_since``."""
        with self._changed:
            return len(self._screen.frames)

    def frames_since(self, mark: int) -> list[Lines]:
        """Every frame drawn whole since ``mark``, in order: what a person saw, however briefly."""
        with self._changed:
            return [list(frame) for frame in self._screen.frames[mark:]]

    def cell(self, column: int, line: int) -> pyte.screens.Char:
        """One character cell as shown: its ``data``, ``fg``, ``bg``, ``bold``, ``reverse``..."""
        with self._changed:
            return self._screen.shown_cells()[line].get(column, self._screen.default_char)

    def cells(self) -> dict[int, dict[int, pyte.screens.Char]]:
        """Every cell as shown, by row and column (a blank one is left out): ``cell``'s, at once."""
        with self._changed:
            return self._screen.shown_cells()

    def dump(self) -> str:
        """The screen as numbered text rows, for a failure's message."""
        return dump(self.lines())

    def printed(self) -> str:
        """What was printed outside the full screen (before the app drew, after it ended).

        An error, a message on the way out or a traceback: plain text, escape codes removed.
        """
        with self._changed:
            raw = bytes(self._raw)
        outside = re.sub(rb"\x1b\[\?1049h.*?(\x1b\[\?1049l|\Z)", b"", raw, flags=re.S)
        text = _ESCAPES.sub("", outside.decode(errors="replace"))
        return text.replace("\r\n", "\n").replace("\r", "")

    # ------------------------------------------------------------------ waiting

    def wait_for(self, what: Awaited, timeout: float = TIMEOUT) -> Lines:
        """Wait until ``what`` holds on the screen and return its lines.

        ``what`` is a text to appear on some row, or a predicate over the rows.
        On a timeout, or if the app ends first, fails with the whole screen.
        """
        return self._wait(what, quiet=0.0, timeout=timeout)

    def settle(self, what: Awaited, quiet: float = QUIET, timeout: float = TIMEOUT) -> Lines:
        """Wait until ``what`` holds and nothing has been drawn for ``quiet`` seconds.

        Textual draws a change in bursts: a screen checked as a whole is checked
        once it has held still. The quiet spell alone proves nothing, hence ``what``.
        """
        return self._wait(what, quiet=quiet, timeout=timeout)

    def _wait(self, what: Awaited, quiet: float, timeout: float) -> Lines:
        holds = _predicate(what)
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                lines = self._screen.shown_lines()
                now = time.monotonic()
                still = now - self._last_output
                if holds(lines) and still >= quiet:
                    return lines
                if now >= deadline or self._ended:
                    why = "mantis ended" if self._ended else f"timed out after {timeout:g} s"
                    raise AssertionError(
                        f"{why} waiting for {_describe(what)}"
                        f"{' (and a quiet screen)' if quiet else ''}:\n{self._report(lines)}"
                    )
                wait = deadline - now
                if holds(lines):
                    wait = min(wait, quiet - still)
                self._changed.wait(max(wait, 0.001))

    def _report(self, lines: Lines) -> str:
        report = dump(lines)
        if self._ended:
            printed = self.printed().strip()
            report += f"\nprinted outside the app:\n{printed}" if printed else ""
        return report

    # ------------------------------------------------------------------ acting

    def press(self, *keys: str) -> None:
        """Press keys, named as Textual names them (``"s"``, ``"enter"``, ``"ctrl+q"``)."""
        for key in keys:
            self.process.write(key_bytes(key))

    def type(self, text: str) -> None:
        """Type ``text`` as a person would, character by character."""
        self.process.write(text.encode())

    def resize(self, columns: int, lines: int) -> None:
        """Make the terminal ``columns`` by ``lines``: the app is told (SIGWINCH) and redraws."""
        with self._changed:
            self._screen.resize(lines, columns)
            self.size = Size(columns, lines, self.size.no_color)
        self.process.setwinsize(lines, columns)

    # ------------------------------------------------------------------ ending

    @property
    def status(self) -> int | None:
        """The exit status once the app has ended (minus the signal that ended it), else None."""
        if self.process.isalive():
            return None
        if self.process.signalstatus is not None:
            return -int(self.process.signalstatus)
        return int(self.process.exitstatus or 0)

    def wait_exit(self, timeout: float = TIMEOUT) -> int:
        """Wait for the app to end by itself and return its exit status."""
        deadline = time.monotonic() + timeout
        while (status := self.status) is None:
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"mantis still running after {timeout:g} s:\n{dump(self.lines())}"
                )
            with self._changed:
                self._changed.wait(0.05)
        self._reader.join(timeout)
        return status

    def quit(self, timeout: float = TIMEOUT) -> int:
        """Press ctrl+q and return the exit status once the app has ended."""
        self.press("ctrl+q")
        return self.wait_exit(timeout)

    def kill(self) -> int:
        """End the app at once with SIGKILL, as a crash or a closed laptop would."""
        if self.process.isalive():
            self.process.kill(signal.SIGKILL)
        self.process.wait()
        self._reader.join(TIMEOUT)
        status = self.status
        assert status is not None
        return status

    def close(self) -> None:
        """Kill the app if it still runs and let go of the terminal (always safe to call)."""
        try:
            if self.process.isalive():
                self.kill()
        finally:
            self.process.close(force=True)


def environment(size: Size, home: str) -> dict[str, str]:
    """The app's environment: this one, a terminal type Textual draws well in, ``home``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"NO_COLOR", "COLORTERM", "COLUMNS", "LINES"}
        and not name.startswith("TEXTUAL")
    }
    # A UTF-8 terminal, as pyte decodes it, whatever the locale of the machine running the tests.
    env.update(TERM="xterm-256color", LC_ALL="C.UTF-8", MANTIS_HOME=home)
    if size.no_color:
        env["NO_COLOR"] = "1"
    return env


def notified(text: str) -> Callable[[Lines], bool]:
    """A predicate: a notification on the screen says ``text`` (whose lines it may wrap)."""

    def holds(lines: Lines) -> bool:
        # Textual draws each notification as a box whose left edge is "▌", at the bottom right.
        said = " ".join(line.split("▌", 1)[1].strip() for line in lines if "▌" in line)
        return text in " ".join(said.split())

    holds.__doc__ = f"a notification saying {text!r}"
    return holds


def _predicate(what: Awaited) -> Callable[[Lines], object]:
    if isinstance(what, str):
        return lambda lines: any(what in line for line in lines)
    return what


def _describe(what: Awaited) -> str:
    if isinstance(what, str):
        return repr(what)
    if what.__doc__:
        return what.__doc__
    try:
        return inspect.getsource(what).strip()
    except (OSError, TypeError):
        return repr(what)


# ---------------------------------------------------------------------- a server, and people


class Server:
    """``mantis serve`` as a process of its own on a free port (``url``), until ``stop``."""

    def __init__(self, options: Sequence[str], home: Path) -> None:
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        self._log = (home / "serve.log").open("wb")
        env = {**os.environ, "MANTIS_HOME": str(home)}
        self.process = subprocess.Popen(
            [str(mantis_script()), "serve", "--port", "0", *options],
            env=env,
            stdout=subprocess.PIPE,
            stderr=self._log,
        )
        lines: queue.Queue[bytes] = queue.Queue()
        out = self.process.stdout
        assert out is not None

        def read() -> None:
            for line in iter(out.readline, b""):
                lines.put(line)

        threading.Thread(target=read, name="journey-server", daemon=True).start()
        try:
            # "mantis server on ws://127.0.0.1:PORT", once it listens.
            first = lines.get(timeout=TIMEOUT).decode(errors="replace")
        except queue.Empty:
            first = ""
        found = re.search(r"ws://\S+", first)
        if found is None:
            self.stop()
            log = (home / "serve.log").read_text(errors="replace")
            raise RuntimeError(f"mantis serve did not say where it listens: {first!r}\n{log}")
        self.url = found.group(0)

    def stop(self) -> int:
        """Stop the server as a person would (SIGTERM) and return its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        return self.process.returncode


def person_home(root: Path, name: str, **settings: object) -> Path:
    """A ``MANTIS_HOME`` for one person under ``root``, the app's settings there (any of
    ``store.Settings``'s fields: ``speed="instant"``, ``server=url``...)."""
    home = root / name
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return home
