"""The app's side of one online seat: the server's news, routed to the screens showing it.

The connection (``net.client.TableConnection``) yields what the server says; the
``OnlineController`` turns each event into a screen update: the waiting room
follows the seats, the board is opened on the first piece of the stream and
fed the rest, and a dropped connection is shown, never hidden, while the
client reconnects by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..net import protocol
from ..net.client import Dropped, OnlineError, Reconnected, StreamUpdate, TableConnection
from .screens.online_play import OnlinePlayScreen
from .screens.waiting_room import WaitingRoomScreen

if TYPE_CHECKING:
    from .app import MantisApp


class OnlineController:
    """Follows one online seat for the app: waiting room first, then the board."""

    def __init__(self, app: MantisApp, online: TableConnection) -> None:
        self.app = app
        self.online = online
        self.room_screen = WaitingRoomScreen(online)
        self.board: OnlinePlayScreen | None = None

    async def follow(self) -> None:
        """Route every event until the seat is closed (run as the app's worker)."""
        try:
            async for event in self.online.events():
                try:
                    self.dispatch(event)
                except Exception as exc:  # never let one odd event end the session
                    self.app.log.error(f"online event {event!r} failed: {exc!r}")
                    self.app.notify(f"Could not show an update: {exc}", severity="error")
        except OnlineError as exc:
            self._tell(f"Online play stopped: {exc}")
            self.app.notify(f"Online play stopped: {exc}", severity="error", timeout=15)

    def dispatch(self, event: object) -> None:
        """Bring the screens up to date with one event from the connection.

        Until the game's stream arrives, the waiting room shows the table; from
        then on, the board (the waiting room is left behind for good).
        """
        board, room = self.board, self.room_screen
        if isinstance(event, StreamUpdate):
            if board is None or event.reset:
                self._open_board()
            else:
                for message in event.messages:
                    board.feed(message)
        elif isinstance(event, protocol.RoomState | protocol.Presence):
            if board is not None:
                board.show_presence()
            elif room.is_mounted:
                room.update_room()
        elif isinstance(event, protocol.Error):
            if board is None and room.is_mounted:
                room.show_error(event.message)
            else:
                self.app.notify(event.message, severity="warning", timeout=6)
        elif isinstance(event, Dropped):
            self._tell(f"connection lost: reconnecting in {event.retry_in:g} s…")
        elif isinstance(event, Reconnected):
            self._tell("")
            self.app.notify("Back online.", timeout=3)

    def _tell(self, note: str) -> None:
        if self.board is not None:
            self.board.show_connection(note)
        elif self.room_screen.is_mounted:
            self.room_screen.show_connection(note)

    def _open_board(self) -> None:
        """Show the board from the whole stream so far (the first time, or after a reset)."""
        old = self.board
        board = OnlinePlayScreen(self.online, tuple(self.online.stream))
        self.board = board
        if self.app.screen is old or self.app.screen is self.room_screen:
            self.app.switch_screen(board)
        else:
            self.app.push_screen(board)
