"""The Mantis app: which screen is up, and what every screen shares.

The app opens on the first screen its launcher hands it (``first_screens``),
moves between screens when they say so (each screen posts a ``Message`` or
dismisses with a typed result; none calls into the app), and keeps what
every screen shares: the session's preferences and the terminal's minimum
size.  Games played here live in ``LocalGames`` (tables, the save slot,
resuming), online play in ``OnlinePlay`` (the lobby, a followed table, the
server run inside the app), reviews in ``Reviews``.  Each is handed the app
as a ``Shell`` (``shell.py``): what a controller may ask of the app, so none
imports it, and none reaches another through it.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding

from ..base.clock import SYSTEM_CLOCK, Clock
from ..home import load_settings
from . import plain
from .attached_styles import StylesWhenAttached
from .local_games import LocalGames
from .online import OnlinePlay
from .preferences import Preferences
from .reviews import Reviews, person_of
from .screens.too_small import TooSmallScreen, too_small

# Every launch pays for what this module imports before its first frame, so the
# screens are imported where they are first shown (see benchmarks/startup.py);
# here they are only names for types.
if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.theme import Theme

    from ..engine import GameRecord
    from ..home import Settings
    from ..review import GameReview
    from .screens.game_over import GameOverScreen
    from .screens.lobby import LobbyScreen
    from .screens.local_play import LocalPlayScreen
    from .screens.online_play import OnlinePlayScreen
    from .screens.past_games import PastGamesScreen
    from .screens.retry import RetryScreen
    from .screens.review import ReviewScreen
    from .screens.setup import SetupScreen
    from .screens.waiting_room import WaitingRoomScreen

FirstScreen = Callable[["MantisApp"], None]
"""Shows the app's first screen (see ``first_screens``): setup, a table, a replay…"""


