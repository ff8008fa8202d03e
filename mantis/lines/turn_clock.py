"""A person's turn clock at an online table, said: in the question, and once at 10 s left.

The server keeps the time and says how much is left when a person's clock
starts (``protocol.Clock``); this counts down from when that was heard, on
the ``Clock`` it is handed (so tests move time on), and says the warning
once, only for a turn played here and only while it is still unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..players.clock import SYSTEM_CLOCK, Clock, Timer

#: Seconds left when the warning is said.
WARNING = 10


class TurnClockCall:
    """The seconds left for the move being played, and the warning at ``WARNING`` s left."""

    def __init__(self, say: Callable[[str], None], clock: Clock = SYSTEM_CLOCK) -> None:
        self.say = say
        self.clock = clock
        self.turn: int | None = None
        """The turn (moves played before it) the running clock is for."""
        self.seat: int | None = None
        self._deadline = 0.0
        self._timer: Timer | None = None

    def heard(self, turn: int, seat: int, remaining: float, *, mine: bool) -> None:
        """The server started (or told again) a clock: ``seat`` has ``remaining`` s for
        ``turn``; ``mine``: a seat played here, which is warned."""
        self.stop()
        self.turn, self.seat = turn, seat
        self._deadline = self.clock.now() + remaining
        if mine and remaining > WARNING:
            self._timer = self.clock.call_later(remaining - WARNING, self._warn)

    def _warn(self) -> None:
        self._timer = None
        self.say(f"{WARNING} seconds left.")

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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.turn = self.seat = None
