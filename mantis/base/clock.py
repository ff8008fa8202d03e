"""Time, handed in: what seats, tables and boards wait on (budgets, timers, pacing).

Everything that waits — a bot's time budget, a person's away timer, a
connection's hello, rooms forgotten after a while, a board letting a person
follow the play, a replay's autoplay — asks a ``Clock`` rather than the
event loop or ``time``, so a test can move time on instead of waiting for
it.  It lives in ``mantis.base``, below every layer, since every layer above the
engine waits on something.  ``SystemClock`` is the real one; ``ManualClock`` runs
with it but can be moved forward at once (``advance``), firing every timer
that falls due.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

T = TypeVar("T")


class Timer(Protocol):
    """A callback set to run later; ``cancel`` stops it (fine once it ran)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Seconds on one monotonic scale, and waiting on that scale."""

    def now(self) -> float:
        """The time now, in seconds (only differences mean anything)."""
        ...

    def time(self) -> float:
        """The wall clock's time now, in seconds since the epoch: for what is kept and read
        back after a restart or on another machine (a turn's deadline), never for waiting."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` (on the running loop) once ``delay`` seconds have passed."""
        ...

    async def sleep(self, delay: float) -> None:
        """Return once ``delay`` seconds have passed."""
        ...


class SystemClock:
    """The event loop's own time (``time.monotonic``)."""

    def now(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback)

    async def sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)


SYSTEM_CLOCK = SystemClock()
"""The clock everything uses unless it is handed another."""


class _ManualTimer:
    def __init__(self, clock: ManualClock, due: float, callback: Callable[[], None]) -> None:
        self.clock = clock
        self.due = due
        self.callback = callback
        self.handle: asyncio.TimerHandle | None = None
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()
        self.clock._timers.discard(self)

    def schedule(self) -> None:
        """(Re)arm on the loop for what is left until ``due`` on the clock."""
        if self.handle is not None:
            self.handle.cancel()
        if self.clock.frozen:
            return  # only ``advance`` moves a frozen clock on
        loop = asyncio.get_running_loop()
        self.handle = loop.call_later(max(0.0, self.due - self.clock.now()), self._fire)

    def _fire(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.clock._timers.discard(self)
        self.callback()


class ManualClock:
    """A clock that runs with the system's, and that a test can move forward at once.

    ``advance(seconds)`` jumps ahead: every timer and sleep that falls due
    by then fires (in the order they are due), the others stay set for the
    rest of their time.  Nothing else about time changes, so everything not
    waiting on this clock runs as usual.
    """

    def __init__(self, *, frozen: bool = False) -> None:
        """A clock running with the system's; ``frozen``: one that stands still between
        ``advance`` calls (nothing is due until the test says so, however slow the machine)."""
        self.frozen = frozen
        self._offset = 0.0
        self._timers: set[_ManualTimer] = set()
        self._changed = asyncio.Event()

    def now(self) -> float:
        return self._offset if self.frozen else time.monotonic() + self._offset

    def time(self) -> float:
        return time.time() + self._offset

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer(self, self.now() + delay, callback)
        self._timers.add(timer)
        timer.schedule()
        self._changed.set()
        return timer

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not future.done():
                future.set_result(None)

        timer = self.call_later(delay, wake)
        try:
            await future
        finally:
            timer.cancel()

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``; whatever falls due fires now."""
        self._offset += seconds
        now = self.now()
        for timer in sorted(self._timers, key=lambda t: t.due):
            if timer.due <= now:
                timer._fire()
            else:
                timer.schedule()

    def pending(self, within: float) -> int:
        """Timers (and sleeps) set to fire within ``within`` seconds from now."""
        now = self.now()
        return sum(1 for timer in self._timers if timer.due <= now + within)

    async def until_pending(self, within: float, count: int = 1) -> None:
        """Return once at least ``count`` timers are due within ``within`` seconds.

        (A test waits for the state it is about to move time past to be set up.)
        """
        while self.pending(within) < count:
            self._changed.clear()
            await self._changed.wait()


async def within(clock: Clock, delay: float, awaitable: Awaitable[T]) -> T:
    """``awaitable``'s result, or ``TimeoutError`` once ``delay`` has passed on ``clock``."""
    work = asyncio.ensure_future(awaitable)
    timer = asyncio.ensure_future(clock.sleep(delay))
    try:
        await asyncio.wait((work, timer), return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        work.cancel()
        raise
    finally:
        timer.cancel()
    if work.done():
        return work.result()
    work.cancel()
    await asyncio.wait((work,))  # its cancellation done before the caller goes on
    raise TimeoutError
