"""Online play for the app: the lobby, the table being followed, and a server run here.

``OnlinePlay`` opens the lobby, follows the table a lobby (or ``mantis
host``/``join``/``watch``/``quick``) took a place at, leaves it, and runs a
table server inside the app on request ("Serve here").  While a table is
followed, ``TableFollower`` turns each event of its connection into a screen
update: the waiting room follows the seats, the board is opened on the first
piece of the stream and fed the rest (and opened anew when the table plays
another game), the turn clock, offers of another game and talk go to the
board, a dropped connection is shown, never hidden, while the client
reconnects by itself, and each finished game goes into this app's past
games and statistics (``store.finished``), as a game played here does.

Leaving a game for good sends the word, goes back to the lobby, and keeps
listening quietly until the game ends, so its record (a loss for this
person) still reaches this app's past games and statistics.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from . import plain

# Online play (websockets, the server) is imported when first used: no launch
# but an online one needs it before its first frame.
if TYPE_CHECKING:
    from textual.screen import Screen

    from ..net.client import TableConnection
    from .app import MantisApp
    from .preferences import Preferences
    from .screens.game_over_choice import GameOverChoice
    from .screens.lobby import LobbyScreen
    from .screens.online_play import OnlinePlayScreen
    from .screens.waiting_room import WaitingRoomScreen


class OnlinePlay:
    """The app's online play: at most one table followed at a time."""

    def __init__(self, app: MantisApp, prefs: Preferences) -> None:
        self.app = app
        self.prefs = prefs
        self.follower: TableFollower | None = None
        """The table being followed, if any."""
        self._lobby: Screen[Any] | None = None
        self._server_url: str | None = None

    def open_lobby(self) -> None:
        """Show the lobby (unless it is up already)."""
        from .screens.lobby import LobbyScreen

        if not isinstance(self.app.screen, LobbyScreen):
            self.app.push_screen(self._new_lobby())

    def _new_lobby(self) -> LobbyScreen:
        from ..store.seat_tokens import SeatTokens
        from .screens.lobby import LobbyScreen

        return LobbyScreen(self.prefs, SeatTokens())

    def follow(self, connection: TableConnection, *, lobby: Screen[Any] | None = None) -> None:
        """Show the table ``connection`` is at (waiting room, then board) and follow the server.

        With ``lobby``, leaving the table goes back there; without, to a new lobby.
        """
        if lobby is None:
            # Reached from the command line: the lobby this table leaves to (and the next
            # one) opens on this server, with the name sat down with, as if both had been
            # typed there.
            changes: dict[str, object] = {}
            if self.prefs.settings.server != connection.url:
                changes["server"] = connection.url
            name = getattr(connection.opening, "name", "")
            if name and name != self.prefs.settings.online_name:
                changes["online_name"] = name
            if changes:
                self.prefs.change(**changes)
        follower = TableFollower(self.app, self.prefs, connection)
        self.follower = follower
        self._lobby = lobby
        self.app.push_screen(follower.room_screen)
        self.app.run_worker(follower.follow(), group="online", exclusive=True)

    def leave(self) -> None:
        """Leave the followed table (the seat stays yours: joining again takes it back)."""
        follower, self.follower = self.follower, None
        app = self.app
        if follower is not None:
            app.run_worker(follower.connection.close(), group="closing")
            app.workers.cancel_group(app, "online")
        self._back_to_lobby()

    def leave_game(self) -> None:
        """Leave the followed game for good: say so, go back to the lobby, and keep
        listening in the background until its record comes (to keep it)."""
        follower, self.follower = self.follower, None
        if follower is None:
            return
        app = self.app
        app.workers.cancel_group(app, "online")
        app.run_worker(follower.listen_to_the_end(), group="left-games")
        self._back_to_lobby()

    def _back_to_lobby(self) -> None:
        app = self.app
        lobby, self._lobby = self._lobby, None
        if lobby is not None and lobby in app.screen_stack:
            while app.screen is not lobby:
                app.pop_screen()
            return
        # Reached from the command line: the lobby, where another table is a step
        # away, over the setup screen, where a game here is.
        while len(app.screen_stack) > 1:
            app.pop_screen()
        app.show_setup()
        app.push_screen(self._new_lobby())

    def serve_for(self, lobby: LobbyScreen) -> None:
        """Start a server here for ``lobby`` (in a worker): it is told the address, or why not."""

        async def serve() -> None:
            try:
                url = await self.serve_here()
            except OSError as exc:
                lobby.show_error(f"Could not start a server here: {exc.strerror or exc}")
                return
            lobby.serving(url)

        self.app.run_worker(serve(), group="serve-here", exclusive=True)

    async def serve_here(self) -> str:
        """Start a table server inside this app (localhost); its address.

        ``OSError`` if it cannot listen (a server may already run on that port).
        """
        if self._server_url is not None:
            return self._server_url
        from ..net.directory import LocalDirectory
        from ..net.server import TableServer
        from ..players.clock import SystemClock
        from ..store.paths import data_dir
        from ..store.tables_db import DB_NAME, SqliteTableStore

        port = _port_of(self.prefs.settings.server)
        store = SqliteTableStore(data_dir() / "server" / DB_NAME)
        server = TableServer(store, LocalDirectory(SystemClock()))
        stop = asyncio.Event()
        bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def ready(host: str, got: int) -> None:
            bound.set_result(got)

        async def run() -> None:
            try:
                await server.run("127.0.0.1", port, stop, ready)
            except OSError as exc:  # the port is taken: said on the lobby
                if not bound.done():
                    bound.set_exception(exc)
            finally:
                await store.close()

        self.app.run_worker(run(), group="server", exit_on_error=False)
        got = await bound
        self._server_url = f"ws://127.0.0.1:{got}"
        return self._server_url

    def after_game(self, choice: GameOverChoice, board: OnlinePlayScreen) -> None:
        """Act on the game-over choice at an online table."""
        from .screens.game_over_choice import GameOverChoice

        if choice is GameOverChoice.REPLAY:
            record = board.state.record
            if record is not None:
                from ..engine.record import parse_record

                self.app.open_replay(parse_record(record), title=f"table {board.code}")
        elif choice is GameOverChoice.REVIEW:
            record = board.state.record
            if record is not None:
                from ..engine.record import parse_record

                self.app.reviews.open(
                    parse_record(record), title=f"table {board.code}", person=board.online.seat
                )
        elif choice in (GameOverChoice.LOBBY, GameOverChoice.QUIT):
            self.leave()

    def answer(self, choice: GameOverChoice) -> None:
        """Say to the followed table: another game (offer or accept), or no."""
        from ..net import protocol
        from .screens.game_over_choice import GameOverChoice

        follower = self.follower
        if follower is None:
            return
        said = protocol.Again() if choice is GameOverChoice.AGAIN else protocol.Decline()
        self.app.run_worker(follower.connection.send(said), group="send")


