"""A clock the test moves by hand, for everything that is handed a ``Clock``.

Nothing sleeping on it wakes until the test calls ``advance``: a test of a
time budget or a pace says how much time passes, and never waits for it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools


class FakeClock:
    """Time that stands still until ``advance`` moves it on."""

    def __init__(self) -> None:
        self.time = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.time + seconds, next(self._order), future))
        await future

    @property
    def sleeping(self) -> int:
        """How many are asleep on this clock right now."""
        return sum(1 for _, _, future in self._sleepers if not future.done())

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, waking whoever's sleep is over."""
        self.time += seconds
        while self._sleepers and self._sleepers[0][0] <= self.time:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
