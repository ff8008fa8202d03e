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

from ..players.clock import Clock
from .directory import Directory, TableNotes
from .phases import Waiting
from .seat_list import Seat


class QuickFill:
    """One quick-play table's offer in the directory, and its wait for bots."""

    def __init__(
        self,
        code: str,
        wait: float,
        clock: Clock,
        directory: Directory,
        notes: TableNotes,
        fill: Callable[[], Coroutine[Any, Any, None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        """``wait``: seconds before bots come; ``fill``: what the table does then."""
        self.code = code
        self.wait = wait
        self.clock = clock
        self.directory = directory
        self.notes = notes
        self.fill = fill
        self.spawn = spawn

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

    async def bots_come(self, waiting: Waiting) -> None:
        """The wait is over (the table fills its open seats now)."""
        waiting.fill, waiting.fill_at = None, None
        await self.notes.drop("fill")

    def nobody_seated(self, waiting: Waiting) -> None:
        """Nobody is seated any more: nobody waits for bots."""
        if waiting.fill is not None:
            self.spawn(self.notes.drop("fill"))
        waiting.stop_fill()

    async def share_again(self, waiting: Waiting, seats: Sequence[Seat]) -> None:
        """The directory lost what it had: offer the seats again, and note the wait."""
        await self.offer(seats)
        if waiting.fill_at is not None:
            wait = max(0.0, waiting.fill_at - self.clock.now())
            await self.notes.put("fill", str(self.clock.time() + wait), wait)
