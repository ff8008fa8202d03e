"""A table played on a server: the same board as a local game, fed from the network.

The server runs the game; this screen shows the public stream it sends (at a
person's pace, like a local table), marks each seat's connection, and sends
this seat's moves as intents naming the turn they answer.  Its own seat
reads as "You" on this screen, whatever the others call it.  When the game
is over its record goes into this app's past games and statistics.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from ...engine import Action, RecordError
from ...engine.record import parse_record
from ...net.protocol import Act, SeatRequest
from ...store.stats import StatsDB, StatsError
from ...table import Message, Recorded
from .. import plain
from ..narration import YOU
from ..preferences import Preferences
from .board import BOARD_CSS
from .game_over import ONLINE_CHOICES
from .play import PlayScreen

#: What each seat's connection looks like on its border.
PRESENCE = {"here": "● online", "gone": "○ offline", "away": "◌ away", "open": "", "bot": ""}


class PlayLink(Protocol):
    """What the screen needs of ``net.client.TableConnection`` (a test may hand it a stand-in)."""

    url: str
    code: str | None
    seat: int | None
    presence: tuple[str, ...]

    async def send(self, message: SeatRequest) -> None: ...


class OnlinePlayScreen(PlayScreen):
    """A board for one server table, seen from this app's seat (or as a spectator)."""

    CSS_PATH = [BOARD_CSS, "play.tcss"]
    can_pause = False
    result_choices = ONLINE_CHOICES

    class Chosen(PlayScreen.Chosen):
        """The online game is over and the person chose what comes next."""

        board: OnlinePlayScreen

    def __init__(self, online: PlayLink, backlog: Sequence[Message], prefs: Preferences) -> None:
        self.online = online
        self.code = online.code
        """The table's code on its server."""
        controls = () if online.seat is None else (online.seat,)
        super().__init__(backlog, prefs, controls=controls)
        self.connection = ""
        """Empty while connected; what is happening otherwise ("reconnecting…")."""
        self._kept = False

    def seat_names(self) -> list[str]:
        names = super().seat_names()
        if self.online.seat is not None:
            names[self.online.seat] = YOU
        return names

    def submit(self, seat: int, action: Action) -> None:
        self.run_worker(self.online.send(Act(self.state.turn, action)), group="send")

    # ------------------------------------------------------------------ the connection

    def start(self) -> None:
        self._mark_presence()

    def show_presence(self) -> None:
        """Mark each seat's connection, as the server last said."""
        if self.is_mounted:
            self._mark_presence()

    def _mark_presence(self) -> None:
        for panel, state in zip(self.panels, self.online.presence, strict=False):
            panel.show_presence(PRESENCE.get(state, ""))

    def show_connection(self, note: str) -> None:
        """Say how this app's own connection is ("" once it is up)."""
        self.connection = note
        if self.is_mounted:
            self._update_status()

    def status_parts(self) -> list[str]:
        code = self.online.code or "?"
        where = f"online {code}" if self.online.seat is not None else f"watching {code}"
        parts = ["MANTIS", where, f"move {self.state.turn}", f"target {self.state.target}"]
        if self.connection:
            parts.append(self.connection)
        return parts

    def result_note(self) -> str | None:
        moves = f"{self.result.turns} moves" if self.result is not None else ""
        return f"{moves} · table {self.online.code} on {self.online.url}"

    # ------------------------------------------------------------------ the end

    def _present(self, message: Message) -> None:
        super()._present(message)
        if isinstance(message, Recorded) and not self._kept:
            self._kept = True
            self.run_worker(self._keep(message.record), group="keep")

    async def _keep(self, text: str) -> None:
        """Put the finished game in this app's past games and statistics (once)."""
        try:
            record = parse_record(text)
        except RecordError as exc:
            plain.notify(self, f"The game's record could not be read: {exc}", severity="error")
            return
        origin = f"{self.online.url} {self.online.code} {record.seed}"

        def store() -> None:
            with StatsDB() as db:
                db.record_game(record, origin=origin)

        try:
            await asyncio.to_thread(store)
        except StatsError as exc:
            plain.notify(self, f"Statistics not updated: {exc}", severity="warning", timeout=8)
