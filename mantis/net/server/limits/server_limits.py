"""What one party may cost a server: the limits, and the counts they are checked against.

``ServerLimits`` holds every limit a server runs with (``mantis serve``
sets each one; docs/protocol.md lists them with their errors).  Counts per
address group (tables, connections, wrong guesses) are kept in the server's
``Directory``, so a limit holds across every node of a cluster; what only
one process holds (its sockets, its tables in total) is counted locally.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..directory import Directory


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """Every limit a server enforces; the defaults are what ``mantis serve`` uses."""

    tables_per_address: int = 10
    """Tables waiting or playing that one address group may have created (``too_many_tables``)."""
    max_tables: int = 1000
    """Tables waiting or playing on this server process (``server_full`` at ``create``)."""
    idle_waiting: float = 600.0
    """Seconds a waiting table nobody is connected to is kept before it is closed."""
    connections_per_address: int = 32
    """WebSocket connections one address group may hold (``too_many_connections``)."""
    max_connections: int = 10_000
    """Connections this process takes (``server_full``); lowered to fit the open-file limit."""
    spectators_per_table: int = 100
    """Spectators one table takes (``too_many_spectators``)."""
    bot_moves: float = 200.0
    """Bot moves a second the server makes before it shares them out by address group."""
    guesses: int = 5
    """Wrong codes (or tokens) one address group may try within ``guess_window``."""
    guess_window: float = 60.0
    """Seconds a wrong guess counts against its address group."""
    max_buffered: int = 256 * 1024
    """Bytes waiting to be written to one connection before it is dropped as too slow."""
    send_buffer: int = 64 * 1024
    """The kernel's send buffer asked for each connection (``SO_SNDBUF``; 0: the system's)."""
    names_per_key: int = 3
    """New names one player key may hold a day (``too_many_names``)."""
    names_per_address: int = 10
    """New names the keys of one address group may hold a day, together."""


class GuessLimiter:
    """After ``limit`` wrong codes within ``window`` seconds, a caller waits out the window.

    The misses are counted in the server's ``Directory``, so the limit holds
    across every node of a cluster; a miss is counted in one step with the look
    at the count, so misses sent together are ``limit`` at most.
    """

    def __init__(self, directory: Directory, limit: int = 5, window: float = 60.0) -> None:
        self.directory = directory
        self.limit = limit
        self.window = window

    async def wait(self, who: str) -> float:
        """Seconds ``who`` must wait before guessing again (0: go ahead)."""
        hits = await self.directory.hits(_key(who), self.window)
        return max(hits.clears_in, 1.0) if hits.count >= self.limit else 0.0

    async def miss(self, who: str) -> float:
        """``who`` asked for a table (or a seat) that does not exist: counted, if within its
        limit (0), else the seconds it must wait (nothing counted)."""
        taken = await self.directory.take_hit(_key(who), self.window, self.limit)
        return 0.0 if taken.receipt is not None else max(taken.hits.clears_in, 1.0)


def _key(who: str) -> str:
    return f"guess:{who}"


#: Seconds a count lives in the directory after its last change: the part of a node
#: that dies without giving it back is forgotten then (``refresh`` keeps live ones).
COUNT_TTL = 300.0


class SharedCounts:
    """How many of something each address group holds, counted across nodes.

    Every node adds its part to one count per group in the ``Directory``
    (``prefix`` + group) and remembers its own part: ``refresh`` keeps the
    count alive while the node holds a part of it, and puts its part back
    if the directory lost it (a restarted Redis).
    """

    def __init__(self, directory: Directory, prefix: str, ttl: float = COUNT_TTL) -> None:
        self.directory = directory
        self.prefix = prefix
        self.ttl = ttl
        self.held: Counter[str] = Counter()
        """This node's part of each group's count."""

    async def take(self, group: str, limit: int) -> bool:
        """One more for ``group``, if that keeps it within ``limit``; whether it did."""
        key = self.prefix + group
        value = await self.directory.add(key, 1, self.ttl)
        if value > limit:
            await self.directory.add(key, -1, self.ttl)
            return False
        self.held[group] += 1
        return True

    async def give_back(self, group: str) -> None:
        """One fewer for ``group`` (only a part this node holds is given back)."""
        if self.held[group] <= 0:
            return
        self.held[group] -= 1
        if not self.held[group]:
            del self.held[group]
        key = self.prefix + group
        value = await self.directory.add(key, -1, self.ttl)
        if value < 0:  # the directory had lost the count: never below nothing
            await self.directory.add(key, -value, self.ttl)

    async def count(self, group: str) -> int:
        """``group``'s count across every node."""
        return max(0, await self.directory.count(self.prefix + group))

    async def refresh(self) -> None:
        """Keep every count this node holds a part of from expiring (call well within ``ttl``)."""
        for group, mine in list(self.held.items()):
            value = await self.directory.add(self.prefix + group, 0, self.ttl)
            if value < mine:
                await self.directory.add(self.prefix + group, mine - max(value, 0), self.ttl)
