"""Past games named from the command line: by their number in Past games, or the latest.

A past game's number is its id in the statistics database, the number the
app's Past games list shows beside it.  ``mantis review --past N`` and
``--last`` review one, ``mantis games export`` (``cli/games.py``) writes any of
them out as a record file.  Naming a game that is not there is a ``PastGameError`` with
one line for the person; reading never creates the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..engine.record import GameRecord
from .stats import StatsDB, default_stats_path

NO_GAMES = "there are no past games yet: finish a game and it is kept"


class PastGameError(Exception):
    """A past game that cannot be had: none by that number, or none at all (one line)."""


def past_records(
    numbers: Sequence[int] = (), *, last: int | None = None, path: Path | None = None
) -> list[tuple[int, GameRecord]]:
    """``(number, record)`` of the past games named, oldest first.

    ``numbers`` names games by their number; ``last`` takes the latest
    ``last`` games; neither takes every game.  ``PastGameError`` for a
    number that is not a past game (or no games at all), ``StatsError`` if
    the database cannot be read.
    """
    target = path if path is not None else default_stats_path()
    if not target.exists():
        raise PastGameError(NO_GAMES)
    with StatsDB(target) as db:
        if numbers:
            known = set(db.game_ids())
            for number in numbers:
                if number not in known:
                    raise PastGameError(_not_there(number, known))
            chosen = list(dict.fromkeys(numbers))
        else:
            ids = db.game_ids()
            chosen = ids if last is None else ids[-last:]
            if not chosen:
                raise PastGameError(NO_GAMES)
        return [(number, db.game_record(number)) for number in chosen]


def _not_there(number: int, known: set[int]) -> str:
    if not known:
        return NO_GAMES
    return (
        f"there is no past game {number}: past games are numbered {min(known)} to {max(known)} "
        "(the numbers Past games shows)"
    )


__all__ = ["PastGameError", "past_records"]
