"""People away from a game: waited for, then played for by the away bot until back.

A person whose connection drops keeps their seat; after ``away_after``
seconds (or at once, for running out of time too often) the table's away bot
plays for them until they are back (they reconnect, act again, or say so).
A person who leaves for good is played for to the end.  Each change is
announced in the game's stream, and the seats' presence is told again.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from ....base.clock import Clock
from ....table import Away, Back, Left
from ... import protocol
from .phases import Phase, Playing
from .seat_list import Seat, presence


class AwaySeats:
    """Who is away at one table's game, and the waits for those who dropped.

    Each call is handed the game it is about (the table's ``Playing`` phase; None: no
    game runs): a wait set in a game ends with it (``game_over``).
    """

    def __init__(
        self,
        seats: list[Seat],
        clock: Clock,
        away_after: float,
        away_bot: str,
        broadcast: Callable[[protocol.ServerMessage], None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        """``seats``: the table's (the list it keeps); ``broadcast``: tell everyone at the
        table (each seat's presence, when it changes)."""
        self.seats = seats
        self.clock = clock
        self.away_after = away_after
        self.away_bot = away_bot
        self.broadcast = broadcast
        self.spawn = spawn

    def wait_for(self, seat: int, game: Playing) -> None:
        """Seat ``seat``'s person is not here: the away bot plays for them in ``game`` unless
        they are back within ``away_after`` seconds."""
        place = self.seats[seat]
        if not place.person or place.away or place.away_timer is not None:
            return
        place.away_timer = self.clock.call_later(
            self.away_after, lambda: self.spawn(self._waited(place, game))
        )

    async def _waited(self, place: Seat, game: Playing) -> None:
        place.away_timer = None
        if place in self.seats and place.connection is None and not place.away:
            await self.away(self.seats.index(place), game)

    async def away(self, seat: int, game: Playing) -> None:
        """The seat's person is away (gone too long, or out of time too often): the bot plays."""
        if game.table.over or self.seats[seat].away:
            return
        self.seats[seat].away = True
        game.set_away(seat, True)
        self.broadcast(presence(self.seats))
        await game.table.announce(Away(seat, self.away_bot))

    def back(self, seat: int, game: Playing | None) -> None:
        """The seat's person is back (reconnected, or acting again): they play their turns."""
        self.seats[seat].away = False
        if game is None:
            return
        game.set_away(seat, False)
        if not game.table.over:
            self.spawn(game.table.announce(Back(seat)))

    def come_back(self, seat: int, phase: Phase) -> str | None:
        """The seat's person says they are here (``back``): they play their own turns again,
        and everyone hears it; an error code if their seat is not away in a game."""
        place = self.seats[seat]
        if not isinstance(phase, Playing) or not place.away or place.left:
            return protocol.NOT_NOW
        self.back(seat, phase)
        self.broadcast(presence(self.seats))
        return None

    def left(self, seat: int, game: Playing | None) -> None:
        """The seat's person left the game for good: the away bot plays it to the end."""
        place = self.seats[seat]
        place.stop_waiting()
        if game is not None and not game.table.over:
            place.away = True
            game.set_away(seat, True)
            self.spawn(game.table.announce(Left(seat, self.away_bot)))

    def game_over(self) -> None:
        """Nobody plays for anyone any more, nor waits for anyone."""
        for place in self.seats:
            place.away = False
            place.stop_waiting()
