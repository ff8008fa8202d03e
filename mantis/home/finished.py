"""Where a finished game goes: this app's past games and statistics.

Every finished game takes this one path, whether it was played here (the
table's keeper records it, then clears its save) or at a server's table (the
app records the record the server sent, with where it was played), so past
games, statistics and anything kept per finished game stay in step.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..engine import GameRecord
from .local_ratings import RatingChange
from .stats import StatsDB


@dataclass(frozen=True, slots=True)
class Finished:
    """What the statistics made of a finished game."""

    game_id: int
    ratings: tuple[RatingChange, ...] = ()
    """Each person's rating before and after it, in seat order (none if it was not rated)."""


def record_finished(
    record: GameRecord, origin: str | None = None, *, path: Path | None = None
) -> Finished:
    """Keep the finished ``record`` in the statistics database (``path``: the default one).

    ``origin`` says where an online game was played ("ws://host:port CODE
    SEED"); such a game is kept once however often it is recorded.  Returns
    the game's id and the rating changes it was recorded with (read in the
    same connection, so they are the ones kept); ``StatsError`` if the
    database cannot take it.
    """
    with StatsDB(path) as db:
        game_id = db.record_game(record, origin=origin)
        return Finished(game_id, db.rating_change(game_id))