class TableFollower:
    """Follows one online table for the app: waiting room first, then the board."""

    def __init__(self, app: MantisApp, prefs: Preferences, connection: TableConnection) -> None:
        from .screens.waiting_room import WaitingRoomScreen

        self.app = app
        self.prefs = prefs
        self.connection = connection
        self.room_screen: WaitingRoomScreen = WaitingRoomScreen(connection, still=prefs.still)
        self.board: OnlinePlayScreen | None = None
        self._kept: set[str] = set()
        """The records of the games kept so far (a table may play several)."""

    async def follow(self) -> None:
        """Route every event until the connection is closed (run as the app's worker)."""
        from ..net.client import OnlineError

        try:
            async for event in self.connection.events():
                try:
                    self.dispatch(event)
                except Exception as exc:  # never let one odd event end the session
                    self.app.log.error(f"online event {event!r} failed: {exc!r}")
                    plain.notify(self.app, f"Could not show an update: {exc}", severity="error")
        except OnlineError as exc:
            self._tell(f"Online play stopped: {exc}")
            plain.notify(self.app, f"Online play stopped: {exc}", severity="error", timeout=15)

    def dispatch(self, event: object) -> None:
        """Bring the screens up to date with one event from the connection.

        Until the game's stream arrives, the waiting room shows the table; from
        then on, the board (the waiting room is left behind for good).
        """
        from ..net import protocol
        from ..net.client import Dropped, Reconnected, StreamUpdate

        board, room = self.board, self.room_screen
        if isinstance(event, StreamUpdate):
            self._keep_finished(event.messages)
            if board is None or event.reset:
                self._open_board()
            else:
                for message in event.messages:
                    board.feed(message)
        elif isinstance(event, protocol.RoomState | protocol.Presence | protocol.Ratings):
            if board is not None:
                board.show_presence()
            elif room.is_mounted:
                room.update_room()
        elif isinstance(event, protocol.Clock):
            if board is not None:
                board.show_clock()
        elif isinstance(event, protocol.Offer | protocol.OfferClosed):
            if board is not None:
                board.show_offer(event if isinstance(event, protocol.OfferClosed) else None)
        elif isinstance(event, protocol.Said):
            if board is not None:
                board.hear(event)
        elif isinstance(event, protocol.Error):
            if board is None and room.is_mounted:
                room.show_error(event.message)
            else:
                plain.notify(self.app, event.message, severity="warning", timeout=6)
        elif isinstance(event, Dropped):
            self._tell(f"{event.reason}: reconnecting in {event.retry_in:g} s…")
        elif isinstance(event, Reconnected):
            self._tell("")
            self.app.notify("Back online.", timeout=3)

    def _keep_finished(self, messages: tuple[object, ...]) -> None:
        from ..table import Recorded

        for message in messages:
            if isinstance(message, Recorded) and message.record not in self._kept:
                self._kept.add(message.record)
                self.app.run_worker(self._record(message.record), group="keep")

    async def _record(self, text: str) -> None:
        """Put the finished game in this app's past games and statistics (once)."""
        from ..engine import RecordError
        from ..engine.record import parse_record
        from ..store.finished import record_finished
        from ..store.stats import StatsError

        try:
            record = parse_record(text)
        except RecordError as exc:
            plain.notify(self.app, f"The game's record could not be read: {exc}", severity="error")
            return
        origin = f"{self.connection.url} {self.connection.code} {record.seed}"
        try:
            await asyncio.to_thread(record_finished, record, origin)
        except StatsError as exc:
            plain.notify(self.app, f"Statistics not updated: {exc}", severity="warning", timeout=8)

    def _tell(self, note: str) -> None:
        if self.board is not None:
            self.board.show_connection(note)
        elif self.room_screen.is_mounted:
            self.room_screen.show_connection(note)

    def _open_board(self) -> None:
        """Show the board from the whole stream so far (the first time, or after a reset:
        another game at the table, whose board replaces the last one's and its result)."""
        from .screens.online_play import OnlinePlayScreen

        app = self.app
        old = self.board
        board = OnlinePlayScreen(self.connection, tuple(self.connection.stream), self.prefs)
        self.board = board
        if old is not None and old in app.screen_stack:
            while app.screen is not old:
                app.pop_screen()
        if app.screen is old or app.screen is self.room_screen:
            app.switch_screen(board)
        else:
            app.push_screen(board)

    async def listen_to_the_end(self) -> None:
        """This person left the game: say so, then keep its record once it comes."""
        from ..net import protocol
        from ..net.client import OnlineError, StreamUpdate

        connection = self.connection
        self.board = None
        try:
            await connection.send(protocol.Leave())
            async for event in connection.events():
                if isinstance(event, StreamUpdate):
                    self._keep_finished(event.messages)
                if connection.record is not None:
                    break
        except OnlineError:
            pass  # the table is gone: nothing more will come
        finally:
            await connection.close()


def _port_of(url: str) -> int:
    """The port in a ``ws://host:port`` address (8765 if none can be read; 0: any free one)."""
    tail = url.rsplit(":", 1)[-1].strip("/")
    return int(tail) if tail.isdigit() and int(tail) < 65536 else 8765
