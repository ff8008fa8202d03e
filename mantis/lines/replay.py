"""A recorded game said in lines: the table, then every move once, in order, then the end.

The moves come at the bots' pace (the speed setting: ``instant`` says them
all at once); ``p`` pauses and resumes, ``n`` says the next move while
paused, ``look`` reads the table as it stands, ``q`` stops.
"""

from __future__ import annotations

import asyncio

from ..engine import GameRecord
from ..players.clock import SYSTEM_CLOCK, Clock
from ..table import moves_of
from .commands import read_command
from .console import INTERRUPTED, Console
from .live_table import LiveTable
from .preferences import LinePreferences


class _Unplayed:
    """A replay sends no moves anywhere; it holds itself (``p``)."""

    can_hold = True

    async def play(self, seat: int, turn: int, action: object) -> None:
        raise RuntimeError("a replay plays no moves")


async def replay(
    console: Console, prefs: LinePreferences, record: GameRecord, *, clock: Clock = SYSTEM_CLOCK
) -> int:
    """Say ``record`` from its deal to its end; the exit status."""
    moves = moves_of(record)
    live = LiveTable(
        console, moves[0], prefs, _Unplayed(), controls=(), seed=record.seed, clock=clock
    )
    live.has_bots = True  # every seat moves by itself here: p pauses them all
    live.about = lambda seat: "" if record.seats is None else _kind(record.seats[seat].bot)
    console.say(*live.opening_lines())
    done = asyncio.Event()

    async def feed() -> None:
        for move in moves[1:]:
            await live.ready()
            for message in move:
                live.feed(message)
        await live.ready()
        done.set()

    showing = asyncio.ensure_future(live.show())
    feeding = asyncio.ensure_future(feed())
    try:
        while not done.is_set():
            line = await console.line_or(done)
            if line is INTERRUPTED:
                break
            command = read_command(line) if isinstance(line, str) else None
            if command is None or command.word == "quit":
                return 0
            if command.word in ("score", "steal"):
                console.say("A replay plays no moves: p pauses, n says the next move.")
            elif command.word == "help":
                console.say(
                    "p: pause or go on; n: the next move while paused; look: the table now; "
                    "log: the last moves again; q: stop."
                )
            else:
                live.handle(command)
        console.say("End of the replay.")
        return 0
    finally:
        for task in (showing, feeding):
            task.cancel()
        await asyncio.gather(showing, feeding, return_exceptions=True)


def _kind(bot: str | None) -> str:
    return f"{bot} bot" if bot else ""


__all__ = ["replay"]
