"""Moving a server from its SQLite file to PostgreSQL (``mantis migrate``).

Every table, seat, game, move and notice is copied as it is — ids
included, so tables in play resume where they stood and seat tokens keep
working — into an empty PostgreSQL database, in one transaction: all of
it, or nothing.  The server must be stopped meanwhile.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from .tables_interface import StoreError
from .tables_pg import PgTableStore
from .tables_sqlite_db import TablesDB

#: The schema's tables and columns, in the order they are copied (each refers only to
#: those before it).
COLUMNS = {
    "tables": (
        "id",
        "code",
        "state",
        "private",
        "host",
        "away_bot",
        "created_at",
        "clock",
        "talk",
        "quick",
        "rated",
    ),
    "seats": (
        "table_id",
        "seat",
        "name",
        "kind",
        "bot",
        "token_hash",
        "left_game",
        "player",
        "key_hash",
        "network",
    ),
    "games": (
        "id",
        "table_id",
        "number",
        "seed",
        "started_at",
        "finished_at",
        "record",
        "deadline_turn",
        "deadline",
    ),
    "moves": ("game_id", "turn", "seat", "target"),
    "notices": ("id", "game_id", "turn", "body"),
    "players": (
        "name_key",
        "name",
        "key_hash",
        "mu",
        "sigma",
        "games",
        "wins",
        "created_at",
        "rated_at",
        "key_up",
        "key_id",
        "last_seen",
    ),
    "game_ratings": ("game_id", "player", "mu_before", "sigma_before", "mu", "sigma", "won"),
    "rated_pairs": ("game_id", "first_key", "second_key", "started_at"),
}
_TIMES = {"created_at", "started_at", "finished_at", "deadline", "rated_at", "last_seen"}
_BOOLEANS = {"private", "talk", "quick", "left_game", "rated", "won"}


async def copy_to_postgres(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy the SQLite file at ``sqlite_path`` into the empty database at ``url``.

    Returns how many tables (and of them in play), games and moves were
    copied; ``StoreError`` in one line if it cannot be done (and then
    nothing was copied).
    """
    if not sqlite_path.is_file():
        raise StoreError(f"there is no server database at {sqlite_path}")
    source = TablesDB(sqlite_path)  # (brought up to the current schema first)
    try:
        rows = {
            name: [_typed(name, columns, row) for row in source.rows(name, columns)]
            for name, columns in COLUMNS.items()
        }
    finally:
        source.close()
    target = await PgTableStore.open(url)
    try:
        await target.import_rows(COLUMNS, rows)
    finally:
        await target.close()
    return {
        "tables": len(rows["tables"]),
        "playing": sum(1 for row in rows["tables"] if row[2] == "playing"),
        "games": len(rows["games"]),
        "moves": len(rows["moves"]),
    }


def _typed(name: str, columns: tuple[str, ...], row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A SQLite row with PostgreSQL's types: booleans, and times as datetimes."""
    values = list(row)
    for i, column in enumerate(columns):
        if column in _TIMES and values[i] is not None:
            values[i] = datetime.fromisoformat(values[i])
        elif column in _BOOLEANS:
            values[i] = bool(values[i])
    return tuple(values)
