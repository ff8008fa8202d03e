"""The directory in Redis: what spans tables, shared by every node of a cluster.

Codes are keys set only if absent (two nodes creating at once never get one
code), each node's public tables a hash of its own (an entry per table,
written when it changes) with a short expiry (refreshed while the node
lives), hits a sorted set per key (their times),
counts a hash per key with each node's part (a count is the parts of the
nodes alive: a node killed with its part never gave it back, and its part
stops counting when its lease ends).  Quick-play tables on offer are,
for each size, a hash of their free seats and a sorted set of their order
(oldest first), changed only by Lua scripts: Redis runs a script whole, so
two people asking on two nodes at once never open two tables.  Nothing here must last: after a
Redis restart the nodes put back what they hold.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from ...base.clock import SYSTEM_CLOCK, Clock
from ..cluster.redis_lane import RedisLane
from .directory import Hits, Listing, Reserved

# A node's list is a hash of its tables' entries, each written when it changes: msgspec,
# not the standard library's json, which took most of a node's time spent sharing.
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(dict[str, Any]).decode

PREFIX = "mantis:"
#: Seconds a node's listing stays without being refreshed (it refreshes every second).
LISTING_TTL = 5.0
#: The keys of the nodes' lists (``listed:NODE``, hashes). Nodes of earlier code kept
#: each list whole in a string (``listing:NODE``), which a hash command would refuse: a
#: node never reads the other kind, so while a cluster is upgraded node by node, the
#: upgraded nodes and the others just do not list each other's tables.
LISTING = "listed"

#: KEYS: the count's hash; ARGV: this node, the change, the expiry (ms), the prefix.  The
#: total of the parts of this node and of the nodes alive (the others' are dropped).
COUNT_ADD = """
if ARGV[2] ~= '0' then
  redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
end
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
local total = 0
local parts = redis.call('HGETALL', KEYS[1])
for i = 1, #parts, 2 do
  local node = parts[i]
  if node == ARGV[1] or redis.call('EXISTS', ARGV[4] .. 'alive:' .. node) == 1 then
    total = total + tonumber(parts[i + 1])
  else
    redis.call('HDEL', KEYS[1], node)
  end
end
return total
"""

#: KEYS: the hits (a sorted set of their times); ARGV: now, the window, the most, this
#: hit's member, the expiry (ms).  One more hit unless the window holds ``most``: {taken
#: (1 or 0), hits within the window, the oldest one's time}.
TAKE_HIT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
local taken = 0
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  count = count + 1
  taken = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {taken, count, oldest[2] or ARGV[1]}
"""

#: KEYS: the bucket (a hash: its tokens, when they were counted); ARGV: rate, burst, 1 to
#: take a token (else one is put back).  Redis's own clock, whichever node asks: the
#: seconds until a token is there (as text; "0": taken, or put back).
TOKEN = """
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local kept = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(kept[1]) or burst
local stamp = tonumber(kept[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local wait = 0
if ARGV[3] == '1' then
  if tokens >= 1 then
    tokens = tokens - 1
  else
    wait = (1 - tokens) / rate
  end
else
  tokens = math.min(burst, tokens + 1)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""

#: KEYS: free seats (hash), order (sorted set), the order's counter; ARGV: players, fresh
#: code ("": none).  The oldest table with a free seat gives one up; else ``fresh`` is
#: offered with every seat but the asker's free.
QUICK_SEAT = """
for _, code in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local free = tonumber(redis.call('HGET', KEYS[1], code) or '0')
  if free > 0 then
    redis.call('HSET', KEYS[1], code, free - 1)
    return {code, 0}
  end
end
if ARGV[2] == '' then
  return false
