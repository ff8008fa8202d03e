"""Players on a server: a name held by a player key, and its rating there.

A person's app sends a player key (a secret it made) when it sits down;
the server keeps only the key's SHA-256 digest, bound to the name the
person sits under (its ``name_key``: how it looks, in any case), so nobody
else can sit under that name there.  A rated game moves every such
person's rating by ``mantis.rating.update`` (the bots sit at their level's
anchor and never move), once, in the same write that finishes the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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


def rating_moves(current: Mapping[str, Rating], game: GameRating) -> list[RatingMove]:
    """What ``game`` does to each player's rating, from ``current`` (a new player's if absent)."""
    before = [current.get(s, Rating()) if isinstance(s, str) else s for s in game.seats]
    after = rate(before, game.winners)
    return [
        RatingMove(seat, old, new, s in game.winners)
        for s, (seat, old, new) in enumerate(zip(game.seats, before, after, strict=True))
        if isinstance(seat, str)
    ]
