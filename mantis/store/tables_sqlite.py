"""The table server's store on SQLite: the default, one file, nothing to install.

``SqliteTableStore`` is the ``TableStore`` a server awaits: every call runs
in its ``Writer``'s thread (``sqlite_writer.py``), which commits every write waiting
at that moment at once, on a ``TablesDB`` (``tables_sqlite_db``: the file,
its tables and games) and ``players_sqlite``'s queries (names, ratings).

Reads that may take long (the leaderboard, players' ratings, who holds a
name) run in a ``Reader`` of their own, on a second connection: they never
wait behind the writer's commits, nor hold them up.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TypeVar

from ..engine import Action
from . import players_sqlite
from .player_ratings import (
    Bound,
    GameRating,
    NameClaim,
    PairDay,
    RatedStart,
    StoredPlayer,
    Unbound,
)
from .sqlite_writer import Reader, Writer
from .table_rules import TableRules
from .tables_interface import StoreConflict, StoredRoom, StoredSeat, StoreError
from .tables_sqlite_db import TablesDB

T = TypeVar("T")

DB_NAME = "server.sqlite3"


class SqliteTableStore:
    """The ``TableStore`` on one SQLite file: every call runs in one writer thread.

    Writes waiting at the same moment are committed together (one disk sync
    for all of them), so a busy server pays one sync for many moves.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open (or create, or upgrade) the file; ``TablesDBError`` in one line if it cannot."""
        self.db = TablesDB(path)
        self.writer = Writer(self.db)
        self.read_db = TablesDB.reading(path)
        self.reader = Reader(self.read_db)
        self._closed = False

    async def _read(self, job: Callable[[TablesDB], T]) -> T:
        """``job`` in the reader's thread; a database error as ``StoreError``."""
        try:
            return await self.reader.read(job)
        except sqlite3.Error as exc:
            raise StoreError(f"the server's database: {exc}") from None

    async def _run(self, job: Callable[[TablesDB], T]) -> T:
        """``job`` in the writer's thread, committed; a database error as ``StoreError``."""
        try:
            return await self.writer.write(job)
        except sqlite3.IntegrityError as exc:
            if "moves" in str(exc):
                raise StoreConflict(f"a move of that number is kept already: {exc}") from None
            raise StoreError(f"the server's database: {exc}") from None
        except sqlite3.Error as exc:
            raise StoreError(f"the server's database: {exc}") from None

    async def create_table(
        self, code: str, rules: TableRules, *, host: int, seats: Sequence[StoredSeat]
    ) -> int:
        seats = tuple(seats)
        return await self._run(lambda db: db.create_table(code, rules, host=host, seats=seats))

    async def set_seats(self, table_id: int, seats: Sequence[StoredSeat]) -> None:
        seats = tuple(seats)
        await self._run(lambda db: db.set_seats(table_id, seats))

    async def start_game(self, table_id: int, seed: int) -> int:
        return await self._run(lambda db: db.start_game(table_id, seed))

    async def add_moves(
        self, game_id: int, first_turn: int, moves: Sequence[tuple[int, Action]]
    ) -> None:
        moves = tuple(moves)
        await self._run(lambda db: db.add_moves(game_id, first_turn, moves))

    async def add_notice(self, game_id: int, turn: int, body: str) -> None:
        await self._run(lambda db: db.add_notice(game_id, turn, body))

    async def set_deadline(self, game_id: int, turn: int, deadline: datetime) -> None:
        await self._run(lambda db: db.set_deadline(game_id, turn, deadline))

    async def finish_game(
        self,
        game_id: int,
        first_turn: int,
        moves: Sequence[tuple[int, Action]],
        record: str,
        rating: GameRating | None = None,
    ) -> None:
        moves = tuple(moves)
        await self._run(
            lambda db: db.finish_game(game_id, first_turn, moves, record, rating=rating)
        )

    async def bind_name(self, claim: NameClaim) -> Bound | Unbound:
        return await self._run(lambda db: players_sqlite.bind_name(db.connection, claim))

    async def new_names(self, key_hash: str, since: datetime) -> int:
        return await self._read(lambda db: players_sqlite.new_names(db.connection, key_hash, since))

    async def name_holders(
        self, low: str, capitals: str, released_before: datetime
    ) -> list[tuple[str, str]]:
        return await self._read(
            lambda db: players_sqlite.name_holders(db.connection, low, capitals, released_before)
        )

    async def verifier(self, key_id: str) -> str | None:
        return await self._read(lambda db: players_sqlite.verifier(db.connection, key_id))

    async def rekey(self, old_hash: str, new_hash: str) -> int:
        return await self._run(lambda db: players_sqlite.rekey(db.connection, old_hash, new_hash))

    async def pair_games(self, first: str, second: str, since: datetime) -> int:
        return await self._read(
            lambda db: players_sqlite.pair_games(db.connection, first, second, since)
        )

    async def count_rated(self, game: RatedStart) -> PairDay | None:
        return await self._run(lambda db: players_sqlite.count_rated(db.connection, game))

    async def rebuild_name_keys(self, capitals: Callable[[str], str]) -> int:
        return await self._run(lambda db: players_sqlite.rebuild_name_keys(db.connection, capitals))

    async def players(self, name_keys: Sequence[str]) -> dict[str, StoredPlayer]:
        keys = tuple(name_keys)
        return await self._read(lambda db: players_sqlite.players(db.connection, keys))

    async def leaderboard(self, offset: int, limit: int) -> tuple[list[StoredPlayer], int]:
        return await self._read(lambda db: players_sqlite.leaderboard(db.connection, offset, limit))

    async def drop_waiting(self, table_id: int) -> None:
        await self._run(lambda db: db.drop_waiting(table_id))

    async def load(self, code: str) -> StoredRoom | None:
        return await self._run(lambda db: db.load(code))

    async def load_live(self, over_since: timedelta) -> list[StoredRoom]:
        return await self._run(lambda db: db.load_live(over_since))

    async def live_codes(self, over_since: timedelta) -> list[str]:
        return await self._run(lambda db: db.live_codes(over_since))

    async def tables_held(self, key_hash: str, most: int) -> list[StoredRoom]:
        return await self._read(lambda db: db.tables_held(key_hash, most))

    async def records(self) -> list[str]:
        return await self._run(lambda db: db.records())

    async def flush(self) -> None:
        await self._run(lambda db: None)  # behind every write queued before it

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await asyncio.to_thread(self.writer.close)  # every write queued so far, then stop
        await asyncio.to_thread(self.reader.close)
        self.db.close()
        self.read_db.close()
