"""What a client at a table may ask: who may ask each kind, and the part of the table that
answers it.

Once a connection sits at a table (or watches it), every message it sends
is one of ``protocol.TableRequest``.  Three rules, each a ``match`` over that
union closed by ``assert_never``, so a kind left out of any is a type error
(mypy) rather than a row found missing at run time: the first protocol
version that may send it (``protocol.versions.first_sent``; an older
connection is refused ``bad_message``); who may ask it and the line a client
shows for each error code it may be answered (``rule``: anyone at the table,
a seated person, or the host of a table still being set up); and what
answers it (``Requests.answer``: the part of the room it is for, called
directly, answering nothing, an error code, or a ``Problem`` in full).  A
new kind of client message is a struct in ``protocol`` and a case in each
(docs/protocol.md, "Adding a message kind").

``Requests`` is handed what the answers use: how to reach a connection (a
``Sender``: refusals go through it), the directory, the server's
table counts and talk limits, how to tell a connection's address group, and
how to say a table's listing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import assert_never

from ...store.tables_interface import RoomPhase
from ...table.names import clean_line
from .. import protocol
from ..protocol.versions import first_sent
from .directory import Directory
from .limits.table_counts import TableCounts
from .limits.talk_limits import TalkLimits
from .problems import Problem
from .room import seat_list
from .room.audience import Connection
from .room.phases import Over, Playing
from .room.rematch import OFFERS_PER_MINUTE
from .room.room import Room
from .sending import Sender

Answer = str | Problem | None
"""What a request is answered: nothing (done), an error code (its rule says the line), or a
``Problem`` in full."""


class MayAsk(Enum):
    """Who may ask a kind of request."""

    ANYONE = "anyone at the table, seated or watching"
    SEATED = "a seated person"
    HOST = "the host, while a table set up by hand waits"


@dataclass(frozen=True, slots=True)
class Rule:
    """Who may ask a kind of request, and the line a client shows for each error code it
    may be answered."""

    who: MayAsk
    problems: Mapping[str, str] = field(default_factory=dict)


_ANYONE = Rule(MayAsk.ANYONE)
_PING = Rule(MayAsk.ANYONE, {protocol.SLOW_DOWN: "you ping too often: wait a little"})
_WHO = Rule(MayAsk.ANYONE, {protocol.SLOW_DOWN: "you ask who is here too often: wait a little"})
_HOST = Rule(MayAsk.HOST)
_ACT = Rule(
    MayAsk.SEATED,
    {
        protocol.NOT_NOW: "the game is not being played",
        protocol.NOT_YOUR_TURN: "it is not your turn",
        protocol.STALE: "that move does not answer the turn being played: ignored",
        protocol.ILLEGAL: "the rules do not allow that move",
        protocol.OUT_OF_TIME: "your time for that move ran out: the away bot played it",
    },
)
_AGAIN = Rule(
    MayAsk.SEATED,
    {
        protocol.NOT_NOW: "another game can be offered once this one is over",
        protocol.TOO_MANY_TABLES: "another game cannot start now: this table's address "
        "has as many tables waiting or playing as it may; finish one first",
        protocol.SERVER_FULL: "another game cannot start now: this server has as many "
        "tables as it can hold",
    },
)
_DECLINE = Rule(MayAsk.SEATED, {protocol.NOT_NOW: "no other game is on offer"})
_LEAVE = Rule(
    MayAsk.SEATED,
    {protocol.NOT_HOST: "the host's seat cannot be left open: close the table instead"},
)
_BACK = Rule(MayAsk.SEATED, {protocol.NOT_NOW: "your seat is not away"})


def rule(request: protocol.TableRequest) -> Rule:
    """Who may ask ``request``'s kind, and the lines of the error codes it may be answered."""
    match request:
        case protocol.Say():
            return _ANYONE
        case protocol.Ping():
            return _PING
        case protocol.Who():
            return _WHO
        case protocol.Act():
            return _ACT
        case protocol.Again():
            return _AGAIN
        case protocol.Decline():
            return _DECLINE
        case protocol.Leave():
            return _LEAVE
        case protocol.ImBack():
            return _BACK
        case protocol.Start() | protocol.AddBot() | protocol.AddOpen() | protocol.RemoveSeat():
            return _HOST
        case _:
            assert_never(request)


