"""Players on a server: a name held by a player key, and its rating there.

A person's app proves it holds a player key (a secret it made) when it
sits down; the server keeps only the key's SHA-256 digest (its verifier),
bound to the name the person sits under (by its two keys: how it looks in
lower case and in capitals), so nobody else can sit under that name there.
A name is bound only once its seat is taken, and one with no rated game
that nobody sat under for a while is free again.  A rated game moves every
such person's rating by ``mantis.rating.update`` (the bots sit at their
level's anchor and never move), once, in the same write that finishes the
game, each person's change scaled by how much their opponents weigh
(``GameRating.weights``: docs/ratings.md).
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from ..rating.scale import Rating
from ..rating.update import rate


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    """A name held on a server, with its rating there."""

    name_key: str
    name: str
    """As spelt when it was first held."""
    rating: Rating
    games: int
    """Rated games played."""
    wins: int


@dataclass(frozen=True, slots=True)
class GameRating:
    """How a finished game moves ratings.

    ``seats``: per seat, a player's ``name_key`` (their rating moves) or a
    fixed ``Rating`` (a bot level's anchor).  ``winners``: the seats that
    won, those who forfeited (left, or went away for running out of time)
    already taken out.
    """

    seats: tuple[str | Rating, ...]
    winners: tuple[int, ...]
    weights: tuple[float, ...] = ()
    """Per seat, the share of the update its player takes (0: none, 1: all of it; a new
    player's opponents weigh little); none given: every seat takes all of it."""


@dataclass(frozen=True, slots=True)
class NameClaim:
    """A player key asking to hold a name: its two keys (``mantis.table.names.NameKeys``),
    the name as spelt, the key's digest, and the moments that say which names are free."""

    low: str
    """The name's ``name_key`` (its skeleton in lower case): the row's key."""
    capitals: str
    """Its skeleton in capitals, in lower case: a name clashes on either key."""
    name: str
    key_hash: str
    at: datetime
    """Now (the server's clock): when the name was last sat under."""
    released_before: datetime
    """A name with no rated game last sat under before this is free again."""
    most_new: int | None = None
    """New names the key may come to hold since ``new_since`` (None: no limit); counted in
    the same step that holds the name, so binds at once never pass it together."""
    new_since: datetime | None = None


@dataclass(frozen=True, slots=True)
class Bound:
    """A name a key holds now: the ``name_key`` it is held under (the name as first held,
    for a look-alike the key held already), and whether it is new to the key."""

    name_key: str
    new: bool


@dataclass(frozen=True, slots=True)
class RatedStart:
    """A rated game starting, to count for each pair of people at it: the game, the pairs
    (two keys' ids each), the moment it starts, and the day's limit (``most`` games a pair
    started since ``since``)."""

    game_id: int
    pairs: tuple[tuple[str, str], ...]
    since: datetime
    most: int
    at: datetime


@dataclass(frozen=True, slots=True)
class PairDay:
    """Two people (their keys' ids, as asked) and the rated games they played together
    within the day asked about."""

    first: str
    second: str
    games: int


class Unbound(Enum):
    """Why a name was not bound to a key."""

    TAKEN = "taken"
    """Another key holds it (or a look-alike of it)."""
    USED_UP = "used up"
    """It would be new to the key, which holds ``NameClaim.most_new`` new names already."""


@dataclass(frozen=True, slots=True)
class RatingMove:
    """One player's rating before and after one game."""

    player: str
    before: Rating
    after: Rating
    won: bool

    def row(self, game_id: int) -> tuple[int, str, float, float, float, float, bool]:
        """Its row of ``game_ratings`` (in the columns' order: ``RATING_COLUMNS``)."""
        before, after = self.before, self.after
        return (game_id, self.player, before.mu, before.sigma, after.mu, after.sigma, self.won)


RATING_COLUMNS = "game_id, player, mu_before, sigma_before, mu, sigma, won"


def held_by_another(rows: Sequence[tuple[str, str]], low: str, key_hash: str | None) -> bool:
    """Whether the names clashing with one (``(name_key, holder's digest)`` each) keep the
    key ``key_hash`` (None: someone without a key) from sitting under it.

    A name held under its own ``name_key`` (``low``) is its holder's, whatever else
    clashes with it (two look-alikes held before they were known to clash keep their
    holders); otherwise any clashing name held by another key takes it.
    """
    exact = [holder for name_key, holder in rows if name_key == low]
    holders = exact or [holder for _, holder in rows]
    return any(key_hash is None or not hmac.compare_digest(h, key_hash) for h in holders)


def held_under(rows: Sequence[tuple[str, str]], low: str) -> str:
    """The ``name_key`` a key holding these clashing names sits under: ``low`` if it holds
    that one, else the look-alike it held first."""
    return next((n for n, _ in rows if n == low), rows[0][0])


def rating_moves(current: Mapping[str, Rating], game: GameRating) -> list[RatingMove]:
    """What ``game`` does to each player's rating, from ``current`` (a new player's if absent).

    A seat with a weight below 1 takes that share of its change (of ``mu`` and of
    ``sigma`` alike): weighing 0, its rating stays as it was.
    """
    before = [current.get(s, Rating()) if isinstance(s, str) else s for s in game.seats]
    after = rate(before, game.winners)
    weights = game.weights or (1.0,) * len(game.seats)
    return [
        RatingMove(seat, old, _weighed(old, new, weight), s in game.winners)
        for s, (seat, old, new, weight) in enumerate(
            zip(game.seats, before, after, weights, strict=True)
        )
        if isinstance(seat, str)
    ]


def _weighed(old: Rating, new: Rating, weight: float) -> Rating:
    if weight >= 1:
        return new
    weight = max(0.0, weight)
    return Rating(old.mu + weight * (new.mu - old.mu), old.sigma + weight * (new.sigma - old.sigma))
