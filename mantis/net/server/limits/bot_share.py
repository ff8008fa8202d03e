"""Bot moves shared out fairly: a busy server slows the tables of whoever asks most.

A bot's move costs the server about the same whatever its level (its
thinking is a fraction of a millisecond; keeping the move, encoding and
sending it cost the rest), and one table of bots asks for a move every
``bot_pace`` seconds for as long as it plays.  So a party that opens many
bot tables could take the whole server, and every table would slow down
alike.

``BotShare`` lets up to ``rate`` bot moves a second through at once (with a
second's worth of burst): while the server is not that busy, every bot
plays at its table's own pace.  Past that, the moves waiting are let
through one address group at a time, in turn: a group with one table
waiting has it through within one round, whatever another group has
waiting, and the group with the most tables waits longest.  Nobody is
refused a table for being late: the share is decided move by move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque

from ....base.clock import Clock
from ..token_bucket import TokenBucket


class BotShare:
    """Lets bot moves through at up to ``rate`` a second, in turn by address group when busy."""

    def __init__(self, clock: Clock, rate: float) -> None:
        self.clock = clock
        self.rate = rate
        self.bucket = TokenBucket(rate, max(1.0, rate), clock.now())
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._turns: deque[str] = deque()
        """Groups with moves waiting, in the order they are served."""
        self._dispatcher: asyncio.Task[None] | None = None
        self.let_through: Counter[str] = Counter()
        """Moves let through so far, by group (for benchmarks and tests)."""

    @property
    def waiting(self) -> int:
        """Bot moves waiting for their turn."""
        return sum(len(queue) for queue in self._waiting.values())

    def waiting_for(self, group: str) -> int:
        """Bot moves of ``group``'s tables waiting for their turn."""
        return len(self._waiting.get(group, ()))

    async def move(self, group: str) -> None:
        """Return once a bot at a table of ``group`` may make its move."""
        if not self._waiting and self.bucket.allow(self.clock.now()):
            self.let_through[group] += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._waiting.get(group)
        if queue is None:
            queue = self._waiting[group] = deque()
            self._turns.append(group)
        queue.append(future)
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch())
        await future

    async def _dispatch(self) -> None:
        while self._turns:
            wait = self.bucket.wait(self.clock.now())
            if wait > 0:
                await self.clock.sleep(wait)
                continue
            group = self._turns.popleft()
            queue = self._waiting[group]
            while queue and queue[0].done():  # a table stopped while it waited
                queue.popleft()
            if queue:
                self.bucket.allow(self.clock.now())
                queue.popleft().set_result(None)
                self.let_through[group] += 1
            while queue and queue[0].done():
                queue.popleft()
            if queue:
                self._turns.append(group)
            else:
                del self._waiting[group]

    def stop(self) -> None:
        """The server is stopping: nothing more is let through."""
        if self._dispatcher is not None:
            self._dispatcher.cancel()
        for queue in self._waiting.values():
            for future in queue:
                with contextlib.suppress(asyncio.InvalidStateError):
                    future.cancel()
        self._waiting.clear()
        self._turns.clear()
