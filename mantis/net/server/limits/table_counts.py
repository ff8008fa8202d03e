"""Tables waiting or playing: on this server in all, and per address group that opened them.

Every game a table plays counts, its first and every other one: a table is
counted for the address group that opened it (``Room.owner``) when it opens,
and again for each other game once its people agree to it; the count of a
game is given back once that game is over (lazily: when a limit seems
reached, and at every sweep).  So ``again`` never gets round
``--tables-per-address`` or ``--max-tables``.

A count is *taken* at the moment a table is asked for, checked and added in
one step, and given back if no table comes of it: requests that arrive
together never all see the same count.  Counts per group are
``SharedCounts`` in the server's directory (one step there too, so they
hold across a cluster); the total is this node's own, counted in memory
before anything is awaited.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ....store.tables_interface import RoomPhase
from ... import protocol
from ..directory import Directory
from .server_limits import ServerLimits, SharedCounts


@dataclass(eq=False)
class Ticket:
    """A table counted for ``group`` as it is asked for: given back if none comes of it."""

    group: str
    room: Any | None = None
    """The table it became (once it is in the server's rooms)."""
    done: bool = False
    """Given back, or settled: nothing more to give."""


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
        self.counted: dict[str, dict[Any, int]] = {}
        """The rooms this node counts in ``held``, by group: each with the number of the
        game it is counted for (1, its first; another's once its people agreed to it)."""
        self.opening = 0
        """Tables counted and not among the rooms yet (being made), for the total."""

    def live(self) -> int:
        """Tables waiting or playing on this node, and those about to play another game."""
        return sum(
            1
            for room in self.rooms.values()
            if room.phase_name is not RoomPhase.OVER or self._to_play(room)
        )

    def _to_play(self, room: Any) -> bool:
        """Whether ``room`` is counted for a game it has not played yet."""
        number = self.counted.get(room.owner, {}).get(room)
        return number is not None and number > room.game_number

    def _server_full(self) -> bool:
        """Whether this node holds as many tables as it may (cheap while far from it)."""
        most = self.limits.max_tables
        if len(self.rooms) + self.opening < most:
            return False
        return self.live() + self.opening >= most

    async def take(self, group: str) -> Ticket | str:
        """Count one more table for ``group``: its ticket, or the error code if it may not
        have one.

        The total is checked and taken before anything is awaited; the group's
        count in one step of the directory.  Cheap while within the limits: the
        rooms are counted one by one only when a limit seems reached (finished
        tables are given back lazily).
        """
        if self._server_full():
            return protocol.SERVER_FULL
        self.opening += 1
        limit = self.limits.tables_per_address
        try:
            if await self.held.take(group, limit):
                return Ticket(group)
            await self.settle(group)  # its finished tables no longer count
            if await self.held.take(group, limit):
                return Ticket(group)
        except BaseException:
            self.opening -= 1
            raise
        self.opening -= 1
        return protocol.TOO_MANY_TABLES

    def opened(self, ticket: Ticket, room: Any) -> None:
        """``ticket``'s table is ``room``, which joins the server's rooms now (before
        anything is awaited: it is counted once, as a room)."""
        self.counted.setdefault(ticket.group, {})[room] = 1
        ticket.room = room
        self.opening -= 1

    async def give_back(self, ticket: Ticket) -> None:
        """No table came of ``ticket`` (or it never opened): its count is given back."""
        if ticket.done:
            return
        ticket.done = True
        if ticket.room is None:
            self.opening -= 1
        elif self.counted.get(ticket.group, {}).pop(ticket.room, None) is None:
            return  # (settled already: given back then)
        else:
            self._tidy(ticket.group)
        await self.held.give_back(ticket.group)

    async def full(self, group: str) -> str | None:
        """Whether another table would be refused to ``group`` now (its error code), without
        counting one."""
        await self.settle(group)
        if self._server_full():
            return protocol.SERVER_FULL
        if await self.held.count(group) >= self.limits.tables_per_address:
            return protocol.TOO_MANY_TABLES
        return None

    async def again(self, room: Any) -> str | None:
        """Another game is about to start at ``room`` (over now): count it for the group
        that opened it; the error code if that group may not have another table.

        Counted once, however many of its people agree at once.  A room whose last
        game's count is still held here carries it on to the next game (that game is
        over); one whose count was given back takes a new one.
        """
        group = room.owner
        number = room.game_number + 1
        rooms = self.counted.setdefault(group, {})
        held = rooms.get(room)
        if held is not None and held >= number:
            return None  # (counted already)
        if self._server_full():
            return protocol.SERVER_FULL
        rooms[room] = number  # taken for the total at once (settle leaves it be)
        if held is not None:
            return None
        limit = self.limits.tables_per_address
        try:
            if await self.held.take(group, limit):
                return None
            await self.settle(group)
            if await self.held.take(group, limit):
                return None
        except BaseException:
            self.counted.get(group, {}).pop(room, None)
            self._tidy(group)
            raise
        self.counted.get(group, {}).pop(room, None)
        self._tidy(group)
        return protocol.TOO_MANY_TABLES

    def _tidy(self, group: str) -> None:
        if not self.counted.get(group, True):
            self.counted.pop(group, None)

    async def settle(self, group: str | None = None) -> None:
        """Give back the count of every table counted here (``group``'s, or every group's)
        whose game it was counted for is over, or that was closed."""
        groups = list(self.counted) if group is None else [group]
        for name in groups:
            rooms = self.counted.get(name, {})
            for room, number in list(rooms.items()):
                gone = self.rooms.get(room.code) is not room
                played = room.phase_name is RoomPhase.OVER and room.game_number >= number
                if (gone or played) and rooms.get(room) == number:
                    del rooms[room]
                    await self.held.give_back(name)
            self._tidy(name)

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
