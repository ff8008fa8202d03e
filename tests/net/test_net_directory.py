"""The directory: one set of tests every ``Directory`` passes (in this process, and Redis).

``directories`` gives two handles on one fresh directory of each kind: for
Redis, two nodes' own clients, so what one does the other sees at once.
"""

from __future__ import annotations

import asyncio

import pytest

from mantis.base.clock import ManualClock
from mantis.net.server.directory import LocalDirectory


@pytest.fixture(params=["local", "redis"])
async def directories(request):
    """Two handles on one directory (two nodes' views of it, for Redis)."""
    if request.param == "local":
        one = LocalDirectory(ManualClock())
        yield one, one
        return
    import redis.asyncio as aioredis

    from mantis.net.server.redis_directory import RedisDirectory

    url = request.getfixturevalue("redis_server").url.replace("/0", "/3")
    clients = [aioredis.Redis.from_url(url) for _ in range(2)]
    await clients[0].flushdb()
    yield RedisDirectory(clients[0]), RedisDirectory(clients[1])
    for client in clients:
        await client.aclose()


async def test_a_code_is_taken_once_however_many_ask_at_once(directories) -> None:
    one, two = directories
    asks = [one.reserve_code("BDFH") if n % 2 else two.reserve_code("BDFH") for n in range(10)]
    assert sorted(await asyncio.gather(*asks)) == [False] * 9 + [True]
    await one.release_code("BDFH")
    assert await two.reserve_code("BDFH")


async def test_each_nodes_public_tables_are_listed_by_any_node(directories) -> None:
    one, two = directories
    assert not await one.share_listing("alpha", {"BBBB": {"code": "BBBB"}}, (), whole=True)
    entries = {"DDDD": {"code": "DDDD"}, "FFFF": {"code": "FFFF"}}
    await two.share_listing("beta", entries, (), whole=True)
    assert sorted(t["code"] for t in await two.listing()) == ["BBBB", "DDDD", "FFFF"]
    assert [t["code"] for t in await two.listing(but="beta")] == ["BBBB"]
    assert await one.share_listing("alpha", {}, ["BBBB"], whole=False)
    assert [t["code"] for t in await one.listing(but="beta")] == []


async def test_a_share_changes_only_the_tables_it_names(directories) -> None:
    one, two = directories
    first = {"BBBB": {"code": "BBBB", "moves": 0}, "DDDD": {"code": "DDDD", "moves": 0}}
    await one.share_listing("alpha", first, (), whole=True)
    # A move at one table, another opened, one gone: the rest stays as it was.
    changed = {"BBBB": {"code": "BBBB", "moves": 1}, "FFFF": {"code": "FFFF", "moves": 0}}
    assert await two.share_listing("alpha", changed, ["DDDD"], whole=False)
    assert sorted((t["code"], t["moves"]) for t in await one.listing()) == [
        ("BBBB", 1),
        ("FFFF", 0),
    ]
    # A whole share drops whatever it does not name.
    await one.share_listing("alpha", {"HHHH": {"code": "HHHH", "moves": 3}}, (), whole=True)
    assert [(t["code"], t["moves"]) for t in await two.listing()] == [("HHHH", 3)]


async def test_a_list_that_expired_is_said_to_be_gone(redis_server) -> None:
    """A node stalled past the list's expiry (or a Redis that forgot it) hears that its
    list is gone, so that it shares it whole again."""
    import redis.asyncio as aioredis

    from mantis.net.server.redis_directory import LISTING, PREFIX, RedisDirectory

    client = aioredis.Redis.from_url(redis_server.url.replace("/0", "/3"))
    try:
        await client.flushdb()
        directory = RedisDirectory(client)
        await directory.share_listing("alpha", {"BBBB": {"code": "BBBB"}}, (), whole=True)
        assert await directory.share_listing("alpha", {}, (), whole=False)
        await client.delete(f"{PREFIX}{LISTING}:alpha")  # as its expiry would
        changed = {"DDDD": {"code": "DDDD"}}
        assert not await directory.share_listing("alpha", changed, (), whole=False)
        assert [t["code"] for t in await directory.listing()] == ["DDDD"]
        # A node of earlier code, mid-upgrade, keeps its whole list in a string: not read.
        await client.set(f"{PREFIX}listing:beta", b'[{"code": "FFFF"}]')
        assert [t["code"] for t in await directory.listing()] == ["DDDD"]
    finally:
        await client.aclose()


