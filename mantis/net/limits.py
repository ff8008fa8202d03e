"""Rate limits: a flood from one connection, and guessing table codes."""

from __future__ import annotations

from collections import deque


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
    """After ``limit`` wrong codes within ``window`` seconds, a caller waits out the window."""

    def __init__(self, limit: int = 5, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._misses: dict[str, deque[float]] = {}

    def wait(self, who: str, now: float) -> float:
        """Seconds ``who`` must wait before guessing again (0: go ahead)."""
        misses = self._misses.get(who)
        if not misses:
            return 0.0
        while misses and misses[0] <= now - self.window:
            misses.popleft()
        if not misses:
            del self._misses[who]
            return 0.0
        if len(misses) < self.limit:
            return 0.0
        return misses[0] + self.window - now

    def missed(self, who: str, now: float) -> None:
        """``who`` asked for a table that does not exist."""
        if len(self._misses) > 100_000:  # bounded memory whatever the traffic
            self._misses.clear()
        self._misses.setdefault(who, deque()).append(now)
