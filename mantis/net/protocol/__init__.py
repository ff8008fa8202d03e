"""The online protocol: what a client and the table server say to each other.

One WebSocket text frame is one JSON object with a ``type``.  A client opens
with ``create``, ``join``, ``watch`` or ``quick`` (each naming the protocol
version it speaks), is answered ``welcome`` (or ``error``), and from then on
hears ``room`` (the waiting room and who sits where), ``presence`` (whose
connection is up) and ``stream`` (the table's public stream, in order) —
and, in version 2, ``clock`` (the seconds the seat to move has left),
``offer`` and ``offer_closed`` (another game at the same table) and
``talk``, and in version 3 ``ratings`` (whether the table's games are rated,
and each seat's rating on this server).  It sends intents only: add a bot or
an open seat, remove a seat and start (the host, while waiting), ``act``
(its own seat's move, naming the turn it answers), and in version 2
``again``, ``decline``, ``talk``, ``leave`` and ``back``.

Version 3 adds a player key to ``create``, ``join`` and ``quick`` (the name
it holds on this server is nobody else's) and ``rated`` to ``create``.
Version 4 never sends the key: an opening names it by its id (``player``),
the server answers ``challenge`` and the client ``prove``s it holds the key
(an HMAC of the challenge, ``net.key_proof``); ``rekey`` replaces a key
with another.  Version 5 adds ``ping``, answered ``pong``: the round trip
to the server, as the client measures it.  Version 6 adds ``who``, answered
``people``: who sits at the table and who watches it; and ``my_tables``, a
hello answered ``your_tables``: the tables where the proved key holds a seat,
so a person finds their games in progress again.  The server speaks versions
6 to 1 (``net.version1`` gives a version-1 connection what it knows, and nothing
else; ``versions.first_heard`` says which version first hears each kind).

Every message is a ``msgspec`` struct: the server decodes what a client
sends against ``ClientMessage`` with every field's type, range and length
checked, and anything else is refused with an ``error``.  docs/protocol.md
describes each message.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ...engine import Action
from ...engine.seat_count import ONE_PER_SEAT, SeatCount, SeatNumber
from ...engine.turn_clock_range import Seconds
from ...table.messages import MAX_TALK, Message

PROTOCOL_VERSION = 6
"""Bumped whenever a message changes shape; a client names the one it speaks."""
SPOKEN = (1, 2, 3, 4, 5, 6)
"""The versions a server speaks (a version-1 client hears only what version 1 has)."""
RATINGS_VERSION = 3
"""The first version that hears ``ratings`` (and sends a player key)."""
PING_VERSION = 5
"""The first version that sends ``ping`` (and hears ``pong``)."""
WHO_VERSION = 6
"""The first version that asks ``who`` (and hears ``people``)."""
MOST_NAMED = 20
"""Spectators ``people`` names at most (it counts them all)."""
MY_TABLES_VERSION = 6
"""The first version that asks ``my_tables`` (and hears ``your_tables``)."""
MOST_HELD = 20
"""Tables ``your_tables`` names at most (the newest first)."""

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
TalkText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TALK)]
KEY_LENGTH = 43
"""Characters of a player key: 32 random bytes in URL-safe base64, unpadded."""
PlayerKey = Annotated[str, msgspec.Meta(pattern=f"^[A-Za-z0-9_-]{{{KEY_LENGTH}}}$")]
"""Version 3: the secret that holds its person's name on a server (only its digest is kept)."""
Hex = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
"""Version 4: 32 bytes in lower-case hex (a key's id, its verifier, a proof)."""
QUICK_CLOCK = 30
"""Seconds per move at every quick-play table."""
RATED_CLOCK = 30
"""Seconds per move a rated table gets when its host asks for none."""
RATED_CLOCK_MOST = 120
"""The longest turn clock a rated table may have."""


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
    seats: Annotated[tuple[SeatSpec, ...], ONE_PER_SEAT]
    private: bool = False
    away_bot: Level = "greedy"
    clock: Seconds | None = None
    """Version 2: seconds a person has for each move (None: no turn clock)."""
    talk: bool = True
    """Version 2: whether the people at the table (and its spectators) may talk."""
    key: PlayerKey | None = None
    """Version 3: the host's player key."""
    rated: bool = False
    """Version 3: the table's games move its players' ratings."""
    player: Hex | None = None
    """Version 4: the id of the host's player key (proved, never sent: ``challenge``)."""


class Join(_Message, frozen=True, tag="join"):
    """Take an open seat at table ``code`` — or, with ``token``, one's own seat back."""

    protocol: int
    code: Code
    name: Name = ""
    token: Token | None = None
    key: PlayerKey | None = None
    """Version 3: the player key (with ``token``: it must be the seat's own, if it has one)."""
    player: Hex | None = None
    """Version 4: the player key's id (with ``token``: it must be the seat's own)."""


class Watch(_Message, frozen=True, tag="watch"):
    """Watch table ``code``: hear its stream, sit nowhere."""

    protocol: int
    code: Code
    name: Name = ""
    """Version 2: the name a spectator talks under (to the other spectators)."""