async def test_hits_are_counted_within_their_window_by_every_node(directories) -> None:
    one, two = directories
    for n in range(3):
        await (one if n % 2 else two).take_hit("guess:10.0.0.1", 60, 10)
    hits = await one.hits("guess:10.0.0.1", 60)
    assert hits.count == 3 and 0 < hits.clears_in <= 60
    assert (await two.hits("guess:10.0.0.2", 60)).count == 0


async def test_hits_asked_for_at_once_within_a_limit_are_taken_that_many_times(
    directories,
) -> None:
    one, two = directories  # half of them on each node
    asks = [(one if n % 2 else two).take_hit("names:10.0.0.1", 60, 3) for n in range(10)]
    taken = [r for r in await asyncio.gather(*asks) if r.receipt is not None]
    assert len(taken) == 3
    refused = await one.take_hit("names:10.0.0.1", 60, 3)
    assert refused.receipt is None and refused.hits.count == 3
    assert 0 < refused.hits.clears_in <= 60
    # One given back (what it was taken for did not happen): one more may be taken.
    await two.give_hit("names:10.0.0.1", taken[0].receipt)
    assert (await one.hits("names:10.0.0.1", 60)).count == 2
    again = await one.take_hit("names:10.0.0.1", 60, 3)
    assert again.receipt is not None and again.hits.count == 3
    assert (await two.take_hit("names:10.0.0.1", 60, 3)).receipt is None
    assert (await two.take_hit("names:10.0.0.2", 60, 3)).receipt is not None


async def test_tokens_asked_for_at_once_are_taken_no_more_than_the_bucket_holds(
    directories,
) -> None:
    one, two = directories
    asks = [(one if n % 2 else two).take_token("talk:10.0.0.1", 0.001, 5) for n in range(8)]
    waits = await asyncio.gather(*asks)
    assert sorted(waits)[:5] == [0.0] * 5 and all(w > 0 for w in sorted(waits)[5:])
    await one.give_token("talk:10.0.0.1", 0.001, 5)  # one given back: one more
    assert await two.take_token("talk:10.0.0.1", 0.001, 5) == 0.0
    assert await one.take_token("talk:10.0.0.1", 0.001, 5) > 0
    assert await one.take_token("talk:10.0.0.2", 0.001, 5) == 0.0


async def test_a_local_bucket_refills_on_the_clock() -> None:
    clock = ManualClock(frozen=True)
    directory = LocalDirectory(clock)
    for _ in range(2):
        assert await directory.take_token("pages:a", 2.0, 2) == 0.0
    assert await directory.take_token("pages:a", 2.0, 2) == pytest.approx(0.5)
    clock.advance(0.5)
    assert await directory.take_token("pages:a", 2.0, 2) == 0.0


async def test_counts_add_up_across_nodes_and_are_forgotten_after_their_ttl(directories) -> None:
    one, two = directories
    assert await one.add("tables:10.0.0.1", 1, 60) == 1
    assert await two.add("tables:10.0.0.1", 2, 60) == 3
    assert await one.add("tables:10.0.0.1", -1, 60) == 2
    assert await two.count("tables:10.0.0.1") == 2
    assert await one.count("tables:10.0.0.9") == 0


async def test_a_dead_nodes_part_of_a_count_stops_counting_when_its_lease_ends(
    redis_server,
) -> None:
    import redis.asyncio as aioredis

    from mantis.net.server.redis_directory import PREFIX, RedisDirectory

    client = aioredis.Redis.from_url(redis_server.url.replace("/0", "/5"))
    try:
        await client.flushdb()
        alpha, beta = RedisDirectory(client, "alpha"), RedisDirectory(client, "beta")
        await client.set(f"{PREFIX}alive:alpha", "1")
        await client.set(f"{PREFIX}alive:beta", "1")
        await alpha.add("connections:10.0.0.1", 3, 60)
        assert await beta.add("connections:10.0.0.1", 2, 60) == 5
        await client.delete(f"{PREFIX}alive:beta")  # beta killed: its lease ran out
        assert await alpha.count("connections:10.0.0.1") == 3
        assert await alpha.add("connections:10.0.0.1", 1, 60) == 4  # (its part, not 6)
    finally:
        await client.aclose()


