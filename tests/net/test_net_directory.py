"""The directory: one set of tests every ``Directory`` passes (in this process, and Redis)."""

from __future__ import annotations

import asyncio

import pytest

from mantis.net.directory import LocalDirectory
from mantis.players.clock import ManualClock


@pytest.fixture(params=["local", "redis"])
async def directories(request):
    """Two handles on one directory (two nodes' views of it, for Redis)."""
    if request.param == "local":
        one = LocalDirectory(ManualClock())
        yield one, one
        return
    import redis.asyncio as aioredis

    from mantis.net.redis_directory import RedisDirectory

    url = request.getfixturevalue("redis_server").url.replace("/0", "/3")
    clients = [aioredis.Redis.from_url(url) for _ in range(2)]
    await clients[0].flushdb()
    yield RedisDirectory(clients[0]), RedisDirectory(clients[1])
    for client in clients:
        await client.aclose()


async def test_a_code_is_taken_once_however_many_ask_at_once(directories) -> None:
    one, two = directories
    asks = [one.claim_code("BDFH") if n % 2 else two.claim_code("BDFH") for n in range(10)]
    assert sorted(await asyncio.gather(*asks)) == [False] * 9 + [True]
    await one.release_code("BDFH")
    assert await two.claim_code("BDFH")


async def test_each_nodes_public_tables_are_listed_by_any_node(directories) -> None:
    one, two = directories
    await one.put_listing("alpha", [{"code": "BBBB"}])
    await two.put_listing("beta", [{"code": "DDDD"}, {"code": "FFFF"}])
    assert sorted(t["code"] for t in await two.listing()) == ["BBBB", "DDDD", "FFFF"]
    assert [t["code"] for t in await two.listing(but="beta")] == ["BBBB"]
    await one.put_listing("alpha", [])  # a node's list is replaced, not added to
    assert [t["code"] for t in await one.listing(but="beta")] == []


async def test_hits_are_counted_within_their_window_by_every_node(directories) -> None:
    one, two = directories
    for n in range(3):
        await (one if n % 2 else two).hit("guess:10.0.0.1", 60)
    hits = await one.hits("guess:10.0.0.1", 60)
    assert hits.count == 3 and 0 < hits.clears_in <= 60
    assert (await two.hits("guess:10.0.0.2", 60)).count == 0


async def test_counts_add_up_across_nodes_and_are_forgotten_after_their_ttl(directories) -> None:
    one, two = directories
    assert await one.add("tables:10.0.0.1", 1, 60) == 1
    assert await two.add("tables:10.0.0.1", 2, 60) == 3
    assert await one.add("tables:10.0.0.1", -1, 60) == 2
    assert await two.count("tables:10.0.0.1") == 2
    assert await one.count("tables:10.0.0.9") == 0


async def test_a_local_count_and_hit_expire_on_the_clock() -> None:
    clock = ManualClock()
    directory = LocalDirectory(clock)
    await directory.add("connections:a", 5, ttl=30)
    await directory.hit("guess:a", 60)
    clock.advance(31)
    assert await directory.count("connections:a") == 0
    assert (await directory.hits("guess:a", 60)).count == 1
    clock.advance(30)
    assert (await directory.hits("guess:a", 60)).count == 0
