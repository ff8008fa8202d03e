"""The table server's store on PostgreSQL: several nodes sharing one database.

The same schema as the SQLite store (``tables_sqlite``), in PostgreSQL's types,
and the same ``TableStore``: a move is one row, committed before anyone
hears of it.  Writes go through one connection and one task that commits
every write waiting at that moment in one transaction (one round trip for
the commit and one disk sync for all of them, as the SQLite writer does);
if a batch fails, each of its writes is tried again alone, so one bad write
fails alone.  Reads run on a second connection, never behind a batch.

Driver: ``asyncpg`` (``pip install '.[cluster]'``), chosen over psycopg 3 by
measuring a move's commit in this pattern (``benchmarks/store.py``).

When the database cannot be reached, every call raises ``StoreUnavailable``
at once, and the store connects again by itself (a new attempt at most
every ``RETRY`` seconds) — so a server can tell its clients it is busy and
carry on once the database is back, with nothing published unstored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from ..engine import SCORE, Action, Steal, steal
from ..rating.scale import Rating
from .player_ratings import (
    RATING_COLUMNS,
    Bound,
    GameRating,
    NameClaim,
    StoredPlayer,
    held_by_another,
    held_under,
    rating_moves,
)
from .table_rules import RULE_NAMES, TableRules
from .tables_interface import (
    RoomPhase,
    StoreConflict,
    StoredGame,
    StoredRoom,
    StoredSeat,
    StoreError,
    StoreUnavailable,
)
from .tables_schema import (
    PLAYER_COLUMNS,
    SCHEMA_VERSION,
    TABLE_COLUMNS,
    key_id,
    schema,
    upgrade_from_v2,
    upgrade_from_v3,
    upgrade_from_v4,
)

log = logging.getLogger("mantis.store")

T = TypeVar("T")

#: Writes committed together at most (a bound on how long one commit takes).
MAX_BATCH = 500
#: Seconds between two attempts to reach a database that went away.
RETRY = 1.0
#: Seconds a connection attempt may take.
CONNECT_TIMEOUT = 5.0
#: Seconds a read waits for a broken connection to be replaced before it gives up.
RECONNECT_WAIT = 2.0

_VERSIONS = "CREATE TABLE IF NOT EXISTS mantis_schema (version INTEGER NOT NULL)"
_SCHEMA = schema("postgresql")

Job = Callable[[Any], Awaitable[Any]]
"""A write: given the connection, inside a transaction."""


@dataclass(frozen=True, slots=True)
class _Rows:
    """A write that only inserts rows: those of jobs next to each other in a batch go in
    one statement (one round trip for a whole batch of moves, not one per move)."""

    sql: str
    rows: list[tuple[Any, ...]]


Write = Job | _Rows

_MOVES = "INSERT INTO moves (game_id, turn, seat, target) VALUES ($1, $2, $3, $4)"
_NOTICES = "INSERT INTO notices (game_id, turn, body) VALUES ($1, $2, $3)"


class PgTableStore:
    """The ``TableStore`` on a PostgreSQL database, opened with ``await PgTableStore.open(url)``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._writer: Any = None
        self._mover: Any = None
        """The connection that inserts moves and notices, so that a move never waits
        behind a table's heavier writes (its start, its end, its seats)."""
        self._reader: Any = None
        self._jobs: asyncio.Queue[tuple[Write, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._rows: asyncio.Queue[tuple[Write, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._reconnecting: asyncio.Task[None] | None = None
        self._up = asyncio.Event()
        self._reading = asyncio.Lock()
        self._closed = False
        self.batches = 0
        """Commits so far (for benchmarks: writes per commit = writes / batches)."""
        self.writes = 0

    @classmethod
    async def open(cls, url: str) -> PgTableStore:
        """Connect, and create (or check) the schema; ``StoreError`` in one line if it cannot."""
        store = cls(url)
        try:
            await store._connect()
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"cannot use the database {_shown(url)}: {_one_line(exc)}") from None
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
                    await store._writer.execute(
                        "UPDATE mantis_schema SET version = $1", SCHEMA_VERSION
                    )
                elif version > SCHEMA_VERSION:
                    raise StoreError(
                        f"the database {_shown(url)} is from a newer Mantis server "
                        f"(schema v{version})"
                    )
        except BaseException:
            await store.close()
            raise
        loop = asyncio.get_running_loop()
        store._tasks = [
            loop.create_task(store._write_batches(store._jobs, "_writer")),
            loop.create_task(store._write_batches(store._rows, "_mover")),
        ]
        return store

    async def _connect(self) -> None:
        import asyncpg

        made: list[Any] = []
        try:
            for _ in range(3):
                made.append(await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT))
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            for connection in made:
                with contextlib.suppress(Exception):
                    await connection.close()
            raise StoreUnavailable(f"cannot reach the database: {_one_line(exc)}") from None
        except BaseException:
            for connection in made:
                connection.terminate()
            raise
        self._writer, self._mover, self._reader = made
        self._up.set()

    # ------------------------------------------------------------------ the writer

    async def _write(self, job: Write) -> Any:
        """Run ``job`` in the next batch; its result once committed."""
        if self._closed:
            raise StoreError("the store is closed")
        await self._reachable()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        (self._rows if isinstance(job, _Rows) else self._jobs).put_nowait((job, future))
        return await future

    async def _write_batches(
        self, jobs: asyncio.Queue[tuple[Write, asyncio.Future[Any]] | None], connection: str
    ) -> None:
        """Commit what waits on ``jobs`` on the connection named ``connection``, in batches."""
        while True:
            first = await jobs.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH and not jobs.empty():
                job = jobs.get_nowait()
                if job is None:
                    stop = True
                    break
                batch.append(job)
            await self._commit(batch, connection)
            if stop:
                return

    async def _commit(
        self, batch: list[tuple[Write, asyncio.Future[Any]]], connection: str, again: bool = True
    ) -> None:
        committing = False
        try:
            if not self._up.is_set():
                raise StoreUnavailable("the database is unreachable")
            db = getattr(self, connection)
            jobs = [job for job, _ in batch]
            rows = _same_rows(jobs)
            if rows is not None:
                # Only inserts of one kind (moves, mostly): one ``executemany`` is atomic on
                # its own (one Sync for all its rows), so no BEGIN and COMMIT round trips.
                committing = True
                if rows:
                    await db.executemany(jobs[0].sql, rows)  # type: ignore[union-attr]
                results = [None] * len(jobs)
            else:
                transaction = db.transaction()
                await transaction.start()
                try:
                    results = await _run(db, jobs)
                except BaseException:
                    with contextlib.suppress(Exception):
                        await transaction.rollback()
                    raise
                committing = True
                await transaction.commit()
        except Exception as exc:
            if _unreachable(exc) or isinstance(exc, StoreUnavailable):
                if not isinstance(exc, StoreUnavailable):
                    self._went_away(exc)
                if again and not committing:
                    # Nothing of it was kept (the commit was never sent): the connection broke
                    # while the database restarted, say.  Once more, on a new connection.
                    with contextlib.suppress(StoreUnavailable):
                        await self._reachable()
                    await self._commit(batch, connection, again=False)
                    return
                gone = StoreUnavailable(f"the database went away: {_one_line(exc)}")
                for _, future in batch:
                    _settle(future, gone)
            elif len(batch) == 1:
                _settle(batch[0][1], _store_error(exc))
            else:  # one of them failed: each again on its own, so that one fails alone
                for one in batch:
                    await self._commit([one], connection)
            return
        self.batches += 1
        self.writes += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    def _went_away(self, exc: BaseException) -> None:
        if not self._up.is_set():
            return
        self._up.clear()
        log.warning("the database went away (%s): reconnecting", _one_line(exc))
        self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        for connection in (self._writer, self._mover, self._reader):
            with contextlib.suppress(Exception):
                connection.terminate()
        while not self._closed:
            try:
                await self._connect()
            except StoreUnavailable:
                await asyncio.sleep(RETRY)
                continue
            log.warning("the database is back")
            return

    async def _reachable(self) -> None:
        """Return once connected: at once, or after a new connection is made (a connection
        broke while the database restarted, say); ``StoreUnavailable`` if none comes soon."""
        if self._up.is_set():
            return
        try:
            await asyncio.wait_for(self._up.wait(), RECONNECT_WAIT)
        except TimeoutError:
            raise StoreUnavailable("the database is unreachable") from None

    async def _read(self, query: Callable[[Any], Awaitable[T]]) -> T:
        if self._closed:
            raise StoreError("the store is closed")
        for attempt in (1, 2):
            await self._reachable()
            try:
                async with self._reading:  # one query at a time on a connection
                    return await query(self._reader)
            except Exception as exc:
                if not _unreachable(exc):
                    raise _store_error(exc) from None
                self._went_away(exc)
                if attempt == 2:
                    raise StoreUnavailable(f"the database went away: {_one_line(exc)}") from None
        raise AssertionError("unreachable")

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
            await self._write(_Rows(_MOVES, rows))

    async def add_notice(self, game_id: int, turn: int, body: str) -> None:
        await self._write(_Rows(_NOTICES, [(game_id, turn, body)]))

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
                await _rate(db, game_id, rating, when)

        await self._write(job)

    async def bind_name(self, claim: NameClaim) -> Bound | None:
        async def job(db: Any) -> Bound | None:
            # One bind of a look at a time, across nodes: two names that clash only in
            # capitals ("AIice" and "Alice") must not both be held.
            await db.execute("SELECT pg_advisory_xact_lock(hashtext($1))", claim.capitals)
            rows = await _clashing(db, claim.low, claim.capitals)
            released = [r for r in rows if _released(r, claim.released_before, claim.key_hash)]
            for row in released:
                await db.execute(
                    "DELETE FROM players WHERE name_key = $1 AND games = 0", row["name_key"]
                )
            pairs = [(r["name_key"], r["key_hash"]) for r in rows if r not in released]
            if held_by_another(pairs, claim.low, claim.key_hash):
                return None
            if pairs:
                held = held_under(pairs, claim.low)
                await db.execute(
                    "UPDATE players SET last_seen = $1 WHERE name_key = $2", claim.at, held
                )
                return Bound(held, False)
            done = await db.execute(
                "INSERT INTO players (name_key, name, key_hash, created_at, key_up, key_id, "
                "last_seen) VALUES ($1, $2, $3, $4, $5, $6, $4) ON CONFLICT (name_key) DO NOTHING",
                claim.low,
                claim.name,
                claim.key_hash,
                claim.at,
                claim.capitals,
                key_id(claim.key_hash),
            )
            return Bound(claim.low, True) if done == "INSERT 0 1" else None

        bound: Bound | None = await self._write(job)
        return bound

    async def name_holders(
        self, low: str, capitals: str, released_before: datetime
    ) -> list[tuple[str, str]]:
        async def query(db: Any) -> list[tuple[str, str]]:
            rows = await _clashing(db, low, capitals)
            return [
                (r["name_key"], r["key_hash"]) for r in rows if not _released(r, released_before)
            ]

        return await self._read(query)

    async def verifier(self, key_id: str) -> str | None:
        async def query(db: Any) -> str | None:
            found: str | None = await db.fetchval(
                "SELECT key_hash FROM players WHERE key_id = $1 LIMIT 1", key_id
            )
            return found

        return await self._read(query)

    async def rekey(self, old_hash: str, new_hash: str) -> int:
        async def job(db: Any) -> int:
            done = await db.execute(
                "UPDATE players SET key_hash = $1, key_id = $2 WHERE key_hash = $3",
                new_hash,
                key_id(new_hash),
                old_hash,
            )
            await db.execute(
                "UPDATE seats SET key_hash = $1 WHERE key_hash = $2", new_hash, old_hash
            )
            return int(done.split()[-1])

        return int(await self._write(job))

    async def pair_games(self, first: str, second: str, since: datetime) -> int:
        async def query(db: Any) -> int:
            count: int = await db.fetchval(
                "SELECT count(*) FROM game_ratings AS a "
                "JOIN game_ratings AS b ON b.game_id = a.game_id "
                "JOIN games AS g ON g.id = a.game_id "
                "WHERE a.player = $1 AND b.player = $2 AND g.finished_at >= $3",
                first,
                second,
                since,
            )
            return count

        return int(await self._read(query))

    async def rebuild_name_keys(self, capitals: Callable[[str], str]) -> int:
        async def job(db: Any) -> int:
            rows = await db.fetch("SELECT name_key, name FROM players WHERE key_up IS NULL")
            keys = [(capitals(row["name"]), row["name_key"]) for row in rows]
            if keys:
                await db.executemany("UPDATE players SET key_up = $1 WHERE name_key = $2", keys)
            return len(keys)

        return int(await self._write(job))

    async def players(self, name_keys: Sequence[str]) -> dict[str, StoredPlayer]:
        keys = list(dict.fromkeys(name_keys))

        async def query(db: Any) -> dict[str, StoredPlayer]:
            return await _players(db, keys)

        return await self._read(query) if keys else {}

    async def leaderboard(self, offset: int, limit: int) -> tuple[list[StoredPlayer], int]:
        async def query(db: Any) -> tuple[list[StoredPlayer], int]:
            rows = await db.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE games > 0 "
                "ORDER BY mu - 2 * sigma DESC, games DESC, name_key LIMIT $1 OFFSET $2",
                limit,
                offset,
            )
            total = await db.fetchval("SELECT count(*) FROM players WHERE games > 0")
            return [_player(row) for row in rows], int(total)

        return await self._read(query)

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
                    f"the database {_shown(self.url)} holds tables already: "
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

    async def flush(self) -> None:
        async def nothing(db: Any) -> None:
            pass

        with contextlib.suppress(StoreUnavailable):  # nothing can be under way then
            # Behind everything queued on each connection (an empty insert sends nothing).
            await asyncio.gather(self._write(nothing), self._write(_Rows(_MOVES, [])))

    async def records(self) -> list[str]:
        async def query(db: Any) -> list[str]:
            rows = await db.fetch(
                "SELECT record FROM games WHERE record IS NOT NULL ORDER BY finished_at, id"
            )
            return [row[0] for row in rows]

        return await self._read(query)

    async def close(self) -> None:
        if self._closed:
            return
        if self._tasks:
            self._jobs.put_nowait(None)  # every write queued so far, then stop
            self._rows.put_nowait(None)
            for task in self._tasks:
                with contextlib.suppress(Exception):
                    await task
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        for connection in (self._writer, self._mover, self._reader):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(connection.close(), CONNECT_TIMEOUT)


def _player(row: Any) -> StoredPlayer:
    return StoredPlayer(
        row["name_key"],
        row["name"],
        Rating(float(row["mu"]), float(row["sigma"])),
        int(row["games"]),
        int(row["wins"]),
    )


async def _players(db: Any, keys: Sequence[str], lock: bool = False) -> dict[str, StoredPlayer]:
    rows = await db.fetch(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE name_key = ANY($1::text[])"
        + (" ORDER BY name_key FOR UPDATE" if lock else ""),
        list(keys),
    )
    return {row["name_key"]: _player(row) for row in rows}


async def _clashing(db: Any, low: str, capitals: str) -> list[Any]:
    """Each held name clashing with these keys: its key, holder, games and last use."""
    rows: list[Any] = await db.fetch(
        "SELECT name_key, key_hash, games, last_seen FROM players "
        "WHERE name_key = $1 OR key_up = $2",
        low,
        capitals,
    )
    return rows


def _released(row: Any, released_before: datetime, keeper: str | None = None) -> bool:
    """Whether a held name is free again: no rated game, nobody sat under it since
    ``released_before`` (never a name ``keeper`` holds)."""
    if row["games"] or row["last_seen"] is None:
        return False
    if keeper is not None and hmac.compare_digest(row["key_hash"], keeper):
        return False
    return bool(row["last_seen"] < released_before)


async def _rate(db: Any, game_id: int, rating: GameRating, when: datetime) -> None:
    """Move the game's players' ratings, read and written in the game's own transaction (the
    rows locked: another node finishing a game of theirs waits for this one)."""
    people = [s for s in rating.seats if isinstance(s, str)]
    current = {p.name_key: p.rating for p in (await _players(db, people, lock=True)).values()}
    for move in rating_moves(current, rating):
        await db.execute(
            "UPDATE players SET mu = $1, sigma = $2, games = games + 1, wins = wins + $3, "
            "rated_at = $4 WHERE name_key = $5",
            move.after.mu,
            move.after.sigma,
            int(move.won),
            when,
            move.player,
        )
        await db.execute(
            f"INSERT INTO game_ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            *move.row(game_id),
        )


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


def _same_rows(jobs: list[Write]) -> list[tuple[Any, ...]] | None:
    """Every row of ``jobs`` if they all insert rows with one statement, else None."""
    first = jobs[0]
    if not isinstance(first, _Rows):
        return None
    rows: list[tuple[Any, ...]] = []
    for job in jobs:
        if not isinstance(job, _Rows) or job.sql != first.sql:
            return None
        rows += job.rows
    return rows


async def _run(db: Any, jobs: list[Write]) -> list[Any]:
    """Each job's result, in order; inserts of the same rows next to each other at once."""
    results: list[Any] = []
    rows: list[tuple[Any, ...]] = []
    for n, job in enumerate(jobs):
        if isinstance(job, _Rows):
            rows += job.rows
            follower = jobs[n + 1] if n + 1 < len(jobs) else None
            if not (isinstance(follower, _Rows) and follower.sql == job.sql):
                await db.executemany(job.sql, rows)
                rows = []
            results.append(None)
        else:
            results.append(await job(db))
    return results


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


def _settle(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


def _unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached (rather than refusing a write)."""
    import asyncpg

    return isinstance(
        exc,
        OSError
        | TimeoutError
        | asyncpg.InterfaceError
        | asyncpg.PostgresConnectionError
        | asyncpg.OperatorInterventionError,
    )


def _store_error(exc: BaseException) -> StoreError:
    import asyncpg

    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, asyncpg.UniqueViolationError) and "moves" in str(exc):
        return StoreConflict(f"a move of that number is kept already: {_one_line(exc)}")
    return StoreError(f"the database: {_one_line(exc)}")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _shown(url: str) -> str:
    """The URL without its password, for messages."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{host}" if user else f"{scheme}://{host}"
