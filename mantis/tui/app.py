"""The Mantis app: which screen is up, the session's settings, and the table's lifecycle."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding

from ..store import Settings, load_settings, save_settings
from .pacing import Pace, next_speed, pace_for
from .screens.too_small import TooSmallScreen, too_small

# Every launch pays for what this module imports before its first frame, so the
# screens, the table, the store's files and online play are imported where they
# are first used (see benchmarks/startup.py); here they are only names for types.
if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.theme import Theme

    from ..engine import GameRecord, SeatInfo
    from ..net import protocol
    from ..net.client import TableConnection
    from ..store.save_slots import SaveSlot
    from ..store.saves import LoadedSave
    from ..store.seat_tokens import SeatTokens
    from ..table import Table
    from .online import OnlineController
    from .screens.local_play import LocalPlayScreen
    from .screens.online_play import OnlinePlayScreen

RESUME_OFFER = "offer"
"""Launch option: ask whether to resume an unfinished game."""
RESUME_NOW = "now"
"""Launch option: resume the unfinished game straight away (``mantis play --resume``)."""

#: New deals get seeds below this, so a seed is short enough to note and retype.
SEED_RANGE = 1_000_000


class MantisApp(App[int]):
    """Setup, the table, game over, help and settings, with settings kept on disk."""

    CSS_PATH = "app.tcss"
    TITLE = "Mantis"
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("f2", "settings", "Settings"),
    ]

    def __init__(
        self,
        *,
        seats: Sequence[SeatInfo] | None = None,
        seed: int | None = None,
        record: GameRecord | None = None,
        upto: int | None = None,
        speed: str | None = None,
        bot_timeout: float | None = None,
        paused: bool = False,
        still: bool = False,
        settings_file: str | os.PathLike[str] | None = None,
        resume: str | None = None,
        replay: GameRecord | None = None,
        replay_title: str = "",
        online: TableConnection | None = None,
    ) -> None:
        """Open on the setup screen, or straight on a table when ``seats`` are given.

        ``record`` opens the table on that game (its seats, its deal) after
        ``upto`` of its actions (default: all), e.g. a position a test picked.
        ``speed`` and
        ``bot_timeout`` override the saved settings for this session.
        ``paused`` holds bot play until resumed or stepped.  ``still``
        removes every delay, animation and cursor blink (for tests and
        screenshots).  ``resume`` (``RESUME_OFFER`` or ``RESUME_NOW``) looks
        for an unfinished game when opening on the setup screen.  ``replay``
        opens on that record's replay screen, and closing it quits.
        ``online`` (a seat already taken at a server table) opens on that
        table's waiting room, then its board.
        """
        super().__init__()
        self.settings_file = settings_file
        self.settings, self._settings_warning = load_settings(settings_file)
        self.still = still
        self.speed = "instant" if still else (speed or self.settings.speed)
        self.bot_timeout = bot_timeout or self.settings.bot_timeout
        self.animation_level = "none" if still or not self.settings.animations else "full"
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        if record is not None and record.seats is None:
            raise ValueError("a table needs the record's seats")
        self._opening = (seats, seed, record, upto, paused)
        self._resume = resume
        self._replay = (replay, replay_title)
        self.online: OnlineController | None = None
        self._online_seat = online
        self._lobby: Screen[Any] | None = None
        self._server_url: str | None = None
        self._slot: SaveSlot | None = None

    # ------------------------------------------------------------ lifecycle

    def on_mount(self) -> None:
        if self._settings_warning:
            self.notify(self._settings_warning, severity="warning", timeout=8)
        seats, seed, record, upto, paused = self._opening
        replay, replay_title = self._replay
        if self._online_seat is not None:
            self.follow_online(self._online_seat)
        elif replay is not None:
            from .screens.replay import ReplayScreen

            self.push_screen(ReplayScreen(replay, title=replay_title, standalone=True))
        elif record is not None:
            self.push_screen(self._table_screen(self.make_table(record, upto), paused=paused))
        elif seats is not None:
            self.start_table(seats, seed, paused=paused, remember=False)
        else:
            from .screens.setup import SetupScreen

            self.push_screen(SetupScreen(self.settings.last_seats, seed))
            if self._resume is not None:
                self._offer_resume(self._resume == RESUME_NOW)
        self.theme_changed_signal.subscribe(self, self._on_theme_changed)
        self.call_after_refresh(self._check_size)

    def on_unmount(self) -> None:
        if self._slot is not None:
            self._slot.release()

    def on_resize(self) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        width, height = self.size
        if too_small(width, height) and not isinstance(self.screen, TooSmallScreen):
            self.push_screen(TooSmallScreen())

    def start_table(
        self,
        seats: Sequence[SeatInfo],
        seed: int | None = None,
        *,
        paused: bool = False,
        remember: bool = True,
    ) -> None:
        """Deal a new game (a fresh seed unless given) and show its table.

        ``SeatingError`` (naming the seat) if a seat's bot cannot be made:
        nothing is shown and nothing is remembered then.
        """
        if seed is None:
            seed = secrets.randbelow(SEED_RANGE)
        from ..table import dealt

        table = self._table_screen(self.make_table(dealt(seats, seed)), paused=paused)
        if remember:
            self.update_settings(self.settings.with_changes(last_seats=tuple(seats)))
        self._show_table(table)

    def make_table(
        self, record: GameRecord, upto: int | None = None, *, slot: SaveSlot | None = None
    ) -> Table:
        """A local table for ``record`` at ``upto`` actions: its seats' players, our keeper.

        The game is saved in ``slot`` (default: this app's own save slot).
        ``SeatingError`` (naming the seat) if a seat's bot cannot be made.
        """
        from ..table import LocalKeeper, Table, seats_of
        from .seating import make_players

        players = make_players(seats_of(record))
        keeper = LocalKeeper(save_path=(slot or self.save_slot).path)
        return Table(record, players, upto=upto, keeper=keeper, bot_timeout=self.bot_timeout)

    @property
    def save_slot(self) -> SaveSlot:
        """Where this app saves its game in progress: a slot no other app open now writes."""
        if self._slot is None:
            from ..store.save_slots import claim_slot

            self._slot = claim_slot()
            assert self._slot is not None  # some slot is always free
        return self._slot

    def _table_screen(self, table: Table, *, paused: bool = False) -> LocalPlayScreen:
        from .screens.local_play import LocalPlayScreen

        return LocalPlayScreen(table, paused=paused)

    def _show_table(self, table: LocalPlayScreen) -> None:
        if len(self.screen_stack) == 1:
            # Opened on a table: nothing but the app's blank screen to cover (and
            # the setup screen's module need not be loaded to know that).
            self.push_screen(table)
            return
        from .screens.local_play import LocalPlayScreen
        from .screens.setup import SetupScreen

        if isinstance(self.screen, SetupScreen | LocalPlayScreen):
            self.switch_screen(table)
        else:
            self.push_screen(table)

    def _offer_resume(self, now: bool) -> None:
        """Look for unfinished games no other app is playing: resume one (``now``) or offer to."""
        from ..store.save_slots import saved_games, slot_of

        mine = self.save_slot  # held first, so no app starting meanwhile takes the same one
        saves, warnings = saved_games(mine.path.parent, mine=mine)
        for warning in warnings:
            # An unreadable save was moved aside; the player sets up a new game.
            self.notify(warning, severity="warning", timeout=10)
        if not saves:
            if now and not warnings:
                self.notify("No saved game to resume: set up a new one.", timeout=6)
        elif now:
            self.resume_game(max(saves, key=_saved_at))
        else:

            def chosen(save: LoadedSave | None) -> None:
                if save is not None:
                    self.resume_game(save)

            from .screens.resume import ResumeScreen

            replaced = saves[0] if slot_of(saves[0].path) == mine.number else None
            self.push_screen(ResumeScreen(saves, replaced=replaced), chosen)

    def resume_game(self, save: LoadedSave) -> None:
        """Open the table on the saved game, at the saved position, saving on in its slot."""
        from ..store.save_slots import claim_slot, slot_of
        from .seating import SeatingError

        number = slot_of(save.path)
        mine = self._slot
        slot = mine if mine is not None and mine.number == number else None
        if slot is None and number is not None:
            slot = claim_slot(number, save.path.parent)
            if slot is None:
                self.notify(
                    "That game is open in another window or tab.", severity="warning", timeout=8
                )
                return
        try:
            table = self._table_screen(self.make_table(save.record, slot=slot))
        except SeatingError as exc:
            if slot is not None and slot is not mine:
                slot.release()
            self.notify(f"Cannot resume the saved game: {exc}", severity="error", timeout=10)
            return
        if slot is not None and slot is not mine:
            if mine is not None:
                mine.release()  # its own save, if any, is offered to the next app again
            self._slot = slot
        self._show_table(table)

    @property
    def seat_tokens(self) -> SeatTokens:
        """The seats this app holds at online tables (a file in the data directory)."""
        from ..store.seat_tokens import SeatTokens

        return SeatTokens()

    async def take_seat(
        self, url: str, opening: protocol.Create | protocol.Join | protocol.Watch
    ) -> TableConnection:
        """Reach the server and take the place asked for (``net.client.take_seat``)."""
        from ..net.client import take_seat

        return await take_seat(url, opening, self.seat_tokens)

    def follow_online(self, seat: TableConnection, *, lobby: Screen[Any] | None = None) -> None:
        """Show the table ``seat`` sits at (waiting room, then board) and follow the server.

        With ``lobby``, leaving the table goes back there; without, it quits.
        """
        from .online import OnlineController

        controller = OnlineController(self, seat)
        self.online = controller
        self._lobby = lobby
        self.push_screen(controller.room_screen)
        self.run_worker(controller.follow(), group="online", exclusive=True)

    def leave_online(self) -> None:
        """Leave the online table (the seat stays yours: joining again takes it back)."""
        controller, self.online = self.online, None
        if controller is not None:
            self.run_worker(controller.online.close(), group="closing")
            self.workers.cancel_group(self, "online")
        lobby, self._lobby = self._lobby, None
        if lobby is not None and lobby in self.screen_stack:
            while self.screen is not lobby:
                self.pop_screen()
            return
        # Reached from the command line: the lobby, where another table is a step away.
        from .screens.lobby import LobbyScreen

        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(LobbyScreen())

    def action_play_online(self) -> None:
        """Open the online lobby."""
        from .screens.lobby import LobbyScreen

        if not isinstance(self.screen, LobbyScreen):
            self.push_screen(LobbyScreen())

    async def serve_here(self) -> str:
        """Start a table server inside this app (localhost); its address.

        ``OSError`` if it cannot listen (a server may already run on that port).
        """
        if self._server_url is not None:
            return self._server_url
        from ..net.server import TableServer
        from ..store.paths import data_dir

        port = _port_of(self.settings.server)
        server = TableServer(data_dir() / "server")
        stop = asyncio.Event()
        bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def ready(host: str, got: int) -> None:
            bound.set_result(got)

        async def serve() -> None:
            try:
                await server.run("127.0.0.1", port, stop, ready)
            except OSError as exc:  # the port is taken: said on the lobby
                if not bound.done():
                    bound.set_exception(exc)

        self.run_worker(serve(), group="server", exit_on_error=False)
        got = await bound
        self._server_url = f"ws://127.0.0.1:{got}"
        return self._server_url

    def after_online_game(self, choice: str, board: OnlinePlayScreen) -> None:
        """Act on the game-over choice at an online table."""
        if choice == "replay":
            record_line = self.online.online.record if self.online is not None else None
            if record_line is not None:
                from ..engine.record import parse_record

                self.open_replay(parse_record(record_line), title=f"table {board.online.code}")
        elif choice in ("lobby", "quit"):
            self.leave_online()

    def open_replay(self, record: GameRecord, *, title: str = "") -> None:
        """Show ``record`` in the replay screen, over whatever is up."""
        from .screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(record, title=title))

    def after_game(self, choice: str, table: LocalPlayScreen) -> None:
        """Act on the game-over choice: again, rematch, new, quit (or stay)."""
        if choice == "again":
            self.start_table(table.seats, remember=False)
        elif choice == "rematch":
            self._show_table(self._table_screen(self.make_table(table.record.from_start())))
        elif choice == "replay":
            self.open_replay(table.record, title="this game")
        elif choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self.exit(0)

    # ------------------------------------------------------------ settings

    @property
    def pace(self) -> Pace:
        """The delays the table uses right now."""
        return pace_for(self.speed, animations=self.animation_level != "none")

    def update_settings(self, settings: Settings) -> None:
        """Adopt and save ``settings``; a failed save is reported, not raised."""
        self.settings = settings
        try:
            save_settings(settings, self.settings_file)
        except OSError as exc:
            self.notify(f"Could not save settings: {exc}", severity="error")

    def cycle_speed(self) -> None:
        """Switch to the next bot speed and remember it."""
        self.speed = next_speed(self.speed)
        self.update_settings(self.settings.with_changes(speed=self.speed))
        self.notify(f"Bot speed: {self.speed}", timeout=2)

    def _on_theme_changed(self, theme: Theme) -> None:
        if theme.name != self.settings.theme:
            self.update_settings(self.settings.with_changes(theme=theme.name))

    def _apply_settings(self, settings: Settings | None) -> None:
        if settings is None:
            return
        self.speed = settings.speed
        self.bot_timeout = settings.bot_timeout
        if not self.still:
            self.animation_level = "full" if settings.animations else "none"
        self.update_settings(settings)
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        from .screens.local_play import LocalPlayScreen
        from .screens.play import PlayScreen

        for screen in self.screen_stack:
            if isinstance(screen, LocalPlayScreen):
                screen.table.bot_timeout = self.bot_timeout
            if isinstance(screen, PlayScreen):
                screen.apply_insight_settings()
        self.screen.refresh_bindings()

    # ------------------------------------------------------------ actions

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_settings(self) -> None:
        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            current = self.settings.with_changes(speed=self.speed, bot_timeout=self.bot_timeout)
            self.push_screen(SettingsScreen(current, self.available_themes), self._apply_settings)

    def action_past_games(self) -> None:
        from .screens.past_games import PastGamesScreen

        if not isinstance(self.screen, PastGamesScreen):
            self.push_screen(PastGamesScreen())

    def action_statistics(self) -> None:
        from .screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen())

    def action_new_game(self) -> None:
        """Leave any table for the setup screen."""
        from .screens.local_play import LocalPlayScreen
        from .screens.setup import SetupScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, LocalPlayScreen):
            self.pop_screen()
        setup = SetupScreen(self.settings.last_seats)
        if isinstance(self.screen, SetupScreen | LocalPlayScreen):
            self.switch_screen(setup)
        else:
            self.push_screen(setup)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Set up a new table", self.action_new_game)
        yield SystemCommand("Help", "How to play, and the keys", self.action_help)
        yield SystemCommand(
            "Settings",
            "Bot speed, animations, theme, odds, coach, bot time budget",
            self.action_settings,
        )
        yield SystemCommand(
            "Play online", "Host or join a table on a server, or watch one", self.action_play_online
        )
        yield SystemCommand(
            "Past games", "Finished games: replay any of them", self.action_past_games
        )
        yield SystemCommand(
            "Statistics", "Each player's results and win rates", self.action_statistics
        )
        yield from super().get_system_commands(screen)


def _saved_at(save: LoadedSave) -> float:
    return save.saved_at.timestamp() if save.saved_at is not None else 0.0


def _port_of(url: str) -> int:
    """The port in a ``ws://host:port`` address (8765 if none can be read; 0: any free one)."""
    tail = url.rsplit(":", 1)[-1].strip("/")
    return int(tail) if tail.isdigit() and int(tail) < 65536 else 8765
