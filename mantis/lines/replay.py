"""A recorded game said in lines: the table, then every move once, in order, then the end.

The moves come at the bots' pace (``--speed``, else the speed setting:
``instant`` says them all at once); ``p`` pauses and resumes, ``n`` says the
next move while paused, ``look`` reads the table as it stands, ``q`` stops.
Nothing a replay is told changes a saved setting: a speed or a switch set
during a replay holds for that replay.  Where nobody can answer (standard
input or output is not a terminal: ``mantis replay FILE --lines >
game.txt``), the whole game is said at once and nothing is asked.
"""

from __future__ import annotations

import asyncio

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import GameRecord
from ..follow.moves import NoMoves
from ..follow.preferences import Preferences
from ..table import moves_of
from .commands import read_command
from .console import INTERRUPTED, Console
from .live_table import LiveTable

HELP = (
    "p: pause or go on; n: the next move while paused; look or l: the table now, look 2: "
    "seat 2; log: the last moves again, last: the last one; speed fast: the pace; q: stop."
)


class Replay:
    """One recorded game said from its deal to its end."""

    def __init__(
        self,
        console: Console,
        prefs: Preferences,
        record: GameRecord,
        *,
        clock: Clock = SYSTEM_CLOCK,
        interactive: bool = True,
        speed: str | None = None,
    ) -> None:
        """``interactive``: input is read while it plays (else all of it is said at once);
        ``speed``: its pace (default: the speed in force)."""
        self.console = console
        self.interactive = interactive
        own = Preferences(
            prefs.settings,
            speed=speed or (prefs.speed if interactive else "instant"),
            saving=False,
        )
        self.moves = moves_of(record)
        self.live = LiveTable(
            console,
            self.moves[0],
            own,
            NoMoves(),
            controls=(),
            seed=record.seed,
            bots=True,  # every seat moves by itself here: p pauses them all
            clock=clock,
            about=lambda seat: "" if record.seats is None else _kind(record.seats[seat].bot),
        )

    async def run(self) -> int:
        """Say the game to its end (or until ``q``); the exit status."""
        console, live = self.console, self.live
        idle = console.idle
        console.idle = self.interactive
        console.say(*live.opening_lines())
        done = asyncio.Event()

        async def feed() -> None:
            for move in self.moves[1:]:
                await live.ready()
                for message in move:
                    live.feed(message)
            await live.ready()
            done.set()

        showing = asyncio.ensure_future(live.show())
        feeding = asyncio.ensure_future(feed())
        live.begin()
        try:
            while not done.is_set():
                if not self.interactive:
                    await done.wait()
                    break
                line = await console.line_or(done)
                if line is INTERRUPTED:
                    break
                command = read_command(line) if isinstance(line, str) else None
                if command is None or command.word == "quit":
                    console.idle = idle  # (none after a replay run on its own)
                    console.say("Replay stopped.")
                    return 0
                if command.word in ("score", "steal"):
                    console.say("A replay plays no moves: p pauses, n says the next move.")
                elif command.word == "help":
                    console.say(HELP)
                else:
                    live.handle(command)
            console.idle = idle
            console.say("End of the replay.")
            return 0
        finally:
            console.idle = idle
            for task in (showing, feeding):
                task.cancel()
            await asyncio.gather(showing, feeding, return_exceptions=True)


def _kind(bot: str | None) -> str:
    return f"{bot} bot" if bot else ""


__all__ = ["Replay"]
