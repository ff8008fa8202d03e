"""The public stream: everything that happens at a table, as messages anyone may see.

A table publishes, in order: its ``Opening`` (who sits where and the deal), the
engine's events as they happen (``TurnStarted``, ``CardRevealed``, ``Scored``…,
``GameOver``), the table's own notices (a bot's ``Fault``, a seat ``Away`` or
``Back``, a person's ``TimedOut`` or ``Left``, a failed save), and once the
game is over, ``Recorded``: the whole game in the game-record format.  The
stream is the same for every seat and for a spectator, because all of it is
public: a card appears in it only in
the ``CardRevealed`` that turns it over, and the seed (which would deal the
whole pile again) only in ``Recorded``, after the end.

Every message is an immutable ``msgspec`` struct tagged by ``type``, so
``encode`` and ``decode`` take it to JSON and back without loss, checking
every field's type and range on the way in.  ``Opening.version`` is the
stream format's version.

``Talk`` is a table message too but never part of the public stream: what
the seated people say goes to them alone (and into the game's record, so a
replay shows it); a board is fed it beside the stream.
"""

from __future__ import annotations

from typing import Annotated, get_args

import msgspec

from ..engine import (
    CardRevealed,
    ExtraTurn,
    GameOver,
    Scored,
    ScoreMissed,
    SeatInfo,
    StealMissed,
    Stolen,
    TurnStarted,
)
from ..engine.actions import Action
from ..engine.events import Count, Tank
from ..engine.seat_count import ONE_PER_SEAT, SeatNumber

STREAM_VERSION = 2
"""The format of the public stream; a reader refuses an opening of a version it does not know.

Version 2 adds the notices ``TimedOut`` and ``Left``; a version-1 stream is a
version-2 stream without them.
"""
STREAM_VERSIONS = (1, 2)
"""The stream versions this Mantis reads."""

#: Longest notice text (a bot's fault, a save error): one line in the log.
MAX_REASON = 200
#: Longest record carried by ``Recorded``: a whole game in JSON is about 2 kB, and its
#: players' talk (at most ``MAX_TALK_LINES`` lines of ``MAX_TALK`` characters) fits too.
MAX_RECORD = 200_000
#: Longest line a person may say at a table.
MAX_TALK = 200
#: Lines of talk a game's record keeps at most (a long chat is not a game's record).
MAX_TALK_LINES = 300

Reason = Annotated[str, msgspec.Meta(max_length=MAX_REASON)]


class Opening(msgspec.Struct, frozen=True, tag="opening"):
    """Who sits where and the deal: every dealt tank, the pile's size, who starts.

    The next message is the first ``TurnStarted``, with the top card's back.
    """

    version: int
    seats: Annotated[tuple[SeatInfo, ...], ONE_PER_SEAT]
    target: Count
    first: SeatNumber
    tanks: Annotated[tuple[Tank, ...], ONE_PER_SEAT]
    pile_size: Count

    @property
    def players(self) -> int:
        return len(self.seats)


class Fault(msgspec.Struct, frozen=True, tag="fault"):
    """``seat``'s bot failed to answer in time or legally; the seat scores instead."""

    seat: SeatNumber
    reason: Reason


class StartFailed(msgspec.Struct, frozen=True, tag="start_failed"):
    """``seat``'s bot raised when told a new game began; it plays on regardless."""

    seat: SeatNumber
    reason: Reason


class Away(msgspec.Struct, frozen=True, tag="away"):
    """The person in ``seat`` is away: the ``bot`` plays for them until they are back."""

    seat: SeatNumber
    bot: Annotated[str, msgspec.Meta(max_length=20)]


class Back(msgspec.Struct, frozen=True, tag="back"):
    """The person in ``seat`` is back and plays their own turns again."""

    seat: SeatNumber


class TimedOut(msgspec.Struct, frozen=True, tag="timed_out"):
    """The person in ``seat`` ran out of time: ``bot`` plays this one move for them, ``action``.

    Published before the move it stands for, like a ``Fault``.
    """

    seat: SeatNumber
    bot: Annotated[str, msgspec.Meta(max_length=20)]
    action: Action


class Left(msgspec.Struct, frozen=True, tag="left"):
    """The person in ``seat`` left the game for good: ``bot`` plays their seat to the end."""

    seat: SeatNumber
    bot: Annotated[str, msgspec.Meta(max_length=20)]


class Talk(msgspec.Struct, frozen=True, tag="talk"):
    """A line said at the table: by ``seat`` (None: a spectator, to the other spectators).

    Never on the public stream; kept in the record (the players' lines only).
    """

    seat: SeatNumber | None
    name: Annotated[str, msgspec.Meta(max_length=64)]
    text: Annotated[str, msgspec.Meta(max_length=MAX_TALK)]


class KeepFailed(msgspec.Struct, frozen=True, tag="keep_failed"):
    """The table could not keep the game (``what``: "save" or "record"); play goes on."""

    what: Annotated[str, msgspec.Meta(max_length=10)]
    reason: Reason


class Recorded(msgspec.Struct, frozen=True, tag="recorded"):
    """The finished game as one game-record line (deal, seed, actions, result)."""

    record: Annotated[str, msgspec.Meta(max_length=MAX_RECORD)]


Notice = Fault | StartFailed | Away | Back | TimedOut | Left | KeepFailed
"""What the table itself says on its stream, beside the engine's events."""

Message = (
    Opening
    | TurnStarted
    | CardRevealed
    | Scored
    | ScoreMissed
    | Stolen
    | StealMissed
    | ExtraTurn
    | GameOver
    | Fault
    | StartFailed
    | Away
    | Back
    | TimedOut
    | Left
    | KeepFailed
    | Recorded
    | Talk
)
"""Anything a table says: the public stream (everything but ``Talk``) and its talk."""

MESSAGE_TYPES: tuple[type, ...] = get_args(Message)


class StreamError(ValueError):
    """A message that cannot be read, or that does not fit the table; one line."""


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Message)


def encode(message: Message) -> bytes:
    """The message as compact JSON (``{"type": "scored", ...}``)."""
    return _encoder.encode(message)


def decode(data: bytes | str) -> Message:
    """The message in ``data``; ``StreamError`` with one line if it is not one."""
    try:
        return _decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise StreamError(f"not a stream message: {exc}") from None
    except msgspec.DecodeError as exc:
        raise StreamError(f"not valid JSON: {exc}") from None


def to_builtins(message: Message) -> object:
    """The message as plain JSON-ready Python values (dicts, lists, ints, strings)."""
    return msgspec.to_builtins(message)


def from_builtins(data: object) -> Message:
    """The message from plain values (as ``to_builtins`` gives); ``StreamError`` if not one."""
    try:
        message: Message = msgspec.convert(data, Message)
    except msgspec.ValidationError as exc:
        raise StreamError(f"not a stream message: {exc}") from None
    return message
