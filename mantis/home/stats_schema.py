"""The statistics database's schema and its forward migrations.

The schema version lives in ``PRAGMA user_version``.  A new database is
built by running every migration from version 0, so the upgrade path is the
only path and is exercised on every fresh install.  An upgrade runs in one
transaction together with its version bump: an interrupted upgrade leaves
the previous version intact.

- v1: ``games``, one row per finished game with the full record.
- v2: ``seats``, one row per seat of every game (who sat there, their score,
  whether they won), filled from the records already stored.
- v3: ``games.origin``: where an online game was played (server and table
  code), so a game heard of twice (a reconnect after the end) is kept once.
- v4: ``seats.player``: the name in any case (``player_key``), so "Ann" and
  "ann" are one person everywhere; filled for the seats already stored.
- v5: ``ratings``: each person's rating before and after each rated game
  (``local_ratings.py``), worked out for the games already stored.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

from ..engine.seats import RecordError, SeatInfo, seats_from_json
from . import local_ratings

SCHEMA_VERSION = 5


class NewerSchemaError(Exception):
    """The database was written by a newer Mantis; it is left untouched."""

    def __init__(self, found: int) -> None:
        super().__init__(found)
        self.found = found


def _v0_to_v1(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            finished_at TEXT NOT NULL,      -- ISO 8601, UTC, e.g. 2026-11-30T03:15:00Z
            players INTEGER NOT NULL,
            reason TEXT NOT NULL,           -- "target" or "deck_out"
            turns INTEGER NOT NULL,
            winners TEXT NOT NULL,          -- JSON list of seats
            scores TEXT NOT NULL,           -- JSON list, per seat
            record TEXT NOT NULL            -- the game record, one line of JSON
        )
        """
    )
    db.execute("CREATE INDEX games_by_time ON games (finished_at, id)")


def _v1_to_v2(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,             -- "human", "bot", or "unknown" (record without seats)
            bot TEXT,                       -- the bot's name (its level) for bot seats
            score INTEGER NOT NULL,
            won INTEGER NOT NULL,           -- 1 if this seat is among the winners
            PRIMARY KEY (game_id, seat)
        )
        """
    )
    db.execute("CREATE INDEX seats_by_name ON seats (kind, name)")
    rows = db.execute("SELECT id, players, winners, scores, record FROM games").fetchall()
    for game_id, players, winners, scores, record in rows:
        db.executemany(
            "INSERT INTO seats (game_id, seat, name, kind, bot, score, won) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, *row)
                for row in seat_rows(
                    players, _seats_in(record), json.loads(winners), json.loads(scores)
                )
            ],
        )


def _seats_in(record_json: str) -> tuple[SeatInfo, ...] | None:
    """The seats of a stored record; None if it names none (or they cannot be read)."""
    try:
        data = json.loads(record_json)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("seats") is None:
        return None
    try:
        return seats_from_json(data["seats"])
    except RecordError:
        return None


def seat_rows(
    players: int, seats: Sequence[SeatInfo] | None, winners: list[int], scores: list[int]
) -> list[tuple[int, str, str, str | None, int, int]]:
    """``(seat, name, kind, bot, score, won)`` per seat; kind "unknown" where no seat is named."""
    rows = []
    for seat in range(players):
        kind: str
        if seats is not None and seat < len(seats):
            name, kind, bot = seats[seat].name, seats[seat].kind, seats[seat].bot
        else:
            name, kind, bot = f"Seat {seat + 1}", "unknown", None
        rows.append((seat, name, kind, bot, int(scores[seat]), int(seat in winners)))
    return rows


def _v2_to_v3(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE games ADD COLUMN origin TEXT")  # NULL: played in this app
    db.execute("CREATE UNIQUE INDEX games_by_origin ON games (origin) WHERE origin IS NOT NULL")


def player_key(name: str) -> str:
    """What one person is known by: their name in any case ("Ann", "ANN" and "ann" are one)."""
    return name.casefold()


def _v3_to_v4(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE seats ADD COLUMN player TEXT NOT NULL DEFAULT ''")
    # SQLite's lower() knows ASCII only; the key is Python's Unicode case folding.
    db.create_function("mantis_player_key", 1, player_key, deterministic=True)
    db.execute("UPDATE seats SET player = mantis_player_key(name)")
    db.execute("DROP INDEX seats_by_name")  # a person is looked up by key now
    db.execute("CREATE INDEX seats_by_player ON seats (kind, player)")


def _v4_to_v5(db: sqlite3.Connection) -> None:
    for statement in local_ratings.CREATE:
        db.execute(statement)
    local_ratings.rerate(db)


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _v0_to_v1,
    _v1_to_v2,
    _v2_to_v3,
    _v3_to_v4,
    _v4_to_v5,
)
"""``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1``."""


def migrate(db: sqlite3.Connection) -> None:
    """Bring ``db`` (in autocommit mode) up to ``SCHEMA_VERSION``.

    ``NewerSchemaError`` for a database from a newer version; ``sqlite3``
    errors (locked, not a database) propagate.
    """
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(version)
    # IMMEDIATE takes the write lock first, so two processes opening an old
    # database at once do not both upgrade it: the second one re-reads the
    # version inside its own transaction and finds nothing to do.
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NewerSchemaError(version)
        for step in range(version, SCHEMA_VERSION):
            MIGRATIONS[step](db)
            db.execute(f"PRAGMA user_version = {step + 1}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # some errors make SQLite roll back by itself
            db.execute("ROLLBACK")
        raise
