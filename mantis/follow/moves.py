"""Where the moves of the seats played at this screen go: a local table's people, or a server.

A front end hands each move of a seat it plays to the game's ``MoveSink``:
at a table here, the seat's ``HumanPlayer`` (``SeatsHere``), which the
table driver is awaiting; at a server's table, an intent naming the turn it
answers, sent through the table's one sender (``SeatOnline``).  A sink
that the table waits for (``can_hold``) lets a pause hold the bots; a
server never waits for anyone's screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..engine import Action
from ..players import HumanPlayer

# Online play (the protocol, websockets) is imported when a move goes to a server: a
# table here opens without it.
if TYPE_CHECKING:
    from ..net import protocol


class MoveSink(Protocol):
    """Where the moves of the seats played here go."""

    @property
    def can_hold(self) -> bool:
        """Whether the table waits for what is shown here, so pausing the bots can hold it."""
        ...

    def play(self, seat: int, turn: int, action: Action) -> None:
        """Play ``action`` for ``seat``, answering the turn after ``turn`` actions."""
        ...


class SeatsHere:
    """The moves of a local table's people: each goes to its seat's ``HumanPlayer``."""

    can_hold = True

    def __init__(self, players: Sequence[object]) -> None:
        """``players``: the table's, seat by seat (a person's is a ``HumanPlayer``)."""
        self.players = players

    def play(self, seat: int, turn: int, action: Action) -> None:
        player = self.players[seat]
        if not isinstance(player, HumanPlayer):
            raise ValueError(f"seat {seat + 1} is not played here")
        player.submit(action)


class SeatOnline:
    """The move of this seat at a server's table: an intent naming the turn it answers.

    The server runs the table and never waits for a screen, so it cannot be held.
    """

    can_hold = False

    def __init__(self, send: Callable[[protocol.TableRequest], None]) -> None:
        self.send = send

    def play(self, seat: int, turn: int, action: Action) -> None:
        from ..net.protocol import Act

        self.send(Act(turn, action))


class NoMoves:
    """A game only watched go by (a replay): no seat is played here, and it holds itself
    while paused."""

    can_hold = True

    def play(self, seat: int, turn: int, action: Action) -> None:
        raise ValueError("no seat is played here")
