"""Hostile peers: records and a server whose text a terminal would obey, a man in the middle.

A record's seat names may be any 64 characters, and what a table said
(talk, a bot's fault) any 200: ``hostile_record`` fills them with escape
sequences (a window title, clear screen, a terminal reset), a C1 control
(CSI) and bidirectional overrides.  ``HostileServer`` is a fake table
server (plain ``websockets``) that lets whoever comes watch a finished game
made of such a record, ``recorded`` included.  ``obeyed`` finds what a
terminal would act on in what a command printed.  ``MiddleMan`` sits between
a client and a real server on ``ws://``, passing everything on until told to
rewrite each challenge as ``known: false`` (to have the client send its
key's verifier).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

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


class MiddleMan:
    """A man in the middle on ``ws://``: passes every frame between its clients and the
    server at ``upstream`` (and every plain HTTP request), keeping what the clients said.

    With ``rewriting`` set, each ``challenge`` the server sends says ``known: false``, as
    an attacker would write it to have the client send its key's verifier.
    """

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.rewriting = False
        self.said: list[str] = []
        """Every frame a client sent through, in order."""
        self.url = ""

    async def _serve(self, client: ServerConnection) -> None:
        async with connect(self.upstream) as server:

            async def up() -> None:
                async for frame in client:
                    self.said.append(str(frame))
                    await server.send(frame)

            async def down() -> None:
                async for frame in server:
                    if self.rewriting and str(frame).startswith('{"type":"challenge"'):
                        frame = str(frame).replace('"known":true', '"known":false')
                    await client.send(frame)

            passing = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait(passing, return_when=asyncio.FIRST_COMPLETED)
            for task in passing:
                task.cancel()
            await asyncio.gather(*passing, return_exceptions=True)

    async def _plain(self, connection: ServerConnection, request: Request) -> Response | None:
        """A plain HTTP request (the lobby's list of tables), asked of the server."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        address = self.upstream.replace("ws://", "http://") + request.path
        status, headers, body = await asyncio.to_thread(_http_get, address)
        return Response(status, "", Headers(headers), body)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[MiddleMan]:
        async with serve(self._serve, "127.0.0.1", 0, process_request=self._plain) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            self.url = f"ws://127.0.0.1:{port}"
            yield self

    @contextlib.contextmanager
    def in_thread(self) -> Iterator[MiddleMan]:
        """``running`` on an event loop of its own, in a thread (for a test that is not a
        coroutine: a journey, the line mode)."""
        loop = asyncio.new_event_loop()
        started = threading.Event()
        stop = asyncio.Event()

        async def run() -> None:
            async with self.running():
                started.set()
                await stop.wait()

        thread = threading.Thread(target=loop.run_until_complete, args=(run(),), daemon=True)
        thread.start()
        assert started.wait(30), "the man in the middle did not start"
        try:
            yield self
        finally:
            loop.call_soon_threadsafe(stop.set)
            thread.join(30)
            loop.close()


def _http_get(address: str) -> tuple[int, list[tuple[str, str]], bytes]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(address, timeout=30) as answer:
            return answer.status, list(answer.headers.items()), answer.read()
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, list(refused.headers.items()), refused.read()
