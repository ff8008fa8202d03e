"""Where a finished game goes: this app's past games and statistics.

Every finished game takes this one path, whether it was played here (the
table's keeper records it, then clears its save) or at a server's table (the
app records the record the server sent, with where it was played), so past
games, statistics and anything kept per finished game stay in step.
"""

from __future__ import annotations

from pathlib import Path

from ..engine import GameRecord
from .stats import StatsDB


def record_finished(
    record: GameRecord, origin: str | None = None, *, path: Path | None = None
) -> int:
    """Keep the finished ``record`` in the statistics database (``path``: the default one).

    ``origin`` says where an online game was played ("ws://host:port CODE
    SEED"); such a game is kept once however often it is recorded.  Returns
    the game's id; ``StatsError`` if the database cannot take it.
    """
    with StatsDB(path) as db:
        return db.record_game(record, origin=origin)
