"""Online play for the app: the lobby, the table being followed, and a server run here.

``OnlinePlay`` opens the lobby, follows the table a lobby (or ``mantis
host``/``join``/``watch``/``quick``) took a place at, leaves it, and runs a
table server inside the app on request ("Serve here").  The table itself
is a ``follow.OnlineTable``: the one reader of its connection and the one
sender of its intents, which tells the screens each change of the table;
its tasks run as the app's workers.  Here, the table's waiting room is
shown first, then a board for each game whose stream begins (``GameBegan``:
the first, or another at the same table, whose board replaces the last
one's and its result); what concerns the app itself (online play stopped,
a round trip, a game kept) is said in a notification.

Leaving a game for good says so, goes back to the lobby, and leaves the
table to keep listening until the game ends, so its record (a loss for this
person) still reaches this app's past games and statistics.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, assert_never

from . import plain

# Online play (websockets, the server) is imported when first used: no launch
# but an online one needs it before its first frame.
if TYPE_CHECKING:
    from textual.screen import Screen

    from ..base.clock import Clock
    from ..follow.changes import Change
    from ..follow.online_table import OnlineTable, Running
    from ..net import protocol
    from ..net.client import TableConnection
    from .preferences import Preferences
    from .screens.game_over_choice import GameOverChoice
    from .screens.lobby import LobbyScreen
    from .screens.online_play import OnlinePlayScreen
    from .screens.waiting_room import WaitingRoomScreen
    from .shell import Shell


class OnlinePlay:
    """The app's online play: at most one table followed at a time."""

    def __init__(self, shell: Shell, prefs: Preferences, clock: Clock) -> None:
        """Online play in ``shell``; ``clock``: what the lobby's waits and the connections it
        makes run on (the seconds the screens count down)."""
        self.shell = shell
        self.prefs = prefs
        self.clock = clock
        self.table: OnlineTable | None = None
        """The table being followed, if any."""
        self.room: WaitingRoomScreen | None = None
        """Its waiting room."""
        self.board: OnlinePlayScreen | None = None
        """The board of its game on show, once one began."""
        self._lobby: Screen[Any] | None = None
        self._server_url: str | None = None

    def open_lobby(self) -> None:
        """Show the lobby (unless it is up already)."""
        from .screens.lobby import LobbyScreen

        if not isinstance(self.shell.screen, LobbyScreen):
            self.shell.push_screen(self._new_lobby())

    def _new_lobby(self) -> LobbyScreen:
        from ..home.seat_tokens import SeatTokens
        from .screens.lobby import LobbyScreen

        return LobbyScreen(self.prefs, SeatTokens(), clock=self.clock)

    def follow(self, connection: TableConnection, *, lobby: Screen[Any] | None = None) -> None:
        """Show the table ``connection`` is at (waiting room, then board) and follow the server.

        With ``lobby``, leaving the table goes back there; without, to a new lobby.
        """
        from ..follow.online_table import OnlineTable
        from .screens.waiting_room import WaitingRoomScreen

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
        if self.table is not None:
            self.table.close()
        table = OnlineTable(connection, lambda change: self._heard(table, change), run=self._run)
        self.table, self.board, self._lobby = table, None, lobby
        self.room = WaitingRoomScreen(table, still=self.prefs.still)
        self.shell.push_screen(self.room)
        table.start()

    def _run(self, work: Coroutine[Any, Any, None], name: str) -> Running:
        """A task of a followed table, as a worker of the app (an error in it ends the app,
        with its traceback, but for closing a connection)."""
        return self.shell.run_worker(work, name=name, group="online", exit_on_error=name != "close")

    def _heard(self, table: OnlineTable, change: Change) -> None:
        """What the app itself does with a change of a table it follows (the screens
        showing the table hear it too)."""
        from ..follow import changes
        from ..follow.people import people_line

        followed = table is self.table
        match change:
            case changes.GameBegan():
                if followed:
                    self.shell.call_later(self.open_board, table)
            case changes.RoundTrip(seconds=seconds):
                if followed:
                    self.shell.notify(f"Round trip to the server: {seconds * 1000:.0f} ms.")
            case changes.People(people=people):
                if followed and not table.left:
                    plain.notify(self.shell, people_line(people), timeout=8)  # (names)
            case changes.Reconnected():
                if followed:
                    self.shell.notify("Back online.", timeout=3)
            case changes.Stopped(reason=reason):
                if followed:
                    plain.notify(
                        self.shell, f"Online play stopped: {reason}", severity="error", timeout=15
                    )
            case changes.GameKept(left=True, code=code):
                plain.notify(
                    self.shell,
                    f"The game you left at table {code} is over: it is in your past games, "
                    "counted as a loss.",
                    timeout=10,
                )
            case changes.NotKept(reason=reason):
                plain.notify(self.shell, reason, severity="warning", timeout=8)
            case (
                changes.StreamGrew()
                | changes.SeatsChanged()
                | changes.ClockRuns()
                | changes.OfferChanged()
                | changes.Said()
                | changes.Refused()
                | changes.Dropped()
                | changes.GameKept()
            ):
                pass  # the screens showing the table show these (they hear them too)
            case _:  # a kind of change left out is a type error (mypy), not a silence
                assert_never(change)

    def open_board(self, table: OnlineTable) -> None:
        """Show the board of the game that began at ``table`` (the first time, or another
        game at the table: its board replaces the last one's and its result)."""
        from .screens.online_play import OnlinePlayScreen

        if table is not self.table:
            return  # a table left meanwhile
        shell = self.shell
        old = self.board
        board = OnlinePlayScreen(table, self.prefs)
        self.board = board
        if old is not None and old in shell.screen_stack:
            while shell.screen is not old:
                shell.pop_screen()
        if shell.screen is old or shell.screen is self.room:
            shell.switch_screen(board)
        else:
            shell.push_screen(board)

    def leave(self) -> None:
        """Leave the followed table (the seat stays yours: joining again takes it back)."""
        self.drop()
        self._back_to_lobby()

    def drop(self) -> None:
        """Stop following the table, wherever the app goes next (the seat stays yours)."""
        table, self.table = self.table, None
        if table is not None:
            table.close()

    def leave_game(self) -> None:
        """Leave the followed game for good: say so and go back to the lobby; the table
        listens on until the game's record comes (to keep it)."""
        table, self.table = self.table, None
        if table is None:
            return
        table.leave_game(listening=False)
        self._back_to_lobby()

    def _back_to_lobby(self) -> None:
        shell = self.shell
        self.room = self.board = None
        lobby, self._lobby = self._lobby, None
        if lobby is not None and lobby in shell.screen_stack:
            while shell.screen is not lobby:
                shell.pop_screen()
            return
        # Reached from the command line: the lobby, where another table is a step
        # away, over the setup screen, where a game here is.
        while len(shell.screen_stack) > 1:
            shell.pop_screen()
        shell.show_setup()
        shell.push_screen(self._new_lobby())

    def serve_for(self, lobby: LobbyScreen) -> None:
        """Start a server here for ``lobby`` (in a worker): it is told the address, or why not."""

        async def serve() -> None:
            try:
                url = await self.serve_here()
            except OSError as exc:
                lobby.show_error(f"Could not start a server here: {exc.strerror or exc}")
                return
            lobby.serving(url)

        self.shell.run_worker(serve(), group="serve-here", exclusive=True)

    async def serve_here(self) -> str:
        """Start a table server inside this app (localhost); its address.

        ``OSError`` if it cannot listen (a server may already run on that port).
        """
        if self._server_url is not None:
            return self._server_url
        from ..base.clock import SystemClock
        from ..base.paths import data_dir
        from ..net.server.assembly import table_server
        from ..net.server.directory import LocalDirectory
        from ..store.tables_sqlite import DB_NAME, SqliteTableStore

        port = _port_of(self.prefs.settings.server)
        store = SqliteTableStore(data_dir() / "server" / DB_NAME)
        server = table_server(store, LocalDirectory(SystemClock()))
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

        self.shell.run_worker(run(), group="server", exit_on_error=False)
        got = await bound
        self._server_url = f"ws://127.0.0.1:{got}"
        return self._server_url

    def after_game(self, choice: GameOverChoice, board: OnlinePlayScreen) -> None:
        """Act on the game-over choice at an online table."""
        from .screens.game_over_choice import GameOverChoice

        if choice in (GameOverChoice.REPLAY, GameOverChoice.REVIEW):
            text = board.state.record
            if text is None:
                return
            from ..engine import RecordError
            from ..table.outside_records import read_outside_record
            from . import plain

            try:
                record = read_outside_record(text)  # (the server's: checked and cleaned)
            except RecordError as exc:
                plain.notify(
                    self.shell, f"The game's record could not be read: {exc}", severity="error"
                )
                return
            title = f"table {board.code}"
            if choice is GameOverChoice.REPLAY:
                self.shell.open_replay(record, title=title)
            else:
                self.shell.open_review(record, title=title, person=board.online.seat)
        elif choice in (GameOverChoice.LOBBY, GameOverChoice.QUIT):
            self.leave()

    def answer(self, choice: GameOverChoice) -> None:
        """Say to the followed table: another game (offer or accept), or no.

        An offer nobody else is there to accept would start a game at once, bots
        in the seats of those who left and the clock running: it is asked first.
        """
        from ..net import protocol
        from .screens.confirm import ConfirmScreen
        from .screens.game_over_choice import GameOverChoice

        table = self.table
        if table is None:
            return
        if choice is not GameOverChoice.AGAIN:
            table.send(protocol.Decline())
            return
        question = _starts_at_once(table.room, table.seat, table.offer)
        if question is None:
            table.send(protocol.Again())
            return

        def answered(yes: bool | None) -> None:
            if yes and self.table is table:
                table.send(protocol.Again())

        self.shell.push_screen(
            ConfirmScreen("Another game", question, "Play again", "Not now"), answered
        )


def _starts_at_once(
    room: protocol.RoomState | None, seat: int | None, offer: protocol.Offer | None
) -> str | None:
    """What another game offered now would be, if it starts with nobody else to accept it
    (every other seat a bot, or played by one for a person who left); else None."""
    if room is None or seat is None or offer is not None:
        return None
    others = [s for i, s in enumerate(room.seats) if i != seat]
    if any(s.kind == "human" and s.taken and not s.left for s in others):
        return None  # someone to accept it: an offer they answer
    left = [s.name for s in others if s.left]
    if not left:
        return None  # against bots alone, as chosen at the start
    from ..table.narration import join_names

    who = join_names(left)
    clock = f", your clock running ({room.clock} s a move)" if room.clock else ""
    return (
        f"Nobody is here to accept: {who} left, and {room.away_bot} would play "
        f"{'their seats' if len(left) > 1 else 'that seat'}. Another game starts at once"
        f"{clock}. Play again?"
    )


def _port_of(url: str) -> int:
    """The port in a ``ws://host:port`` address (8765 if none can be read; 0: any free one)."""
    tail = url.rsplit(":", 1)[-1].strip("/")
    return int(tail) if tail.isdigit() and int(tail) < 65536 else 8765
