"""How long the table lingers so a person can follow the play, and the gate that makes it.

The paces are a bot's least thinking time and how long a drawn card stays
in view, per bot speed; ``PacingGate`` applies them to a live stream.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

import msgspec

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import CardRevealed
from ..home import SPEEDS


class Pace(msgspec.Struct, frozen=True):
    """Delays in seconds: a bot's minimum thinking time and a drawn card's reveal."""

    think: float
    reveal: float


PACES = {
    "slow": Pace(think=1.4, reveal=1.4),
    "normal": Pace(think=0.5, reveal=0.6),
    "fast": Pace(think=0.25, reveal=0.3),
    "instant": Pace(think=0.0, reveal=0.0),
}
NO_DELAY = PACES["instant"]


def pace_for(speed: str, *, animations: bool = True) -> Pace:
    """The delays for ``speed``; none at all when animations are off."""
    if not animations:
        return NO_DELAY
    return PACES.get(speed, PACES["normal"])


def next_speed(speed: str) -> str:
    """The speed after ``speed`` when cycling slow → normal → fast → instant → slow."""
    index = SPEEDS.index(speed) if speed in SPEEDS else 0
    return SPEEDS[(index + 1) % len(SPEEDS)]


M = TypeVar("M")


class PacingGate(Generic[M]):
    """A live stream let through at a person's pace, and the table held until it has been.

    Messages are ``feed``-ed as they come (from a local table or a server)
    and taken one by one with ``next``: a card turned over by a seat played
    elsewhere waits until that seat has "thought" for the pace's thinking
    time since its turn was shown (``turn_shown``), and the card lingers for
    the pace's reveal time before anything after it is let through.  Nothing
    is let through while the board is covered (help, settings, a terminal
    too small).

    ``ready`` is what a table awaits before it asks the next seat: it returns
    once everything fed has been let through and the board is uncovered, and,
    while bot play is paused, only for a seat played here, the end of the
    game (``free``) or a step.  A table that cannot be held (``can_hold``
    False: a server's) is never paused.  Plain asyncio: time comes from
    ``clock``, so tests drive it.
    """

    def __init__(
        self,
        controls: frozenset[int],
        *,
        pace: Callable[[], Pace],
        free: Callable[[], bool],
        clock: Clock = SYSTEM_CLOCK,
        can_hold: bool = True,
        paused: bool = False,
        on_hold: Callable[[], None] = lambda: None,
    ) -> None:
        """``controls`` are the seats played here; ``pace`` gives the delays in force.

        ``free()`` says whether the seat to move needs no holding (it is played
        here, or the game is over); ``on_hold`` is called as the table is held.
        """
        self.controls = controls
        self.can_hold = can_hold
        self.paused = paused and can_hold
        self.held = False
        """The table is held by the pause: no seat is asked until a step or a resume."""
        self._pace = pace
        self._free = free
        self._clock = clock
        self._on_hold = on_hold
        self._inbox: deque[M] = deque()
        self._arrived = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()  # nothing fed yet, so nothing left to let through
        self._uncovered = asyncio.Event()
        self._go = asyncio.Event()
        self._stepping = False
        self._linger = 0.0
        self._turn_shown = clock.now()

    # ------------------------------------------------------------------ the stream

    def feed(self, message: M) -> None:
        """Queue a message to be let through (from any coroutine on the loop)."""
        self._inbox.append(message)
        self._idle.clear()
        self._arrived.set()

    async def next(self) -> M:
        """The next message fed, once it is due."""
        if self._linger > 0:
            linger, self._linger = self._linger, 0.0
            await self._clock.sleep(linger)
        while not self._inbox:
            self._idle.set()
            self._arrived.clear()
            await self._arrived.wait()
        message = self._inbox.popleft()
        if isinstance(message, CardRevealed):
            await self._uncovered.wait()
            pace = self._pace()
            if message.seat not in self.controls:
                rest = pace.think - (self._clock.now() - self._turn_shown)
                if rest > 0:
                    await self._clock.sleep(rest)
            self._linger = pace.reveal
        return message

    def turn_shown(self) -> None:
        """A turn was just shown: a seat played elsewhere "thinks" from now on."""
        self._turn_shown = self._clock.now()

    # ------------------------------------------------------------------ the board

    def cover(self) -> None:
        """The board is covered: nothing more is let through, and the table waits."""
        self._uncovered.clear()

    def uncover(self) -> None:
        self._uncovered.set()

    async def uncovered(self) -> None:
        """Return once the board is uncovered."""
        await self._uncovered.wait()

    # ------------------------------------------------------------------ the table

    async def ready(self) -> None:
        """Return once the table may ask its next seat."""
        while True:
            await self._idle.wait()
            await self._uncovered.wait()
            if self._free() or not self.paused:
                if self._idle.is_set():
                    return
                continue
            if not self._stepping:  # a step asked for before the table got here still counts
                self._go.clear()
            self._on_hold()
            self.held = True
            try:
                await self._go.wait()
            finally:
                self.held = False
            if self._stepping:
                self._stepping = False
                return

    def toggle_pause(self) -> None:
        """Pause bot play, or resume it (never for a table that cannot be held)."""
        if not self.can_hold:
            return
        self.paused = not self.paused
        if not self.paused:
            self._go.set()

    def step(self) -> None:
        """While paused, let one move through."""
        if self.paused:
            self._stepping = True
            self._go.set()
