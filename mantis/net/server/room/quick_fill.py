"""Quick play: a table the server seats people at, started once full, else filled with bots.

Its free seats are offered in the directory, so two people asking at once,
on any node, sit at one table.  Once someone is seated, bots of the away
bot's level take its open seats after ``quick_fill`` seconds unless it fills
first; when they come is noted in the directory, so a node that takes the
table over (or a server restarted) keeps to it.  Once nobody is seated,
nobody waits for bots.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

from ....players.clock import Clock
from ..directory import Directory, TableNotes
from .audience import Connection
from .phases import Phase, Waiting
from .seat_list import Seat, bots_for


class QuickTable(Protocol):
    """What quick play needs of its table."""

    phase: Phase
    seats: list[Seat]

    @property
    def away_bot(self) -> str: ...

    async def start_next(self) -> None: ...

    def send_room(self, but: Connection | None = None) -> None: ...

    async def keep_seats(self) -> None: ...


class QuickFill:
    """One quick-play table's offer in the directory, and its wait for bots."""

    def __init__(
        self,
        table: QuickTable,
        code: str,
        wait: float,
        clock: Clock,
        directory: Directory,
        notes: TableNotes,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        """``wait``: seconds before bots come."""
        self.table = table
        self.code = code
        self.wait = wait
        self.clock = clock
        self.directory = directory
        self.notes = notes
        self.spawn = spawn

    async def seated(self, resumed: bool = False) -> None:
        """Someone sat down: start once full, else have bots fill the table in time.

        ``resumed``: the table was taken over (or the server restarted): the
        bots come when they were to come, as the directory noted it.
        """
        table = self.table
        waiting = table.phase
        if not isinstance(waiting, Waiting):
            return
        if not await self.offer(table.seats):
            await table.start_next()
        elif waiting.fill is None and any(seat.person for seat in table.seats):
            await self.wait_for_bots(waiting, resumed)
            table.send_room()  # everyone sees when the bots will come

    async def fill(self) -> None:
        """The table waited long enough: bots take its open seats and it starts."""
        table = self.table
        waiting = table.phase
        if not isinstance(waiting, Waiting):
            return
        waiting.fill, waiting.fill_at = None, None
        await self.notes.drop("fill")
        if not any(seat.person for seat in table.seats):
            return
        bots_for(table.seats, table.away_bot, lambda seat: not seat.taken)
        await self.offer(table.seats)
        await table.keep_seats()
        await table.start_next()

    async def offer(self, seats: Sequence[Seat]) -> int:
        """Offer the table's free seats (none: not offered any more); how many are free."""
        free = sum(1 for seat in seats if not seat.taken)
        await self.directory.quick_free(self.code, len(seats), free)
        return free

    async def wait_for_bots(self, waiting: Waiting, resumed: bool) -> None:
        """Someone is seated: bots come in ``wait`` seconds (``resumed``: when the
        directory noted they were to come, if sooner)."""
        wait = self.wait
        noted = await self.notes.read("fill") if resumed else None
        with contextlib.suppress(ValueError):
            if noted is not None:
                wait = min(wait, max(0.0, float(noted) - self.clock.time()))
        waiting.fill_at = self.clock.now() + wait
        waiting.fill = self.clock.call_later(wait, lambda: self.spawn(self.fill()))
        await self.notes.put("fill", str(self.clock.time() + wait), wait)

    def freed(self) -> None:
        """A person left the waiting room: once nobody is seated, nobody waits for bots."""
        waiting = self.table.phase
        if isinstance(waiting, Waiting) and not any(s.person for s in self.table.seats):
            if waiting.fill is not None:
                self.spawn(self.notes.drop("fill"))
            waiting.stop_fill()

    async def share_again(self, waiting: Waiting, seats: Sequence[Seat]) -> None:
        """The directory lost what it had: offer the seats again, and note the wait."""
        await self.offer(seats)
        if waiting.fill_at is not None:
            wait = max(0.0, waiting.fill_at - self.clock.now())
            await self.notes.put("fill", str(self.clock.time() + wait), wait)
