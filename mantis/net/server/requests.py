"""What a client at a table may ask, in one table: its kind, who may ask it, its handler.

Once a connection sits at a table (or watches it), every message it sends
is one of ``protocol.TableRequest``.  ``REQUESTS`` has a row for each kind:
who may ask it (anyone at the table, a seated person, or the host of a
table still being set up), the protocol version that has it, the handler
that acts on it, and the problems it may answer with (an error code and the
line a client shows).  A new kind of client message is a struct in
``protocol`` and one row here (docs/protocol.md, "Adding a message kind").

``Requests`` is handed what the handlers use: how to refuse (an ``error``
to the connection), the store, the directory, the server's table counts
and talk limits, how to tell a connection's address group, and how to say
a table's listing changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from ...store.tables_interface import RoomPhase, TableStore
from ...table.names import clean_line
from .. import protocol
from .directory import Directory
from .limits.table_counts import TableCounts
from .limits.talk_limits import TalkLimits
from .room.audience import Connection
from .room.phases import Over
from .room.rematch import OFFERS_PER_MINUTE
from .room.room import Room


class Problem(NamedTuple):
    """A refusal in full: its error code and the line a client shows."""

    code: str
    text: str


Answer = str | Problem | None
"""What a handler answers: nothing (done), an error code (its row says the line), or a
``Problem`` in full."""


class Who(Enum):
    """Who may ask a kind of request."""

    ANYONE = "anyone at the table, seated or watching"
    SEATED = "a seated person"
    HOST = "the host, while a table set up by hand waits"


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asked: their connection, the room it is at, and its seat (None: watching)."""

    connection: Connection
    room: Room
    seat: int | None


@dataclass(frozen=True, slots=True)
class Row:
    """One kind of request: who may ask it, from which version, and what answers it."""

    handle: Callable[[Requests, Asker, Any], Awaitable[Answer]]
    who: Who
    since: int = 1
    """The first protocol version that has it."""
    problems: Mapping[str, str] = field(default_factory=dict)
    """The line a client shows for each error code the handler may answer."""


Refuse = Callable[[Connection, str, str], None]
"""How to refuse a connection: an ``error`` with this code and line."""


