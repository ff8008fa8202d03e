"""Rate limits: a flood from one connection, and guessing table codes."""

from __future__ import annotations

from .directory import Directory


class TokenBucket:
    """Allows ``rate`` events a second on average, and bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def allow(self, now: float) -> bool:
        """Whether one more event may pass at time ``now`` (seconds)."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class GuessLimiter:
    """After ``limit`` wrong codes within ``window`` seconds, a caller waits out the window.

    The misses are counted in the server's ``Directory``, so the limit holds
    across every node of a cluster.
    """

    def __init__(self, directory: Directory, limit: int = 5, window: float = 60.0) -> None:
        self.directory = directory
        self.limit = limit
        self.window = window

    async def wait(self, who: str) -> float:
        """Seconds ``who`` must wait before guessing again (0: go ahead)."""
        hits = await self.directory.hits(_key(who), self.window)
        return hits.clears_in if hits.count >= self.limit else 0.0

    async def missed(self, who: str) -> None:
        """``who`` asked for a table that does not exist."""
        await self.directory.hit(_key(who), self.window)


def _key(who: str) -> str:
    return f"guess:{who}"
