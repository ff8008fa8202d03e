"""Play online: pick a server and a name, then play now, create a table, join one by code, or
pick one.

"Play now" asks the server for a seat at any quick-play table of the size
chosen (the oldest with room, or a new one: bots fill it after a wait).  A
new table has its rules: a turn clock or none, talk on or off.

Above them, "your games in progress": the tables on this server where this
app's player key holds a seat, as the server tells the key's owner
(``net.games_in_progress``); Enter (or ctrl+y, the newest) takes the seat
back, as after a crash.  The lobby lists the server's public tables a page
at a time (refreshed while it is open; ``[`` and ``]`` or the arrows beside
the list turn the page), and every way in ends on the table's waiting room.
Whatever the server says no to — it cannot be reached, there is no such
code, the table is full, it speaks another protocol — is said in one line
on the message line, which stays in sight above the key bar however small
the terminal, and nothing typed is lost.  When the server says when to try
again (too many wrong codes from this address), the line counts down and
joining waits until then (on the ``Clock`` the lobby is handed: the line is
redrawn each second, the seconds it says are the clock's).  A list that
reaches the server again clears what it said when it could not.  "Serve
here" starts a table server inside this app, for friends who can reach this
machine.
"""

from __future__ import annotations

import math

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from ...base.clock import SYSTEM_CLOCK, Clock
from ...engine.seat_count import MAX_SEATS, SEAT_COUNTS
from ...home.player_keys import PlayerKeys
from ...home.seat_tokens import SeatTokens
from ...net import protocol
from ...net.client import OnlineError, TableConnection, check_url, take_seat
from ...net.client.games_in_progress import GameInProgress, games_in_progress
from ...net.client.server_lists import LeaderPage, ListedTable, leaderboard, list_tables
from ...net.protocol.codes import read_code
from ...players.seat_specs import HUMAN, OPEN, online_seats_problem
from ...table.names import MAX_NAME_LENGTH, NameRefused, name_to_sit_with
from .. import plain
from ..level_ratings import bot_choices, rated, relabel
from ..preferences import Preferences
from ..widgets.key_footer import KeyFooter

#: Seconds between two looks at the server's list of tables.
REFRESH_EVERY = 3.0

#: The turn clocks a new table may have: (label, seconds per move or None).
CLOCKS: tuple[tuple[str, int | None], ...] = (
    ("No clock", None),
    ("15 s a move", 15),
    ("30 s a move", 30),
    ("60 s a move", 60),
    ("2 min a move", 120),
)


def _seat_choices(players: int) -> list[tuple[str, str]]:
    """An open seat, or a bot per level with its rating at a table of ``players``."""
    return [("Open seat", OPEN)] + [
        (rated(f"{label} bot", bot, players), bot) for label, bot in bot_choices()
    ]


