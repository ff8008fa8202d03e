"""How much talk a table takes: per connection, per address group and per table; and how
often a connection is answered what it asks for itself alone (``ping``, ``who``).

A connection has its own allowance (one line every 2 s, 5 at once); an
address group shares one across all its connections (a line a second, 10
at once: two dozen spectator connections from one address say no more than
one person typing fast), on every node of a cluster (the directory keeps it:
``SharedAllowances``), and each table's channel one across everyone on it
(two lines a second, 10 at once: a table stays readable however many talk;
every line said at a table goes through the node that runs it).  A line over
any of them is not said; a line is taken from all three at once, or from
none (those sent together never pass one of them).

A connection's requests answered to it alone (``ping``, ``who``) have an
allowance of each kind beside its talk's (three at once, then one every five
seconds): what a connection at a table may say and how often, kept in one
place.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, get_args

from ....base.clock import Clock
from ..directory import Directory
from ..token_bucket import TokenBucket
from .allowances import Allowances, SharedAllowances

#: Lines of talk one connection may say: one every two seconds on average, five at once.
TALK_RATE, TALK_BURST = 0.5, 5.0
#: Lines one address group may say, all its connections together.
ADDRESS_TALK_RATE, ADDRESS_TALK_BURST = 1.0, 10.0
#: Lines one table's channel (its players', or its spectators') takes.
TABLE_TALK_RATE, TABLE_TALK_BURST = 2.0, 10.0
#: Pings (and, apart, ``who``s) a connection is answered: three at once, then one every 5 s.
PING_RATE, PING_BURST = 0.2, 3.0
Asked = Literal["ping", "who"]
"""The kinds answered to the asker alone, each with an allowance of its own."""
ASKED: tuple[Asked, ...] = get_args(Asked)


class TalkLimits:
    """Every allowance of talk a server keeps (on ``clock``)."""

    def __init__(self, clock: Clock, directory: Directory) -> None:
        self.clock = clock
        self._connections: dict[Hashable, TokenBucket] = {}
        self._asked: dict[tuple[Asked, Hashable], TokenBucket] = {}
        self._addresses = SharedAllowances(
            directory, "talk:", ADDRESS_TALK_RATE, ADDRESS_TALK_BURST, clock
        )
        self._tables = Allowances(TABLE_TALK_RATE, TABLE_TALK_BURST, clock)

    def opened(self, connection: Hashable) -> None:
        """``connection`` is at a table now: it gets its own allowance."""
        self._connections.setdefault(
            connection, TokenBucket(TALK_RATE, TALK_BURST, self.clock.now())
        )

    def closed(self, connection: Hashable) -> None:
        self._connections.pop(connection, None)
        for kind in ASKED:
            self._asked.pop((kind, connection), None)

    def ask(self, connection: Hashable, kind: Asked) -> bool:
        """Whether ``connection``'s request of ``kind`` (one of ``ASKED``) may be answered
        now; it is counted if so."""
        now = self.clock.now()
        key = (kind, connection)
        bucket = self._asked.setdefault(key, TokenBucket(PING_RATE, PING_BURST, now))
        return bucket.allow(now)

    async def take(self, connection: Hashable, group: str, channel: str) -> bool:
        """Whether ``connection`` (of address group ``group``) may say a line on ``channel``
        (a table's players or spectators) now; it is counted against each if so."""
        own = self._connections.get(connection)
        if own is not None and own.wait(self.clock.now()) > 0:
            return False
        if self._tables.wait(channel) > 0:
            return False
        if await self._addresses.take(group) > 0:
            return False
        # Taken from the others once the address's line is taken: another line may have
        # taken the table's last meanwhile (a connection's own lines come one at a time).
        if own is not None and not own.allow(self.clock.now()):
            await self._addresses.give_back(group)
            return False
        if not self._tables.allow(channel):
            if own is not None:
                own.give_back()
            await self._addresses.give_back(group)
            return False
        return True