def people(room: Room) -> protocol.People:
    """Who sits at ``room`` (its people, not its bots) and who watches it."""
    names = [seat.name for seat in room.seats]
    watchers = room.talk.watcher_names(names, room.spectators)
    return protocol.People(
        tuple(seat.name for seat in room.seats if seat.person),
        tuple(watchers[: protocol.MOST_NAMED]),
        len(watchers),
    )


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asked: their connection, the room it is at, and its seat (None: watching)."""

    connection: Connection
    room: Room
    seat: int | None

    @property
    def seated(self) -> int:
        """The seat of a seated asker (``MayAsk.SEATED``: checked before)."""
        assert self.seat is not None
        return self.seat


class Requests:
    """Acts on what connections at a table ask."""

    def __init__(
        self,
        sender: Sender,
        directory: Directory,
        tables: TableCounts,
        talk: TalkLimits,
        *,
        group_of: Callable[[Connection], str],
        share_soon: Callable[[Room], None],
    ) -> None:
        """``group_of``: a connection's address group; ``share_soon``: a table's listing
        changed (the other nodes hear of it)."""
        self.sender = sender
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
            self.sender.error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return
        if not isinstance(message, protocol.TableRequest):  # (a hello, or a proof)
            self.sender.error(
                connection, protocol.BAD_MESSAGE, "this connection is already at a table"
            )
            return
        version = room.audience.version(connection)
        if version < first_sent(message):
            self.sender.error(
                connection, protocol.BAD_MESSAGE, f"not a message of protocol {version}"
            )
            return
        asker = Asker(connection, room, seat_list.seat_of(room.seats, connection))
        kind = rule(message)
        answer: Answer = _refused(asker, kind.who)
        if answer is None:
            answer = await self.answer(asker, message)
        if isinstance(answer, str):
            answer = Problem(answer, kind.problems.get(answer, answer))
        if answer is not None:
            self.sender.refuse(connection, answer)

    async def answer(self, asker: Asker, request: protocol.TableRequest) -> Answer:
        """``request``, from someone who may ask it, answered by the part of the table it is
        for."""
        room = asker.room
        match request:
            case protocol.Say():
                return await self.say(asker, request)
            case protocol.Ping():
                if not self.talk.ask(asker.connection, "ping"):
                    return protocol.SLOW_DOWN
                room.audience.tell(asker.connection, protocol.Pong(request.id))
                return None
            case protocol.Who():
                if not self.talk.ask(asker.connection, "who"):
                    return protocol.SLOW_DOWN
                room.audience.tell(asker.connection, people(room))
                return None
            case protocol.Act():
                seat = asker.seated
                return room.games.act(room.phase, room.seats, seat, request.turn, request.action)
            case protocol.Again():
                return await self.again(asker)
            case protocol.Decline():
                phase = room.phase
                if not isinstance(phase, Over):
                    return protocol.NOT_NOW
                return room.rematches.decline(phase, asker.seated)
            case protocol.Leave():
                return await room.leave(asker.connection)
            case protocol.ImBack():
                return room.away.come_back(asker.seated, room.phase)
            case protocol.Start():
                return await self.start(room)
            case protocol.AddBot():
                return await self._set_up(room, seat_list.add(room.seats, request.level))
            case protocol.AddOpen():
                return await self._set_up(room, seat_list.add(room.seats, None))
            case protocol.RemoveSeat():
                return await self._set_up(room, room.remove_seat(request.seat))
            case _:
                assert_never(request)

    async def say(self, asker: Asker, message: protocol.Say) -> Answer:
        """A line from anyone at the table: to the seated people if it sits (and kept in
        the game's record), else to the spectators."""
        room = asker.room
        if not room.rules.talk:
            return Problem(protocol.TALK_OFF, "the host turned talk off at this table")
        line = clean_line(message.text)
        if not line:
            return Problem(protocol.BAD_MESSAGE, "nothing is left of that line to say")
        channel = f"{room.code}:{'watchers' if asker.seat is None else 'players'}"
        if not await self.talk.take(asker.connection, self.group_of(asker.connection), channel):
            return Problem(protocol.SLOW_DOWN, "you are talking too fast: wait a little")
        if asker.seat is None:
            names = [place.name for place in room.seats if place.name]
            room.talk.watcher_says(asker.connection, names, room.spectators, line)
            return None
        seated = [place.connection for place in room.seats if place.connection is not None]
        name = room.seats[asker.seat].name
        phase = room.phase
        failed = await room.talk.player_says(asker.seat, name, seated, line, room.table)
        for said in failed:  # (the line could not be kept: the table says so)
            if isinstance(phase, Playing):
                room.games.publish(phase, said)
        return None

    async def again(self, asker: Asker) -> Answer:
        """A seated person offers another game, or accepts the offer."""
        room, seat = asker.room, asker.seated
        phase = room.phase
        if isinstance(phase, Over) and phase.offer is None:
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
        if not isinstance(phase, Over) or not room.seats[seat].person or room.starting:
            return protocol.NOT_NOW
        people = [place.person for place in room.seats]
        return await room.rematches.again(
            phase, seat, people, lambda: self.tables.again(room), room.play_again
        )

    async def start(self, room: Room) -> Answer:
        """The host starts the table's first game."""
        problem = seat_list.ready_to_start(room.seats)
        if problem is not None:
            return Problem(protocol.BAD_SEATS, f"cannot start: {problem}")
        # This connection's messages are handled one at a time, and only the host
        # may start, so nothing else changes the room while the seed is kept.
        await room.start_next()
        self.share_soon(room)
        return None

    async def _set_up(self, room: Room, problem: str | None) -> Answer:
        """The seats changed (unless ``problem`` says why not): kept, then told to all."""
        if problem is not None:
            return Problem(protocol.BAD_SEATS, problem)
        await room.keep_seats()
        room.send_room()
        room.send_presence()
        self.share_soon(room)
        return None


def _refused(asker: Asker, who: MayAsk) -> Problem | None:
    """Why ``asker`` may not ask what only ``who`` may (None: they may)."""
    room, seat = asker.room, asker.seat
    if who is MayAsk.ANYONE:
        return None
    if seat is None and who is MayAsk.SEATED:
        return Problem(protocol.NOT_YOUR_TURN, "spectators watch: they do not play")
    if who is MayAsk.SEATED:
        return None
    if seat is None or room.seats[seat] is not room.host:
        return Problem(protocol.NOT_HOST, "only the host sets up and starts the table")
    if room.phase_name is not RoomPhase.WAITING:
        return Problem(protocol.NOT_NOW, "the game has started")
    if room.rules.quick:
        return Problem(protocol.NOT_NOW, "a quick-play table starts by itself")
    return None
