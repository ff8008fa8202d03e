"""Time to first frame: ``mantis``, a 4-seat table and a minimal Textual app, side by side.

Run: ``.venv/bin/python benchmarks/startup.py [--repeat N] [--size 100x30]``.

Method, the same for all three commands:

- Each command is ``python -c CODE ARGS...`` with this interpreter, so the
  three pay the same interpreter start-up.  Mantis runs what the ``mantis``
  console script runs (``mantis.cli.main`` on ``sys.argv``): ``mantis`` and
  ``mantis play --seats human,expert,greedy,casual --seed 7``.  The minimal
  app is a Textual ``App`` composing a ``Header``, one ``Static`` line and a
  ``Footer``.
- It is spawned in a new session on a real pseudo-terminal (``os.openpty``)
  sized with ``TIOCSWINSZ`` (100×30 unless ``--size`` says), with
  ``TERM=xterm-256color``, ``NO_COLOR`` unset, and ``MANTIS_HOME`` a
  temporary directory of that command's own (so the table's autosave never
  turns the setup screen into a "resume?" offer).  The table's home sets the
  bot speed to "slow" (1.4 s before a bot's move instead of 0.5 s), which
  changes nothing before the first frame but keeps the first bot move well
  clear of it.  Each command runs once untimed first, so bytecode caches and
  the home's files exist and no timed run is a first run
  (``PYTHONDONTWRITEBYTECODE`` is unset for the children, so that run writes
  the bytecode an installed copy has).
- The clock starts just before the spawn.  Every read of the terminal is
  kept with its time, until the screen shows the command's markers (its
  status line or title and its footer) and the output has then been quiet
  for ``--quiet`` seconds: the screen has settled.  The process group is
  then killed.  Nothing answers the terminal's queries (as with a terminal
  that does not know them; none of the apps waits for an answer).
- The reads are replayed through a small screen model (cursor moves, text,
  colours: what Textual writes) and the first frame is the earliest read
  after which the screen is exactly the settled screen: everything is on the
  terminal.  Repaints that change nothing do not count; a half-drawn screen
  does not count either.
- Also printed, as a steadier diagnostic on a busy machine: the CPU time
  the process (all its threads, from ``/proc/PID/task/*/schedstat``) had
  used by that read, and its ratio too.
- The three commands are alternated, ``--repeat`` rounds, so load on the
  machine falls on all of them alike.  Printed: best and median milliseconds
  for each, and each Mantis command's ratio to the minimal app (best to
  best, median to median).  Load only ever slows a run down, so the best
  is the steadiest figure.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("Hello from a minimal Textual app")
        yield Footer()

Minimal().run()
"""

MANTIS = "import sys; from mantis.cli import main; sys.exit(main())"


@dataclass(frozen=True)
class Run:
    """One launch: seconds to the first frame, CPU seconds used by then, the screen."""

    seconds: float
    cpu: float
    screen: str


@dataclass(frozen=True)
class Command:
    """One app to time: what to run, its home's settings, what its settled screen shows."""

    label: str
    code: str
    args: tuple[str, ...]
    markers: tuple[str, ...]
    settings: dict[str, object] | None = None


COMMANDS = (
    Command("minimal Textual app", MINIMAL_APP, (), ("Hello from a minimal", "^p palette")),
    Command(
        "mantis (setup screen)",
        MANTIS,
        (),
        ("MANTIS · set up a table", "Statistics", "^p palette"),
    ),
    Command(
        "mantis play (4-seat table)",
        MANTIS,
        ("play", "--seats", "human,expert,greedy,casual", "--seed", "7"),
        ("MANTIS · seed 7 · move 0", "Game log", "^p palette"),
        settings={"speed": "slow"},
    ),
)

#: What Textual writes: escape sequences (CSI with its final byte, OSC, two-byte) and text.
_TOKENS = re.compile(
    r"\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]?|[^\x1b]+"
)


