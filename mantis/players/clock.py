"""Time as a seat's budget and a board's pace see it: a clock that is passed in.

Whatever waits for a while (a bot's time budget, a board letting a person
follow the play) asks a ``Clock`` rather than the system, so a test hands it
a clock of its own and moves time on by hand instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    """Seconds that only go forward, and a way to wait for some of them."""

    def now(self) -> float:
        """Seconds since some fixed point (only differences mean anything)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...


class SystemClock:
    """The machine's monotonic clock and asyncio's sleep."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()
"""The clock everything uses unless it is handed another."""


async def within(awaitable: Awaitable[T], seconds: float | None, clock: Clock) -> T:
    """``awaitable``'s result; ``TimeoutError`` (and it cancelled) after ``seconds`` on ``clock``.

    ``None`` waits as long as it takes.
    """
    if seconds is None or clock is SYSTEM_CLOCK:
        return await asyncio.wait_for(awaitable, seconds)
    work = asyncio.ensure_future(awaitable)
    timer = asyncio.ensure_future(clock.sleep(seconds))
    try:
        await asyncio.wait((work, timer), return_when=asyncio.FIRST_COMPLETED)
        if work.done():
            return work.result()
        raise TimeoutError
    finally:
        for task in (work, timer):
            task.cancel()
