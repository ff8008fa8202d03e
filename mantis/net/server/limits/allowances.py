"""Allowances shared by many connections: one token bucket per key (an address group, a table).

A connection's own limits (its messages, its lines of talk) end with it, so
whoever opens many connections gets many allowances.  What costs the server
the same whoever asks (a leaderboard page read, a line said at a table) is
also counted per address group, and talk per table: ``Allowances`` keeps one
``TokenBucket`` per key, on the clock it is handed, and forgets the least
recently used once it holds ``most`` (memory stays bounded whatever the
traffic; a forgotten key starts again full, which only ever allows more).

An address group's allowance is one across a cluster (``SharedAllowances``):
kept in the server's directory, taken there in one step (a Lua script in
Redis), so a party spread over every node, or asking many times at once,
has one allowance, not one per node; a node whose directory is away counts
on its own meanwhile.  A table's allowance is its node's alone: every line
said at a table goes through the node that runs it.
"""

from __future__ import annotations

from collections import OrderedDict

from ....base.clock import Clock
from ...cluster.outages import CLUSTER_ERRORS
from ..directory import Directory
from ..token_bucket import TokenBucket

#: Keys an ``Allowances`` remembers at most.
MOST_KEYS = 50_000


class Allowances:
    """``rate`` events a second on average, bursts of ``burst``, per key."""

    def __init__(self, rate: float, burst: float, clock: Clock, most: int = MOST_KEYS) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.most = most
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock.now())
            if len(self._buckets) > self.most:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def allow(self, key: str) -> bool:
        """Whether one more event under ``key`` may pass now (it is counted if so)."""
        return self._bucket(key).allow(self.clock.now())

    def wait(self, key: str) -> float:
        """Seconds until one more event under ``key`` may pass (0: now)."""
        return self._bucket(key).wait(self.clock.now())

    def give_back(self, key: str) -> None:
        """An event taken under ``key`` did not happen after all: its token is back."""
        self._bucket(key).give_back()


class SharedAllowances:
    """``rate`` events a second on average, bursts of ``burst``, per key, counted in the
    ``directory`` under ``prefix`` (each node's own ``Allowances`` while it is away)."""

    def __init__(
        self, directory: Directory, prefix: str, rate: float, burst: float, clock: Clock
    ) -> None:
        self.directory = directory
        self.prefix = prefix
        self.rate = rate
        self.burst = burst
        self.local = Allowances(rate, burst, clock)

    async def take(self, key: str) -> float:
        """One event under ``key``, checked and counted in one step: 0 if it may pass now
        (it is counted), else the seconds until one may."""
        try:
            return await self.directory.take_token(self.prefix + key, self.rate, self.burst)
        except CLUSTER_ERRORS:
            return 0.0 if self.local.allow(key) else self.local.wait(key)

    async def give_back(self, key: str) -> None:
        """An event taken under ``key`` did not happen after all."""
        try:
            await self.directory.give_token(self.prefix + key, self.rate, self.burst)
        except CLUSTER_ERRORS:
            self.local.give_back(key)
