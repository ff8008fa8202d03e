"""A game's pace at a table: bots move no faster than a person can follow, and the time
from a person's intent to their move going out is measured.

A bot (or the away bot, for a person away) waits until ``bot_pace`` seconds
have passed since its turn began, then for the server's share of bot moves
(``BotShare``: a busy server spreads them out); a person's turn is never held.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ....base.clock import Clock
from ....engine import CardRevealed, TurnStarted
from ....table import Message
from ..limits.bot_share import BotShare
from .seat_list import Seat


class MovePace:
    """One table's pace: whose turn began when, and when a person's intent came."""

    def __init__(
        self,
        seats: Sequence[Seat],
        clock: Clock,
        bot_pace: float,
        moved: Callable[[float | None], None],
        bots: BotShare | None = None,
        owner: str = "",
    ) -> None:
        """``moved``: told each move's latency (None: a bot's); ``bots``: the server's
        share of bot moves (None: bots move at their pace), ``owner``'s share."""
        self.seats = seats
        self.clock = clock
        self.bot_pace = bot_pace
        self.moved = moved
        self.bots = bots
        self.owner = owner
        self.mover: int | None = None
        """The seat whose turn began last."""
        self._turn_began = clock.now()
        self._intent_at: float | None = None

    def saw(self, message: Message) -> None:
        """The game published ``message``."""
        if isinstance(message, TurnStarted):
            self.mover = message.seat
            self._turn_began = self.clock.now()

    def intent(self) -> None:
        """A person's move was accepted now."""
        self._intent_at = self.clock.now()

    def sent(self, messages: Sequence[Message]) -> None:
        """``messages`` went out: a move among them took this long from its intent."""
        if any(isinstance(m, CardRevealed) for m in messages):
            intent, self._intent_at = self._intent_at, None
            self.moved(None if intent is None else self.clock.now() - intent)

    async def paced(self) -> None:
        """Before a move: a bot's (or away seat's) waits its pace and its share."""
        mover = self.mover
        if mover is None or self.seats[mover].kind == "human" and not self.seats[mover].away:
            return
        rest = self._turn_began + self.bot_pace - self.clock.now()
        if rest > 0:
            await self.clock.sleep(rest)
        if self.bots is not None:
            await self.bots.move(self.owner)  # a busy server shares its bot moves out