end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[2])
redis.call('HSET', KEYS[1], ARGV[2], tonumber(ARGV[1]) - 1)
return {ARGV[2], 1}
"""

#: KEYS as ``QUICK_SEAT``'s; ARGV: the code, its free seats now (0: no longer offered).
#: A table offered again after it was withdrawn comes last (the newest).
QUICK_FREE = """
if tonumber(ARGV[2]) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class RedisDirectory:
    """The ``Directory`` of a cluster, on a ``redis.asyncio.Redis`` client."""

    def __init__(self, redis: Any, node: str = "", clock: Clock = SYSTEM_CLOCK) -> None:
        """A directory on ``redis`` for node ``node`` (its part of each count is its own);
        ``clock``: its wall time (``Clock.time``: the hits' windows, shared by every node)
        and its commands' time limits."""
        self.redis = redis
        self.node = node
        self.clock = clock
        # What every connection asks (its count, its guess count, a new code) goes by a
        # lane of its own: through redis-py's commands it took ~8% of a busy node's CPU.
        self._lane = RedisLane(redis, clock=clock)
        self._count_add = redis.register_script(COUNT_ADD)
        self._quick_seat = redis.register_script(QUICK_SEAT)
        self._quick_free = redis.register_script(QUICK_FREE)
        self._take_hit = redis.register_script(TAKE_HIT)
        self._token = redis.register_script(TOKEN)

    async def reserve_code(self, code: str) -> bool:
        return bool(await self._lane.execute("SET", f"{PREFIX}code:{code}", "1", "NX"))

    async def release_code(self, code: str) -> None:
        await self.redis.delete(f"{PREFIX}code:{code}")

    async def share_listing(
        self, node: str, changed: Mapping[str, Listing], gone: Collection[str], whole: bool
    ) -> bool:
        key, ttl = f"{PREFIX}{LISTING}:{node}", int(LISTING_TTL * 1000)
        # One transaction: a reader sees the list before the share or after it, whole.
        pipe = self.redis.pipeline(transaction=True)
        pipe.exists(key)
        if whole:
            pipe.delete(key)
        if changed:
            pipe.hset(key, mapping={code: _encode(entry) for code, entry in changed.items()})
        if gone and not whole:
            pipe.hdel(key, *gone)
        pipe.pexpire(key, ttl)
        return bool((await pipe.execute())[0])

    async def listing(self, but: str | None = None) -> list[Listing]:
        keys = [key async for key in self.redis.scan_iter(match=f"{PREFIX}{LISTING}:*")]
        keys = [k for k in keys if _text(k) != f"{PREFIX}{LISTING}:{but}"]
        if not keys:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.hvals(key)
        return [_decode(value) for values in await pipe.execute() for value in values]

    async def quick_seat(self, players: int, fresh: str | None) -> tuple[str, bool] | None:
        found = await self._quick_seat(keys=_quick_keys(players), args=[players, fresh or ""])
        if not found:
            return None
        return _text(found[0]), bool(int(found[1]))

    async def quick_free(self, code: str, seats: int, free: int) -> None:
        await self._quick_free(keys=_quick_keys(seats), args=[code, free])

    async def put_note(self, key: str, text: str, ttl: float) -> None:
        await self.redis.set(f"{PREFIX}note:{key}", text, px=max(1, int(ttl * 1000)))

    async def note(self, key: str) -> str | None:
        value = await self.redis.get(f"{PREFIX}note:{key}")
        return None if value is None else _text(value)

    async def drop_note(self, key: str) -> None:
        await self.redis.delete(f"{PREFIX}note:{key}")

    async def hits(self, key: str, window: float) -> Hits:
        # Every join asks, and nearly always nobody behind the address has missed: one
        # command then, not three (``take_hit`` drops the hits that have aged out).
        now = self.clock.time()
        name, since = f"{PREFIX}hits:{key}", f"({now - window}"
        count = await self._lane.execute("ZCOUNT", name, since, "+inf")
        if not count:
            return Hits(0, 0.0)
        oldest = await self._lane.execute(
            "ZRANGEBYSCORE", name, since, "+inf", "WITHSCORES", "LIMIT", 0, 1
        )
        if not oldest:  # (aged out between the two)
            return Hits(0, 0.0)
        # [member, score] in pairs (RESP3, which redis-py asks for), or flat (RESP2).
        score = oldest[0][1] if isinstance(oldest[0], list) else oldest[1]
        return Hits(int(count), max(0.0, float(score) + window - now))

    async def take_hit(self, key: str, window: float, most: int) -> Reserved:
        now = self.clock.time()
        member = f"{now}:{secrets.token_hex(4)}"
        keys = [f"{PREFIX}hits:{key}"]
        args = [repr(now), repr(window), most, member, int(window * 1000) + 1000]
        taken, count, oldest = await self._lane.script(self._take_hit, keys, args)
        hits = Hits(int(count), max(0.0, float(oldest) + window - now))
        return Reserved(member if int(taken) else None, hits)

    async def give_hit(self, key: str, receipt: str) -> None:
        await self._lane.execute("ZREM", f"{PREFIX}hits:{key}", receipt)

    async def take_token(self, key: str, rate: float, burst: float) -> float:
        keys = [f"{PREFIX}bucket:{key}"]
        return float(await self._lane.script(self._token, keys, [repr(rate), repr(burst), 1]))

    async def give_token(self, key: str, rate: float, burst: float) -> None:
        await self._lane.script(
            self._token, [f"{PREFIX}bucket:{key}"], [repr(rate), repr(burst), 0]
        )

    async def add(self, key: str, delta: int, ttl: float) -> int:
        keys = [f"{PREFIX}count:{key}"]
        args = [self.node, delta, int(ttl * 1000), PREFIX]
        return int(await self._lane.script(self._count_add, keys, args))

    async def count(self, key: str) -> int:
        keys = [f"{PREFIX}count:{key}"]
        return int(await self._lane.script(self._count_add, keys, [self.node, 0, 0, PREFIX]))

    async def start_afresh(self) -> None:
        """Drop this node's part of every count: a node starting holds nothing yet.

        A node killed and started again under the same name within its lease
        is alive to the others all along, so the part it held when it died
        would otherwise count for ever (its connections, its tables).
        """
        keys = [key async for key in self.redis.scan_iter(match=f"{PREFIX}count:*")]
        if keys:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.hdel(key, self.node)
                await pipe.execute()

    async def close(self) -> None:
        await self._lane.close()


def _quick_keys(players: int) -> list[str]:
    return [f"{PREFIX}quick:{players}", f"{PREFIX}quick-order:{players}", f"{PREFIX}quick-next"]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
