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
