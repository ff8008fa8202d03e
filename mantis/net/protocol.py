"""The online protocol: what a client and the table server say to each other.

One WebSocket text frame is one JSON object with a ``type``.  A client opens
with ``create``, ``join`` or ``watch`` (each naming the protocol version it
speaks), is answered ``welcome`` (or ``error``), and from then on hears
``room`` (the waiting room and who sits where), ``presence`` (whose
connection is up) and ``stream`` (the table's public stream, in order).  It
sends intents only: add a bot or an open seat, remove a seat and start
(the host, while waiting), and ``act`` (its own seat's move, naming the
turn it answers).

Every message is a ``msgspec`` struct: the server decodes what a client
sends against ``ClientMessage`` with every field's type, range and length
checked, and anything else is refused with an ``error``.  docs/protocol.md
describes each message.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..engine import Action
from ..engine.actions import SeatNumber
from ..table.messages import Message

PROTOCOL_VERSION = 1
"""Bumped whenever a message changes shape; both ends must speak the same."""

MAX_CLIENT_MESSAGE = 2048
"""Bytes a client's message may take: the largest honest one is well under 300."""

Name = Annotated[str, msgspec.Meta(max_length=64)]
Code = Annotated[str, msgspec.Meta(min_length=1, max_length=24)]
"""A table code as typed: a private one is twelve letters, maybe with dashes or spaces."""
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Level = Annotated[str, msgspec.Meta(max_length=16)]
SeatSpec = Annotated[str, msgspec.Meta(max_length=16)]
"""A seat asked for at ``create``: ``human`` (the host), ``open`` or a bot level."""
Turn = Annotated[int, msgspec.Meta(ge=0, le=105)]


class _Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """Every protocol message: a frozen struct, tagged by ``type``, with no stray fields.

    Subclasses repeat ``frozen=True``: msgspec inherits it, but type checkers
    read each class on its own (a non-frozen subclass of a frozen one).
    """


# ---------------------------------------------------------------------- client to server


class Create(_Message, frozen=True, tag="create"):
    """Open a table and sit at it as its host (in the one ``human`` seat)."""

    protocol: int
    name: Name
    seats: Annotated[tuple[SeatSpec, ...], msgspec.Meta(min_length=2, max_length=6)]
    private: bool = False
    away_bot: Level = "greedy"


class Join(_Message, frozen=True, tag="join"):
    """Take an open seat at table ``code`` — or, with ``token``, one's own seat back."""

    protocol: int
    code: Code
    name: Name = ""
    token: Token | None = None


class Watch(_Message, frozen=True, tag="watch"):
    """Watch table ``code``: hear its stream, sit nowhere."""

    protocol: int
    code: Code


class AddBot(_Message, frozen=True, tag="add_bot"):
    """The host, while waiting: a new seat for a bot of ``level``."""

    level: Level


class AddOpen(_Message, frozen=True, tag="add_open"):
    """The host, while waiting: a new seat left open for a person."""


class RemoveSeat(_Message, frozen=True, tag="remove_seat"):
    """The host, while waiting: take away seat ``seat`` (a bot, an open seat, or the seat
    of a person who is not connected; never the host's own)."""

    seat: SeatNumber


class Start(_Message, frozen=True, tag="start"):
    """The host: start the game (every seat must be taken)."""


class Act(_Message, frozen=True, tag="act"):
    """Play ``action`` for one's own seat, answering turn ``turn`` (actions played so far)."""

    turn: Turn
    action: Action


SeatRequest = AddBot | AddOpen | RemoveSeat | Start | Act
"""What a client asks once it sits at a table."""

ClientMessage = Create | Join | Watch | SeatRequest


# ---------------------------------------------------------------------- server to client


class SeatState(msgspec.Struct, frozen=True):
    """One seat as the waiting room and the list of tables show it."""

    name: str
    kind: Literal["human", "bot"]
    bot: str | None
    taken: bool
    """A person sits here (always true for a bot)."""


class RoomState(_Message, frozen=True, tag="room"):
    """A table's seats and state: sent on joining and whenever they change."""

    code: str
    state: Literal["waiting", "playing", "over"]
    private: bool
    host: int
    """The host's seat."""
    away_bot: str
    seats: tuple[SeatState, ...]
    moves: int
    you: int | None = None
    """The seat of the connection this is sent to (``None``: watching)."""


class Welcome(_Message, frozen=True, tag="welcome"):
    """You are in: your seat (``None`` when watching) and the token that gets it back."""

    protocol: int
    code: str
    seat: int | None
    token: str | None
    room: RoomState


SeatPresence = Literal["bot", "open", "here", "gone", "away"]
"""A seat's connection, as ``Presence`` tells it."""


class Presence(_Message, frozen=True, tag="presence"):
    """Each seat's connection: ``bot``, ``open``, ``here``, ``gone`` or ``away``."""

    seats: tuple[SeatPresence, ...]


class Stream(_Message, frozen=True, tag="stream"):
    """Messages of the table's public stream, the first being number ``start`` (from 0).

    On (re)joining, the whole stream so far comes at once (``start`` 0).
    """

    start: int
    messages: tuple[Message, ...]


class Error(_Message, frozen=True, tag="error", omit_defaults=True):
    """What went wrong, as a ``code`` for programs and one line for people.

    ``retry_after`` (written only when there is one): the seconds after which
    the same request may be answered otherwise (a wait the server knows).
    """

    code: str
    message: str
    retry_after: float | None = None


ServerMessage = Welcome | RoomState | Presence | Stream | Error

# Error codes (docs/protocol.md lists them with their meaning).
BAD_MESSAGE = "bad_message"
VERSION = "version"
UNKNOWN_CODE = "unknown_code"
TABLE_FULL = "table_full"
BAD_TOKEN = "bad_token"
SEAT_IN_USE = "seat_in_use"
TOO_MANY_GUESSES = "too_many_guesses"
NOT_HOST = "not_host"
NOT_NOW = "not_now"
NOT_YOUR_TURN = "not_your_turn"
STALE = "stale"
ILLEGAL = "illegal"
SLOW_DOWN = "slow_down"
BAD_SEATS = "bad_seats"
SERVER_FULL = "server_full"
TOO_MANY_TABLES = "too_many_tables"
TOO_MANY_CONNECTIONS = "too_many_connections"
TOO_MANY_SPECTATORS = "too_many_spectators"

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(ValueError):
    """A message that is not part of the protocol; the text is one line."""


def encode(message: msgspec.Struct) -> bytes:
    """A message as one JSON object."""
    return _encoder.encode(message)


def decode_client(data: bytes | str) -> ClientMessage:
    """What a client sent; ``ProtocolError`` if it is not a client message."""
    try:
        return _client_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError(str(exc).splitlines()[0] or "not a message") from None


class _Claim(msgspec.Struct):
    """Only the version an opening says it speaks; any other field, of any shape, ignored."""

    protocol: int


_claim_decoder = msgspec.json.Decoder(_Claim)


def claimed_version(data: bytes | str) -> int | None:
    """The ``protocol`` a message names, even one this version cannot read; None if none."""
    try:
        return _claim_decoder.decode(data).protocol
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None


def decode_server(data: bytes | str) -> ServerMessage:
    """What the server sent; ``ProtocolError`` if it is not a server message."""
    try:
        return _server_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError(str(exc).splitlines()[0] or "not a message") from None
