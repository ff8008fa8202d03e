"""A PostgreSQL store whose database goes away waits to reconnect on the clock it is handed.

The store reaches PostgreSQL through a relay the test can cut and mend (a
real connection broken, a real connection refused); its clock is a frozen
``ManualClock``, so nothing it waits for happens until the test moves time
on: a store waiting on the system clock instead never sets its waits on
this clock and fails the bounded waits below.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit, urlunsplit

import pytest

from mantis.base.clock import ManualClock
from mantis.store import pg_connections
from mantis.store.tables_interface import StoreUnavailable

#: Generous bound on something the store does at once (a slow machine is slower, never red).
SOON = 30.0


class Relay:
    """A TCP relay on a port of its own to PostgreSQL's, which can be cut (every connection
    through it broken, new ones refused) and mended (on the same port)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    async def mend(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._pipes):
            writer.transport.abort()
        await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        to_reader, to_writer = await asyncio.open_connection(*self.target)
        self._pipes |= {writer, to_writer}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()  # one side gone: the other goes too
            self._pipes.discard(sink)

        await asyncio.gather(pipe(reader, to_writer), pipe(to_reader, writer))


def through(url: str, port: int) -> str:
    """``url`` with its host and port those of the relay."""
    parts = urlsplit(url)
    user = parts.netloc.rpartition("@")[0]
    return urlunsplit(parts._replace(netloc=f"{user}@127.0.0.1:{port}"))


async def test_reconnecting_waits_on_the_clock_it_is_handed(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from mantis.store.tables_pg import PgTableStore

    target = urlsplit(pg_url)
    relay = Relay(target.hostname or "127.0.0.1", target.port or 5432)
    await relay.mend()
    clock = ManualClock(frozen=True)
    caplog.set_level(logging.WARNING, logger="mantis.store")
    store = await PgTableStore.open(through(pg_url, relay.port), clock)
    try:
        assert await store.load("KXQD") is None
        await relay.cut()
        # The read finds its connection broken and waits up to RECONNECT_WAIT, on the clock,
        # for the store to reconnect; the store's first attempt is refused, and the next
        # waits a RETRY on the clock (neither on the event loop's).
        reading = asyncio.ensure_future(store.load("KXQD"))
        await asyncio.wait_for(clock.until_pending(pg_connections.RECONNECT_WAIT, 2), SOON)
        assert clock.pending(pg_connections.RETRY) == 1 and not reading.done()
        # It gives up once the clock says so, however little time the loop saw pass.
        clock.advance(pg_connections.RECONNECT_WAIT)
        with pytest.raises(StoreUnavailable, match="unreachable"):
            await asyncio.wait_for(reading, SOON)
        # The database reachable again: nothing happens until the clock moves on (the store
        # waits out its RETRY), then it is back.
        await relay.mend()
        await asyncio.wait_for(clock.until_pending(pg_connections.RETRY), SOON)
        assert "the database is back" not in caplog.text
        clock.advance(pg_connections.RETRY)
        assert await asyncio.wait_for(store.load("KXQD"), SOON) is None
        assert "the database is back" in caplog.text
    finally:
        await store.close()
        with contextlib.suppress(AssertionError, OSError):
            await relay.cut()
