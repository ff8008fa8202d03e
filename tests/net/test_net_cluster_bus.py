"""The bus between nodes on a real Redis: messages in order, however they were published."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

import msgspec
import pytest

from mantis.net.cluster import PREFIX, Cluster

pytestmark = pytest.mark.xdist_group("cluster")

WAIT = 60.0


async def test_a_node_hears_every_message_in_order_batched_or_one_by_one(redis_server) -> None:
    name = f"bus-{secrets.token_hex(4)}"
    sender, hearer = Cluster(redis_server.url, f"{name}-a"), Cluster(redis_server.url, f"{name}-b")
    heard: list[int] = []
    changed = asyncio.Event()

    def on_message(message: dict[str, Any]) -> None:
        heard.append(message["n"])
        changed.set()

    async def until(count: int) -> None:
        while len(heard) < count:
            changed.clear()
            await changed.wait()

    async def subscribed() -> None:
        # Pub/sub keeps nothing for a node not yet listening: ask until one is heard.
        while not heard:
            sender.send(hearer.node, {"n": 0})
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 0.5)

    hearer.on_message = on_message
    await hearer.start()
    await sender.start()
    try:
        await asyncio.wait_for(subscribed(), WAIT)
        heard.clear()
        for n in range(1, 6):  # queued together: published as one list
            sender.send(hearer.node, {"n": n})
        await asyncio.wait_for(until(5), WAIT)
        # A node from before lists published each message on its own.
        await sender.redis.publish(f"{PREFIX}to:{hearer.node}", msgspec.json.encode({"n": 6}))
        sender.send(hearer.node, {"n": 7})
        await asyncio.wait_for(until(7), WAIT)
        assert heard == [1, 2, 3, 4, 5, 6, 7]
    finally:
        await sender.close()
        await hearer.close()


async def test_a_tables_live_owner_is_its_owner_while_that_node_lives(redis_server) -> None:
    name = f"owner-{secrets.token_hex(4)}"
    one, two = Cluster(redis_server.url, f"{name}-a"), Cluster(redis_server.url, f"{name}-b")
    await one.start()
    await two.start()
    try:
        code = secrets.token_hex(3).upper()
        assert await two.live_owner(code) is None  # nobody holds it
        assert await one.claim(code)
        assert await two.live_owner(code) == one.node
        await one.close()  # no heartbeat any more...
        await two.redis.delete(f"{PREFIX}alive:{one.node}")  # ...and its last one ran out
        assert await two.live_owner(code) is None
        assert await two.owner(code) == one.node  # (still named, but dead)
    finally:
        await one.close()
        await two.close()
