"""A lane to Redis: many commands in flight on one connection, each given its own reply."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from mantis.base.clock import ManualClock
from mantis.net.cluster.redis_lane import RedisLane

pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture
async def client(redis_server):
    import redis.asyncio as aioredis

    redis = aioredis.Redis.from_url(redis_server.url.replace("/0", "/4"))
    yield redis
    await redis.aclose()


async def blocked_in_blpop(client, name: str) -> None:
    """Once Redis shows the connection named ``name`` blocked in a BLPOP."""
    while not any(
        c.get("name") == name and c.get("cmd") == "blpop" for c in await client.client_list()
    ):
        await asyncio.sleep(0.05)  # a state in Redis, which tells no one: looked at again


async def test_commands_in_flight_together_each_get_their_own_reply(client) -> None:
    lane = RedisLane(client)
    prefix = secrets.token_hex(4)
    try:
        # Written one after another before any reply is read: the replies must not mix.
        counts = await asyncio.gather(
            *(lane.execute("INCRBY", f"{prefix}:{n % 7}", n) for n in range(300))
        )
        totals = {k: sum(n for n in range(300) if n % 7 == k) for k in range(7)}
        for k in range(7):
            assert int(await client.get(f"{prefix}:{k}")) == totals[k]
        # Each reply is its own command's running total (increments only go up).
        for k in range(7):
            mine = [counts[n] for n in range(300) if n % 7 == k]
            assert mine == sorted(mine) and mine[-1] == totals[k]
    finally:
        await lane.close()


async def test_an_error_reply_is_its_commands_alone(client) -> None:
    from redis.exceptions import ResponseError

    lane = RedisLane(client)
    key = secrets.token_hex(4)
    try:
        await client.set(key, "not a number")
        before, wrong, after = await asyncio.gather(
            lane.execute("SET", f"{key}:n", 1),
            lane.execute("INCR", key),
            lane.execute("INCR", f"{key}:n"),
            return_exceptions=True,
        )
        assert isinstance(wrong, ResponseError)
        assert before in (b"OK", "OK") and after == 2
    finally:
        await lane.close()


async def test_a_lost_connection_fails_what_was_in_flight_and_the_next_command_reconnects(
    client,
) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    lane = RedisLane(client)
    key = secrets.token_hex(4)
    try:
        assert await lane.execute("INCR", key) == 1
        name = f"lane-{key}"
        await lane.execute("CLIENT", "SETNAME", name)
        # A command that holds its reply, cut off by Redis while it waits.
        held = asyncio.ensure_future(lane.execute("BLPOP", f"{key}:never", 0))
        await asyncio.wait_for(blocked_in_blpop(client, name), 60)
        await client.client_kill_filter(_type="normal", skipme=True)
        with pytest.raises(RedisConnectionError):
            await held
        assert await lane.execute("INCR", key) == 2  # made again, and on it goes
    finally:
        await lane.close()


async def test_a_script_redis_forgot_is_sent_whole(client) -> None:
    lane = RedisLane(client)
    script = client.register_script("return redis.call('INCRBY', KEYS[1], ARGV[1])")
    key = secrets.token_hex(4)
    try:
        assert await lane.script(script, [key], [5]) == 5
        await client.script_flush()  # as after a restart of Redis
        assert await lane.script(script, [key], [2]) == 7
    finally:
        await lane.close()


async def test_a_reply_that_never_comes_fails_what_waits_and_the_next_command_reconnects(
    client,
) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    # Its time runs on a clock the test moves: a slow reply is never a lost one here.
    clock = ManualClock(frozen=True)
    lane = RedisLane(client, timeout=5, clock=clock)
    key = secrets.token_hex(4)
    try:
        assert await lane.execute("INCR", key) == 1
        name = f"lane-{key}"
        await lane.execute("CLIENT", "SETNAME", name)
        # Redis holds BLPOP's reply for good, and every reply after it on the connection.
        held = asyncio.ensure_future(lane.execute("BLPOP", f"{key}:never", 0))
        behind = asyncio.ensure_future(lane.execute("INCR", key))
        await asyncio.wait_for(blocked_in_blpop(client, name), 60)  # (behind sent with it)
        clock.advance(4.9)
        assert not held.done() and not behind.done()  # (a lane gives up at once, or not)
        clock.advance(0.1)
        for waiting in (held, behind):
            with pytest.raises(RedisConnectionError, match="no reply from Redis in 5 s"):
                await asyncio.wait_for(waiting, 60)
        # The INCR behind it may or may not have been carried out: 2 or 3, never an error.
        assert await lane.execute("INCR", key) in (2, 3)
    finally:
        await lane.close()
