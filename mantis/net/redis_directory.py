"""The directory in Redis: what spans tables, shared by every node of a cluster.

Codes are keys set only if absent (two nodes creating at once never get one
code), each node's public tables a key of its own with a short expiry
(refreshed while the node lives), hits a sorted set per key (their times),
counts a number per key with an expiry.  Nothing here must last: after a
Redis restart the nodes put back what they hold.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from typing import Any

from .directory import Hits, Listing

PREFIX = "mantis:"
#: Seconds a node's listing stays without being refreshed (it refreshes every second).
LISTING_TTL = 5.0


class RedisDirectory:
    """The ``Directory`` of a cluster, on a ``redis.asyncio.Redis`` client."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def claim_code(self, code: str) -> bool:
        return bool(await self.redis.set(f"{PREFIX}code:{code}", "1", nx=True))

    async def release_code(self, code: str) -> None:
        await self.redis.delete(f"{PREFIX}code:{code}")

    async def put_listing(self, node: str, tables: Sequence[Listing]) -> None:
        await self.redis.set(
            f"{PREFIX}listing:{node}", json.dumps(list(tables)), px=int(LISTING_TTL * 1000)
        )

    async def listing(self, but: str | None = None) -> list[Listing]:
        keys = [key async for key in self.redis.scan_iter(match=f"{PREFIX}listing:*")]
        keys = [k for k in keys if _text(k) != f"{PREFIX}listing:{but}"]
        if not keys:
            return []
        found: list[Listing] = []
        for value in await self.redis.mget(keys):
            if value is not None:
                found.extend(json.loads(value))
        return found

    async def hit(self, key: str, window: float) -> None:
        now = time.time()
        name = f"{PREFIX}hits:{key}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(name, {f"{now}:{secrets.token_hex(4)}": now})
            pipe.zremrangebyscore(name, "-inf", now - window)
            pipe.pexpire(name, int(window * 1000) + 1000)
            await pipe.execute()

    async def hits(self, key: str, window: float) -> Hits:
        now = time.time()
        name = f"{PREFIX}hits:{key}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(name, "-inf", now - window)
            pipe.zcard(name)
            pipe.zrange(name, 0, 0, withscores=True)
            _, count, oldest = await pipe.execute()
        if not count:
            return Hits(0, 0.0)
        return Hits(int(count), max(0.0, oldest[0][1] + window - now))

    async def add(self, key: str, delta: int, ttl: float) -> int:
        name = f"{PREFIX}count:{key}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incrby(name, delta)
            pipe.pexpire(name, int(ttl * 1000))
            value, _ = await pipe.execute()
        return int(value)

    async def count(self, key: str) -> int:
        value = await self.redis.get(f"{PREFIX}count:{key}")
        return int(value) if value is not None else 0

    async def close(self) -> None:
        pass


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