class Quick(_Message, frozen=True, tag="quick"):
    """Version 2: a seat at any public quick-play table of ``players`` seats (or a new one)."""

    protocol: int
    name: Name
    players: SeatCount = 3
    key: PlayerKey | None = None
    """Version 3: the player key."""
    player: Hex | None = None
    """Version 4: the player key's id."""


class Rekey(_Message, frozen=True, tag="rekey"):
    """Version 4: the key ``player`` names (proved: ``challenge``) is replaced by the key
    whose verifier is ``verifier``: every name it holds here is the new key's."""

    protocol: int
    player: Hex
    verifier: Hex


class MyTables(_Message, frozen=True, tag="my_tables"):
    """Version 6, a hello: which tables, waiting or playing, hold a seat of the key
    ``player`` names (proved first: ``challenge``)?  Answered ``your_tables``, then the
    connection ends: only the key's owner learns where it sits."""

    protocol: int
    player: Hex


class Prove(_Message, frozen=True, tag="prove"):
    """Version 4, answering ``challenge``: ``proof``, the HMAC of its nonce keyed by the
    key's verifier; or, for a key the server does not know yet, the ``verifier`` itself."""

    proof: Hex | None = None
    verifier: Hex | None = None


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


class Again(_Message, frozen=True, tag="again"):
    """Version 2, once a game is over: offer another game at this table, or accept the offer."""


class Decline(_Message, frozen=True, tag="decline"):
    """Version 2: decline the offer of another game."""


class Say(_Message, frozen=True, tag="talk"):
    """Version 2: say a line at the table (seated: to the players; watching: to the watchers)."""

    text: TalkText


class Leave(_Message, frozen=True, tag="leave"):
    """Version 2: leave the table for good (a game in play: the away bot plays on for you)."""


class ImBack(_Message, frozen=True, tag="back"):
    """Version 2: play your own turns again (your seat went away when your time ran out)."""


class Ping(_Message, frozen=True, tag="ping"):
    """Version 5: ask the server for a ``pong`` naming ``id`` (the client times the round
    trip).  A connection is answered a few at once, then one every few seconds
    (``server.limits.talk_limits.PING_RATE``); more are refused ``slow_down``."""

    id: Annotated[int, msgspec.Meta(ge=0, le=2**31)]


class Who(_Message, frozen=True, tag="who"):
    """Version 6: who is at the table?  Answered ``people``, to that connection alone (a
    few at once, then one every few seconds, as ``ping``); more are refused ``slow_down``."""


TableRequest = (
    AddBot
    | AddOpen
    | RemoveSeat
    | Start
    | Act
    | Again
    | Decline
    | Say
    | Leave
    | ImBack
    | Ping
    | Who
)
"""What a client asks once it is at a table: the host's set-up, a seat's moves and word on
the game, anyone's talk and pings (``net.server.requests`` says who may ask each, from which
version)."""

Hello = Create | Join | Watch | Quick | Rekey | MyTables
"""What a connection says first, its hello: it opens with one (``net.server.openings``)."""
Sitting = Create | Join | Quick
"""The hellos that sit down (with a key, or its id)."""

ClientMessage = Create | Join | Watch | Quick | Rekey | MyTables | Prove | TableRequest


# ---------------------------------------------------------------------- server to client


class SeatState(msgspec.Struct, frozen=True):
    """One seat as the waiting room and the list of tables show it."""

    name: str
    kind: Literal["human", "bot"]
    bot: str | None
    taken: bool
    """A person sits here (always true for a bot)."""
    left: bool = False
    """Version 2: its person left a game for good (the away bot plays the seat)."""


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
    clock: int | None = None
    """Version 2: seconds a person has for each move (None: no turn clock)."""
    talk: bool = True
    """Version 2: whether talk is on at this table."""
    quick: bool = False
    """Version 2: a quick-play table (it starts by itself; bots fill it after a wait)."""
    bots_in: float | None = None
    """Version 2: a quick-play table waiting with someone seated: seconds until bots of
    ``away_bot``'s level fill its open seats and it starts."""
    game: int = 0
    """Version 2: the game being (or last) played at this table: 1, 2… (0 while waiting)."""


class Welcome(_Message, frozen=True, tag="welcome"):
    """You are in: your seat (``None`` when watching) and the token that gets it back."""

    protocol: int
    code: str
    seat: int | None
    token: str | None
    room: RoomState


SeatPresence = Literal["bot", "open", "here", "gone", "away", "left"]
"""A seat's connection, as ``Presence`` tells it (``left``: version 2 only)."""


class Presence(_Message, frozen=True, tag="presence"):
    """Each seat's connection: ``bot``, ``open``, ``here``, ``gone``, ``away`` or ``left``."""

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


class Clock(_Message, frozen=True, tag="clock"):
    """Version 2: seat ``seat`` must answer turn ``turn`` within ``remaining`` seconds.

    Sent when the server starts a person's clock, and on (re)joining while one
    runs.  The time is the server's: a client counts down from when it heard
    this, for display only.
    """

    turn: int
    seat: int
    remaining: float
    seconds: int
    """The table's clock: seconds per move."""


