"""How much talk a table takes: per connection, per address group and per table.

A connection has its own allowance (one line every 2 s, 5 at once); an
address group shares one across all its connections (a line a second, 10
at once: two dozen spectator connections from one address say no more than
one person typing fast), and each table's channel one across everyone on it
(two lines a second, 10 at once: a table stays readable however many talk).
A line over any of them is not said.
"""

from __future__ import annotations

from collections.abc import Hashable

from ..players.clock import Clock
from .allowances import Allowances
from .token_bucket import TokenBucket

#: Lines of talk one connection may say: one every two seconds on average, five at once.
TALK_RATE, TALK_BURST = 0.5, 5.0
#: Lines one address group may say, all its connections together.
ADDRESS_TALK_RATE, ADDRESS_TALK_BURST = 1.0, 10.0
#: Lines one table's channel (its players', or its spectators') takes.
TABLE_TALK_RATE, TABLE_TALK_BURST = 2.0, 10.0


class TalkLimits:
    """Every allowance of talk a server keeps (on ``clock``)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._connections: dict[Hashable, TokenBucket] = {}
        self._addresses = Allowances(ADDRESS_TALK_RATE, ADDRESS_TALK_BURST, clock)
        self._tables = Allowances(TABLE_TALK_RATE, TABLE_TALK_BURST, clock)

    def opened(self, connection: Hashable) -> None:
        """``connection`` is at a table now: it gets its own allowance."""
        self._connections.setdefault(
            connection, TokenBucket(TALK_RATE, TALK_BURST, self.clock.now())
        )

    def closed(self, connection: Hashable) -> None:
        self._connections.pop(connection, None)

    def allow(self, connection: Hashable, group: str, channel: str) -> bool:
        """Whether ``connection`` (of address group ``group``) may say a line on ``channel``
        (a table's players or spectators) now; it is counted against each if so."""
        own = self._connections.get(connection)
        now = self.clock.now()
        if own is not None and own.wait(now) > 0:
            return False
        if self._addresses.wait(group) > 0 or self._tables.wait(channel) > 0:
            return False
        if own is not None:
            own.allow(now)
        self._addresses.allow(group)
        self._tables.allow(channel)
        return True
