"""A node among others: who is alive, who owns which table, and messages between nodes.

Every node of a cluster shares one Redis.  A node says it is alive with a
key that expires ``LEASE`` seconds after its last heartbeat (one a
``HEARTBEAT``), and owns a table while the table's owner key names it and
it is alive: ownership is a lease that ends with its node.  A node that
finds a table's owner dead takes the table over (a compare-and-set in one
Redis script, so two nodes never both win), loading it from the store.

Nodes talk over Redis pub/sub, one channel per node: intents from
connections on one node to the table's owner, and the owner's frames back
to the nodes holding those connections (``node_messages``, decoded here
once and handed on).  One task publishes everything a
node sends, in order, each channel's waiting messages as one list; what it
could not publish while Redis was away is published once Redis is back.
``mantis:owners`` tells every node that a table changed hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import msgspec

from ...base.clock import SYSTEM_CLOCK, Clock, within
from . import node_messages
from .node_messages import AnyNodeMessage, OwnerChanged
from .outages import redis_errors
from .redis_lane import RedisLane

log = logging.getLogger("mantis.cluster")

PREFIX = "mantis:"
#: Seconds between two heartbeats of a node.
HEARTBEAT = 1.0
#: Seconds a node counts as alive after its last heartbeat: its tables' lease.
LEASE = 3.0
#: Connections to Redis a node's commands share (the publisher and subscriber have their own).
MAX_CONNECTIONS = 32
#: Messages held for publishing at most while Redis is away (then the oldest are dropped).
MAX_HELD = 200_000

# Take a table (KEYS[1]: its owner key) for ARGV[1] unless a live node holds it.
_LEASE = """
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 1 end
if current and redis.call('EXISTS', ARGV[2] .. 'alive:' .. current) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', ARGV[2] .. 'owned:' .. ARGV[1], ARGV[3])
if current then redis.call('SREM', ARGV[2] .. 'owned:' .. current, ARGV[3]) end
return 1
"""
# The node that owns a table (KEYS[1]) and whether it is alive (ARGV[1]: the prefix).
_LIVE_OWNER = """
local owner = redis.call('GET', KEYS[1])
if not owner then return false end
return {owner, redis.call('EXISTS', ARGV[1] .. 'alive:' .. owner)}
"""
# Let go of a table if ARGV[1] holds it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', ARGV[2] .. 'owned:' .. ARGV[1], ARGV[3])
return 1
"""

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


class ClusterError(Exception):
    """The cluster cannot be joined (Redis unreachable at start); one line."""