class Offer(_Message, frozen=True, tag="offer"):
    """Version 2: ``by`` offered another game at this table; ``accepted`` so far (bots
    included); it lapses in ``lapses_in`` seconds.  Sent again whenever someone accepts."""

    by: int
    accepted: tuple[int, ...]
    lapses_in: float


class OfferClosed(_Message, frozen=True, tag="offer_closed"):
    """Version 2: the offer of another game is off: ``declined`` (by ``seat``), ``left``
    (``seat``'s person left the table) or ``lapsed``."""

    reason: Literal["declined", "left", "lapsed"]
    seat: int | None = None


class Said(_Message, frozen=True, tag="talk"):
    """Version 2: a line said at the table, on the ``players`` or the ``watchers`` channel."""

    channel: Literal["players", "watchers"]
    seat: int | None
    """The seat that said it (None: a spectator)."""
    name: str
    text: str


class SeatRating(msgspec.Struct, frozen=True):
    """A seated person's rating on this server, as people read it (docs/ratings.md)."""

    rating: int
    plus_minus: int
    provisional: bool
    games: int
    """Rated games played on this server."""


class Ratings(_Message, frozen=True, tag="ratings"):
    """Version 3: whether the table is rated, and each seat's rating (None: a bot, an open
    seat, a person without a key).  Sent after ``welcome``, whenever the seats change and
    once a game's ratings have moved."""

    rated: bool
    """The host made the table rated (a quick-play table always is)."""
    counts: bool
    """The game being played (or the next one) moves ratings."""
    why: str | None
    """Why a rated table's game does not count, in one line (None when it does)."""
    seats: tuple[SeatRating | None, ...]
    before: tuple[int | None, ...] = ()
    """After a rated game: each seat's rating before it (None: it did not move)."""


class Challenge(_Message, frozen=True, tag="challenge"):
    """Version 4, answering an opening that names a player key: prove you hold it.

    ``known``: the server holds a name for that key (answer with ``proof``); if
    not, answer with the key's ``verifier`` (the first time, once).
    """

    nonce: str
    known: bool


class Rekeyed(_Message, frozen=True, tag="rekeyed"):
    """Version 4: the key was replaced; ``names`` it held here are the new key's now."""

    names: int


class HeldTable(msgspec.Struct, frozen=True):
    """Version 6: a table where the asking key holds a seat, as ``your_tables`` names it."""

    code: str
    state: Literal["waiting", "playing"]
    seat: int
    """The key's seat there."""
    seats: tuple[SeatState, ...]
    moves: int
    """Moves played in its game (0 while waiting)."""
    game: int
    """The game being played there: 1, 2… (0 while waiting)."""
    clock: int | None
    """Seconds a person has for each move (None: no turn clock)."""
    private: bool
    quick: bool
    rated: bool


class YourTables(_Message, frozen=True, tag="your_tables"):
    """Version 6, answering ``my_tables``: the tables, waiting or playing, where the proved
    key holds a seat it has not left, the newest first (``MOST_HELD`` at most)."""

    tables: tuple[HeldTable, ...]


class Pong(_Message, frozen=True, tag="pong"):
    """Version 5: the answer to ``ping`` ``id``, to that connection alone."""

    id: int


class People(_Message, frozen=True, tag="people"):
    """Version 6, answering ``who``: the people sitting at the table and those watching it."""

    players: tuple[str, ...]
    """The names of the seats a person holds (not the bots' nor the open ones), in order."""
    watchers: tuple[str, ...]
    """The spectators' names, as they talk (a name like a seat's is told apart), sorted;
    ``MOST_NAMED`` at most."""
    watching: int
    """How many spectators there are, named or not."""


ServerMessage = (
    Welcome
    | RoomState
    | Presence
    | Stream
    | Error
    | Clock
    | Offer
    | OfferClosed
    | Said
    | Ratings
    | Challenge
    | Rekeyed
    | YourTables
    | Pong
    | People
)

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
OUT_OF_TIME = "out_of_time"
SEAT_LEFT = "seat_left"
TALK_OFF = "talk_off"
OFFER_LIMIT = "offer_limit"
TOO_MANY_TABLES = "too_many_tables"
TOO_MANY_CONNECTIONS = "too_many_connections"
TOO_MANY_SPECTATORS = "too_many_spectators"
NAME_TAKEN = "name_taken"
SAME_PLAYER = "same_player"
BUSY = "busy"
TOO_MANY_NAMES = "too_many_names"
BAD_PROOF = "bad_proof"
UNKNOWN_KEY = "unknown_key"

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


class _Named(msgspec.Struct):
    """Only the version an opening says it speaks; any other field, of any shape, ignored."""

    protocol: int


_named_decoder = msgspec.json.Decoder(_Named)


def named_version(data: bytes | str) -> int | None:
    """The ``protocol`` a message names, even one this version cannot read; None if none."""
    try:
        return _named_decoder.decode(data).protocol
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None


def decode_server(data: bytes | str) -> ServerMessage:
    """What the server sent; ``ProtocolError`` if it is not a server message."""
    try:
        return _server_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError(str(exc).splitlines()[0] or "not a message") from None
