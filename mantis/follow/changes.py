"""What a followed online table tells whoever shows it: typed changes, each with its data.

``OnlineTable`` reads everything the server says and tells it as these
values, so a screen or the line mode never reads the connection, and each
change carries all it is about (the seats, their connections and ratings
together; the clock and the time it gave; the offer and why it closed).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..net import protocol
from ..net.client import Dropped as Dropped
from ..net.client import Reconnected as Reconnected
from ..net.client import RoundTrip as RoundTrip
from ..table import Message

# What the connection says of itself (``Dropped``: why, and when it tries again;
# ``Reconnected``; ``RoundTrip``: its seconds) is told as the client says it.


@dataclass(frozen=True, slots=True)
class GameBegan:
    """A game's stream began at the table (the first this person sees, or ``another``):
    ``stream`` is all of it so far, from its opening; ``game`` counts the games begun."""

    game: int
    stream: tuple[Message, ...]
    another: bool


@dataclass(frozen=True, slots=True)
class StreamGrew:
    """New messages of game ``game``'s stream, to show after the ones shown."""

    game: int
    messages: tuple[Message, ...]


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    """The seats (``room``), their connections (``presence``) or their ratings changed:
    all three as the server last said them."""

    room: protocol.RoomState | None
    presence: tuple[str, ...]
    ratings: protocol.Ratings | None


@dataclass(frozen=True, slots=True)
class ClockRuns:
    """The turn clock runs for ``clock.turn``, ``clock.seat`` to move, with
    ``clock.remaining`` seconds left when it was heard."""

    clock: protocol.Clock


@dataclass(frozen=True, slots=True)
class OfferChanged:
    """An offer of another game was made or answered (``offer``: as it stands now), or
    closed (``closed``: why, and ``offer`` is None)."""

    offer: protocol.Offer | None
    closed: protocol.OfferClosed | None


@dataclass(frozen=True, slots=True)
class Said:
    """Someone said a line at the table."""

    said: protocol.Said


@dataclass(frozen=True, slots=True)
class Refused:
    """The server said no to something asked of it: ``text``, one line."""

    text: str


@dataclass(frozen=True, slots=True)
class People:
    """Who is at the table, as the server answered ``who`` (``people_line`` says it)."""

    people: protocol.People


@dataclass(frozen=True, slots=True)
class Stopped:
    """Online play cannot go on at this table: ``reason``, one line."""

    reason: str


@dataclass(frozen=True, slots=True)
class GameKept:
    """A finished game went into this computer's past games and statistics; ``left``: the
    person had left it (it counts as their loss); ``code``: the table's, as shown."""

    left: bool
    code: str


@dataclass(frozen=True, slots=True)
class NotKept:
    """A finished game could not be kept: ``reason``, one line."""

    reason: str


Change = (
    GameBegan
    | StreamGrew
    | SeatsChanged
    | ClockRuns
    | OfferChanged
    | Said
    | Refused
    | People
    | Dropped
    | Reconnected
    | RoundTrip
    | Stopped
    | GameKept
    | NotKept
)
"""Everything a followed online table tells."""