class ScreenModel:
    """Just enough of a terminal for Textual's output: cursor moves, text, colours, clears."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.cells = [[(" ", "")] * columns for _ in range(rows)]
        self.row = self.column = 0
        self.style = ""

    def feed(self, text: str) -> None:
        for token in _TOKENS.finditer(text):
            if token.group(2) is not None:
                self._control(token.group(1), token.group(2))
            elif not token.group().startswith("\x1b"):
                self._text(token.group())

    def _control(self, params: str, final: str) -> None:
        if final in "Hf":
            parts = [int(p) if p.isdigit() else 1 for p in params.split(";")] + [1, 1]
            self.row = min(max(parts[0], 1), self.rows) - 1
            self.column = min(max(parts[1], 1), self.columns) - 1
        elif final == "m" and not params.startswith("?"):
            self.style = "" if params in ("", "0") else self.style + ";" + params
        elif final == "J" and params == "2":
            self.cells = [[(" ", "")] * self.columns for _ in range(self.rows)]
        elif final == "K" and params in ("", "0"):
            line = self.cells[self.row]
            line[self.column :] = [(" ", self.style)] * (self.columns - self.column)

    def _text(self, text: str) -> None:
        for char in text:
            if char == "\r":
                self.column = 0
            elif char == "\n":
                self.row = min(self.row + 1, self.rows - 1)
            elif char == "\b":
                self.column = max(self.column - 1, 0)
            elif char < " " or unicodedata.combining(char):
                continue
            elif self.column < self.columns:
                self.cells[self.row][self.column] = (char, self.style)
                wide = unicodedata.east_asian_width(char) in "WF"
                self.column += 2 if wide else 1

    def snapshot(self) -> tuple[tuple[tuple[str, str], ...], ...]:
        """The whole screen, characters and their colours."""
        return tuple(tuple(line) for line in self.cells)

    def text(self) -> str:
        return "\n".join("".join(char for char, _ in line) for line in self.cells)


def run_once(
    command: Command, home: str, size: tuple[int, int], quiet: float, timeout: float
) -> Run:
    """From spawning ``command`` until its settled first screen is on the terminal."""
    columns, rows = size
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", MANTIS_HOME=home)
    # PYTHONDONTWRITEBYTECODE would compile every module of Mantis from source at
    # every launch, which no installed copy does (pip writes the bytecode).
    drop = ("NO_COLOR", "TEXTUAL", "TEXTUAL_DEBUG", "COLUMNS", "LINES", "PYTHONDONTWRITEBYTECODE")
    for name in drop:
        env.pop(name, None)
    reads: list[tuple[float, float, bytes]] = []
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", command.code, *command.args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    try:
        while True:
            now = time.perf_counter()
            if now - start > timeout:
                raise TimeoutError(f"{command.label}: no settled screen in {timeout:.0f} s")
            ready, _, _ = select.select([master], [], [], quiet)
            if not ready:
                # Nothing new for `quiet` seconds: settled, once the markers are up.
                # (The screen is only worked out here, so reading keeps up with writing.)
                settled = screen_after(b"".join(chunk for _, _, chunk in reads), size)
                if all(marker in settled.text() for marker in command.markers):
                    break
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the child closed the terminal: it ended
                chunk = b""
            if not chunk:
                raise RuntimeError(f"{command.label} ended before its screen settled")
            reads.append((time.perf_counter() - start, cpu_seconds(process.pid), chunk))
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    # The earliest read after which the screen is the settled one.  Each prefix is
    # replayed from the start: a read may end inside a character or an escape.
    final = settled.snapshot()
    data = b""
    for at, cpu, chunk in reads:
        data += chunk
        if screen_after(data, size).snapshot() == final:
            return Run(at, cpu, settled.text())
    raise AssertionError("unreachable: all the reads give the settled screen")


def cpu_seconds(pid: int) -> float:
    """CPU time the process's threads have used so far (NaN where /proc cannot tell)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as stat:
                total += int(stat.read().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")
    return total / 1e9


def screen_after(data: bytes, size: tuple[int, int]) -> ScreenModel:
    """The screen once ``data`` is written to a blank terminal of ``size``."""
    model = ScreenModel(*size)
    model.feed(data.decode("utf-8", "ignore"))
    return model


def prepare_home(command: Command) -> str:
    home = tempfile.mkdtemp(prefix="mantis-startup-")
    if command.settings is not None:
        config = Path(home, "config")
        config.mkdir()
        (config / "settings.json").write_text(json.dumps(command.settings), encoding="utf-8")
    return home


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--size", default="100x30", help="terminal COLUMNSxROWS (default 100x30)")
    parser.add_argument(
        "--quiet", type=float, default=0.4, help="seconds without output that mean settled"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a run may take")
    parser.add_argument("--show", action="store_true", help="print each settled screen once")
    args = parser.parse_args()
    columns, rows = (int(n) for n in args.size.lower().split("x"))
    size = (columns, rows)
    homes = [prepare_home(command) for command in COMMANDS]
    runs: list[list[Run]] = [[] for _ in COMMANDS]
    try:
        for command, home in zip(COMMANDS, homes, strict=True):
            first = run_once(command, home, size, args.quiet, args.timeout)  # untimed
            if args.show:
                print(f"{command.label}:\n{first.screen}\n")
        for _ in range(args.repeat):
            for command, home, got in zip(COMMANDS, homes, runs, strict=True):
                got.append(run_once(command, home, size, args.quiet, args.timeout))
    finally:
        for home in homes:
            shutil.rmtree(home, ignore_errors=True)
    print(
        f"first frame in a {columns}x{rows} pty: {args.repeat} rounds, alternated "
        f"(Python {sys.version.split()[0]}, textual {textual_version()})"
    )
    print(" " * 30 + "      wall ms       cpu ms      ratio to the minimal app")
    print(" " * 30 + "   best median   best median    wall best   median  cpu best")
    base_best, base_median = best_and_median([run.seconds for run in runs[0]])
    base_cpu, _ = best_and_median([run.cpu for run in runs[0]])
    for command, got in zip(COMMANDS, runs, strict=True):
        best, median = best_and_median([run.seconds for run in got])
        cpu_best, cpu_median = best_and_median([run.cpu for run in got])
        line = f"  {command.label:<28}{best:7.0f}{median:7.0f}{cpu_best:7.0f}{cpu_median:7.0f}"
        if got is not runs[0]:
            ratios = (best / base_best, median / base_median, cpu_best / base_cpu)
            line += "{:12.2f}x{:8.2f}x{:9.2f}x".format(*ratios)
        print(line)


def best_and_median(seconds: list[float]) -> tuple[float, float]:
    """The least and the median of ``seconds``, in milliseconds."""
    return min(seconds) * 1000, statistics.median(seconds) * 1000


def textual_version() -> str:
    from importlib.metadata import version

    return version("textual")


if __name__ == "__main__":
    main()
