"""Allowances shared by many connections: one token bucket per key (an address group, a table).

A connection's own limits (its messages, its lines of talk) end with it, so
whoever opens many connections gets many allowances.  What costs the server
the same whoever asks (a leaderboard page read, a line said at a table) is
also counted per address group, and talk per table: ``Allowances`` keeps one
``TokenBucket`` per key, on the clock it is handed, and forgets the least
recently used once it holds ``most`` (memory stays bounded whatever the
traffic; a forgotten key starts again full, which only ever allows more).

Each node counts its own: on a cluster, a party spread over every node has
each node's allowance (docs/operations.md).
"""

from __future__ import annotations

from collections import OrderedDict

from ..players.clock import Clock
from .token_bucket import TokenBucket

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
