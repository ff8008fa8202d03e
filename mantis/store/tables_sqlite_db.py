"""The table server's SQLite database: opening and upgrading it; tables, seats and games.

One SQLite file (``server.sqlite3`` in the server's data directory).  A move
is one row, appended before anyone hears of it, so a server killed at any
moment and started again on the same file resumes every table where it
stood: the deal comes back from the game's seed, the position from its
moves.  Seat tokens are kept as SHA-256 hashes, so the file gives nobody a
seat.

``TablesDB`` is plain synchronous SQLite, used from one thread at a time
(``tables_sqlite.SqliteTableStore`` awaits it); the players' queries (names
held by keys, ratings) are ``players_sqlite``'s, run on its connection.

Schema v2 gives each game its own row (a table may play several); a v1
file (one seed and record on the table's row) is upgraded in place when
opened.  Schema v3 adds a table's rules (its turn clock, talk, quick play),
a seat whose person left, and a game's turn-clock deadline; a v2 file gains
them (as "no clock, talk on, not quick") when opened.  Schema v4 adds names
held by player keys, their ratings and each rated game's changes; a v3 file
gains them (every table unrated) when opened.  Schema v5 adds a held name's
second key, its key's id and last use, and a seat's network; a v4 file gains
them when opened (each name's second key once the server is up:
``rebuild_name_keys``).

The file holds every player key's verifier (what proves a key), so it is its
owner's alone whatever the umask: a data folder made here is ``0700``, a new
database file ``0600`` (and SQLite gives its ``-wal`` and ``-shm`` files the
mode of the database's).  Modes an operator set on existing ones are theirs.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from ..engine import SCORE, Action, Steal, steal
from . import players_sqlite
from .player_ratings import (
    GameRating,
)
from .table_rules import RULE_NAMES, TableRules
from .tables_interface import (
    RoomPhase,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
)
from .tables_schema import (
    HELD_SEAT,
    SCHEMA_VERSION,
    TABLE_COLUMNS,
    TABLES,
    iso_time,
    key_id,
    schema,
    upgrade_from_v2,
    upgrade_from_v3,
    upgrade_from_v4,
    upgrade_from_v5,
)

T = TypeVar("T")

_SCHEMA = schema("sqlite")

# Schema v1 kept one game on the table's row (seed, record, finished_at) and keyed
# moves and notices by table.  Each v1 table that had started becomes one game with
# the table's id, so moves and notices keep their key's value.
_FROM_V1 = """
DROP INDEX IF EXISTS live_codes;
ALTER TABLE tables RENAME TO tables_v1;
ALTER TABLE seats RENAME TO seats_v1;
ALTER TABLE moves RENAME TO moves_v1;
ALTER TABLE notices RENAME TO notices_v1;
{schema}
INSERT INTO tables (id, code, state, private, host, away_bot, created_at)
    SELECT id, code, state, private, host, away_bot, created_at FROM tables_v1;
INSERT INTO seats (table_id, seat, name, kind, bot, token_hash)
    SELECT table_id, seat, name, kind, bot, token_hash FROM seats_v1;
INSERT INTO games (id, table_id, number, seed, started_at, finished_at, record)
    SELECT id, id, 1, seed, created_at,
           CASE WHEN record IS NOT NULL THEN coalesce(finished_at, created_at) END,
           record
    FROM tables_v1 WHERE seed IS NOT NULL;
INSERT INTO moves (game_id, turn, seat, target)
    SELECT table_id, turn, seat, target FROM moves_v1
    WHERE table_id IN (SELECT id FROM games);
INSERT INTO notices (id, game_id, turn, body)
    SELECT id, table_id, turn, body FROM notices_v1
    WHERE table_id IN (SELECT id FROM games);
DROP TABLE notices_v1;
DROP TABLE moves_v1;
DROP TABLE seats_v1;
DROP TABLE tables_v1;
"""


class TablesDBError(StoreError):
    """The server's SQLite file cannot be used; the message is one line."""


FOLDER_MODE = 0o700
FILE_MODE = 0o600


def _make_private(path: Path) -> None:
    """Make ``path``'s folder (``FOLDER_MODE``) and the empty database file (``FILE_MODE``)
    if they are not there yet, with exactly those modes, whatever the umask."""
    folder = path.parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir(FOLDER_MODE)
    except FileExistsError:
        pass
    else:
        os.chmod(folder, FOLDER_MODE)  # (mkdir's mode is less the umask's bits)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)