def _collect_again() -> None:
    """Turn the garbage collector back on once the first screen is drawn, if a launcher
    turned it off (``launch.run_play``): what was made until then lives on, so it is
    frozen (never scanned again) rather than collected."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


class MantisApp(StylesWhenAttached):
    """Setup, tables, replays, online play, help and settings, with settings kept on disk."""

    # The setup screen's styles load with the app's: it is the first screen of most
    # launches, and a screen's own CSS_PATH, read when it is shown, parses all again.
    CSS_PATH = ["app.tcss", "screens/setup.tcss"]
    TITLE = "Mantis"
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("f2", "settings", "Settings"),
    ]

    def __init__(
        self,
        first: FirstScreen | None = None,
        *,
        speed: str | None = None,
        bot_timeout: float | None = None,
        still: bool = False,
        settings_file: str | os.PathLike[str] | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """An app that opens with ``first`` (default: the setup screen).

        ``speed`` and ``bot_timeout`` override the saved settings for this
        session.  ``still`` removes every delay, animation and cursor blink
        (for tests and screenshots).  ``clock`` times the bots' budget and
        the boards' pace, and online the lobby's waits and the seconds its
        connections count down (a test's own clock, driven by hand).
        """
        # The first screen's own styles load with the app's too (see CSS_PATH).
        super().__init__(css_path=[*self.CSS_PATH, *getattr(first, "styles", ())])
        settings, self.settings_warning = load_settings(settings_file)
        self.prefs = Preferences(
            settings,
            self,
            path=settings_file,
            still=still,
            speed=speed,
            bot_timeout=bot_timeout,
            warn=lambda text: plain.notify(self, text, severity="error"),
        )
        self.animation_level = "full" if self.prefs.animations else "none"
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        self.first = first
        self.clock = clock
        self.local = LocalGames(self, self.prefs, clock)
        self.online_play = OnlinePlay(self, self.prefs, clock)
        self.reviews = Reviews(self, self.prefs, clock)

    @property
    def settings(self) -> Settings:
        """The settings as saved."""
        return self.prefs.settings

    # ------------------------------------------------------------ lifecycle

    def on_mount(self) -> None:
        if self.settings_warning:
            plain.notify(self, self.settings_warning, severity="warning", timeout=8)
        if self.first is not None:
            self.first(self)
        else:
            self.show_setup()
        self.screen.call_after_refresh(_collect_again)
        self.theme_changed_signal.subscribe(self, self._on_theme_changed)
        self.prefs.changed.subscribe(self, self._on_preferences, immediate=True)
        self.call_after_refresh(self._check_size)

    def on_unmount(self) -> None:
        self.local.release()

    def on_resize(self) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        width, height = self.size
        small, shown = too_small(width, height), isinstance(self.screen, TooSmallScreen)
        if small and not shown:
            self.push_screen(TooSmallScreen())
        elif shown and not small:
            self.pop_screen()

    def _on_theme_changed(self, theme: Theme) -> None:
        if theme.name != self.prefs.settings.theme:
            self.prefs.change(theme=theme.name)

    def _on_preferences(self, prefs: Preferences) -> None:
        self.animation_level = "full" if prefs.animations else "none"
        if prefs.settings.theme in self.available_themes:
            self.theme = prefs.settings.theme
        self.screen.refresh_bindings()

    # ------------------------------------------------------------ what screens ask for
    # Handled by Textual's handler names rather than ``@on``: ``@on`` needs each
    # message's class, and importing every screen would slow the first frame.

    def show_setup(self, seed: int | None = None) -> SetupScreen:
        """Push the setup screen, offering the remembered seats (and ``seed``)."""
        from .screens.setup import SetupScreen

        setup = SetupScreen(self.prefs.settings.last_seats, seed, still=self.prefs.still)
        self.push_screen(setup)
        return setup

    def on_setup_screen_start(self, message: SetupScreen.Start) -> None:
        self.local.start_from_setup(message)

    def on_past_games_screen_open(self, message: PastGamesScreen.Open) -> None:
        self.open_replay(message.record, title=message.title)

    def on_past_games_screen_review(self, message: PastGamesScreen.Review) -> None:
        name = self.prefs.settings.online_name if message.online else None
        person = person_of(message.record, name)
        self.open_review(message.record, title=message.title, person=person)

    def on_review_screen_jump(self, message: ReviewScreen.Jump) -> None:
        self.reviews.jump(message)

    def on_review_screen_retry(self, message: ReviewScreen.Retry) -> None:
        self.reviews.retry(message)

    def on_retry_screen_next(self, message: RetryScreen.Next) -> None:
        self.reviews.next(message)

    def on_local_play_screen_chosen(self, message: LocalPlayScreen.Chosen) -> None:
        self.local.after_game(message.choice, message.board)

    def on_online_play_screen_chosen(self, message: OnlinePlayScreen.Chosen) -> None:
        self.online_play.after_game(message.choice, message.board)

    def on_game_over_screen_answered(self, message: GameOverScreen.Answered) -> None:
        self.online_play.answer(message.choice)

    def on_online_play_screen_leave(self, message: OnlinePlayScreen.Leave) -> None:
        self.online_play.leave_game()

    def on_lobby_screen_seated(self, message: LobbyScreen.Seated) -> None:
        self.online_play.follow(message.connection, lobby=message.lobby)

    def on_lobby_screen_serve_here(self, message: LobbyScreen.ServeHere) -> None:
        self.online_play.serve_for(message.lobby)

    def on_waiting_room_screen_leave(self, message: WaitingRoomScreen.Leave) -> None:
        self.online_play.leave()

    def open_replay(
        self,
        record: GameRecord,
        *,
        title: str = "",
        then: Callable[[None], None] | None = None,
        review: GameReview | None = None,
        at: int = 0,
        focus: tuple[int, ...] = (),
    ) -> None:
        """Show ``record`` in the replay screen over whatever is up (``then``: once closed).

        With its ``review``, each option's chance is shown at every decision, from
        move ``at`` on, and the labelled decisions of the ``focus`` seats are a key away.
        """
        from .screens.replay import ReplayScreen

        screen = ReplayScreen(
            record, self.prefs, title=title, clock=self.clock, review=review, at=at, focus=focus
        )
        self.push_screen(screen, then)

    def open_review(
        self, record: GameRecord, *, title: str = "", person: int | None = None
    ) -> None:
        """Review the finished ``record`` over whatever is up, for ``person``'s seat."""
        self.reviews.open(record, title=title, person=person)

    def new_game(self) -> None:
        """Leave any table for the setup screen."""
        self.action_new_game()

    # ------------------------------------------------------------ actions

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_settings(self) -> None:
        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):

            def chosen(settings: Settings | None) -> None:
                if settings is not None:
                    self.prefs.adopt(settings)

            self.push_screen(SettingsScreen(self.prefs.current, self.available_themes), chosen)

    def action_past_games(self) -> None:
        from .screens.past_games import PastGamesScreen

        if not isinstance(self.screen, PastGamesScreen):
            self.push_screen(PastGamesScreen())

    def action_statistics(self) -> None:
        from .screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen())

    def action_play_online(self) -> None:
        """Open the online lobby."""
        self.online_play.open_lobby()

    def action_new_game(self) -> None:
        """Leave any table for the setup screen: a game in progress is asked about first, and
        kept (a game here in its save, offered again; a seat online, the server's)."""
        self.leave_tables_then(self._to_setup)

    def action_resume(self) -> None:
        """Offer the saved games no other app is playing (the one on the table is kept)."""
        self.leave_tables_then(
            lambda: self.local.offer_resume(False, asked=True), asked="resume another"
        )

    def leave_tables_then(
        self, then: Callable[[], None], *, asked: str = "set up a new one"
    ) -> None:
        """Do ``then``, once a person at a game in progress said yes to leaving it."""
        from .screens.confirm import ConfirmScreen

        board = self.local.unfinished_board()
        online = self.online_play.table is not None
        if board is None and not online:
            then()
            return
        if board is not None:
            question = (
                f"Leave this game to {asked}? It is kept as it stands: Mantis offers it "
                "back when it next starts (or Resume a game, in the palette)."
            )
        else:
            question = (
                f"Leave this table to {asked}? Your seat stays yours: the lobby lists it "
                "under Your games in progress, to take it back."
            )

        def answered(yes: bool | None) -> None:
            if yes:
                if board is not None:
                    self.local.keep_aside()
                if online:
                    self.online_play.drop()
                then()

        self.push_screen(ConfirmScreen("Leave the game", question, "Leave", "Stay"), answered)

    def _to_setup(self) -> None:
        from .screens.local_play import LocalPlayScreen
        from .screens.setup import SetupScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, LocalPlayScreen):
            self.pop_screen()
        if isinstance(self.screen, SetupScreen | LocalPlayScreen):
            self.pop_screen()
        self.show_setup()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand(
            "New game", "Set up a new table (a game in progress is kept)", self.action_new_game
        )
        yield SystemCommand(
            "Resume a game", "A saved game that is not over, as it stands", self.action_resume
        )
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
            "Past games", "Finished games: replay or review any of them", self.action_past_games
        )
        yield SystemCommand(
            "Statistics", "Each player's results and win rates", self.action_statistics
        )
        table = self.online_play.table
        if table is not None:
            yield SystemCommand(
                "Round trip", "Time how long the table's server takes to answer", table.ping
            )
            yield SystemCommand(
                "Who is here", "The people sitting at the table and those watching it", table.who
            )
        yield from super().get_system_commands(screen)
