"""What a table server keeps for good, whatever keeps it: the ``TableStore`` interface.

A server keeps every table, its seats, every game played at it (its seed,
every move and notice, its record once over) before anyone hears of any
of it, so that a server started again — or another node taking a table
over — resumes each table where it stood.  One interface, one schema, two
implementations: SQLite (``tables_sqlite``, the default, nothing to install)
and PostgreSQL (several nodes sharing one database).  Every method is a
coroutine: a caller awaits its write, and once the await returns the write
is durable.

A table's life is a ``RoomPhase``: ``waiting`` (seats being filled),
``playing`` (its latest game is on), ``over`` (its latest game ended; a
table may go on to play another game: ``over`` -> ``playing`` again).  A
game has its own row and number at its table: its seed, moves, notices,
record and turn clock's deadline belong to it, not to the table.

A table's rules (``TableRules``: private, its away bot, its turn clock,
talk, quick play, rated) are kept with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from ..engine import Action
from .player_ratings import (
    Bound,
    GameRating,
    NameClaim,
    PairDay,
    RatedStart,
    StoredPlayer,
    Unbound,
)
from .table_rules import TableRules


class StoreError(Exception):
    """The store cannot do what was asked; the message is one line."""


class StoreUnavailable(StoreError):
    """The store cannot be reached just now (nothing was written); it may come back."""


class StoreConflict(StoreError):
    """A write clashes with what is kept already (a move of that number is kept): whoever
    wrote it no longer holds the table."""


class RoomPhase(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"
    """Seats are being filled; no game yet."""
    PLAYING = "playing"
    """Its latest game is being played."""
    OVER = "over"
    """Its latest game has ended (another may follow)."""

    def may_become(self, new: RoomPhase) -> bool:
        """Whether a table in this state may move to ``new``."""
        return (self, new) in _MOVES


_MOVES = frozenset(
    {
        (RoomPhase.WAITING, RoomPhase.PLAYING),
        (RoomPhase.PLAYING, RoomPhase.OVER),
        (RoomPhase.OVER, RoomPhase.PLAYING),
    }
)


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A seat as kept: who sits there, and the hash of the token that gets it back."""

    name: str
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    left: bool = False
    """Its person left a game for good: the seat is played for and cannot be taken back."""
    player: str | None = None
    """The ``name_key`` of the name its person holds with a player key (None: no key)."""
    key_hash: str | None = None
    """The digest of its person's player key (one key, one seat per table)."""
    network: str | None = None
    """The network its person sat down from (an IPv4 /24, an IPv6 /48): two people of one
    network do not rate each other."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game at a table, as kept: enough to deal it again and replay it to where it is."""

    id: int
    number: int
    """1 for a table's first game, 2 for the next one played at it, and so on."""
    seed: int
    moves: tuple[tuple[int, Action], ...]
    """(seat, action), in the order played."""
    notices: tuple[tuple[int, str], ...]
    """(actions played before it, the notice as stream JSON), in the order kept."""
    record: str | None
    """The finished game's record (one line of the record format); None while it is played."""
    finished_at: datetime | None
    deadline: tuple[int, datetime] | None = None
    """The turn clock: (the move being waited for, from 0; when its time runs out)."""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A table as kept: its rules, its seats and its latest game (None before the first)."""

    id: int
    code: str
    state: RoomPhase
    rules: TableRules
    host: int
    seats: tuple[StoredSeat, ...]
    game: StoredGame | None


class TableStore(Protocol):
    """Every durable read and write of a table server.

    Writes are awaited until durable; reads see every write awaited before
    them.  A write that fails raises ``StoreError`` and changes nothing.
    """

    async def create_table(
        self,
        code: str,
        rules: TableRules,
        *,
        host: int,
        seats: Sequence[StoredSeat],
    ) -> int:
        """Keep a new table, waiting for its seats, with its rules; its id.

        ``code`` must not be live; ``host``: the host's seat.
        """
        ...

    async def set_seats(self, table_id: int, seats: Sequence[StoredSeat]) -> None:
        """Replace the table's seats (its waiting room changed, or a seat was taken)."""
        ...

    async def start_game(self, table_id: int, seed: int) -> int:
        """A new game at the table, dealt from ``seed`` (the table is now playing); its id."""
        ...

    async def add_moves(
        self, game_id: int, first_turn: int, moves: Sequence[tuple[int, Action]]
    ) -> None:
        """Append moves to a game, the first being its move ``first_turn`` (from 0)."""
        ...

    async def add_notice(self, game_id: int, turn: int, body: str) -> None:
        """Keep a table notice (stream JSON) published after ``turn`` actions of a game."""
        ...

    async def set_deadline(self, game_id: int, turn: int, deadline: datetime) -> None:
        """The turn clock: move ``turn`` (from 0) of the game must be made by ``deadline``.

        Replaces the game's deadline before (one turn is timed at a time).
        """
        ...

    async def finish_game(
        self,
        game_id: int,
        first_turn: int,
        moves: Sequence[tuple[int, Action]],
        record: str,
        rating: GameRating | None = None,
    ) -> None:
        """The game's last moves and its record, at once; its table is now over.

        ``rating``: the game is rated — its players' ratings move in the same
        write (read and written at once, so two games ending together both count).
        """
        ...

    async def bind_name(self, claim: NameClaim) -> Bound | Unbound:
        """Hold the name ``claim`` asks for, for its key, unless another key holds it
        (``Unbound.TAKEN``) or it would be new to the key and the key holds
        ``claim.most_new`` names taken since ``claim.new_since`` (``Unbound.USED_UP``:
        counted in the same step, so binds at once never pass the limit together).

        A name clashes on either of its keys; a clashing name with no rated game
        last sat under before ``claim.released_before`` is another key's no more
        (it is dropped).  A name the key holds already (or a look-alike it holds)
        is marked sat under now.
        """
        ...

    async def new_names(self, key_hash: str, since: datetime) -> int:
        """Names the key ``key_hash`` came to hold since ``since`` (held still)."""
        ...

    async def name_holders(
        self, low: str, capitals: str, released_before: datetime
    ) -> list[tuple[str, str]]:
        """Each held name clashing with these keys: its ``name_key`` and its holder's digest
        (``player_ratings.held_by_another`` says whether they keep a key from it)."""
        ...

    async def verifier(self, key_id: str) -> str | None:
        """The digest (verifier) of the key named ``key_id``, if it holds a name here."""
        ...

    async def rekey(self, old_hash: str, new_hash: str) -> int:
        """Every name (and seat) held by the key ``old_hash`` is ``new_hash``'s now; how many
        names."""
        ...

    async def pair_games(self, first: str, second: str, since: datetime) -> int:
        """Rated games two people (their keys' ids, in any order) played together, started
        since ``since``: those being played count from their start (``count_rated``)."""
        ...

    async def count_rated(self, game: RatedStart) -> PairDay | None:
        """Count ``game`` as a rated game of each of its pairs of people, unless a pair
        played ``game.most`` started since ``game.since``: None (counted), or that pair and
        its count (nothing counted).

        Checked and counted in one step (across nodes too), so games starting together
        never pass ``most`` between them.  A game counted already (resumed after a restart
        or a takeover) stays counted: None.  A counted game that ends unrated
        (``finish_game`` without a rating) is counted no more; one that is rated, or is
        still being played, counts for the day from its start.
        """
        ...

    async def rebuild_name_keys(self, capitals: Callable[[str], str]) -> int:
        """Give each held name without its second key one: ``capitals(name)``; how many."""
        ...

    async def players(self, name_keys: Sequence[str]) -> dict[str, StoredPlayer]:
        """The held names among ``name_keys``, with their ratings."""
        ...

    async def leaderboard(self, offset: int, limit: int) -> tuple[list[StoredPlayer], int]:
        """Players with a rated game, best first, from ``offset``, ``limit`` at most; and how
        many there are.  Best: the highest low end (``mu - 2 sigma``), then more games,
        then the name key."""
        ...

    async def drop_waiting(self, table_id: int) -> None:
        """Forget a table that never started (left in its waiting room)."""
        ...

    async def load(self, code: str) -> StoredRoom | None:
        """The table that ``code`` names now (the latest one given that code), if any."""
        ...

    async def load_live(self, over_since: timedelta) -> list[StoredRoom]:
        """Tables waiting or playing, and those over for less than ``over_since``; by id."""
        ...

    async def live_codes(self, over_since: timedelta) -> list[str]:
        """The codes of the tables ``load_live`` would give (cheaper: codes only)."""
        ...

    async def tables_held(self, key_hash: str, most: int) -> list[StoredRoom]:
        """Tables waiting or playing where the key ``key_hash`` holds a seat it has not left,
        the newest first, ``most`` at most."""
        ...

    async def records(self) -> list[str]:
        """Every finished game's record, oldest first."""
        ...

    async def flush(self) -> None:
        """Return once every write asked for before is durable (or has failed)."""
        ...

    async def close(self) -> None:
        """Finish every write under way, then let go of the store (closing again is fine)."""
        ...