class Cluster:
    """This node's membership of a cluster, on the Redis at ``url``."""

    def __init__(self, url: str, node: str, clock: Clock = SYSTEM_CLOCK) -> None:
        """``clock``: what its waits run on (the heartbeat, a message held while Redis is
        away, the flush as the node leaves) and what its messages are stamped with."""
        self.url = url
        self.node = node
        self.clock = clock
        self.redis: Any = None
        self._lane: RedisLane | None = None
        self._subscriber: Any = None
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._lease: Any = None
        self._release: Any = None
        self.reachable = True
        self.back_at: float | None = None
        """When Redis was last back after being away (on ``clock``; None: never away)."""
        self.on_message: Callable[[AnyNodeMessage], None] = lambda message: None
        """Called with every message sent to this node (set by the server)."""
        self.on_owner: Callable[[str, str], None] = lambda code, node: None
        """Called when a table changes hands: (code, its new owner); ("", node) when
        ``node`` may have missed messages sent to it, ("", "") when this node may have."""
        self.on_heartbeat: Callable[[], Any] = lambda: None
        """Awaited after every heartbeat (the server refreshes what it shares)."""
        self.on_reconnect: Callable[[], Any] = lambda: None
        """Awaited once Redis is back after it was away (the server re-takes its tables)."""
        self.on_lag: Callable[[float], None] = lambda seconds: None
        """Told how long each message took from its sender to here (a metric)."""

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Reach Redis and join; ``ClusterError`` in one line if Redis cannot be reached."""
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff

        options: dict[str, Any] = {
            "socket_connect_timeout": 2,
            "socket_timeout": 5,
            "health_check_interval": 5,
            # A connection that broke (Redis restarted) is replaced and the command sent
            # again at once; only a Redis that stays away is an error.
            "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
            "retry_on_error": [*redis_errors()],
        }
        # Commands wait for a free connection rather than fail when many run at once.
        pool = aioredis.BlockingConnectionPool.from_url(
            self.url, max_connections=MAX_CONNECTIONS, timeout=5, **options
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        # Messages between nodes and the owner asked at every join go by a lane of their
        # own: through redis-py's commands a PUBLISH cost a busy node about 110 us of CPU.
        self._lane = RedisLane(self.redis, clock=self.clock)
        try:
            await self.redis.ping()
        except redis_errors() as exc:
            await self.close()
            raise ClusterError(
                f"cannot reach Redis at {_shown(self.url)}: {_one_line(exc)}"
            ) from None
        self._lease = self.redis.register_script(_LEASE)
        self._release = self.redis.register_script(_RELEASE)
        self._live_owner = self.redis.register_script(_LIVE_OWNER)
        await self._beat()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._heartbeats()),
            loop.create_task(self._listen()),
            loop.create_task(self._publish()),
        ]

    async def leave(self) -> None:
        """Stop beating and say so at once (the node is stopping)."""
        for task in self._tasks:
            if task is not self._tasks[-1]:  # the publisher finishes what is queued
                task.cancel()
        with contextlib.suppress(*redis_errors()):
            await self._flush(timeout=5)
        with contextlib.suppress(*redis_errors()):
            await self.redis.delete(f"{PREFIX}alive:{self.node}", f"{PREFIX}status:{self.node}")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._subscriber is not None:
            with contextlib.suppress(Exception):
                await self._subscriber.disconnect(nowait=True)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
        if self._lane is not None:
            with contextlib.suppress(Exception):
                await self._lane.close()

    # ------------------------------------------------------------------ liveness

    async def _beat(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"{PREFIX}alive:{self.node}", "1", px=int(LEASE * 1000))
            pipe.sadd(f"{PREFIX}nodes", self.node)
            await pipe.execute()

    async def _heartbeats(self) -> None:
        while True:
            await self.clock.sleep(HEARTBEAT)
            try:
                await self._beat()
                await self.on_heartbeat()
            except redis_errors() as exc:
                if self.reachable:
                    self.reachable = False
                    log.warning("Redis is unreachable (%s): waiting for it", _one_line(exc))
                continue
            if not self.reachable:
                self.reachable = True
                self.back_at = self.clock.now()
                log.warning("Redis is back: taking this node's tables again")
                with contextlib.suppress(*redis_errors()):
                    await self.on_reconnect()

    def settled(self, seconds: float) -> bool:
        """Whether Redis has been reachable for at least ``seconds`` (or was never away)."""
        if not self.reachable:
            return False
        return self.back_at is None or self.clock.now() - self.back_at > seconds

    async def alive(self, node: str) -> bool:
        return bool(await self.redis.exists(f"{PREFIX}alive:{node}"))

    async def live_nodes(self) -> list[str]:
        nodes = [_text(n) for n in await self.redis.smembers(f"{PREFIX}nodes")]
        if not nodes:
            return []
        alive = await self.redis.mget([f"{PREFIX}alive:{n}" for n in nodes])
        return sorted(n for n, a in zip(nodes, alive, strict=True) if a is not None)

    async def orphans(self) -> list[str]:
        """Codes of tables whose owner is dead (its heartbeat ran out)."""
        found: list[str] = []
        for node in [_text(n) for n in await self.redis.smembers(f"{PREFIX}nodes")]:
            if node == self.node or await self.alive(node):
                continue
            codes = [_text(c) for c in await self.redis.smembers(f"{PREFIX}owned:{node}")]
            if not codes:
                await self.redis.srem(f"{PREFIX}nodes", node)
            found += codes
        return found

    async def put_status(self, status: dict[str, Any]) -> None:
        await self.redis.set(
            f"{PREFIX}status:{self.node}", _encode(status), px=int(LEASE * 1000) + 2000
        )

    async def statuses(self) -> list[dict[str, Any]]:
        nodes = await self.live_nodes()
        if not nodes:
            return []
        values = await self.redis.mget([f"{PREFIX}status:{n}" for n in nodes])
        return [_decode(v) for v in values if v is not None]

    # ------------------------------------------------------------------ ownership

    async def owner(self, code: str) -> str | None:
        """The node that owns table ``code`` (alive or not), if any."""
        value = await self.redis.get(f"{PREFIX}owner:{code}")
        return _text(value) if value is not None else None

    async def live_owner(self, code: str) -> str | None:
        """The node that owns table ``code`` if it is alive (None: no owner, or a dead one).

        One round trip, not ``owner`` and then ``alive``: every connection that
        joins a table held by another node asks.
        """
        assert self._lane is not None
        found = await self._lane.script(self._live_owner, [f"{PREFIX}owner:{code}"], [PREFIX])
        return _text(found[0]) if found and int(found[1]) else None

    async def owners(self, codes: Iterable[str]) -> dict[str, str | None]:
        codes = list(codes)
        if not codes:
            return {}
        values = await self.redis.mget([f"{PREFIX}owner:{c}" for c in codes])
        return {
            c: (_text(v) if v is not None else None) for c, v in zip(codes, values, strict=True)
        }

    async def lease(self, code: str) -> bool:
        """Take table ``code`` unless a live node owns it; whether this node owns it now."""
        # By the lane: every new table takes its code's lease (through redis-py's commands, a
        # lease cost a busy node as much as all the rest of a table's opening).
        assert self._lane is not None
        keys, args = [f"{PREFIX}owner:{code}"], [self.node, PREFIX, code]
        return bool(await self._lane.script(self._lease, keys, args))

    async def release(self, code: str) -> None:
        """This node no longer owns ``code``."""
        assert self._lane is not None
        keys, args = [f"{PREFIX}owner:{code}"], [self.node, PREFIX, code]
        await self._lane.script(self._release, keys, args)

    # ------------------------------------------------------------------ messages

    def send(self, node: str, message: AnyNodeMessage) -> None:
        """Send ``message`` to ``node`` (in order with everything else sent to it)."""
        message = msgspec.structs.replace(message, ts=self.clock.time())
        if node == self.node:
            asyncio.get_running_loop().call_soon(self.on_message, message)
            return
        self._queue(f"{PREFIX}to:{node}", node_messages.encode(message))

    def announce_owner(self, code: str) -> None:
        """Tell every node that this node owns ``code`` now."""
        self._queue(f"{PREFIX}owners", node_messages.encode(OwnerChanged(code, self.node)))

    def _queue(self, channel: str, data: bytes) -> None:
        if self._outbox.qsize() >= MAX_HELD:
            self._outbox.get_nowait()  # Redis has been away long: the oldest go
            self._outbox.task_done()
        self._outbox.put_nowait((channel, data))

    async def _publish(self) -> None:
        from redis.exceptions import RedisError

        assert self._lane is not None
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 1000:
                batch.append(self._outbox.get_nowait())
            # One PUBLISH per channel for all that waited (a JSON list of them), not one per
            # message: the receiving node parses one reply and wakes once for the lot.
            frames: dict[str, list[bytes]] = {}
            for channel, data in batch:
                frames.setdefault(channel, []).append(data)
            for channel, datas in frames.items():
                while True:
                    try:
                        await self._lane.execute("PUBLISH", channel, b"[" + b",".join(datas) + b"]")
                        break
                    except redis_errors():
                        await self.clock.sleep(0.2)  # held (in order) until Redis is back
                    except RedisError as exc:  # refused, not away: this message is lost
                        log.error("Redis refused a message between nodes: %s", _one_line(exc))
                        break
            for _ in batch:
                self._outbox.task_done()

    async def _flush(self, timeout: float) -> None:
        """Return once everything queued is published, or ``timeout`` has passed on the clock."""
        with contextlib.suppress(TimeoutError):
            await within(self.clock, timeout, self._outbox.join())

    async def _listen(self) -> None:
        mine, owners = f"{PREFIX}to:{self.node}", f"{PREFIX}owners"
        to_me, about_owners = mine.encode(), owners.encode()
        first = True
        # A connection of its own, read directly: redis-py's ``PubSub`` (retries, health
        # checks, a handler per message) cost a busy node more than the messages' decoding.
        # RESP2: there a message is an ordinary reply, [b"message", channel, data].
        options = {
            **self.redis.connection_pool.connection_kwargs,
            "protocol": 2,
            "socket_timeout": None,
            "health_check_interval": 0,
            "client_name": f"{PREFIX}{self.node}:listening",  # (in Redis's CLIENT LIST)
        }
        while True:
            connection = self.redis.connection_pool.connection_class(**options)
            self._subscriber = connection
            try:
                await connection.connect()
                await connection.send_command("SUBSCRIBE", mine, owners)
                while True:
                    item = await connection.read_response(timeout=math.inf)
                    if not isinstance(item, list) or len(item) != 3:
                        continue
                    kind, channel, data = item
                    if kind == b"message":
                        self._received(channel == about_owners, data)
                    elif kind == b"subscribe" and channel == to_me:
                        if not first:
                            self._subscribed_again()
                        first = False
            except asyncio.CancelledError:
                raise
            except redis_errors():
                await self.clock.sleep(0.2)
            except Exception:  # a message that is not ours: said, and listening goes on
                log.exception("unreadable message between nodes")
            finally:
                with contextlib.suppress(Exception):
                    await connection.disconnect(nowait=True)

    def _subscribed_again(self) -> None:
        """Listening again (Redis was away): what was sent here meanwhile is lost.

        This node opens again what it relays elsewhere, and tells the others to open
        again what they relay here: a node that listened again before this one may
        have sent an opening to this one while it did not listen (a relay would wait
        for its answer, then hang up).
        """
        self.on_owner("", "")
        self._queue(f"{PREFIX}owners", node_messages.encode(OwnerChanged("", self.node)))

    def _received(self, about_owners: bool, data: bytes) -> None:
        """What one ``PUBLISH`` carried to this node (decoded once, here).

        A batch this node cannot read (a kind it has no word for, from a node
        of another release) is dropped whole, and said: docs/operations.md.
        """
        try:
            if about_owners:
                owners = node_messages.decode_owners(data)
                for owner in owners if isinstance(owners, list) else [owners]:
                    self.on_owner(owner.code, owner.node)
                return
            decoded = node_messages.decode_messages(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            log.error("unreadable messages between nodes, dropped: %s", _one_line(exc))
            return
        messages = decoded if isinstance(decoded, list) else [decoded]
        # The lag of the first, which waited longest to be published with the rest: once
        # per ``PUBLISH``, as observing a histogram is dearer than passing a message on.
        if messages and messages[0].ts:
            self.on_lag(max(0.0, self.clock.time() - messages[0].ts))
        for message in messages:
            self.on_message(message)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _shown(url: str) -> str:
    """A Redis URL without its password (and without its query), for messages."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    where = f"{host}:{parts.port}" if parts.port else host
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{where}{parts.path}"
