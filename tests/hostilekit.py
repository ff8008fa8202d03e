"""Text from outside that a terminal would obey: hostile game records, a hostile server.

A record's seat names may be any 64 characters, and what a table said
(talk, a bot's fault) any 200: ``hostile_record`` fills them with escape
sequences (a window title, clear screen, a terminal reset), a C1 control
(CSI) and bidirectional overrides.  ``HostileServer`` is a fake table
server (plain ``websockets``) that lets whoever comes watch a finished game
made of such a record, ``recorded`` included.  ``obeyed`` finds what a
terminal would act on in what a command printed.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from websockets.asyncio.server import ServerConnection, serve

from mantis.engine import SeatInfo, record_of
from mantis.engine.record import GameRecord, parse_record
from mantis.net import protocol
from mantis.players import make_bot
from mantis.sim.runner import play_game
from mantis.table import Recorded, stream_of

NAMES = (
    "\x1b]0;owned\x07Ann",  # the window's title, then BEL
    "\x1b[2J\x1b[HBea\x1bc",  # clear the screen, cursor home, reset the terminal
    "\u202eCal\x9b31m\u2066",  # a right-to-left override, C1's CSI, an isolate
)
"""Seat names as a hostile record or server writes them (each within 64 characters)."""
SAID = "gg\x1b[2J\x1b]0;owned\x07\u202e!"
"""A line of talk as a hostile record holds it."""
CLEANED = ("0ownedAnn", "2JHBeac", "Cal31m")
"""``NAMES`` as a server cleans the name a person sits under (``clean_name``)."""
BOTS = ("greedy", "random", "greedy")

_OBEYED = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal acts on: C0 controls but the line feed (ESC, BEL, CR...), DEL, the
C1 controls (CSI), and the bidirectional controls."""


def obeyed(output: bytes | str) -> list[str]:
    """Every character of ``output`` a terminal would obey (a pseudo-terminal's CR before
    LF aside).  Bytes are read as UTF-8, strictly: a lone C1 byte is not text either."""
    text = output.decode("utf-8") if isinstance(output, bytes) else output
    return _OBEYED.findall(text.replace("\r\n", "\n"))


def hostile_game(seed: int = 5, players: int = 3) -> GameRecord:
    """A real game of bots whose record names its seats ``NAMES``, with hostile talk and a
    hostile bot's fault among its notices (read back through the engine: a valid record)."""
    bots = BOTS[:players]
    game = play_game([make_bot(bot) for bot in bots], seed)
    seats = [
        SeatInfo(name, "human" if s == 0 else "bot", None if s == 0 else f"{bot}\x1b[5m")
        for s, (name, bot) in enumerate(zip(NAMES, bots, strict=False))
    ]
    data = json.loads(record_of(game, seats).to_json())
    data["notices"] = [
        [1, {"type": "talk", "seat": 0, "name": NAMES[0], "text": SAID}],
        [2, {"type": "fault", "seat": 1, "reason": "timed out\x1b[2J\x1bc"}],
    ]
    return parse_record(json.dumps(data))


def hostile_line(seed: int = 5, players: int = 3) -> str:
    """``hostile_game`` as a line of a record file."""
    return hostile_game(seed, players).to_json() + "\n"


class HostileServer:
    """A fake table server: anyone who comes may watch table ``code``, a finished game of
    ``record`` whose seats the room names as the record does, hostile names and all."""

    def __init__(self, record: GameRecord, code: str = "KXQD") -> None:
        self.record = record
        self.code = code
        self.url = ""

    def _room(self) -> protocol.RoomState:
        assert self.record.seats is not None
        seats = tuple(
            protocol.SeatState(seat.name, seat.kind, seat.bot, True) for seat in self.record.seats
        )
        return protocol.RoomState(
            self.code, "over", False, 0, "greedy", seats, len(self.record.actions)
        )

    async def _serve(self, connection: ServerConnection) -> None:
        await connection.recv()  # (whatever it opens with)
        welcome = protocol.Welcome(protocol.PROTOCOL_VERSION, self.code, None, None, self._room())
        await connection.send(protocol.encode(welcome).decode())
        messages = (*stream_of(self.record), Recorded(self.record.to_json()))
        await connection.send(protocol.encode(protocol.Stream(0, messages)).decode())
        await connection.wait_closed()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[HostileServer]:
        async with serve(self._serve, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            self.url = f"ws://127.0.0.1:{port}"
            yield self