class TablesDB:
    """The server's SQLite database (WAL, every commit synced to disk)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            _make_private(self.path)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=5
            )
            self._db.execute("PRAGMA journal_mode = WAL")
            # FULL: a committed move survives a power cut too, not only a killed process.
            self._db.execute("PRAGMA synchronous = FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise TablesDBError(
                    f"{self.path} is from a newer Mantis server (schema v{version})"
                )
            if version == 1:
                self._upgrade(_FROM_V1.format(schema=_SCHEMA))
            elif version == 2:
                self._upgrade(upgrade_from_v2("sqlite"))
            elif version == 3:
                self._upgrade(upgrade_from_v3("sqlite"))
            elif version == 4:
                self._upgrade(upgrade_from_v4("sqlite"), key_ids=True)
            elif version == 5:
                self._upgrade(upgrade_from_v5("sqlite"))
            else:
                self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise TablesDBError(f"cannot use {self.path}: {exc}") from None

    @classmethod
    def reading(cls, path: str | os.PathLike[str]) -> TablesDB:
        """A second connection to a file already opened (and upgraded), for reads only."""
        db = cls.__new__(cls)
        db.path = Path(path)
        try:
            db._db = sqlite3.connect(
                db.path, isolation_level=None, check_same_thread=False, timeout=5
            )
            db._db.execute("PRAGMA query_only = ON")
        except sqlite3.Error as exc:
            raise TablesDBError(f"cannot use {db.path}: {exc}") from None
        return db

    def _upgrade(self, steps: str, key_ids: bool = False) -> None:
        """An older schema to this one in one transaction (all of it, or none of it);
        ``key_ids``: each held name's key id is worked out too."""
        # Foreign keys stay off meanwhile (they are switched on after): v1's tables'
        # rows are copied, then the old tables dropped.
        try:
            self._db.executescript("BEGIN IMMEDIATE;" + steps)
            if key_ids:
                hashes = [r[0] for r in self._db.execute("SELECT DISTINCT key_hash FROM players")]
                self._db.executemany(
                    "UPDATE players SET key_id = ? WHERE key_hash = ?",
                    [(key_id(h), h) for h in hashes],
                )
                # (once the ids are known; statement by statement: a script would commit)
                for statement in upgrade_from_v5("sqlite").split(";"):
                    if statement.strip():
                        self._db.execute(statement)
            self._db.execute("COMMIT")
        except sqlite3.Error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    @property
    def connection(self) -> sqlite3.Connection:
        """Its SQLite connection (``players_sqlite``'s queries run on it)."""
        return self._db

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
        rules: TableRules,
        *,
        host: int,
        seats: Sequence[StoredSeat],
        created_at: datetime | None = None,
    ) -> int:
        """Keep a new (waiting) table with its rules; its id."""
        when = iso_time(created_at or datetime.now(UTC))
        cursor = self._db.execute(
            f"INSERT INTO tables (code, state, host, created_at, {', '.join(RULE_NAMES)}) "
            f"VALUES (?, 'waiting', ?, ?, {', '.join('?' * len(RULE_NAMES))})",
            (code, host, when, *rules.values()),
        )
        table_id = cursor.lastrowid
        assert table_id is not None
        self.set_seats(table_id, seats)
        return table_id

    def set_seats(self, table_id: int, seats: Sequence[StoredSeat]) -> None:
        """Replace the table's seats (the waiting room changed)."""
        self._db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        self._db.executemany(
            "INSERT INTO seats "
            "(table_id, seat, name, kind, bot, token_hash, left_game, player, key_hash, network) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    s,
                    seat.name,
                    seat.kind,
                    seat.bot,
                    seat.token_hash,
                    int(seat.left),
                    seat.player,
                    seat.key_hash,
                    seat.network,
                )
                for s, seat in enumerate(seats)
            ],
        )

    def _move_to(self, table_id: int, new: RoomPhase) -> None:
        row = self._db.execute("SELECT state FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no table {table_id}")
        if not RoomPhase(row[0]).may_become(new):
            raise StoreError(f"table {table_id} is {row[0]}: it cannot become {new}")
        self._db.execute("UPDATE tables SET state = ? WHERE id = ?", (new.value, table_id))

    def start_game(self, table_id: int, seed: int, started_at: datetime | None = None) -> int:
        """A new game at the table, dealt from ``seed``; its id."""
        self._move_to(table_id, RoomPhase.PLAYING)
        (number,) = self._db.execute(
            "SELECT count(*) + 1 FROM games WHERE table_id = ?", (table_id,)
        ).fetchone()
        cursor = self._db.execute(
            "INSERT INTO games (table_id, number, seed, started_at) VALUES (?, ?, ?, ?)",
            (table_id, number, seed, iso_time(started_at or datetime.now(UTC))),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_moves(self, game_id: int, first_turn: int, moves: Sequence[tuple[int, Action]]) -> None:
        """Append moves, the first being move number ``first_turn`` (0-based)."""
        self._db.executemany(
            "INSERT INTO moves (game_id, turn, seat, target) VALUES (?, ?, ?, ?)",
            [
                (
                    game_id,
                    first_turn + i,
                    seat,
                    action.target if isinstance(action, Steal) else None,
                )
                for i, (seat, action) in enumerate(moves)
            ],
        )

    def add_notice(self, game_id: int, turn: int, body: str) -> None:
        self._db.execute(
            "INSERT INTO notices (game_id, turn, body) VALUES (?, ?, ?)", (game_id, turn, body)
        )

    def set_deadline(self, game_id: int, turn: int, deadline: datetime) -> None:
        """Move ``turn`` of the game must be made by ``deadline`` (replacing the last one)."""
        cursor = self._db.execute(
            "UPDATE games SET deadline_turn = ?, deadline = ? WHERE id = ? AND record IS NULL",
            (turn, iso_time(deadline), game_id),
        )
        if cursor.rowcount != 1:
            raise StoreError(f"there is no game {game_id} being played")

    def finish_game(
        self,
        game_id: int,
        first_turn: int,
        moves: Sequence[tuple[int, Action]],
        record: str,
        finished_at: datetime | None = None,
        rating: GameRating | None = None,
    ) -> None:
        """The game's last moves and its record (and, rated, its ratings); its table is over."""
        row = self._db.execute("SELECT table_id FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id}")
        when = iso_time(finished_at or datetime.now(UTC))
        self.add_moves(game_id, first_turn, moves)
        self._db.execute(
            "UPDATE games SET record = ?, finished_at = ?, deadline_turn = NULL, deadline = NULL "
            "WHERE id = ?",
            (record, when, game_id),
        )
        self._move_to(row[0], RoomPhase.OVER)
        if rating is not None:
            players_sqlite.rate(self._db, game_id, rating, when)
        else:  # (counted for its pairs as it started, it ended unrated: given back)
            self._db.execute("DELETE FROM rated_pairs WHERE game_id = ?", (game_id,))

    def drop_waiting(self, table_id: int) -> None:
        """Forget a table that never started (abandoned in its waiting room)."""
        if self._db.execute(
            "SELECT 1 FROM tables WHERE id = ? AND state = 'waiting'", (table_id,)
        ).fetchone():
            self._db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    # ----------------------------------------------------------------- reading

    def load(self, code: str) -> StoredRoom | None:
        """The latest table given ``code``, if any."""
        row = self._db.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE code = ? ORDER BY id DESC LIMIT 1",
            (code,),
        ).fetchone()
        return None if row is None else self._table(row)

    def load_live(self, over_since: timedelta = timedelta(hours=1)) -> list[StoredRoom]:
        """Tables waiting or playing, and those over for less than ``over_since``."""
        return [self._table(row) for row in self._live(TABLE_COLUMNS, over_since)]

    def live_codes(self, over_since: timedelta) -> list[str]:
        """The codes of the tables ``load_live`` gives."""
        return [row[0] for row in self._live("code", over_since)]

    def tables_held(self, key_hash: str, most: int) -> list[StoredRoom]:
        """Tables waiting or playing where ``key_hash`` holds a seat not left, newest first."""
        rows = self._db.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables t WHERE state != 'over' AND EXISTS ("
            f"{HELD_SEAT.format('?')}) ORDER BY id DESC LIMIT ?",
            (key_hash, most),
        ).fetchall()
        return [self._table(row) for row in rows]

    def _live(self, columns: str, over_since: timedelta) -> list[tuple[Any, ...]]:
        since = iso_time(datetime.now(UTC) - over_since)
        return self._db.execute(
            f"SELECT {columns} FROM tables t WHERE state != 'over' OR EXISTS ("
            "SELECT 1 FROM games g WHERE g.table_id = t.id AND g.finished_at >= ? "
            "AND g.number = (SELECT max(number) FROM games WHERE table_id = t.id)"
            ") ORDER BY id",
            (since,),
        ).fetchall()

    def _table(self, row: tuple[Any, ...]) -> StoredRoom:
        table_id, code, state, host, *rules = row
        seats = tuple(
            StoredSeat(name, kind, bot, token_hash, bool(left), player, key_hash, network)
            for name, kind, bot, token_hash, left, player, key_hash, network in self._db.execute(
                "SELECT name, kind, bot, token_hash, left_game, player, key_hash, network "
                "FROM seats WHERE table_id = ? ORDER BY seat",
                (table_id,),
            )
        )
        game = self._latest_game(table_id)
        return StoredRoom(table_id, code, RoomPhase(state), TableRules.of(rules), host, seats, game)

    def _latest_game(self, table_id: int) -> StoredGame | None:
        row = self._db.execute(
            "SELECT id, number, seed, record, finished_at, deadline_turn, deadline FROM games "
            "WHERE table_id = ? ORDER BY number DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        if row is None:
            return None
        game_id, number, seed, record, finished, deadline_turn, deadline = row
        moves = tuple(
            (seat, SCORE if target is None else steal(target))
            for seat, target in self._db.execute(
                "SELECT seat, target FROM moves WHERE game_id = ? ORDER BY turn", (game_id,)
            )
        )
        notices = tuple(
            self._db.execute(
                "SELECT turn, body FROM notices WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        )
        return StoredGame(
            game_id,
            number,
            seed,
            moves,
            notices,
            record,
            datetime.fromisoformat(finished) if finished else None,
            None if deadline is None else (deadline_turn, datetime.fromisoformat(deadline)),
        )

    def rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of one of the schema's tables, in key order (for ``mantis migrate``)."""
        if table not in TABLES:
            raise ValueError(f"no table {table!r} in the schema")
        return self._db.execute(
            f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1, 2"
        ).fetchall()

    def records(self) -> list[str]:
        """Every finished game's record, oldest first."""
        return [
            r[0]
            for r in self._db.execute(
                "SELECT record FROM games WHERE record IS NOT NULL ORDER BY finished_at, id"
            )
        ]
