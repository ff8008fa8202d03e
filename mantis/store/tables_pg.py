"""The table server's store on PostgreSQL: several nodes sharing one database.

The same schema as the SQLite store (``tables_sqlite``), in PostgreSQL's types,
and the same ``TableStore``: a move is one row, committed before anyone hears
of it.  This module holds the tables, their seats and games; the connections,
their batches and reconnecting are ``pg_connections``'s, and the players
(names held by keys, ratings) ``players_pg``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import SCORE, Action, Steal, steal
from . import players_pg
from .pg_connections import PgConnections, Rows, one_line, shown
from .player_ratings import (
    Bound,
    GameRating,
    NameClaim,
    PairDay,
    RatedStart,
    StoredPlayer,
    Unbound,
)
from .table_rules import RULE_NAMES, TableRules
from .tables_interface import (
    RoomPhase,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
    StoreUnavailable,
)
from .tables_schema import (
    HELD_SEAT,
    SCHEMA_VERSION,
    TABLE_COLUMNS,
    key_id,
    schema,
    upgrade_from_v2,
    upgrade_from_v3,
    upgrade_from_v4,
    upgrade_from_v5,
)

_VERSIONS = "CREATE TABLE IF NOT EXISTS mantis_schema (version INTEGER NOT NULL)"
_SCHEMA = schema("postgresql")

_MOVES = "INSERT INTO moves (game_id, turn, seat, target) VALUES ($1, $2, $3, $4)"
_NOTICES = "INSERT INTO notices (game_id, turn, body) VALUES ($1, $2, $3)"


class PgTableStore(PgConnections):
    """The ``TableStore`` on a PostgreSQL database, opened with ``await PgTableStore.open(url)``."""

    @classmethod
    async def open(cls, url: str, clock: Clock = SYSTEM_CLOCK) -> PgTableStore:
        """Connect, and create (or check) the schema; ``StoreError`` in one line if it cannot.
        ``clock``: what its waits to reconnect run on."""
        store = cls(url, clock)
        try:
            await store._connect()
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"cannot use the database {shown(url)}: {one_line(exc)}") from None
        try:
            async with store._writer.transaction():
                # One node at a time creates the schema (several may start at once).
                await store._writer.execute("SELECT pg_advisory_xact_lock(7215392)")
                await store._writer.execute(_VERSIONS)
                version = await store._writer.fetchval("SELECT max(version) FROM mantis_schema")
                if version is None:  # a new database (an older one is brought up to this one)
                    await store._writer.execute(_SCHEMA)
                    await store._writer.execute(
                        "INSERT INTO mantis_schema VALUES ($1)", SCHEMA_VERSION
                    )
                elif version == 2:  # a table's rules, a seat left, a turn's deadline; v4's
                    await store._writer.execute(upgrade_from_v2("postgresql"))
                    await store._writer.execute(
                        "UPDATE mantis_schema SET version = $1", SCHEMA_VERSION
                    )
                elif version == 3:  # names held by keys, ratings, rated tables
                    await store._writer.execute(upgrade_from_v3("postgresql"))
                    await store._writer.execute(
                        "UPDATE mantis_schema SET version = $1", SCHEMA_VERSION
                    )
                elif version == 4:  # a name's second key, its key's id, a seat's network
                    await store._writer.execute(upgrade_from_v4("postgresql"))
                    hashes = await store._writer.fetch("SELECT DISTINCT key_hash FROM players")
                    await store._writer.executemany(
                        "UPDATE players SET key_id = $1 WHERE key_hash = $2",
                        [(key_id(row[0]), row[0]) for row in hashes],
                    )
                    await store._writer.execute(upgrade_from_v5("postgresql"))
                    await store._writer.execute(
                        "UPDATE mantis_schema SET version = $1", SCHEMA_VERSION
                    )
                elif version == 5:  # each rated game's pairs of people, from its start
                    await store._writer.execute(upgrade_from_v5("postgresql"))
                    await store._writer.execute(
                        "UPDATE mantis_schema SET version = $1", SCHEMA_VERSION
                    )
                elif version > SCHEMA_VERSION:
                    raise StoreError(
                        f"the database {shown(url)} is from a newer Mantis server "
                        f"(schema v{version})"
                    )
        except BaseException:
            await store.close()
            raise
        store._start_writing()
        return store

    # ------------------------------------------------------------------ writing

    async def create_table(
        self, code: str, rules: TableRules, *, host: int, seats: Sequence[StoredSeat]
    ) -> int:
        seats = tuple(seats)
        marks = ", ".join(f"${n}" for n in range(4, 4 + len(RULE_NAMES)))

        async def job(db: Any) -> int:
            table_id: int = await db.fetchval(
                f"INSERT INTO tables (code, state, host, created_at, {', '.join(RULE_NAMES)}) "
                f"VALUES ($1, 'waiting', $2, $3, {marks}) RETURNING id",
                code,
                host,
                datetime.now(UTC),
                *rules.values(),
            )
            await _set_seats(db, table_id, seats)
            return table_id

        return int(await self._write(job))

    async def set_seats(self, table_id: int, seats: Sequence[StoredSeat]) -> None:
        seats = tuple(seats)
        await self._write(lambda db: _set_seats(db, table_id, seats))

    async def start_game(self, table_id: int, seed: int) -> int:
        async def job(db: Any) -> int:
            await _move_to(db, table_id, RoomPhase.PLAYING)
            game_id: int = await db.fetchval(
                "INSERT INTO games (table_id, number, seed, started_at) "
                "SELECT $1, count(*) + 1, $2, $3 FROM games WHERE table_id = $1 RETURNING id",
                table_id,
                seed,
                datetime.now(UTC),
            )
            return game_id

        return int(await self._write(job))

    async def add_moves(
        self, game_id: int, first_turn: int, moves: Sequence[tuple[int, Action]]
    ) -> None:
        rows = _move_rows(game_id, first_turn, moves)
        if rows:
            await self._write(Rows(_MOVES, rows))

    async def add_notice(self, game_id: int, turn: int, body: str) -> None:
        await self._write(Rows(_NOTICES, [(game_id, turn, body)]))

    async def set_deadline(self, game_id: int, turn: int, deadline: datetime) -> None:
        async def job(db: Any) -> None:
            done = await db.execute(
                "UPDATE games SET deadline_turn = $1, deadline = $2 "
                "WHERE id = $3 AND record IS NULL",
                turn,
                deadline,
                game_id,
            )
            if done != "UPDATE 1":
                raise StoreError(f"there is no game {game_id} being played")

        await self._write(job)

    async def finish_game(
        self,
        game_id: int,
        first_turn: int,
        moves: Sequence[tuple[int, Action]],
        record: str,
        rating: GameRating | None = None,
    ) -> None:
        rows = _move_rows(game_id, first_turn, moves)

        async def job(db: Any) -> None:
            table_id = await db.fetchval("SELECT table_id FROM games WHERE id = $1", game_id)
            if table_id is None:
                raise StoreError(f"there is no game {game_id}")
            when = datetime.now(UTC)
            await _add_moves(db, rows)
            await db.execute(
                "UPDATE games SET record = $1, finished_at = $2, deadline_turn = NULL, "
                "deadline = NULL WHERE id = $3",
                record,
                when,
                game_id,
            )
            await _move_to(db, table_id, RoomPhase.OVER)
            if rating is not None:
                await players_pg.rate(db, game_id, rating, when)
            else:  # (counted for its pairs as it started, it ended unrated: given back)
                await db.execute("DELETE FROM rated_pairs WHERE game_id = $1", game_id)

        await self._write(job)

    async def bind_name(self, claim: NameClaim) -> Bound | Unbound:
        bound: Bound | Unbound = await self._write(lambda db: players_pg.bind_name(db, claim))
        return bound

    async def new_names(self, key_hash: str, since: datetime) -> int:
        return await self._read(lambda db: players_pg.new_names(db, key_hash, since))

    async def name_holders(
        self, low: str, capitals: str, released_before: datetime
    ) -> list[tuple[str, str]]:
        return await self._read(
            lambda db: players_pg.name_holders(db, low, capitals, released_before)
        )

    async def verifier(self, key_id: str) -> str | None:
        return await self._read(lambda db: players_pg.verifier(db, key_id))

    async def rekey(self, old_hash: str, new_hash: str) -> int:
        return int(await self._write(lambda db: players_pg.rekey(db, old_hash, new_hash)))

    async def pair_games(self, first: str, second: str, since: datetime) -> int:
        return await self._read(lambda db: players_pg.pair_games(db, first, second, since))

    async def count_rated(self, game: RatedStart) -> PairDay | None:
        counted: PairDay | None = await self._write(lambda db: players_pg.count_rated(db, game))
        return counted

    async def rebuild_name_keys(self, capitals: Callable[[str], str]) -> int:
        return int(await self._write(lambda db: players_pg.rebuild_name_keys(db, capitals)))

    async def players(self, name_keys: Sequence[str]) -> dict[str, StoredPlayer]:
        keys = list(dict.fromkeys(name_keys))
        return await self._read(lambda db: players_pg.players(db, keys)) if keys else {}

    async def leaderboard(self, offset: int, limit: int) -> tuple[list[StoredPlayer], int]:
        return await self._read(lambda db: players_pg.leaderboard(db, offset, limit))

    async def drop_waiting(self, table_id: int) -> None:
        async def job(db: Any) -> None:
            if await db.fetchval(
                "SELECT 1 FROM tables WHERE id = $1 AND state = 'waiting'", table_id
            ):
                await db.execute("DELETE FROM seats WHERE table_id = $1", table_id)
                await db.execute("DELETE FROM tables WHERE id = $1", table_id)

        await self._write(job)

    async def import_rows(
        self, columns: dict[str, tuple[str, ...]], rows: dict[str, list[tuple[Any, ...]]]
    ) -> None:
        """Copy rows in as they are, ids included, into a database with no table yet.

        One transaction: all of it, or (``StoreError``) nothing.
        """

        async def job(db: Any) -> None:
            if await db.fetchval("SELECT count(*) FROM tables"):
                raise StoreError(
                    f"the database {shown(self.url)} holds tables already: "
                    "migrate into an empty one"
                )
            for name, names in columns.items():
                await db.copy_records_to_table(name, records=rows[name], columns=list(names))
            for name in ("tables", "games", "notices"):  # new ids go on after the copied ones
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"coalesce(max(id), 0) + 1, false) FROM {name}"
                )

        await self._write(job)

    # ------------------------------------------------------------------ reading

    async def load(self, code: str) -> StoredRoom | None:
        async def query(db: Any) -> StoredRoom | None:
            row = await db.fetchrow(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE code = $1 ORDER BY id DESC LIMIT 1",
                code,
            )
            return None if row is None else await _table(db, row)

        return await self._read(query)

    async def load_live(self, over_since: timedelta) -> list[StoredRoom]:
        async def query(db: Any) -> list[StoredRoom]:
            rows = await db.fetch(
                f"SELECT {TABLE_COLUMNS} FROM tables t WHERE state <> 'over' OR EXISTS ("
                "SELECT 1 FROM games g WHERE g.table_id = t.id AND g.finished_at >= $1 "
                "AND g.number = (SELECT max(number) FROM games WHERE table_id = t.id)"
                ") ORDER BY id",
                datetime.now(UTC) - over_since,
            )
            return [await _table(db, row) for row in rows]

        return await self._read(query)

    async def live_codes(self, over_since: timedelta) -> list[str]:
        async def query(db: Any) -> list[str]:
            rows = await db.fetch(
                "SELECT code FROM tables t WHERE state <> 'over' OR EXISTS ("
                "SELECT 1 FROM games g WHERE g.table_id = t.id AND g.finished_at >= $1 "
                "AND g.number = (SELECT max(number) FROM games WHERE table_id = t.id)"
                ") ORDER BY id",
                datetime.now(UTC) - over_since,
            )
            return [row[0] for row in rows]

        return await self._read(query)

    async def tables_held(self, key_hash: str, most: int) -> list[StoredRoom]:
        async def query(db: Any) -> list[StoredRoom]:
            rows = await db.fetch(
                f"SELECT {TABLE_COLUMNS} FROM tables t WHERE state <> 'over' AND EXISTS ("
                f"{HELD_SEAT.format('$1')}) ORDER BY id DESC LIMIT $2",
                key_hash,
                most,
            )
            return [await _table(db, row) for row in rows]

        return await self._read(query)

    async def flush(self) -> None:
        async def nothing(db: Any) -> None:
            pass

        with contextlib.suppress(StoreUnavailable):  # nothing can be under way then
            # Behind everything queued on each connection (an empty insert sends nothing).
            await asyncio.gather(self._write(nothing), self._write(Rows(_MOVES, [])))

    async def records(self) -> list[str]:
        async def query(db: Any) -> list[str]:
            rows = await db.fetch(
                "SELECT record FROM games WHERE record IS NOT NULL ORDER BY finished_at, id"
            )
            return [row[0] for row in rows]

        return await self._read(query)


async def _set_seats(db: Any, table_id: int, seats: Sequence[StoredSeat]) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = $1", table_id)
    await db.executemany(
        "INSERT INTO seats "
        "(table_id, seat, name, kind, bot, token_hash, left_game, player, key_hash, network) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [
            (
                table_id,
                s,
                seat.name,
                seat.kind,
                seat.bot,
                seat.token_hash,
                seat.left,
                seat.player,
                seat.key_hash,
                seat.network,
            )
            for s, seat in enumerate(seats)
        ],
    )


async def _move_to(db: Any, table_id: int, new: RoomPhase) -> None:
    state = await db.fetchval("SELECT state FROM tables WHERE id = $1 FOR UPDATE", table_id)
    if state is None:
        raise StoreError(f"there is no table {table_id}")
    if not RoomPhase(state).may_become(new):
        raise StoreError(f"table {table_id} is {state}: it cannot become {new}")
    await db.execute("UPDATE tables SET state = $1 WHERE id = $2", new.value, table_id)


def _move_rows(
    game_id: int, first_turn: int, moves: Sequence[tuple[int, Action]]
) -> list[tuple[int, int, int, int | None]]:
    return [
        (game_id, first_turn + i, seat, action.target if isinstance(action, Steal) else None)
        for i, (seat, action) in enumerate(moves)
    ]


async def _add_moves(db: Any, rows: list[tuple[int, int, int, int | None]]) -> None:
    if rows:
        await db.executemany(_MOVES, rows)


async def _table(db: Any, row: Any) -> StoredRoom:
    table_id = row["id"]
    seats = tuple(
        StoredSeat(
            r["name"],
            r["kind"],
            r["bot"],
            r["token_hash"],
            r["left_game"],
            r["player"],
            r["key_hash"],
            r["network"],
        )
        for r in await db.fetch(
            "SELECT name, kind, bot, token_hash, left_game, player, key_hash, network FROM seats "
            "WHERE table_id = $1 ORDER BY seat",
            table_id,
        )
    )
    game = await db.fetchrow(
        "SELECT id, number, seed, record, finished_at, deadline_turn, deadline FROM games "
        "WHERE table_id = $1 ORDER BY number DESC LIMIT 1",
        table_id,
    )
    latest = None
    if game is not None:
        moves = tuple(
            (r["seat"], SCORE if r["target"] is None else steal(r["target"]))
            for r in await db.fetch(
                "SELECT seat, target FROM moves WHERE game_id = $1 ORDER BY turn", game["id"]
            )
        )
        notices = tuple(
            (r["turn"], r["body"])
            for r in await db.fetch(
                "SELECT turn, body FROM notices WHERE game_id = $1 ORDER BY id", game["id"]
            )
        )
        latest = StoredGame(
            game["id"],
            game["number"],
            game["seed"],
            moves,
            notices,
            game["record"],
            game["finished_at"],
            None if game["deadline"] is None else (game["deadline_turn"], game["deadline"]),
        )
    rules = TableRules.of([row[name] for name in RULE_NAMES])
    state = RoomPhase(row["state"])
    return StoredRoom(table_id, row["code"], state, rules, row["host"], seats, latest)
