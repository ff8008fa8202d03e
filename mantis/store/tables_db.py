"""The table server's database: every table, its seats, every move and notice, every record.

One SQLite file (``server.sqlite3`` in the server's data directory).  A move
is one row, appended before anyone hears of it, so a server killed at any
moment and started again on the same file resumes every table where it
stood: the deal comes back from the table's seed, the position from its
moves.  Seat tokens are kept as SHA-256 hashes, so the file gives nobody a
seat.

``TablesDB`` is plain synchronous SQLite, used from one thread at a time
(the server's ``Writer``, or startup before the server listens).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..engine import SCORE, Action, Steal, steal

DB_NAME = "server.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'over')),
    private INTEGER NOT NULL,
    host INTEGER NOT NULL,
    away_bot TEXT NOT NULL,
    seed INTEGER,
    created_at TEXT NOT NULL,
    finished_at TEXT,
    record TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS live_codes ON tables (code) WHERE state != 'over';
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    turn INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    target INTEGER,
    PRIMARY KEY (table_id, turn)
);
CREATE TABLE IF NOT EXISTS notices (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables (id),
    turn INTEGER NOT NULL,
    body TEXT NOT NULL
);
"""


class TablesDBError(Exception):
    """The server's database cannot be used; the message is one line."""


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A seat as kept: who sits there, and the hash of the token that gets it back."""

    name: str
    kind: str
    bot: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A table as kept, enough to bring it back after a restart."""

    id: int
    code: str
    state: str
    private: bool
    host: int
    away_bot: str
    seed: int | None
    seats: tuple[StoredSeat, ...]
    moves: tuple[tuple[int, Action], ...]
    notices: tuple[tuple[int, str], ...]
    """(actions played before it, the notice as stream JSON)."""
    record: str | None
    finished_at: datetime | None


class TablesDB:
    """The server's SQLite database (WAL, every commit synced to disk)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=5
            )
            self._db.execute("PRAGMA journal_mode = WAL")
            # FULL: a committed move survives a power cut too, not only a killed process.
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise TablesDBError(
                    f"{self.path} is from a newer Mantis server (schema v{version})"
                )
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            raise TablesDBError(f"cannot use {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def begin(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self._db.execute("COMMIT")

    def rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def savepoint(self, name: str) -> None:
        self._db.execute(f"SAVEPOINT {name}")

    def release(self, name: str) -> None:
        self._db.execute(f"RELEASE {name}")

    def rollback_to(self, name: str) -> None:
        self._db.execute(f"ROLLBACK TO {name}")
        self._db.execute(f"RELEASE {name}")

    # ----------------------------------------------------------------- writing

    def create_table(
        self,
        code: str,
        *,
        private: bool,
        host: int,
        away_bot: str,
        seats: Sequence[StoredSeat],
        created_at: datetime | None = None,
    ) -> int:
        """Keep a new (waiting) table; its id."""
        when = _iso(created_at or datetime.now(UTC))
        cursor = self._db.execute(
            "INSERT INTO tables (code, state, private, host, away_bot, created_at) "
            "VALUES (?, 'waiting', ?, ?, ?, ?)",
            (code, int(private), host, away_bot, when),
        )
        table_id = cursor.lastrowid
        assert table_id is not None
        self.set_seats(table_id, seats)
        return table_id

    def set_seats(self, table_id: int, seats: Sequence[StoredSeat]) -> None:
        """Replace the table's seats (the waiting room changed)."""
        self._db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        self._db.executemany(
            "INSERT INTO seats (table_id, seat, name, kind, bot, token_hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (table_id, s, seat.name, seat.kind, seat.bot, seat.token_hash)
                for s, seat in enumerate(seats)
            ],
        )

    def start(self, table_id: int, seed: int) -> None:
        """The game began, dealt from ``seed``."""
        self._db.execute(
            "UPDATE tables SET state = 'playing', seed = ? WHERE id = ?", (seed, table_id)
        )

    def add_moves(
        self, table_id: int, first_turn: int, moves: Sequence[tuple[int, Action]]
    ) -> None:
        """Append moves, the first being move number ``first_turn`` (0-based)."""
        self._db.executemany(
            "INSERT INTO moves (table_id, turn, seat, target) VALUES (?, ?, ?, ?)",
            [
                (
                    table_id,
                    first_turn + i,
                    seat,
                    action.target if isinstance(action, Steal) else None,
                )
                for i, (seat, action) in enumerate(moves)
            ],
        )

    def add_notice(self, table_id: int, turn: int, body: str) -> None:
        self._db.execute(
            "INSERT INTO notices (table_id, turn, body) VALUES (?, ?, ?)", (table_id, turn, body)
        )

    def finish(self, table_id: int, record: str, finished_at: datetime | None = None) -> None:
        """The game is over: keep its record."""
        self._db.execute(
            "UPDATE tables SET state = 'over', record = ?, finished_at = ? WHERE id = ?",
            (record, _iso(finished_at or datetime.now(UTC)), table_id),
        )

    def drop_waiting(self, table_id: int) -> None:
        """Forget a table that never started (abandoned in its waiting room)."""
        self._db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        self._db.execute("DELETE FROM tables WHERE id = ? AND state = 'waiting'", (table_id,))

    # ----------------------------------------------------------------- reading

    def load_live(self, over_since: timedelta = timedelta(hours=1)) -> list[StoredRoom]:
        """Tables waiting or playing, and those over for less than ``over_since``."""
        since = _iso(datetime.now(UTC) - over_since)
        rows = self._db.execute(
            "SELECT id, code, state, private, host, away_bot, seed, record, finished_at "
            "FROM tables WHERE state != 'over' OR finished_at >= ? ORDER BY id",
            (since,),
        ).fetchall()
        tables = []
        for table_id, code, state, private, host, away_bot, seed, record, finished in rows:
            seats = tuple(
                StoredSeat(name, kind, bot, token_hash)
                for name, kind, bot, token_hash in self._db.execute(
                    "SELECT name, kind, bot, token_hash FROM seats WHERE table_id = ? "
                    "ORDER BY seat",
                    (table_id,),
                )
            )
            moves = tuple(
                (seat, SCORE if target is None else steal(target))
                for seat, target in self._db.execute(
                    "SELECT seat, target FROM moves WHERE table_id = ? ORDER BY turn", (table_id,)
                )
            )
            notices = tuple(
                self._db.execute(
                    "SELECT turn, body FROM notices WHERE table_id = ? ORDER BY id", (table_id,)
                ).fetchall()
            )
            tables.append(
                StoredRoom(
                    table_id,
                    code,
                    state,
                    bool(private),
                    host,
                    away_bot,
                    seed,
                    seats,
                    moves,
                    notices,
                    record,
                    datetime.fromisoformat(finished) if finished else None,
                )
            )
        return tables

    def records(self) -> list[str]:
        """Every finished game's record, oldest first."""
        return [
            r[0]
            for r in self._db.execute(
                "SELECT record FROM tables WHERE state = 'over' ORDER BY finished_at, id"
            )
        ]


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="milliseconds")