async def test_a_node_started_again_under_its_name_holds_no_part_of_a_count(
    redis_server,
) -> None:
    import redis.asyncio as aioredis

    from mantis.net.server.redis_directory import PREFIX, RedisDirectory

    client = aioredis.Redis.from_url(redis_server.url.replace("/0", "/5"))
    try:
        await client.flushdb()
        await client.set(f"{PREFIX}alive:alpha", "1")
        await client.set(f"{PREFIX}alive:beta", "1")
        await RedisDirectory(client, "alpha").add("connections:10.0.0.1", 3, 60)
        beta = RedisDirectory(client, "beta")
        assert await beta.add("connections:10.0.0.1", 2, 60) == 5
        # alpha killed with -9 and started again at once: its lease never ran out, so
        # only its start can say that what it held is gone.
        alpha = RedisDirectory(client, "alpha")
        await alpha.start_afresh()
        assert await beta.count("connections:10.0.0.1") == 2
        assert await alpha.add("connections:10.0.0.1", 1, 60) == 3
    finally:
        await client.aclose()


async def test_a_local_count_and_hit_expire_on_the_clock() -> None:
    clock = ManualClock()
    directory = LocalDirectory(clock)
    await directory.add("connections:a", 5, ttl=30)
    await directory.take_hit("guess:a", 60, 10)
    clock.advance(31)
    assert await directory.count("connections:a") == 0
    assert (await directory.hits("guess:a", 60)).count == 1
    clock.advance(30)
    assert (await directory.hits("guess:a", 60)).count == 0


async def test_quick_play_seats_people_at_the_oldest_table_with_room_then_opens_another(
    directories,
) -> None:
    one, two = directories  # asked on two nodes in turn: one list of tables
    assert await one.quick_seat(3, "AAAA") == ("AAAA", True)  # none yet: a new one
    assert await two.quick_seat(2, "BBBB") == ("BBBB", True)  # another size
    assert await one.quick_seat(3, "CCCC") == ("AAAA", False)
    assert await two.quick_seat(3, "DDDD") == ("AAAA", False)  # its third seat
    assert await one.quick_seat(3, "EEEE") == ("EEEE", True)  # AAAA is full
    assert await two.quick_seat(3, "FFFF") == ("EEEE", False)
    await one.quick_free("AAAA", 3, 1)  # someone left AAAA's waiting room
    assert await two.quick_seat(3, "GGGG") == ("AAAA", False)  # the oldest first
    assert await one.quick_seat(3, "HHHH") == ("EEEE", False)
    await two.quick_free("BBBB", 2, 0)  # BBBB started with a bot: no longer offered
    # Someone who may not open a table (their address has its fill) is seated where
    # there is room, or nowhere.
    assert await one.quick_seat(2, None) is None
    assert await two.quick_seat(2, "JJJJ") == ("JJJJ", True)
    assert await one.quick_seat(2, None) == ("JJJJ", False)


async def test_people_asking_at_once_fill_one_table_before_another_opens(directories) -> None:
    one, two = directories  # half of them on each node
    asks = [(one if n % 2 else two).quick_seat(4, f"T{n:03d}") for n in range(10)]
    seats = await asyncio.gather(*asks)
    tables: dict[str, int] = {}
    for code, _ in seats:
        tables[code] = tables.get(code, 0) + 1
    assert sorted(tables.values()) == [2, 4, 4]  # never two tables with room at once
    assert sum(opened for _, opened in seats) == 3


async def test_a_note_is_read_by_any_node_until_dropped_or_expired(directories) -> None:
    one, two = directories
    await one.put_note("offer:BDFH", '{"game": 1}', 60)
    assert await two.note("offer:BDFH") == '{"game": 1}'
    await two.put_note("offer:BDFH", '{"game": 2}', 60)  # replaced
    assert await one.note("offer:BDFH") == '{"game": 2}'
    await one.drop_note("offer:BDFH")
    assert await two.note("offer:BDFH") is None
    assert await one.note("fill:KLMP") is None


async def test_a_local_note_expires_on_the_clock() -> None:
    clock = ManualClock()
    directory = LocalDirectory(clock)
    await directory.put_note("fill:BDFH", "12.5", ttl=30)
    clock.advance(29)
    assert await directory.note("fill:BDFH") == "12.5"
    clock.advance(1)
    assert await directory.note("fill:BDFH") is None
