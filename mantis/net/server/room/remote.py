"""A seat played by a person over the network.

The table's driver asks it like any seat; it waits for the person's intent
(``answer``) without holding a thread.  While the person is away (their
connection gone for longer than the server allows), the table's away bot
plays their turns, until they are back.
"""

from __future__ import annotations

import asyncio
from random import Random

from ....base.clock import SYSTEM_CLOCK, Clock
from ....engine import Action, View
from ....players import Player, make_bot
from ....players.decision import decide
from ... import protocol


class RemoteSeat:
    """A person's seat at a server table: intents in, the away bot when they are gone."""

    def __init__(
        self, seat: int, away_bot: str, bot_timeout: float, clock: Clock = SYSTEM_CLOCK
    ) -> None:
        """Seat ``seat``, played by ``away_bot`` (within ``bot_timeout`` seconds on ``clock``)
        while its person is away."""
        self.seat = seat
        self.clock = clock
        self.away = False
        self.bot_name = away_bot
        self.bot: Player = make_bot(away_bot)
        self.bot_timeout = bot_timeout
        self.asked: int | None = None
        """The turn the table is waiting on this person for, if any."""
        self._answer: asyncio.Future[Action | None] | None = None
        self._early: tuple[int, Action] | None = None
        """A move that came before the table asked for it (the turn had just been sent)."""

    def new_game(self, seat: int, rng: Random) -> None:
        """Told by the table as every seat is: passed on to the away bot."""
        hook = getattr(self.bot, "new_game", None)
        if callable(hook):
            hook(seat, rng)

    async def choose_async(self, view: View) -> Action:
        """The person's move on ``view`` — or the away bot's, while they are away."""
        self.asked = view.turn
        early, self._early = self._early, None
        if early is not None and early[0] == view.turn:
            self.asked = None
            return early[1]
        try:
            while True:
                if self.away:
                    return (await decide(self.bot, view, self.bot_timeout, self.clock)).action
                self._answer = asyncio.get_running_loop().create_future()
                action = await self._answer
                if action is not None:
                    return action
        finally:
            self.asked = None
            self._answer = None

    def answer(self, turn: int, action: Action) -> str | None:
        """The person's intent for ``turn``; an error code if the table is not waiting for it.

        A repeated or stale intent (sent again after a reconnect) is refused,
        so no move is ever played twice.
        """
        if self.asked is None:
            # The turn was published before the table got round to asking: keep the move.
            if self._early is not None and self._early[0] == turn:
                return protocol.STALE
            self._early = (turn, action)
            return None
        answer = self._answer
        if turn != self.asked or answer is None or answer.done():
            return protocol.STALE
        answer.set_result(action)
        return None

    def wake(self) -> None:
        """The person went away: stop waiting, so the away bot takes this turn."""
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(None)
