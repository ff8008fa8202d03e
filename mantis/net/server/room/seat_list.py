"""A table's seats: each one (a bot, an open seat, or a person holding its token), and
what is read off the list of them (whose token, whose key, a name like no other's, a
bot's name, whether the game can start).

The room holds the list; these functions read it and change nothing but the seat
they are asked about.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ....base.clock import Timer
from ....engine.seat_count import MAX_SEATS, MIN_SEATS, SEAT_RANGE, valid_seat_count
from ....players import BOTS
from ....store.tables_interface import StoredSeat
from ....store.tables_schema import key_id
from ....table.names import look_alike
from ....table.names import unique_name as unique
from ... import protocol
from .audience import Connection
from .rated_games import SeatFacts

BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald")
"""Names for the server's bots, first unused first."""


def hash_token(token: str) -> str:
    """What the database keeps of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Seat:
    """A seat in a room: a bot, an open seat, or a person (who holds its token)."""

    name: str
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    connection: Connection | None = None
    away: bool = False
    away_timer: Timer | None = field(default=None, repr=False)
    left: bool = False
    """Its person left a game for good: the away bot plays it, nobody takes it back."""
    player: str | None = None
    """The name its person holds with a player key (its ``name_key``), if any."""
    key_hash: str | None = None
    """The digest of its person's player key, if any."""
    network: str | None = None
    """The network its person sat down from (``addresses.network_of``)."""

    @classmethod
    def restored(cls, kept: StoredSeat) -> Seat:
        """A seat as the store kept it (nobody connected yet)."""
        return cls(
            kept.name,
            kept.kind,
            kept.bot,
            kept.token_hash,
            left=kept.left,
            player=kept.player,
            key_hash=kept.key_hash,
            network=kept.network,
        )

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def person(self) -> bool:
        """A person sits here and plays (not a bot, not an open seat, not one who left)."""
        return self.kind == "human" and self.token_hash is not None and not self.left

    def presence(self) -> protocol.SeatPresence:
        if self.kind == "bot":
            return "bot"
        if self.token_hash is None:
            return "open"
        if self.left:
            return "left"
        if self.away:
            return "away"
        return "here" if self.connection is not None else "gone"

    def open_again(self) -> None:
        """Its person left the waiting room: the seat is open, nobody's."""
        self.token_hash, self.connection, self.name = None, None, ""
        self.player, self.key_hash = None, None

    def stop_waiting(self) -> None:
        """No wait for its person any more (they are back, left, or the game is over)."""
        if self.away_timer is not None:
            self.away_timer.cancel()
            self.away_timer = None

    def stored(self) -> StoredSeat:
        return StoredSeat(
            self.name,
            self.kind,
            self.bot,
            self.token_hash,
            self.left,
            self.player,
            self.key_hash,
            self.network,
        )

    def facts(self) -> SeatFacts:
        """What the rated-game rules read of this seat."""
        key = key_id(self.key_hash) if self.key_hash is not None else None
        return SeatFacts(
            self.name, self.kind, self.bot, self.person, self.player, self.network, key
        )


def presence(seats: Sequence[Seat]) -> protocol.Presence:
    """The ``presence`` message: each seat's connection."""
    return protocol.Presence(tuple(seat.presence() for seat in seats))


def sit(
    seats: Sequence[Seat], name: str, key_hash: str | None, network: str | None
) -> tuple[int, str] | None:
    """Seat a newcomer called ``name`` in the first open seat: (seat, their new token), or
    None if there is none (``key_hash``: their player key's digest; ``network``: where
    they sit from)."""
    for s, seat in enumerate(seats):
        if seat.kind == "human" and seat.token_hash is None:
            token = secrets.token_urlsafe(24)
            seat.name = unique_name(seats, name, s)
            seat.token_hash = hash_token(token)
            seat.key_hash, seat.network = key_hash, network
            return s, token
    return None


def add(seats: list[Seat], bot: str | None) -> str | None:
    """A new seat for a bot of level ``bot`` (None: an open seat); what is wrong, if it
    cannot be."""
    if len(seats) >= MAX_SEATS:
        return f"a table has at most {MAX_SEATS} seats"
    if bot is None:
        seats.append(Seat("", "human"))
        return None
    level = bot.strip().lower()
    if level not in BOTS:
        return f"there is no bot {level!r} (bots: {', '.join(BOTS)})"
    seats.append(Seat("", "bot", level))
    seats[-1].name = unique_name(seats, bot_name(seats), len(seats) - 1)
    return None


def remove(seats: list[Seat], seat: int, host: Seat) -> tuple[str | None, Seat | None]:
    """Take seat ``seat`` away (never the ``host``'s): what is wrong if it cannot be, and
    the seat taken away."""
    if not 0 <= seat < len(seats):
        return f"there is no seat {seat + 1}", None
    if seats[seat] is host:
        return "the host's own seat cannot be removed", None
    if len(seats) <= MIN_SEATS:
        return f"a table needs at least {MIN_SEATS} seats", None
    return None, seats.pop(seat)


def bots_for(seats: list[Seat], level: str, which: Callable[[Seat], bool]) -> None:
    """Bots of ``level`` take the seats ``which`` picks, each named like no other seat."""
    for s, seat in enumerate(seats):
        if which(seat):
            seats[s] = Seat("", "bot", level)
            seats[s].name = unique_name(seats, bot_name(seats), s)


def seat_of(seats: Sequence[Seat], connection: Connection) -> int | None:
    """The seat ``connection`` sits at (None: none)."""
    for s, seat in enumerate(seats):
        if seat.connection is connection:
            return s
    return None


def seat_with_token(seats: Sequence[Seat], token: str) -> int | None:
    """The seat whose token this is, if any."""
    wanted = hash_token(token)
    for s, seat in enumerate(seats):
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
            return s
    return None


def holds_key(seats: Sequence[Seat], key_hash: str) -> bool:
    """Whether a seat is held by the player key with this digest already."""
    return any(s.key_hash is not None and hmac.compare_digest(s.key_hash, key_hash) for s in seats)


def unique_name(seats: Sequence[Seat], name: str, seat: int) -> str:
    """``name``, or "Player N" for none, made to look like no other seat's name."""
    others = (s.name for i, s in enumerate(seats) if i != seat)
    return unique(name, others, f"Player {seat + 1}")


def bot_name(seats: Sequence[Seat]) -> str:
    """The first of ``BOT_NAMES`` like no name seated ("Bot" once all are)."""
    used = [seat.name for seat in seats if seat.name]
    fresh = (n for n in BOT_NAMES if not any(look_alike(n, u) for u in used))
    return next(fresh, "Bot")


def ready_to_start(seats: Sequence[Seat]) -> str | None:
    """Why a game cannot start with these seats yet, or None."""
    if not valid_seat_count(len(seats)):
        return f"a table needs {SEAT_RANGE} seats"
    waiting = sum(1 for seat in seats if not seat.taken)
    if waiting:
        return f"{waiting} open seat{'s' if waiting > 1 else ''} still to fill"
    return None
