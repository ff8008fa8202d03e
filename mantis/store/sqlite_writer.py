"""One thread that writes to the server's SQLite file, committing many callers' writes at once.

A server keeps every move before it tells anyone, so writes sit on the path
of every move.  Each caller awaits its write; the writer thread takes every
write waiting at that moment, runs them in one transaction (each inside a
savepoint, so one failing write fails alone) and commits once, syncing the
disk once for all of them.  Only then are the callers told, so a caller that
hears "done" can count on the write being on disk.

Reads that may take long (a leaderboard page deep in a big board) go to a
``Reader``: a thread and a connection of their own, so they never hold up a
move's commit, nor wait for one.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: Writes committed together at most (a bound on how long one commit takes).
MAX_BATCH = 500


class Transactional(Protocol):
    def begin(self) -> None: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def savepoint(self, name: str) -> None: ...
    def release(self, name: str) -> None: ...
    def rollback_to(self, name: str) -> None: ...


class _JobThread:
    """A thread of its own with a connection of its own, taking ``job(db)`` calls in order
    and settling each caller's future on the caller's loop."""

    def __init__(self, db: Any, name: str) -> None:
        self.db = db
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    async def _submit(self, job: Callable[[Any], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((job, loop, future))
        return await future

    def close(self) -> None:
        """Finish every job queued so far, then stop the thread."""
        self._jobs.put(None)
        self._thread.join()

    def _run(self) -> None:
        raise NotImplementedError


class Writer(_JobThread):
    """Runs ``write(db)`` calls in its own thread, in batches, one commit per batch."""

    def __init__(self, db: Transactional) -> None:
        super().__init__(db, "db-writer")
        self.batches = 0
        """Commits so far (for benchmarks: writes per commit = writes / batches)."""
        self.writes = 0
        self._thread.start()

    async def write(self, job: Callable[[Any], T]) -> T:
        """Run ``job(db)`` in the writer thread; its result once committed."""
        return await self._submit(job)

    def _run(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                batch.append(job)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[Any]) -> None:
        db = self.db
        outcomes: list[tuple[bool, Any]] = []
        try:
            db.begin()
            for job, _, _ in batch:
                db.savepoint("job")
                try:
                    result = job(db)
                except Exception as exc:  # this write fails alone
                    db.rollback_to("job")
                    outcomes.append((False, exc))
                else:
                    db.release("job")
                    outcomes.append((True, result))
            db.commit()
        except Exception as exc:  # the commit itself failed: every write in it did
            with contextlib.suppress(Exception):
                db.rollback()
            outcomes = [(False, exc)] * len(batch)
        self.batches += 1
        self.writes += len(batch)
        for (_, loop, future), (ok, value) in zip(batch, outcomes, strict=True):
            with contextlib.suppress(RuntimeError):  # that caller's loop is gone
                loop.call_soon_threadsafe(_settle, future, ok, value)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class Reader(_JobThread):
    """Runs ``read(db)`` calls in a thread of its own, one at a time, on a connection of its
    own: a read never waits behind the writer's batch (SQLite's WAL lets it see the last
    commit meanwhile), and the writer never waits behind a long read."""

    def __init__(self, db: Any, name: str = "db-reader") -> None:
        super().__init__(db, name)
        self._thread.start()

    async def read(self, job: Callable[[Any], T]) -> T:
        """Run ``job(db)`` in the reader thread; its result."""
        return await self._submit(job)

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, loop, future = item
            try:
                outcome: tuple[bool, Any] = (True, job(self.db))
            except Exception as exc:
                outcome = (False, exc)
            with contextlib.suppress(RuntimeError):  # that caller's loop is gone
                loop.call_soon_threadsafe(_settle, future, *outcome)
