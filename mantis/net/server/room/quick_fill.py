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
from typing import Any

from ....base.clock import Clock
from ..directory import Directory, TableNotes
from .phases import Waiting
from .seat_list import Seat, bots_for


class QuickFill:
    """One quick-play table's offer in the directory, and its wait for bots.

    Each call is handed the table's ``Waiting`` phase and seats; it changes
    nothing of the table but the seats that bots take and the phase's wait.
    """

    def __init__(
        self,
        code: str,
        wait: float,
        clock: Clock,
        directory: Directory,
        notes: TableNotes,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        """``wait``: seconds before bots come."""
        self.code = code
        self.wait = wait
        self.clock = clock
        self.directory = directory
        self.notes = notes
        self.spawn = spawn

    async def filled(self, waiting: Waiting, seats: list[Seat], level: str) -> bool:
        """The table waited long enough: bots of ``level`` take its open seats; whether they
        did (none do once nobody is seated), and the table is to start."""
        waiting.fill, waiting.fill_at = None, None
        await self.notes.drop("fill")
        if not any(seat.person for seat in seats):
            return False
        bots_for(seats, level, lambda seat: not seat.taken)
        await self.offer(seats)
        return True

    async def offer(self, seats: Sequence[Seat]) -> int:
        """Offer the table's free seats (none: not offered any more); how many are free."""
        free = sum(1 for seat in seats if not seat.taken)
        await self.directory.quick_free(self.code, len(seats), free)
        return free

    async def wait_for_bots(
        self, waiting: Waiting, resumed: bool, fill: Callable[[], None]
    ) -> None:
        """Someone is seated: bots come in ``wait`` seconds, then ``fill`` is called
        (``resumed``: when the directory noted they were to come, if sooner)."""
        wait = self.wait
        noted = await self.notes.read("fill") if resumed else None
        with contextlib.suppress(ValueError):
            if noted is not None:
                wait = min(wait, max(0.0, float(noted) - self.clock.time()))
        waiting.fill_at = self.clock.now() + wait
        waiting.fill = self.clock.call_later(wait, fill)
        await self.notes.put("fill", str(self.clock.time() + wait), wait)

    def freed(self, waiting: Waiting, seats: Sequence[Seat]) -> None:
        """A person left the waiting room: once nobody is seated, nobody waits for bots."""
        if not any(s.person for s in seats):
            if waiting.fill is not None:
                self.spawn(self.notes.drop("fill"))
            waiting.stop_fill()

    async def share_again(self, waiting: Waiting, seats: Sequence[Seat]) -> None:
        """The directory lost what it had: offer the seats again, and note the wait."""
        await self.offer(seats)
        if waiting.fill_at is not None:
            wait = max(0.0, waiting.fill_at - self.clock.now())
            await self.notes.put("fill", str(self.clock.time() + wait), wait)
