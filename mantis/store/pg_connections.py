"""Three connections to one PostgreSQL database: writes committed in batches, reads beside.

Writes go through one connection and one task that commits every write
waiting at that moment in one transaction (one round trip for the commit and
one disk sync for all of them, as the SQLite writer does); if a batch fails,
each of its writes is tried again alone, so one bad write fails alone.  Rows
inserted with one statement (moves, notices) go through a connection of
their own, a whole batch in one ``executemany``.  Reads run on a third
connection, never behind a batch.

When the database cannot be reached, every call raises ``StoreUnavailable``
at once, and the connections are made again by themselves (a new attempt at
most every ``RETRY`` seconds) — so a server can tell its clients it is busy
and carry on once the database is back, with nothing published unstored.
Those waits (between attempts, for a connection to come back, for one to
close) are on the ``Clock`` it is handed; a connection attempt's own bound
is the driver's (``timeout``).

Driver: ``asyncpg`` (``pip install '.[cluster]'``), chosen over psycopg 3 by
measuring a move's commit in this pattern (``benchmarks/store.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..base.clock import SYSTEM_CLOCK, Clock, within
from .tables_interface import StoreConflict, StoreError, StoreUnavailable

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

Job = Callable[[Any], Awaitable[Any]]
"""A write: given the connection, inside a transaction."""


@dataclass(frozen=True, slots=True)
class Rows:
    """A write that only inserts rows: those of jobs next to each other in a batch go in
    one statement (one round trip for a whole batch of moves, not one per move)."""

    sql: str
    rows: list[tuple[Any, ...]]


Write = Job | Rows


class PgConnections:
    """The connections a PostgreSQL store writes and reads on; ``_write`` and ``_read`` run
    a query (a function of a connection) in the next batch, or beside the batches."""

    def __init__(self, url: str, clock: Clock = SYSTEM_CLOCK) -> None:
        """The connections to the database at ``url`` (made by ``_connect``); ``clock``: what
        the waits between attempts to reconnect and the bounds on waiting for a connection
        run on."""
        self.url = url
        self.clock = clock
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
            raise StoreUnavailable(f"cannot reach the database: {one_line(exc)}") from None
        except BaseException:
            for connection in made:
                connection.terminate()
            raise
        self._writer, self._mover, self._reader = made
        self._up.set()

    async def _write(self, job: Write) -> Any:
        """Run ``job`` in the next batch; its result once committed."""
        if self._closed:
            raise StoreError("the store is closed")
        await self._reachable()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        (self._rows if isinstance(job, Rows) else self._jobs).put_nowait((job, future))
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
                gone = StoreUnavailable(f"the database went away: {one_line(exc)}")
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
        log.warning("the database went away (%s): reconnecting", one_line(exc))
        self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        for connection in (self._writer, self._mover, self._reader):
            with contextlib.suppress(Exception):
                connection.terminate()
        while not self._closed:
            try:
                await self._connect()
            except StoreUnavailable:
                await self.clock.sleep(RETRY)
                continue
            log.warning("the database is back")
            return

    async def _reachable(self) -> None:
        """Return once connected: at once, or after a new connection is made (a connection
        broke while the database restarted, say); ``StoreUnavailable`` if none comes soon."""
        if self._up.is_set():
            return
        try:
            await within(self.clock, RECONNECT_WAIT, self._up.wait())
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
                    raise StoreUnavailable(f"the database went away: {one_line(exc)}") from None
        raise AssertionError("unreachable")

    def _start_writing(self) -> None:
        """Start committing writes (once the schema is there)."""
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._write_batches(self._jobs, "_writer")),
            loop.create_task(self._write_batches(self._rows, "_mover")),
        ]

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
                    await within(self.clock, CONNECT_TIMEOUT, connection.close())


def _same_rows(jobs: list[Write]) -> list[tuple[Any, ...]] | None:
    """Every row of ``jobs`` if they all insert rows with one statement, else None."""
    first = jobs[0]
    if not isinstance(first, Rows):
        return None
    rows: list[tuple[Any, ...]] = []
    for job in jobs:
        if not isinstance(job, Rows) or job.sql != first.sql:
            return None
        rows += job.rows
    return rows


async def _run(db: Any, jobs: list[Write]) -> list[Any]:
    """Each job's result, in order; inserts of the same rows next to each other at once."""
    results: list[Any] = []
    rows: list[tuple[Any, ...]] = []
    for n, job in enumerate(jobs):
        if isinstance(job, Rows):
            rows += job.rows
            follower = jobs[n + 1] if n + 1 < len(jobs) else None
            if not (isinstance(follower, Rows) and follower.sql == job.sql):
                await db.executemany(job.sql, rows)
                rows = []
            results.append(None)
        else:
            results.append(await job(db))
    return results


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
        return StoreConflict(f"a move of that number is kept already: {one_line(exc)}")
    return StoreError(f"the database: {one_line(exc)}")


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def shown(url: str) -> str:
    """The URL without its password, for messages."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{host}" if user else f"{scheme}://{host}"
