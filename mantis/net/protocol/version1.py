"""What a version-1 client hears: everything version 1 has, in version 1's shapes, and no more.

A client of version 1 keeps working at a version-2 server: it plays, watches
and reconnects.  It never hears a turn clock, an offer of another game or
talk (its person is held to the clock all the same: ``versions.first_heard``
says what each version hears), and its stream is the
table's stream without the notices version 1 does not know (``timed_out``,
``left``), numbered without them, so a version-1 reader merges it as
before.  Its ``room`` has version 1's fields only; a seat whose person left
shows as ``away`` (the away bot plays it); a finished game's record comes
without its notices (version 1 caps a record's size, and never asked for
them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from ...table import Left, Message, Opening, Recorded, TimedOut
from .. import protocol

VERSION = 1

_NEW_IN_2 = (TimedOut, Left)
"""Stream messages version 1 has no word for."""


class SeatState(msgspec.Struct, frozen=True):
    """A seat in version 1's ``room``."""

    name: str
    kind: Literal["human", "bot"]
    bot: str | None
    taken: bool


class RoomState(msgspec.Struct, frozen=True, tag_field="type", tag="room"):
    """Version 1's ``room``: the seats and the state, nothing of version 2."""

    code: str
    state: Literal["waiting", "playing", "over"]
    private: bool
    host: int
    away_bot: str
    seats: tuple[SeatState, ...]
    moves: int
    you: int | None = None


class Welcome(msgspec.Struct, frozen=True, tag_field="type", tag="welcome"):
    """Version 1's ``welcome``."""

    protocol: int
    code: str
    seat: int | None
    token: str | None
    room: RoomState


def room(state: protocol.RoomState) -> RoomState:
    """``state`` as version 1 says it."""
    return RoomState(
        code=state.code,
        state=state.state,
        private=state.private,
        host=state.host,
        away_bot=state.away_bot,
        seats=tuple(SeatState(s.name, s.kind, s.bot, s.taken) for s in state.seats),
        moves=state.moves,
        you=state.you,
    )


def welcome(message: protocol.Welcome) -> Welcome:
    return Welcome(VERSION, message.code, message.seat, message.token, room(message.room))


def presence(message: protocol.Presence) -> protocol.Presence:
    """A seat whose person left is ``away`` in version 1 (its away bot plays it)."""
    if "left" not in message.seats:
        return message
    return protocol.Presence(tuple("away" if s == "left" else s for s in message.seats))


def known(message: Message) -> bool:
    """Whether version 1's stream has this message."""
    return not isinstance(message, _NEW_IN_2)


def stream(messages: Iterable[Message]) -> list[Message]:
    """``messages`` of the table's stream as version 1 has them (those it knows, in its words)."""
    return [_in_version_1(message) for message in messages if known(message)]


def count(messages: Sequence[Message]) -> int:
    """How many of ``messages`` version 1's stream has."""
    return sum(1 for message in messages if known(message))


def _in_version_1(message: Message) -> Message:
    if isinstance(message, Opening) and message.version != VERSION:
        return msgspec.structs.replace(message, version=VERSION)
    if isinstance(message, Recorded):
        data = json.loads(message.record)
        if "notices" not in data:
            return message
        del data["notices"]
        return Recorded(json.dumps(data, separators=(",", ":")))
    return message


def encode(message: msgspec.Struct) -> str:
    """A server message as a version-1 client is sent it (one JSON text)."""
    if isinstance(message, protocol.RoomState):
        return protocol.encode(room(message)).decode()
    if isinstance(message, protocol.Welcome):
        return protocol.encode(welcome(message)).decode()
    if isinstance(message, protocol.Presence):
        return protocol.encode(presence(message)).decode()
    return protocol.encode(message).decode()