class Requests:
    """Acts on what connections at a table ask, by ``REQUESTS``."""

    def __init__(
        self,
        refuse: Refuse,
        store: TableStore,
        directory: Directory,
        tables: TableCounts,
        talk: TalkLimits,
        *,
        group_of: Callable[[Connection], str],
        share_soon: Callable[[Room], None],
    ) -> None:
        """``group_of``: a connection's address group; ``share_soon``: a table's listing
        changed (the other nodes hear of it)."""
        self.refuse = refuse
        self.store = store
        self.directory = directory
        self.tables = tables
        self.talk = talk
        self.group_of = group_of
        self.share_soon = share_soon

    async def handle(self, connection: Connection, room: Room, data: str | bytes) -> None:
        """One message from a connection already at ``room``."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            self.refuse(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return
        row = REQUESTS.get(type(message))
        if row is None:  # (an opening, or a proof)
            self.refuse(connection, protocol.BAD_MESSAGE, "this connection is already at a table")
            return
        version = room.version(connection)
        if version < row.since:
            self.refuse(connection, protocol.BAD_MESSAGE, f"not a message of protocol {version}")
            return
        asker = Asker(connection, room, room.seat_of(connection))
        answer: Answer = self._refused(asker, row.who)
        if answer is None:
            answer = await row.handle(self, asker, message)
        if isinstance(answer, str):
            answer = Problem(answer, row.problems.get(answer, answer))
        if answer is not None:
            self.refuse(connection, answer.code, answer.text)

    def _refused(self, asker: Asker, who: Who) -> Problem | None:
        """Why ``asker`` may not ask what only ``who`` may (None: they may)."""
        room, seat = asker.room, asker.seat
        if who is Who.ANYONE:
            return None
        if seat is None and who is Who.SEATED:
            return Problem(protocol.NOT_YOUR_TURN, "spectators watch: they do not play")
        if who is Who.SEATED:
            return None
        if seat is None or room.seats[seat] is not room.host:
            return Problem(protocol.NOT_HOST, "only the host sets up and starts the table")
        if room.phase_name is not RoomPhase.WAITING:
            return Problem(protocol.NOT_NOW, "the game has started")
        if room.rules.quick:
            return Problem(protocol.NOT_NOW, "a quick-play table starts by itself")
        return None

    # ------------------------------------------------------------------ anyone

    async def ping(self, asker: Asker, message: protocol.Ping) -> Answer:
        return asker.room.ping(asker.connection, message)

    async def say(self, asker: Asker, message: protocol.Say) -> Answer:
        room = asker.room
        if not room.rules.talk:
            return Problem(protocol.TALK_OFF, "the host turned talk off at this table")
        line = clean_line(message.text)
        if not line:
            return Problem(protocol.BAD_MESSAGE, "nothing is left of that line to say")
        channel = f"{room.code}:{'watchers' if asker.seat is None else 'players'}"
        if not await self.talk.take(asker.connection, self.group_of(asker.connection), channel):
            return Problem(protocol.SLOW_DOWN, "you are talking too fast: wait a little")
        await room.say(asker.connection, line)
        return None

    # ------------------------------------------------------------------ a seated person

    async def act(self, asker: Asker, message: protocol.Act) -> Answer:
        return asker.room.act(_seat(asker), message.turn, message.action)

    async def again(self, asker: Asker, message: protocol.Again) -> Answer:
        room, seat = asker.room, _seat(asker)
        if isinstance(room.phase, Over) and room.phase.offer is None:
            full = await self.tables.full(room.owner)
            if full is not None:  # another game counts as a table, for the table's address
                return full
            key = f"offer:{room.code}:{seat}"
            made = await self.directory.take_hit(key, 60.0, OFFERS_PER_MINUTE)
            if made.receipt is None:
                return Problem(
                    protocol.OFFER_LIMIT,
                    f"you offered {made.hits.count} times this minute: try again in "
                    f"{made.hits.clears_in:.0f} s",
                )
        return await room.again(seat)

    async def decline(self, asker: Asker, message: protocol.Decline) -> Answer:
        return asker.room.decline(_seat(asker))

    async def leave(self, asker: Asker, message: protocol.Leave) -> Answer:
        return await asker.room.leave(asker.connection)

    async def back(self, asker: Asker, message: protocol.ImBack) -> Answer:
        return asker.room.back(_seat(asker))

    # ------------------------------------------------------------------ the host, setting up

    async def start(self, asker: Asker, message: protocol.Start) -> Answer:
        room = asker.room
        problem = room.ready_to_start()
        if problem is not None:
            return Problem(protocol.BAD_SEATS, f"cannot start: {problem}")
        # This connection's messages are handled one at a time, and only the host
        # may start, so nothing else changes the room while the seed is kept.
        await room.start_next()
        self.share_soon(room)
        return None

    async def add_bot(self, asker: Asker, message: protocol.AddBot) -> Answer:
        return await self._set_up(asker.room, asker.room.add_bot(message.level))

    async def add_open(self, asker: Asker, message: protocol.AddOpen) -> Answer:
        return await self._set_up(asker.room, asker.room.add_open())

    async def remove_seat(self, asker: Asker, message: protocol.RemoveSeat) -> Answer:
        return await self._set_up(asker.room, asker.room.remove_seat(message.seat))

    async def _set_up(self, room: Room, problem: str | None) -> Answer:
        """The seats changed (unless ``problem`` says why not): kept, then told to all."""
        if problem is not None:
            return Problem(protocol.BAD_SEATS, problem)
        await self.store.set_seats(room.table_id, [seat.stored() for seat in room.seats])
        room.send_room()
        room.send_presence()
        self.share_soon(room)
        return None


def _seat(asker: Asker) -> int:
    assert asker.seat is not None  # (``Who.SEATED``: checked before)
    return asker.seat


REQUESTS: dict[type, Row] = {
    protocol.Say: Row(Requests.say, Who.ANYONE, since=2),
    protocol.Ping: Row(
        Requests.ping,
        Who.ANYONE,
        since=protocol.PING_VERSION,
        problems={protocol.SLOW_DOWN: "you ping too often: wait a little"},
    ),
    protocol.Act: Row(
        Requests.act,
        Who.SEATED,
        problems={
            protocol.NOT_NOW: "the game is not being played",
            protocol.NOT_YOUR_TURN: "it is not your turn",
            protocol.STALE: "that move does not answer the turn being played: ignored",
            protocol.ILLEGAL: "the rules do not allow that move",
            protocol.OUT_OF_TIME: "your time for that move ran out: the away bot played it",
        },
    ),
    protocol.Again: Row(
        Requests.again,
        Who.SEATED,
        since=2,
        problems={
            protocol.NOT_NOW: "another game can be offered once this one is over",
            protocol.TOO_MANY_TABLES: "another game cannot start now: this table's address "
            "has as many tables waiting or playing as it may; finish one first",
            protocol.SERVER_FULL: "another game cannot start now: this server has as many "
            "tables as it can hold",
        },
    ),
    protocol.Decline: Row(
        Requests.decline,
        Who.SEATED,
        since=2,
        problems={protocol.NOT_NOW: "no other game is on offer"},
    ),
    protocol.Leave: Row(
        Requests.leave,
        Who.SEATED,
        since=2,
        problems={
            protocol.NOT_HOST: "the host's seat cannot be left open: close the table instead",
        },
    ),
    protocol.ImBack: Row(
        Requests.back, Who.SEATED, since=2, problems={protocol.NOT_NOW: "your seat is not away"}
    ),
    protocol.Start: Row(Requests.start, Who.HOST),
    protocol.AddBot: Row(Requests.add_bot, Who.HOST),
    protocol.AddOpen: Row(Requests.add_open, Who.HOST),
    protocol.RemoveSeat: Row(Requests.remove_seat, Who.HOST),
}
"""Every request a connection at a table may make (``protocol.TableRequest``), by kind."""
