"""Tables waiting or playing: on this server in all, and per address group that opened them.

Every game a table plays counts, its first and every other one: a table is
counted for the address group that opened it (``Room.owner``) when it opens
and again when another game starts at it, and given back once that game is
over (lazily: when a limit seems reached, and at every sweep).  So ``again``
never gets round ``--tables-per-address`` or ``--max-tables``.

Counts per group are ``SharedCounts`` in the server's directory (they hold
across a cluster); the total is this node's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..store.tables_interface import RoomPhase
from . import protocol
from .directory import Directory
from .limits import ServerLimits, SharedCounts


class TableCounts:
    """The tables counted against the limits, with what each group holds."""

    def __init__(
        self, directory: Directory, limits: ServerLimits, rooms: Mapping[str, Any]
    ) -> None:
        """``rooms``: the server's rooms by code (read, never changed here)."""
        self.limits = limits
        self.rooms = rooms
        self.held = SharedCounts(directory, "tables:")
        """Tables waiting or playing, by the address group that created them."""
        self.counted: dict[str, set[Any]] = {}
        """The rooms this node counts in ``held``, by group."""

    def live(self) -> int:
        """Tables waiting or playing on this node."""
        return sum(1 for room in self.rooms.values() if room.phase_name is not RoomPhase.OVER)

    async def take(self, group: str) -> str | None:
        """Count one more table for ``group``; the error code if it may not have one.

        Cheap while within the limits: the rooms are counted one by one only
        when a limit seems reached (finished tables are given back lazily).
        """
        most = self.limits.max_tables
        if len(self.rooms) >= most and self.live() >= most:
            return protocol.SERVER_FULL
        limit = self.limits.tables_per_address
        if not await self.held.take(group, limit):
            await self.settle(group)  # its finished tables no longer count
            if not await self.held.take(group, limit):
                return protocol.TOO_MANY_TABLES
        return None

    def opened(self, group: str, room: Any) -> None:
        """``room`` is counted for ``group`` (taken before it opened)."""
        self.counted.setdefault(group, set()).add(room)

    async def give_back(self, group: str) -> None:
        """A count taken for ``group`` that no table came of."""
        await self.held.give_back(group)

    async def full(self, group: str) -> str | None:
        """Whether another table would be refused to ``group`` now (its error code), without
        counting one."""
        await self.settle(group)
        most = self.limits.max_tables
        if len(self.rooms) >= most and self.live() >= most:
            return protocol.SERVER_FULL
        if await self.held.count(group) >= self.limits.tables_per_address:
            return protocol.TOO_MANY_TABLES
        return None

    async def again(self, room: Any) -> str | None:
        """Another game is about to start at ``room`` (over now): count it for the group
        that opened it; the error code if that group may not have another table."""
        group = room.owner
        await self.settle(group)  # (its last game's count first: it is over)
        refused = await self.take(group)
        if refused is None:
            self.opened(group, room)
        return refused

    async def settle(self, group: str | None = None) -> None:
        """Give back the count of every table counted here (``group``'s, or every group's)
        that is no longer waiting or playing: its game ended, or it was closed."""
        groups = list(self.counted) if group is None else [group]
        for name in groups:
            rooms = self.counted.get(name, set())
            for room in list(rooms):
                if room.phase_name is RoomPhase.OVER or self.rooms.get(room.code) is not room:
                    rooms.discard(room)
                    await self.held.give_back(name)
            if not rooms:
                self.counted.pop(name, None)

    async def refresh(self) -> None:
        """Keep this node's counts alive in the directory (see ``SharedCounts.refresh``)."""
        await self.held.refresh()

    def refusal(self, code: str) -> str:
        """The line a refused table is told with."""
        if code == protocol.SERVER_FULL:
            return "this server has as many tables as it can hold: try again later"
        limit = self.limits.tables_per_address
        return (
            f"your address has {limit} tables waiting or playing on this server: "
            "finish or leave one first"
        )
