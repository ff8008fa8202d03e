"""Every limit the server keeps, asked for more than it allows all at once.

A limit checked in one step and counted in another lets requests that come
together all through (each sees the count before the others add to it).
Here every limit of docs/protocol.md ("Limits") and docs/ratings.md is sent
more than it allows *together* (``netkit.at_once``: every connection made
first, then every request written at once) and must hold exactly.  The
numbers are the documented ones, written out: a default that changed fails
here.  Parties are told apart by what a trusted proxy says they are for
(every test connection comes from 127.0.0.1), or by the loopback address
they connect from where a network matters; time is a frozen ``ManualClock``
wherever an allowance refills, so nothing comes back while a test runs.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from netkit import (
    ROOMY,
    WAIT,
    Client,
    at_once,
    create,
    elsewhere,
    heard,
    join,
    outcomes,
    play_my_turns,
    player_id,
    running_server,
    welcome,
)
from test_net_shares import a_board

from mantis.base.clock import ManualClock
from mantis.home.player_keys import new_key
from mantis.net import protocol
from mantis.net.server.limits.addresses import parse_networks
from mantis.net.server.limits.server_limits import ServerLimits
from mantis.net.server.pages import plain_pages
from mantis.net.server.pages.leaderboard_pages import HOLD_MOST

V = protocol.PROTOCOL_VERSION
PROXY = parse_networks(["127.0.0.1"])
EVE = "203.0.113.7"


def limited(**changes: Any) -> ServerLimits:
    return replace(ROOMY, **changes)


def others(n: int) -> list[str]:
    """``n`` parties of their own, as a trusted proxy names them."""
    return [f"198.51.100.{i + 1}" for i in range(n)]


def creates(n: int, name: str = "Eve", keys: list[str | None] | None = None) -> list[Any]:
    keys = keys or [None] * n
    return [
        protocol.Create(V, f"{name}{i}" if name else "", ("human", "open"), player=player_id(k))
        for i, k in enumerate(keys)
    ]


async def closed(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


# ---------------------------------------------------------------------- tables


@pytest.mark.parametrize(
    ("limits", "via", "opened", "refused"),
    [
        # One address asks for fourteen: ten (the default), whatever the server holds.
        (ServerLimits(connections_per_address=100), EVE, 10, protocol.TOO_MANY_TABLES),
        # Nine addresses ask for one each, of a server that holds four.
        (replace(ROOMY, max_tables=4), others(9), 4, protocol.SERVER_FULL),
    ],
    ids=["one address", "the server"],
)
async def test_tables_asked_for_at_once_are_as_many_as_may_be_and_no_more(
    tmp_path: Path, limits: ServerLimits, via: str | list[str], opened: int, refused: str
) -> None:
    asked = 14 if isinstance(via, str) else len(via)
    async with running_server(tmp_path, limits=limits, trusted_proxies=PROXY) as (server, url):
        clients = await at_once(url, creates(asked), via=via)
        assert outcomes(clients) == {"welcome": opened, refused: asked - opened}
        assert len(server.rooms) == opened
        await closed(clients)


async def test_quick_play_asked_at_once_from_one_address_opens_no_more_than_its_tables(
    tmp_path: Path,
) -> None:
    limits = limited(tables_per_address=2)
    async with running_server(tmp_path, limits=limits, trusted_proxies=PROXY) as (server, url):
        asks = [protocol.Quick(V, f"Q{n}", 3) for n in range(12)]
        clients = await at_once(url, asks, via=EVE)
        tables = {welcome(c).code for c in clients if outcomes([c])["welcome"]}
        assert len(tables) <= 2 and len(server.rooms) == len(tables)
        said = outcomes(clients)
        assert said["welcome"] == 3 * len(tables)  # every seat of its tables taken
        assert said["welcome"] + said[protocol.TOO_MANY_TABLES] == 12
        await closed(clients)


async def test_another_game_agreed_at_three_tables_at_once_is_played_at_one(
    tmp_path: Path,
) -> None:
    # One address may have one table waiting or playing: three finished tables, whose
    # people all say "again" together, get one game between them.
    limits = limited(tables_per_address=1)
    async with running_server(tmp_path, limits=limits, trusted_proxies=PROXY) as (server, url):
        hosts = []
        for n in range(3):
            host = await create(url, ("human", "greedy"), f"Ann{n}", via=EVE)
            await host.send(protocol.Start())
            await play_my_turns(host, 0)
            hosts.append(host)
        marks = [len(host.heard) for host in hosts]
        await asyncio.gather(*(host.send(protocol.Again()) for host in hosts))

        def answered(host: Client, mark: int) -> bool:
            later = host.heard[mark:]
            return any(isinstance(m, protocol.Error) for m in later) or any(
                isinstance(m, protocol.RoomState) and m.state == "playing" for m in later
            )

        for host, mark in zip(hosts, marks, strict=True):
            await host.until(lambda h=host, m=mark: answered(h, m), "an answer to again")
        rooms = [server.rooms[welcome(host).code] for host in hosts]
        assert sorted(room.phase_name.value for room in rooms) == ["over", "over", "playing"]
        refused = [heard(h, protocol.Error, m) for h, m in zip(hosts, marks, strict=True)]
        assert sorted(e[0].code for e in refused if e) == [protocol.TOO_MANY_TABLES] * 2
        await closed(hosts)


# ---------------------------------------------------------------------- connections


async def test_connections_at_once_from_one_address_are_thirty_two_and_no_more(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, limits=ServerLimits(), trusted_proxies=PROXY) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", via="192.0.2.1")
        watch = protocol.Watch(V, welcome(ann).code)
        clients = await at_once(url, [watch] * 36, via=EVE)
        assert outcomes(clients) == {"welcome": 32, protocol.TOO_MANY_CONNECTIONS: 4}
        await closed([ann, *clients])


async def test_connections_at_once_fill_the_server_and_no_more(tmp_path: Path) -> None:
    async with running_server(
        tmp_path, limits=limited(max_connections=5), trusted_proxies=PROXY
    ) as (server, url):
        ann = await create(url, ("human", "open"), "Ann", via="192.0.2.1")
        watch = protocol.Watch(V, welcome(ann).code)
        clients = await at_once(url, [watch] * 9, via=others(9))
        assert outcomes(clients) == {"welcome": 4, protocol.SERVER_FULL: 5}
        assert len(server.connections) == 5
        await closed([ann, *clients])


async def test_spectators_at_once_at_one_table_are_as_many_as_it_takes(tmp_path: Path) -> None:
    limits = limited(spectators_per_table=3)
    async with running_server(tmp_path, limits=limits, trusted_proxies=PROXY) as (server, url):
        ann = await create(url, ("human", "open"), "Ann", via="192.0.2.1")
        code = welcome(ann).code
        clients = await at_once(url, [protocol.Watch(V, code)] * 8, via=others(8))
        assert outcomes(clients) == {"welcome": 3, protocol.TOO_MANY_SPECTATORS: 5}
        assert len(server.rooms[code].spectators) == 3
        await closed([ann, *clients])


# ---------------------------------------------------------------------- guesses


async def test_wrong_codes_at_once_from_one_address_are_five_and_then_it_waits(
    tmp_path: Path,
) -> None:
    async with running_server(
        tmp_path, limits=ServerLimits(), trusted_proxies=PROXY, clock=ManualClock(frozen=True)
    ) as (_, url):
        guesses = [protocol.Watch(V, f"ZZ{a}{b}") for a in "BCD" for b in "FGH"]
        clients = await at_once(url, guesses[:8], via=EVE)
        assert outcomes(clients) == {protocol.UNKNOWN_CODE: 5, protocol.TOO_MANY_GUESSES: 3}
        await closed(clients)


# ---------------------------------------------------------------------- names


async def test_new_names_asked_at_once_by_one_key_are_three_a_day(tmp_path: Path) -> None:
    key = new_key()
    limits = ServerLimits(tables_per_address=100, connections_per_address=100)
    async with running_server(tmp_path, limits=limits) as (server, url):
        clients = await at_once(url, creates(8, "Tess", [key] * 8), key=key)
        assert outcomes(clients) == {"welcome": 3, protocol.TOO_MANY_NAMES: 5}
        held = [c for c in clients if outcomes([c])["welcome"]]
        # The names refused were never held: someone else takes them at once.
        names = {f"Tess{n}" for n in range(8)} - {welcome(c).room.seats[0].name for c in held}
        for name in sorted(names):
            other = await create(url, ("human", "open"), name, key=new_key())
            assert welcome(other).room.seats[0].name == name
            await other.close()
        assert len(server.rooms) == 3 + len(names)
        await closed(clients)


async def test_new_names_asked_at_once_from_one_address_are_ten_a_day(tmp_path: Path) -> None:
    keys: list[str | None] = [new_key() for _ in range(13)]
    limits = ServerLimits(tables_per_address=100, connections_per_address=100)
    async with running_server(tmp_path, limits=limits, trusted_proxies=PROXY) as (_, url):
        clients = await at_once(url, creates(13, "Nia", keys), key=keys, via=EVE)
        assert outcomes(clients) == {"welcome": 10, protocol.TOO_MANY_NAMES: 3}
        await closed(clients)


# ---------------------------------------------------------------------- talk


async def say_at_once(clients: list[Client]) -> list[bool]:
    """Each client says a line of its own, all together; whether each was said (its
    sayer hears it) or refused (``slow_down``)."""
    lines = [f"line {n}" for n in range(len(clients))]
    await asyncio.gather(*(c.send(protocol.Say(t)) for c, t in zip(clients, lines, strict=True)))

    def fate(client: Client, line: str) -> str | None:
        if any(isinstance(m, protocol.Said) and m.text == line for m in client.heard):
            return "said"
        refused = [e.code for e in heard(client, protocol.Error)]
        assert refused in ([], [protocol.SLOW_DOWN]), refused
        return "refused" if refused else None

    fates = [
        await c.until(lambda c=c, t=t: fate(c, t), "its line said or refused")
        for c, t in zip(clients, lines, strict=True)
    ]
    return [f == "said" for f in fates]


async def test_lines_at_once_on_one_connection_are_five_then_one_every_two_seconds(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True)) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        await asyncio.gather(*(ann.send(protocol.Say(f"line {n}")) for n in range(9)))
        await ann.until(
            lambda: len(heard(ann, protocol.Said)) + len(heard(ann, protocol.Error)) >= 9,
            "every line said or refused",
        )
        assert len(heard(ann, protocol.Said)) == 5
        assert {e.code for e in heard(ann, protocol.Error)} == {protocol.SLOW_DOWN}
        await ann.close()


async def test_lines_at_once_from_one_address_are_ten_whatever_its_connections(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True), trusted_proxies=PROXY) as (
        _,
        url,
    ):
        tables = [await create(url, ("human", "open"), f"H{n}", via=f"192.0.2.{n}") for n in (1, 2)]
        codes = [welcome(t).code for t in tables]
        # Eve's fourteen spectators, seven at each table (a table's channel takes ten).
        watch = [protocol.Watch(V, codes[n % 2], f"E{n}") for n in range(14)]
        eve = await at_once(url, watch, via=EVE)
        assert sum(await say_at_once(eve)) == 10
        await closed([*tables, *eve])


async def test_lines_at_once_on_one_table_are_ten_whoever_says_them(tmp_path: Path) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True), trusted_proxies=PROXY) as (
        _,
        url,
    ):
        ann = await create(url, ("human", "open"), "Ann", via="192.0.2.1")
        code = welcome(ann).code
        watch = [protocol.Watch(V, code, f"F{n}") for n in range(14)]
        crowd = await at_once(url, watch, via=others(14))
        assert sum(await say_at_once(crowd)) == 10
        listener = crowd[0]  # everyone on the channel heard those ten, and no more
        await listener.until(lambda: len(heard(listener, protocol.Said)) >= 10, "ten lines")
        assert len(heard(listener, protocol.Said)) == 10
        await closed([ann, *crowd])


# ---------------------------------------------------------------------- a connection's own


async def test_messages_at_once_on_one_connection_are_thirty_then_ten_a_second(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True)) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        await asyncio.gather(*(ann.send(protocol.ImBack()) for _ in range(40)))
        # Each one read is answered (nobody is away while waiting); the ten past the
        # burst are dropped unread, the first of a run told so.
        await ann.until(lambda: len(heard(ann, protocol.Error)) >= 31, "every answer")
        codes = [e.code for e in heard(ann, protocol.Error)]
        assert codes.count(protocol.NOT_NOW) == 30 and codes.count(protocol.SLOW_DOWN) == 1
        await ann.close()


async def test_pings_at_once_are_answered_three_then_one_every_five_seconds(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, clock=ManualClock(frozen=True)) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        await asyncio.gather(*(ann.send(protocol.Ping(n)) for n in range(6)))
        await ann.until(
            lambda: len(heard(ann, protocol.Pong)) + len(heard(ann, protocol.Error)) >= 6,
            "every ping answered",
        )
        assert [p.id for p in heard(ann, protocol.Pong)] == [0, 1, 2]
        assert [e.code for e in heard(ann, protocol.Error)] == [protocol.SLOW_DOWN] * 3
        await ann.close()


# ---------------------------------------------------------------------- plain pages


async def pages_at_once(url: str, paths: list[str], sources: list[str]) -> list[int]:
    """Each ``GET`` of ``paths`` (from its source address) written together; their
    statuses, in order."""
    host, port = "127.0.0.1", int(url.rsplit(":", 1)[1])
    streams = await asyncio.gather(
        *(asyncio.open_connection(host, port, local_addr=(source, 0)) for source in sources)
    )
    for (_, writer), path in zip(streams, paths, strict=True):
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    await asyncio.gather(*(writer.drain() for _, writer in streams))

    async def status(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> int:
        line = await reader.readline()
        await reader.read()
        writer.close()
        return int(line.split()[1])

    return list(await asyncio.gather(*(status(r, w) for r, w in streams)))


async def test_pages_asked_at_once_from_one_address_are_twenty(tmp_path: Path) -> None:
    clock = ManualClock(frozen=True)
    async with running_server(tmp_path, clock=clock) as (_, url):
        asked = asyncio.ensure_future(pages_at_once(url, ["/tables"] * 24, ["127.0.0.1"] * 24))
        # The four past the allowance are answered once their wait is over.
        await asyncio.wait_for(clock.until_pending(plain_pages.PAGE_HOLD_MOST, 4), WAIT)
        clock.advance(plain_pages.PAGE_HOLD_MOST)
        statuses = await asyncio.wait_for(asked, WAIT)
        assert sorted(statuses) == [200] * 20 + [429] * 4


async def test_leaderboard_pages_read_at_once_are_eight_however_many_ask(tmp_path: Path) -> None:
    a_board(tmp_path)  # (twenty pages)
    clock = ManualClock(frozen=True)
    async with running_server(tmp_path, clock=clock) as (_, url):
        await pages_at_once(url, ["/leaderboard"], [elsewhere(20)])  # (the count, read)
        paths = [f"/leaderboard?page={n}" for n in range(2, 14)]  # twelve pages not held
        asked = asyncio.ensure_future(
            pages_at_once(url, paths, [elsewhere(n) for n in range(1, 13)])
        )
        await asyncio.wait_for(clock.until_pending(HOLD_MOST, 5), WAIT)
        clock.advance(HOLD_MOST)
        statuses = await asyncio.wait_for(asked, WAIT)
        # Eight reads at once (one of them was the first page's), then four a second.
        assert sorted(statuses) == [200] * 7 + [503] * 5


# ---------------------------------------------------------------------- rated games


async def test_rated_tables_started_at_once_by_one_pair_count_three(tmp_path: Path) -> None:
    # Two keys on two networks start six rated tables together: three count (a day's),
    # the others are played unrated, said so as they start.
    ann_key, bea_key = new_key(), new_key()
    async with running_server(tmp_path) as (server, url):
        pairs = []
        for _ in range(6):
            ann = await create(
                url, ("human", "open"), "Ann", key=ann_key, rated=True, source=elsewhere(1)
            )
            bea = await join(url, welcome(ann).code, "Bea", key=bea_key, source=elsewhere(2))
            pairs.append((ann, bea))
        await asyncio.gather(*(ann.send(protocol.Start()) for ann, _ in pairs))
        await asyncio.gather(*(play_my_turns(c, s) for pair in pairs for s, c in enumerate(pair)))
        players = await server.store.players(["ann", "bea"])
        assert (players["ann"].games, players["bea"].games) == (3, 3)
        await closed([c for pair in pairs for c in pair])
