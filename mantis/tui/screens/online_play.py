"""A table played on a server: the same board as a local game, fed from the network.

The server runs the game; this screen shows the public stream it sends (at a
person's pace, like a local table), marks each seat's connection, and sends
this seat's moves as intents naming the turn they answer.  Its own seat
reads as "You" on this screen, whatever the others call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ...engine import Action
from ...net.codes import shown_code
from ...net.protocol import Act, SeatRequest
from ...table import Message
from ...table.names import YOU
from ..preferences import Preferences
from ..presence import presence_label
from .board import BOARD_CSS
from .game_over import ONLINE_CHOICES
from .play import PlayScreen


class PlayLink(Protocol):
    """What the screen needs of ``net.client.TableConnection`` (a test may hand it a stand-in)."""

    url: str
    code: str | None
    seat: int | None
    presence: tuple[str, ...]

    async def send(self, message: SeatRequest) -> None: ...


class SeatOnline:
    """The move of this app's seat at a server table: sent as an intent naming its turn.

    The server runs the table and never waits for a board, so it cannot be held.
    """

    can_hold = False

    def __init__(self, online: PlayLink) -> None:
        self.online = online

    async def play(self, seat: int, turn: int, action: Action) -> None:
        await self.online.send(Act(turn, action))


class OnlinePlayScreen(PlayScreen):
    """A board for one server table, seen from this app's seat (or as a spectator)."""

    CSS_PATH = [BOARD_CSS, "play.tcss"]
    result_choices = ONLINE_CHOICES

    class Chosen(PlayScreen.Chosen):
        """The online game is over and the person chose what comes next."""

        board: OnlinePlayScreen

    def __init__(self, online: PlayLink, backlog: Sequence[Message], prefs: Preferences) -> None:
        self.online = online
        self.code = online.code
        """The table's code on its server."""
        controls = () if online.seat is None else (online.seat,)
        super().__init__(backlog, prefs, SeatOnline(online), controls=controls)
        self.connection = ""
        """Empty while connected; what is happening otherwise ("reconnecting…")."""

    def seat_names(self) -> list[str]:
        names = super().seat_names()
        if self.online.seat is not None:
            names[self.online.seat] = YOU
        return names

    # ------------------------------------------------------------------ the connection

    def start(self) -> None:
        self._mark_presence()

    def show_presence(self) -> None:
        """Mark each seat's connection, as the server last said."""
        if self.is_mounted:
            self._mark_presence()

    def _mark_presence(self) -> None:
        for panel, state in zip(self.panels, self.online.presence, strict=False):
            panel.show_presence(presence_label(state))

    def show_connection(self, note: str) -> None:
        """Say how this app's own connection is ("" once it is up)."""
        self.connection = note
        if self.is_mounted:
            self._update_status()

    def status_parts(self) -> list[str]:
        code = shown_code(self.online.code) if self.online.code else "?"
        where = f"online {code}" if self.online.seat is not None else f"watching {code}"
        parts = ["MANTIS", where, f"move {self.state.turn}", f"target {self.state.target}"]
        if self.connection:
            parts.append(self.connection)
        return parts

    def result_note(self) -> str | None:
        moves = f"{self.result.turns} moves" if self.result is not None else ""
        return f"{moves} · table {shown_code(self.online.code or '?')} on {self.online.url}"
