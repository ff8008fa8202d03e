"""The bus between nodes on a real Redis: messages in order, however they were published."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

import msgspec
import pytest

from mantis.base.clock import ManualClock
from mantis.net.cluster.membership import HEARTBEAT, LEASE, PREFIX, Cluster
from mantis.net.cluster.node_messages import Adopt, NodeMessage

pytestmark = pytest.mark.xdist_group("cluster")

WAIT = 60.0


async def test_a_node_hears_every_message_in_order_batched_or_one_by_one(redis_server) -> None:
    name = f"bus-{secrets.token_hex(4)}"
    sender, hearer = Cluster(redis_server.url, f"{name}-a"), Cluster(redis_server.url, f"{name}-b")
    heard: list[int] = []
    changed = asyncio.Event()

    def on_message(message: NodeMessage) -> None:
        assert isinstance(message, Adopt)
        heard.append(int(message.code))
        changed.set()

    async def until(count: int) -> None:
        while len(heard) < count:
            changed.clear()
            await changed.wait()

    async def subscribed() -> None:
        # Pub/sub keeps nothing for a node not yet listening: ask until one is heard.
        while not heard:
            sender.send(hearer.node, Adopt(code="0"))
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
            sender.send(hearer.node, Adopt(code=str(n)))
        await asyncio.wait_for(until(5), WAIT)
        # A node from before lists published each message on its own.
        alone = {"t": "adopt", "code": "6"}
        await sender.redis.publish(f"{PREFIX}to:{hearer.node}", msgspec.json.encode(alone))
        # A kind this release has no word for (a node of a later one): that batch is
        # dropped, and what comes after is heard.
        later = [{"t": "new-kind", "code": "x"}]
        await sender.redis.publish(f"{PREFIX}to:{hearer.node}", msgspec.json.encode(later))
        sender.send(hearer.node, Adopt(code="7"))
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
        assert await one.lease(code)
        assert await two.live_owner(code) == one.node
        await one.close()  # no heartbeat any more...
        await two.redis.delete(f"{PREFIX}alive:{one.node}")  # ...and its last one ran out
        assert await two.live_owner(code) is None
        assert await two.owner(code) == one.node  # (still named, but dead)
    finally:
        await one.close()
        await two.close()


async def test_a_node_listening_again_has_the_others_open_again_what_they_relay_to_it(
    redis_server,
) -> None:
    # What is sent to a node while it does not listen is lost: a node that listened again
    # before it could have sent it an opening meanwhile, and must send it again.
    name = f"again-{secrets.token_hex(4)}"
    one, two = Cluster(redis_server.url, f"{name}-a"), Cluster(redis_server.url, f"{name}-b")
    told: dict[str, list[tuple[str, str]]] = {one.node: [], two.node: []}
    changed = asyncio.Event()
    heard: list[object] = []

    def telling(node: str) -> Any:
        def on_owner(code: str, owner: str) -> None:
            told[node].append((code, owner))
            changed.set()

        return on_owner

    def on_message(message: NodeMessage) -> None:
        heard.append(message)
        changed.set()

    async def until(test: Any) -> None:
        while not test():
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 0.5)

    one.on_owner, two.on_owner = telling(one.node), telling(two.node)
    one.on_message = on_message
    await one.start()
    await two.start()
    try:

        def one_listens() -> bool:
            two.send(one.node, Adopt(code="1"))  # (asked again until heard: one is listening)
            return bool(heard)

        await asyncio.wait_for(until(one_listens), WAIT)
        listening = f"{PREFIX}{two.node}:listening"
        for client in await one.redis.client_list():
            if client.get("name") == listening:
                await one.redis.client_kill_filter(_id=client["id"])
        await asyncio.wait_for(until(lambda: ("", two.node) in told[one.node]), WAIT)
        assert ("", "") in told[two.node]  # and two opens again what it relays elsewhere
        assert ("", "") not in told[one.node]  # one never stopped listening
    finally:
        await one.close()
        await two.close()


async def test_a_nodes_heartbeats_run_on_its_clock(redis_server) -> None:
    clock = ManualClock(frozen=True)
    node = Cluster(redis_server.url, f"beat-{secrets.token_hex(4)}", clock)
    beats: list[float] = []
    beat = asyncio.Event()

    async def on_heartbeat() -> None:
        beats.append(clock.now())
        beat.set()

    node.on_heartbeat = on_heartbeat
    await node.start()
    try:
        for n in range(1, 4):
            # The next beat waits on the clock, and comes once it has moved on, not before.
            await asyncio.wait_for(clock.until_pending(HEARTBEAT), WAIT)
            assert len(beats) == n - 1
            beat.clear()
            clock.advance(HEARTBEAT)
            await asyncio.wait_for(beat.wait(), WAIT)
            alive = await node.redis.pttl(f"{PREFIX}alive:{node.node}")
            assert LEASE * 1000 - 1000 < alive <= LEASE * 1000  # its lease just renewed
        assert beats == [HEARTBEAT, 2 * HEARTBEAT, 3 * HEARTBEAT]
    finally:
        await node.close()


async def flush_bound_set(clock: ManualClock) -> None:
    """Return once a timer is due five seconds on (the flush's bound: retries are due sooner)."""
    while clock.pending(5.0) <= clock.pending(4.9):
        await clock.until_pending(5.0, clock.pending(5.0) + 1)


async def test_a_leaving_node_holds_its_messages_for_redis_five_seconds_on_its_clock() -> None:
    from servicekit import RedisServer, need

    need(binaries=("redis-server",), modules=("redis",))
    redis = RedisServer()  # (its own: this test stops it)
    clock = ManualClock(frozen=True)
    node = Cluster(redis.url, f"drain-{secrets.token_hex(4)}", clock)
    await node.start()
    try:
        redis.stop()
        node.send("another", Adopt(code="1"))  # held, in order, until Redis is back
        leaving = asyncio.ensure_future(node.leave())
        await asyncio.wait_for(flush_bound_set(clock), WAIT)
        clock.advance(4.9)
        await asyncio.wait_for(clock.until_pending(0.2), WAIT)
        assert not leaving.done() and clock.pending(0.1) >= 1
        clock.advance(0.2)
        await asyncio.wait_for(leaving, WAIT)
    finally:
        await node.close()
        redis.close()
