"""The leaderboard and talk within their share; what an operator keeps to themselves.

A security review's smaller findings, each against a real server on
loopback: leaderboard pages that cost a query past the end or wait behind
moves, plain pages asked for without limit, talk limited per connection
only, marks stacked on a letter and blank cells in talk, a keyless person
spoiling a rated table, a host unable to take back a seat, ``/metrics`` on
the players' port.  Time is a frozen ``ManualClock`` where allowances are
counted (nothing refills while the test runs).
"""

from __future__ import annotations

import asyncio
import http.client
import sqlite3
import threading
import unicodedata
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from netkit import (
    WAIT,
    create,
    elsewhere,
    heard,
    join,
    running_server,
    watch,
    welcome,
)
from test_net_ratings import rated_pair, season

from mantis.base.clock import ManualClock
from mantis.net import protocol
from mantis.net.server.limits.talk_limits import ADDRESS_TALK_BURST, TABLE_TALK_BURST
from mantis.net.server.pages.leaderboard_pages import LEADERBOARD_PAGE, READS_BURST
from mantis.net.server.pages.metrics_listener import MetricsListener
from mantis.net.server.pages.plain_pages import HTTP_BURST, PAGE_HOLD_MOST
from mantis.store.tables_sqlite import DB_NAME
from mantis.store.tables_sqlite_db import TablesDB


def get(url: str, path: str, source: str = "127.0.0.1", port: int | None = None):
    """(status, headers, body) of a plain ``GET`` from ``source``."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname, port or parts.port, timeout=WAIT, source_address=(source, 0)
    )
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


async def aget(*args, **kwargs):
    return await asyncio.to_thread(get, *args, **kwargs)


# ---------------------------------------------------------------------- 7. the leaderboard


async def test_a_page_past_the_end_is_refused_without_a_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = await season(tmp_path, None)  # (two players on the board: one page)
    async with running_server(tmp_path, clock=ManualClock(frozen=True)) as (server, url):
        asked: list[tuple[int, int]] = []
        read = server.store.leaderboard

        async def counted(offset: int, limit: int):
            asked.append((offset, limit))
            return await read(offset, limit)

        monkeypatch.setattr(server.store, "leaderboard", counted)
        status, headers, _ = await aget(url, "/leaderboard?page=1")
        assert status == 200 and headers["X-Total-Count"] == "2"
        queries = len(asked)
        for page in (2, 500, 99_999_999):
            status, headers, body = await aget(url, f"/leaderboard?page={page}")
            assert status == 404 and b"1 page" in body and headers["X-Total-Count"] == "2"
        assert len(asked) == queries  # answered from what is known: no query
        assert keys


async def held_back(clock: ManualClock, asked: asyncio.Future):
    """The answer to a request the server holds back until its wait is over (on ``clock``)."""
    await asyncio.wait_for(clock.until_pending(PAGE_HOLD_MOST), WAIT)  # (held now)
    assert not asked.done()
    clock.advance(PAGE_HOLD_MOST)
    return await asyncio.wait_for(asked, WAIT)


def a_board(data: Path, pages: int = 20) -> None:
    """A server's store (in ``data``) whose leaderboard has ``pages`` pages."""
    TablesDB(data / DB_NAME).close()
    with sqlite3.connect(data / DB_NAME) as db:
        db.executemany(
            "INSERT INTO players (name_key, name, key_hash, games, created_at) "
            "VALUES (?, ?, 'k', 1, '2026-01-01T00:00:00+00:00')",
            [(f"p{n}", f"P{n}") for n in range(pages * LEADERBOARD_PAGE)],
        )


async def test_pages_read_from_the_store_are_few_a_second_however_many_ask(
    tmp_path: Path,
) -> None:
    a_board(tmp_path)
    clock = ManualClock(frozen=True)
    async with running_server(tmp_path, clock=clock) as (_, url):
        pages = [
            (await aget(url, f"/leaderboard?page={n}", source=elsewhere(n)))[0]
            for n in range(1, int(READS_BURST) + 1)
        ]
        assert pages == [200] * int(READS_BURST)  # (each from an address of its own)
        again = await aget(url, "/leaderboard?page=1", source=elsewhere(30))
        assert again[0] == 200  # a page held is served whatever the reads
        asked = asyncio.ensure_future(aget(url, "/leaderboard?page=19", source=elsewhere(31)))
        status, headers, body = await held_back(clock, asked)
        assert status == 503 and b"busy" in body and int(headers["Retry-After"]) >= 1


async def test_a_leaderboard_page_does_not_wait_behind_the_moves_being_kept(
    tmp_path: Path,
) -> None:
    await season(tmp_path, None)
    async with running_server(tmp_path) as (server, url):
        # The writer (every move's commit) is held up: a page is read all the same.
        gate = threading.Event()
        held = asyncio.ensure_future(server.store.writer.write(lambda db: gate.wait(WAIT)))
        try:
            status, _, body = await asyncio.wait_for(aget(url, "/leaderboard"), WAIT / 4)
            assert status == 200 and b'"Ann"' in body
        finally:
            gate.set()
            await held


async def test_plain_pages_are_limited_per_address(tmp_path: Path) -> None:
    clock = ManualClock(frozen=True)  # (no allowance refills by itself meanwhile)
    async with running_server(tmp_path, clock=clock) as (_, url):
        statuses = [(await aget(url, "/leaderboard"))[0] for _ in range(int(HTTP_BURST))]
        assert statuses == [200] * int(HTTP_BURST)
        assert (await aget(url, "/status"))[0] == 200  # (a health check is never refused)
        # Past its allowance, the answer waits out the wait (asking at once costs the
        # asker, not the server), then says how long to wait; /tables shares it.
        status, headers, _ = await held_back(clock, asyncio.ensure_future(aget(url, "/tables")))
        assert status == 429 and int(headers["Retry-After"]) >= 1
        # Another address has its own.
        assert (await aget(url, "/leaderboard", source=elsewhere(2)))[0] == 200


