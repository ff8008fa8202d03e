"""A person's turn clock at an online table, said: in the question, and as it runs down.

The server keeps the time and says how much is left when a person's clock
starts (``protocol.Clock``); this counts down from when that was heard, on
the ``Clock`` it is handed (so tests move time on), and warns at half time
and at 5 seconds left (``warnings``: one of them when they fall close
together, as on a short clock), once each, only for a turn played here and
only while it is still unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..base.clock import SYSTEM_CLOCK, Clock, Timer

#: Seconds left of the last warning.
FINAL = 5
#: Warnings closer together than this are one.
APART = 3


def warnings(total: float) -> tuple[int, ...]:
    """The seconds left at which a clock of ``total`` seconds warns, most first: half time
    and ``FINAL`` seconds, each at least 2 seconds after the clock starts; one of them (the
    final one, if it fits) when they are closer than ``APART``."""
    whole = int(total)
    marks = sorted({whole // 2, FINAL}, reverse=True)
    marks = [mark for mark in marks if 1 <= mark <= whole - 2]
    if len(marks) == 2 and marks[0] - marks[1] < APART:
        marks = [FINAL] if FINAL in marks else marks[-1:]
    return tuple(marks)


def seconds_left(seconds: int) -> str:
    """ "1 second left", "5 seconds left"."""
    return f"{seconds} second{'' if seconds == 1 else 's'} left"


class TurnClockCall:
    """The seconds left for the move being played, and its warnings."""

    def __init__(self, warn: Callable[[str], None], clock: Clock = SYSTEM_CLOCK) -> None:
        """``warn`` says a warning ("5 seconds left.")."""
        self.warn = warn
        self.clock = clock
        self.turn: int | None = None
        """The turn (moves played before it) the running clock is for."""
        self.seat: int | None = None
        self._deadline = 0.0
        self._timers: list[Timer] = []

    def heard(
        self, turn: int, seat: int, remaining: float, *, mine: bool, total: float | None = None
    ) -> None:
        """The server started (or told again) a clock: ``seat`` has ``remaining`` s for
        ``turn`` of a clock of ``total`` s a move (default: ``remaining``); ``mine``: a
        seat played here, which is warned."""
        self.stop()
        self.turn, self.seat = turn, seat
        self._deadline = self.clock.now() + remaining
        if not mine:
            return
        for mark in warnings(total if total is not None else remaining):
            if remaining > mark:
                self._timers.append(self.clock.call_later(remaining - mark, self._warning(mark)))

    def _warning(self, mark: int) -> Callable[[], None]:
        """The warning at ``mark`` seconds left, to be said when it comes."""
        return lambda: self.warn(f"{seconds_left(mark).capitalize()}.")

    def seconds(self, turn: int) -> int | None:
        """Whole seconds left on the clock running for ``turn`` (None: none runs for it)."""
        if self.turn is None or turn != self.turn:
            return None
        return max(0, math.ceil(self._deadline - self.clock.now()))

    def stop(self, *, before: int | None = None) -> None:
        """The move was played (or the game ended): no clock runs, no warning comes.

        ``before``: only a clock for a turn before that one (a later turn's clock runs on).
        """
        if before is not None and (self.turn is None or self.turn >= before):
            return
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        self.turn = self.seat = None