class LobbyScreen(Screen[None]):
    """The way online: server, name, create / join / watch, the public tables."""

    CSS_PATH = "lobby.tcss"
    BINDINGS = [
        Binding("ctrl+y", "take_back", "Your game"),
        Binding("ctrl+g", "play_now", "Play now"),
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("ctrl+l", "leaderboard", "Leaders"),
        Binding("escape", "back", "Back"),
        Binding("left_square_bracket", "turn_page(-1)", "Previous page", show=False),
        Binding("right_square_bracket", "turn_page(1)", "Next page", show=False),
    ]

    class Seated(Message):
        """A place was taken at a server's table: follow it from here on."""

        def __init__(self, lobby: LobbyScreen, connection: TableConnection) -> None:
            super().__init__()
            self.lobby = lobby
            self.connection = connection

    class ServeHere(Message):
        """Run a table server in this app; tell the lobby its address (``serving``) or why not."""

        def __init__(self, lobby: LobbyScreen) -> None:
            super().__init__()
            self.lobby = lobby

    def __init__(
        self,
        prefs: Preferences,
        tokens: SeatTokens,
        keys: PlayerKeys | None = None,
        *,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """The lobby, filled in from ``prefs`` (which keep what is typed for next time).

        ``tokens`` are the seats this app holds at online tables, ``keys`` its
        player keys (whose tables the server is asked for); ``clock``: what the
        wait a server asks for runs on, and the connections made here.
        """
        super().__init__()
        self.prefs = prefs
        self.clock = clock
        self.tokens = tokens
        self.keys = keys if keys is not None else PlayerKeys()
        self.mine: list[GameInProgress] = []
        """This app's games in progress on the server, as it last said."""
        self.tables: list[ListedTable] = []
        self.page = 1
        """The page of the server's public tables shown (from 1)."""
        self.pages = 1
        self.busy = False
        self.not_before = 0.0
        """The time on ``clock`` before which the server asked not to be asked by code again."""
        self._counting: Timer | None = None
        """The next redraw of the wait's countdown, while one is set."""
        self._said_by_list = False
        """The message line says why the list could not be had (cleared once it can)."""
        self._error_shown = False
        """The message line says what went wrong (ctrl+r clears it, and looks again)."""
        self._keys_pressed = False
        """A key was pressed here (then your games in progress never take the focus)."""

    def compose(self) -> ComposeResult:
        settings = self.prefs.settings
        others = MAX_SEATS - 1  # every seat but the host's
        seats = list(settings.online_seats)[:others]
        players = len(seats) + 1
        seats += [OPEN] * (others - len(seats))
        choices = _seat_choices(players)
        known = {value for _, value in choices}
        with VerticalScroll(id="lobby-form", can_focus=False):
            yield Static("MANTIS · play online", id="lobby-title")
            with Horizontal(classes="row"):
                yield Label("Server", classes="label")
                yield Input(settings.server, id="server", compact=True)
                yield Button("Refresh", id="refresh", compact=True)
                yield Button("Serve here", id="serve", compact=True)
            with Horizontal(classes="row"):
                yield Label("Name", classes="label")
                yield Input(
                    settings.online_name,
                    placeholder="your name at the table",
                    id="online-name",
                    max_length=MAX_NAME_LENGTH,
                    compact=True,
                )
            with Horizontal(id="mine-head"):
                yield Static(
                    "Your games in progress · Enter takes your seat back", classes="section"
                )
            yield DataTable(id="mine", cursor_type="row", zebra_stripes=True)
            with Horizontal(classes="row"):
                yield Label("Play now", classes="label")
                yield Select(
                    [(f"{n} players", n) for n in SEAT_COUNTS],
                    value=settings.quick_players,
                    allow_blank=False,
                    id="quick-players",
                    compact=True,
                )
                yield Button("Play now", id="play-now", variant="success", compact=True)
                yield Static("any table with room · bots fill it", id="quick-note")
            with Horizontal(classes="row"):
                yield Label("New table", classes="label")
                yield Select(
                    [(f"{n} seats", n) for n in SEAT_COUNTS],
                    value=players,
                    allow_blank=False,
                    id="online-players",
                    compact=True,
                )
                yield Select(
                    [("Public: listed here", False), ("Private: by code only", True)],
                    value=False,
                    allow_blank=False,
                    id="private",
                    compact=True,
                )
                yield Button("Create", id="create", variant="success", compact=True)
            with Grid(id="online-seats"):
                for i, spec in enumerate(seats):
                    yield Select(
                        choices,
                        value=spec if spec in known else OPEN,
                        allow_blank=False,
                        id=f"online-seat-{i + 2}",
                        prompt=f"Seat {i + 2}",
                        compact=True,
                    )
            with Horizontal(classes="row", id="rules"):
                yield Select(
                    list(CLOCKS),
                    value=settings.online_clock
                    if settings.online_clock in dict(CLOCKS).values()
                    else None,
                    allow_blank=False,
                    id="online-clock",
                    compact=True,
                )
                yield Select(
                    [("Talk on", True), ("Talk off", False)],
                    value=settings.online_talk,
                    allow_blank=False,
                    id="online-talk",
                    compact=True,
                )
                yield Select(
                    [("Unrated", False), ("Rated", True)],
                    value=False,
                    allow_blank=False,
                    id="online-rated",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Join", classes="label")
                yield Input(placeholder="code: KXQD", id="code", max_length=24, compact=True)
                yield Button("Join", id="join", variant="primary", compact=True)
                yield Button("Watch", id="watch", compact=True)
                yield Button("Leaderboard", id="leaders", compact=True)
            with Horizontal(id="tables-head"):
                yield Static("Public tables · Enter joins or watches one", classes="section")
                with Horizontal(id="tables-pager"):
                    yield Static(id="tables-page")
                    yield Button("◀", id="previous-page", compact=True)
                    yield Button("▶", id="next-page", compact=True)
            yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            yield Static(id="no-tables", classes="note")
        # The message line: outside the form, so it is in sight however small the terminal.
        yield Static(id="lobby-error")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.prefs.still:
            for field in self.query(Input):
                field.cursor_blink = False
        table = self.query_one("#tables", DataTable)
        table.add_columns("Code", "State", "Clock", "Moves", "Seats")
        self.query_one("#mine", DataTable).add_columns("Code", "State", "Moves", "Seats")
        self._show_mine([])
        self._show_seats()
        self._refresh()
        self._find_mine()
        if not self.prefs.still:
            self.set_interval(REFRESH_EVERY, self._refresh)  # (the list alone, saying nothing)

    # ------------------------------------------------------------------ the form

    @on(Select.Changed, "#online-players")
    def _on_players(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            choices = _seat_choices(event.value)
            for i in range(2, MAX_SEATS + 1):
                relabel(self.query_one(f"#online-seat-{i}", Select), choices)
        self._show_seats()

    def _show_seats(self) -> None:
        players = self.query_one("#online-players", Select).value
        count = players if isinstance(players, int) else 3
        for i in range(2, MAX_SEATS + 1):
            self.query_one(f"#online-seat-{i}").display = i <= count

    def _server_url(self) -> str | None:
        try:
            return check_url(self.query_one("#server", Input).value.strip())
        except ValueError as exc:
            self.show_error(str(exc))
            return None

    def _typed_name(self) -> str | None:
        try:
            return name_to_sit_with(self.query_one("#online-name", Input).value)
        except NameRefused as exc:
            self.show_error(f"Your name: {exc}.")
            return None

    def _other_seats(self) -> tuple[str, ...]:
        players = self.query_one("#online-players", Select).value
        count = players if isinstance(players, int) else 3
        return tuple(
            str(self.query_one(f"#online-seat-{i}", Select).value) for i in range(2, count + 1)
        )

    def show_error(self, message: str) -> None:
        """Say what went wrong on the message line ("" clears it)."""
        self.show_note(message)
        self._error_shown = bool(message)

    def show_note(self, message: str) -> None:
        """Say how things stand on the message line ("Connecting…")."""
        self._said_by_list = self._error_shown = False
        line = self.query_one("#lobby-error", Static)
        line.update(plain.content(message))
        line.display = bool(message)

    # ------------------------------------------------------------------ going in

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        url, name = self._server_url(), self._typed_name()
        if url is None or name is None:
            return
        seats = (HUMAN, *self._other_seats())
        problem = online_seats_problem(seats)
        if problem is not None:
            self.show_error(f"This table cannot be: {problem}.")
            return
        private = self.query_one("#private", Select).value is True
        clock = self.query_one("#online-clock", Select).value
        seconds = clock if isinstance(clock, int) else None
        talk = self.query_one("#online-talk", Select).value is not False
        rated = self.query_one("#online-rated", Select).value is True
        if rated and seconds is None:  # (nobody may hold a rated table still)
            self.show_error("A rated table needs a turn clock: pick one beside Rated.")
            return
        self._remember(url, name, seats[1:])
        self.prefs.change(online_clock=seconds, online_talk=talk)
        create = protocol.Create(
            protocol.PROTOCOL_VERSION,
            name,
            seats,
            private=private,
            clock=seconds,
            talk=talk,
            rated=rated,
        )
        self._go(url, create)

    @on(Button.Pressed, "#play-now")
    def action_play_now(self) -> None:
        url, name = self._server_url(), self._typed_name()
        if url is None or name is None:
            return
        players = self.query_one("#quick-players", Select).value
        count = players if isinstance(players, int) else 3
        self._remember(url, name, None)
        self.prefs.change(quick_players=count)
        self._go(url, protocol.Quick(protocol.PROTOCOL_VERSION, name, count))

    @on(Button.Pressed, "#join")
    @on(Input.Submitted, "#code")
    def action_join(self) -> None:
        self._by_code(watch=False)

    @on(Button.Pressed, "#watch")
    def action_watch(self) -> None:
        self._by_code(watch=True)

    def _by_code(self, *, watch: bool, code: str | None = None) -> None:
        url = self._server_url()
        if url is None:
            return
        code = read_code(code if code is not None else self.query_one("#code", Input).value)
        if code is None:
            self.show_error(
                "Type the table's code (four letters like KXQD; twelve for a private table)."
            )
            return
        if self._locked_out():
            return
        if watch:  # (under the name typed, if any: the one spectators talk under)
            typed = self.query_one("#online-name", Input).value.strip()[:MAX_NAME_LENGTH]
            self._go(url, protocol.Watch(protocol.PROTOCOL_VERSION, code, typed))
            return
        name = self._typed_name()
        if name is None:
            return
        self._remember(url, name, None)
        join = protocol.Join(protocol.PROTOCOL_VERSION, code, name, self.tokens.token(url, code))
        self._go(url, join)

    @on(DataTable.RowSelected, "#tables")
    def _on_table_picked(self, event: DataTable.RowSelected) -> None:
        listed = next((t for t in self.tables if t.code == event.row_key.value), None)
        if listed is not None:
            self._by_code(
                watch=listed.state != "waiting" or not listed.open_seats, code=listed.code
            )

    def _remember(self, url: str, name: str, seats: tuple[str, ...] | None) -> None:
        changes: dict[str, object] = {"server": url, "online_name": name}
        if seats is not None:
            changes["online_seats"] = seats
        self.prefs.change(**changes)

    @work(exclusive=True, group="lobby-go")
    async def _go(self, url: str, opening: protocol.Hello) -> None:
        if self.busy:
            return
        self.busy = True
        self.show_note("Connecting…")
        try:
            connection = await take_seat(url, opening, self.tokens, clock=self.clock)
        except OnlineError as exc:
            if exc.retry_after is not None:
                self.not_before = self.clock.now() + exc.retry_after
                self._locked_out()  # said in the lobby's words, counted down
            else:
                self.show_error(_with_a_hint(exc))
            return
        finally:
            self.busy = False
        self.show_error("")
        self.post_message(self.Seated(self, connection))

    def _locked_out(self) -> bool:
        """Whether the server asked not to be asked by code yet: then the line says how long."""
        wait = self.not_before - self.clock.now()
        if wait <= 0:
            return False
        self.show_error(
            f"Too many wrong codes from this address: the server takes no code, not even a "
            f"listed table's, for {math.ceil(wait)} s more."
        )
        if self._counting is None:  # (said again after it was cleared: counted down again)
            self._counting = self.set_timer(1.0, self._count_down)
        return True

    def _count_down(self) -> None:
        """Count the wait down on the message line, each second, while it is said there
        (Textual's timer redraws it; the seconds are the clock's)."""
        self._counting = None
        said = str(self.query_one("#lobby-error", Static).render())
        if said.startswith("Too many wrong codes") and not self._locked_out():
            self.show_note("The server takes codes again: try once more.")

    # ------------------------------------------------------------------ your games

    def on_key(self) -> None:
        self._keys_pressed = True

    @work(exclusive=True, group="lobby-mine")
    async def _find_mine(self) -> None:
        """Ask the server where this app's key holds seats, and list them."""
        try:
            url = check_url(self.query_one("#server", Input).value.strip())
        except ValueError:
            return  # (said by the public list)
        try:
            mine = await games_in_progress(url, self.keys, self.tokens)
        except OnlineError as exc:
            if exc.code not in ("unreachable", "bad_reply"):  # (those: said by the public list)
                self.show_error(f"Your games in progress: {exc}")
            mine = ()
        self._show_mine(list(mine))

    def _show_mine(self, mine: list[GameInProgress]) -> None:
        try:
            view = self.query_one("#mine", DataTable)
        except NoMatches:
            return  # (the lobby closed while the server was asked)
        self.mine = mine
        view.clear()
        for game in mine:
            held = game.table
            state = held.state if held.state == "waiting" else f"playing game {held.game}"
            if game.token is None:
                state += " · seat taken elsewhere"
            cells = (game.code, state, str(held.moves), ", ".join(game.others()))
            view.add_row(*(plain.rich(cell) for cell in cells), key=held.code)
        shown = bool(mine)
        first = not view.display and shown
        view.display = shown
        self.query_one("#mine-head").display = shown
        if first and not self._keys_pressed and self.focused is self.query_one("#server"):
            # Back after a crash: Enter takes the seat back at once (never the focus of
            # someone who has pressed a key here already).
            view.focus()
        self.refresh_bindings()

    @on(DataTable.RowSelected, "#mine")
    def _on_mine_picked(self, event: DataTable.RowSelected) -> None:
        game = next((g for g in self.mine if g.table.code == event.row_key.value), None)
        if game is not None:
            self._take_back(game)

    def action_take_back(self) -> None:
        """Take back the seat of the newest game in progress (the list's first)."""
        if self.mine:
            self._take_back(self.mine[0])

    def _take_back(self, game: GameInProgress) -> None:
        url = self._server_url()
        if url is None:
            return
        if game.token is None:
            # What takes the seat back (its token) is kept where the seat was taken.
            self.query_one("#code", Input).value = game.code
            self.show_error(
                f"Your seat at {game.code} was taken on another computer: take it back "
                "there. From here you may watch it (Watch)."
            )
            return
        name = self.tokens.name(url, game.table.code) or ""
        join = protocol.Join(protocol.PROTOCOL_VERSION, game.table.code, name, game.token)
        self._go(url, join)

    def on_screen_resume(self) -> None:
        self._find_mine()  # back from a table: its game may be over, or another begun

    # ------------------------------------------------------------------ the list

    def action_refresh(self) -> None:
        if self._error_shown:
            self.show_error("")  # (said again if the server still cannot be reached)
        self._refresh()
        self._find_mine()

    def action_turn_page(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) page of the server's tables."""
        page = min(max(1, self.page + step), self.pages)
        if page != self.page:
            self.page = page
            self.action_refresh()

    @on(Button.Pressed, "#previous-page")
    def _on_previous_page(self) -> None:
        self.action_turn_page(-1)

    @on(Button.Pressed, "#next-page")
    def _on_next_page(self) -> None:
        self.action_turn_page(1)

    @work(exclusive=True, group="lobby-list")
    async def _refresh(self) -> None:
        url = self._server_url()
        if url is None:
            return
        try:
            listed = await list_tables(url, self.page)
        except OnlineError as exc:
            if not self.busy:
                self.show_error(_with_a_hint(exc))
                self._said_by_list = True
            self._show_tables([])
            self.query_one("#no-tables").display = False
            return
        if self._said_by_list:  # the server answers now: what was said of it is past
            self.show_error("")
        if listed.page > listed.pages:  # tables went away: the last page there is now
            self.page = listed.pages
            self.action_refresh()
            return
        self.page, self.pages = listed.page, listed.pages
        self._show_tables(list(listed.tables))
        shown = f"page {self.page} of {self.pages} · {listed.total} tables"
        self.query_one("#tables-page", Static).update(plain.content(shown))
        self.query_one("#tables-pager").display = self.pages > 1

    def _show_tables(self, tables: list[ListedTable]) -> None:
        self.tables = tables
        view = self.query_one("#tables", DataTable)
        cursor = view.cursor_row
        view.clear()
        for listed in tables:
            names = ", ".join(seat.name or "open" for seat in listed.seats)
            state = listed.state
            if state == "waiting" and listed.open_seats:
                state = f"waiting for {listed.open_seats}"
            if listed.quick:
                state = f"quick · {state}"
            clock = f"{listed.clock} s" if listed.clock is not None else "—"
            cells = (listed.code, state, clock, str(listed.moves), names)
            view.add_row(*(plain.rich(cell) for cell in cells), key=listed.code)
        if tables:
            view.move_cursor(row=min(max(cursor, 0), len(tables) - 1))
        view.display = bool(tables)
        none = self.query_one("#no-tables", Static)
        none.display = not tables
        none.update(
            "No public tables here yet: Play now (ctrl+g) finds you one, Create opens one, "
            "or Join takes a friend's code."
        )

    @on(Button.Pressed, "#refresh")
    @on(Input.Submitted, "#server")
    def _on_refresh(self) -> None:
        self.show_error("")
        self.action_refresh()

    @on(Button.Pressed, "#serve")
    def _on_serve(self) -> None:
        self.post_message(self.ServeHere(self))

    def serving(self, url: str) -> None:
        """A server runs in this app at ``url``: list its tables."""
        self.query_one("#server", Input).value = url
        self.show_note(f"Serving at {url} on this computer while Mantis runs.")
        self.action_refresh()

    def action_leaderboard(self) -> None:
        """The server's leaderboard, on a screen of its own."""
        from .leaderboard import LeaderboardScreen

        url = self._server_url()
        if url is None:
            return

        async def fetch(page: int) -> LeaderPage:
            return await leaderboard(url, page)

        self.app.push_screen(LeaderboardScreen(url, fetch))

    @on(Button.Pressed, "#leaders")
    def _on_leaders(self) -> None:
        self.action_leaderboard()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "take_back":
            return bool(self.mine)
        return True

    def action_back(self) -> None:
        self.dismiss(None)


def _with_a_hint(error: OnlineError) -> str:
    """The error, and for a server that cannot be reached, what to do about it."""
    if error.code == "unreachable":
        return f"{error} — or press Serve here to run one on this computer."
    return str(error)
