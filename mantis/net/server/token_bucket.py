"""A token bucket: ``rate`` events a second on average, bursts of up to ``burst``.

The one shape of every allowance that refills with time (a connection's
messages, its pings, talk, plain pages, bot moves, reads of the store).
"""

from __future__ import annotations


class TokenBucket:
    """Allows ``rate`` events a second on average, and bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def allow(self, now: float) -> bool:
        """Whether one more event may pass at time ``now`` (seconds)."""
        self.refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refill(self, now: float) -> None:
        """Add what has flowed in since the last look."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait(self, now: float) -> float:
        """Seconds until one more event may pass (0: now)."""
        self.refill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def give_back(self) -> None:
        """One event taken did not happen after all: its token is back (never past ``burst``)."""
        self.tokens = min(self.burst, self.tokens + 1)