# ---------------------------------------------------------------------- 8. talk


async def test_talk_is_limited_per_address_across_connections_and_tables(tmp_path: Path) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True)) as (_, url):
        tables = [await create(url, ("human", "open"), name) for name in ("Ann", "Bea")]
        listeners = [await watch(url, welcome(t).code, "Ear", elsewhere(9)) for t in tables]
        # Two dozen spectator connections from one address, on two tables, five lines each.
        talkers = [await watch(url, welcome(tables[n % 2]).code, f"Spam {n}") for n in range(24)]
        for n, talker in enumerate(talkers):
            for k in range(5):
                await talker.send(protocol.Say(f"line {n}.{k}"))
        for talker in talkers:
            await talker.until(
                lambda t=talker: (
                    sum(1 for _ in heard(t, protocol.Said))
                    + sum(1 for e in heard(t, protocol.Error) if e.code == protocol.SLOW_DOWN)
                    >= 5
                ),
                "its five lines answered",
            )

        def lines() -> set[str]:
            return {m.text for listener in listeners for m in heard(listener, protocol.Said)}

        await listeners[0].until(lambda: len(lines()) >= ADDRESS_TALK_BURST, "the lines said")
        assert len(lines()) == ADDRESS_TALK_BURST  # not 120
        for client in (*tables, *listeners, *talkers):
            await client.close()


async def test_talk_is_limited_per_table_whoever_talks(tmp_path: Path) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True)) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        code = welcome(ann).code
        ear = await watch(url, code, "Ear")
        crowd = [await watch(url, code, f"Fan {n}", elsewhere(n)) for n in range(1, 16)]
        for n, fan in enumerate(crowd):
            for k in range(2):
                await fan.send(protocol.Say(f"fan {n}: {k}"))
        for fan in crowd:
            await fan.until(
                lambda f=fan: (
                    len([m for m in heard(f, protocol.Said) if m.seat is None])
                    + len(heard(f, protocol.Error))
                    >= 2
                ),
                "its lines answered",
            )
        await ear.until(lambda: len(heard(ear, protocol.Said)) >= TABLE_TALK_BURST, "lines")
        assert len(heard(ear, protocol.Said)) == TABLE_TALK_BURST  # not 30
        for client in (ann, ear, *crowd):
            await client.close()


async def test_stacked_marks_and_blank_cells_never_reach_the_table(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        bea = await join(url, welcome(ann).code, "Bea")
        await ann.send(protocol.Say("o" + "\u0301" * 180 + "k \u2800\u2800\u2800 gg"))
        await ann.send(protocol.Say("\u2800" * 20))  # a line that would look empty
        line = await bea.next(protocol.Said)
        marks = [c for c in line.text if unicodedata.category(c) == "Mn"]
        assert len(marks) <= 3 and "\u2800" not in line.text and line.text.endswith("gg")
        error = await ann.error()
        assert error.code == protocol.BAD_MESSAGE
        for client in (ann, bea):
            await client.close()


# ---------------------------------------------------------------------- 8. seats at a table


async def test_a_person_without_a_key_neither_spoils_a_rated_table_nor_counts(
    tmp_path: Path,
) -> None:
    keys = await season(tmp_path, None)
    async with running_server(tmp_path) as (_, url):
        ann, bea = await rated_pair(url, ("human", "open", "open"), keys)
        old = await join(url, welcome(ann).code, "Old", source=elsewhere(7))  # no key
        assert welcome(old).seat == 2
        seated = await ann.until(
            lambda: next(
                (
                    n
                    for n, m in enumerate(ann.heard)
                    if isinstance(m, protocol.RoomState) and all(s.taken for s in m.seats)
                ),
                None,
            ),
            "Old seated",
        )
        told = await ann.next(protocol.Ratings, seated)
        await ann.send(protocol.Start())  # (judged as it starts, with Old at the table)
        await ann.until(lambda: ann.stream, "the game")
        assert all(r.counts for r in heard(ann, protocol.Ratings, seated))
        assert told.counts and told.why is None and told.seats[2] is None
        for client in (ann, bea, old):
            await client.close()


async def test_the_host_may_take_back_a_seat_a_person_is_at(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open", "open"), "Ann")
        bea = await join(url, welcome(ann).code, "Bea")
        await ann.send(protocol.RemoveSeat(1))
        room = await bea.until(
            lambda: next((r for r in heard(bea, protocol.RoomState) if len(r.seats) == 2), None),
            "the seats without hers",
        )
        assert room.you is None and [s.name for s in room.seats] == ["Ann", ""]
        await bea.send(protocol.Leave())  # (a spectator now: she holds no seat to leave)
        assert (await bea.error()).code == protocol.NOT_YOUR_TURN
        for client in (ann, bea):
            await client.close()


# ---------------------------------------------------------------------- 7. metrics


async def test_metrics_are_served_only_where_the_operator_says(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (server, url):
        status, _, _ = await aget(url, "/metrics")
        assert status == 404  # never on the players' port
        listener = MetricsListener(server.metrics.text)
        port = await listener.start("127.0.0.1", 0)
        try:
            status, headers, body = await aget(url, "/metrics", port=port)
            assert status == 200 and headers["Content-Type"].startswith("text/plain")
            assert b"mantis_connections" in body
            assert (await aget(url, "/status", port=port))[0] == 404
        finally:
            await listener.close()
