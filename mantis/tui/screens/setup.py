"""The setup form: how many seats, who sits in each, an optional seed, Start."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from ...engine.seat_count import MAX_SEATS, SEAT_COUNTS, valid_seat_count
from ...engine.seats import SeatInfo, SeatKind
from ...players.registry import level_choices
from ...players.seat_specs import HUMAN
from ...table.names import MAX_NAME_LENGTH
from ...table.seating import DEFAULT_NAMES, SeatingError, check_names, default_names
from .. import plain
from ..level_ratings import rated_bots, relabel
from ..widgets.chosen_select import ChosenSelect
from ..widgets.key_footer import KeyFooter
from .styled_at_mount import StyledAtMount

DEFAULT_PLAYERS = 3


def _choices(extra: Sequence[str], players: int) -> list[tuple[str | Content, str]]:
    """What a seat can be: a human, a bot per level (with its rating at ``players`` seats),
    and any bot remembered."""
    options: list[tuple[str | Content, str]] = [("Human", HUMAN), *rated_bots(players)]
    known = {bot for _, bot in options}
    for bot in extra:
        if bot not in known:
            options.append((plain.content(f"Bot · {bot}"), bot))
            known.add(bot)
    return options


def _default_seats() -> list[SeatInfo]:
    levels = level_choices()
    bot = levels[min(1, len(levels) - 1)][1] if levels else "random"
    kinds: list[SeatKind] = [HUMAN if seat == 0 else "bot" for seat in range(MAX_SEATS)]
    names = default_names(kinds)
    return [
        SeatInfo(name, kind, None if kind == HUMAN else bot)
        for name, kind in zip(names, kinds, strict=True)
    ]


class SetupScreen(StyledAtMount, Screen[None]):
    """Choose the seats and start a table; the last setup is offered again."""

    # Its styles are in setup.tcss, which the app loads at start: a screen's own
    # CSS_PATH is read when it is first shown, and that parses every style again.
    # The first choice has the focus (Enter opens it), never Start: Enter alone would deal
    # a table nobody chose.  ctrl+s starts from anywhere.
    AUTO_FOCUS = "#players"
    # o, g and t are not shown in the footer: the form's own buttons say them (Play
    # online, Past games, Statistics), and each key shown there is paid for before the
    # first frame (about 13M instructions each, of some 1,800M).
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("o", "app.play_online", "Online", show=False),
        Binding("g", "app.past_games", "Past games", show=False),
        Binding("t", "app.statistics", "Stats", show=False),
    ]

    class Start(Message):
        """Deal a new table with these seats (and this seed, or a fresh one if None).

        Whoever starts it says a seat that cannot sit (``show_error``).
        """

        def __init__(self, setup: SetupScreen, seats: tuple[SeatInfo, ...], seed: int | None):
            super().__init__()
            self.setup = setup
            self.seats = seats
            self.seed = seed

    def __init__(
        self, seats: Sequence[SeatInfo] = (), seed: int | None = None, *, still: bool = False
    ) -> None:
        """The form, offering ``seats`` (the last table set up) and ``seed``.

        ``still`` stops the cursor blinking (for tests and screenshots).
        """
        super().__init__()
        self.still = still
        remembered = list(seats)
        defaults = _default_seats()
        self.players = len(remembered) if valid_seat_count(len(remembered)) else DEFAULT_PLAYERS
        # Rows beyond the remembered seats fall back to defaults with unused names.
        taken = {seat.name for seat in remembered}
        spare = iter(name for name in DEFAULT_NAMES if name not in taken)
        rows = remembered[:MAX_SEATS]
        for default in defaults[len(rows) :]:
            name = default.name if default.name not in taken else next(spare)
            rows.append(SeatInfo(name, default.kind, default.bot))
            taken.add(name)
        self.rows = rows
        self.seed = seed
        self.remembered_bots = [s.bot for s in rows if s.bot is not None]
        self.options = _choices(self.remembered_bots, self.players)

    def compose(self) -> ComposeResult:
        self.note_sheets()  # before any widget is made (see StyledAtMount)
        with VerticalScroll(id="setup", can_focus=False):
            yield Static("MANTIS · set up a table", id="title")
            with Horizontal(classes="row"):
                yield Label("Players", classes="label")
                yield ChosenSelect(
                    [(str(n), n) for n in SEAT_COUNTS],
                    value=self.players,
                    allow_blank=False,
                    id="players",
                    compact=True,
                )
                yield Static(f"2 players race to 15 cards, 3-{MAX_SEATS} to 10", classes="note")
            # One line rather than a label per column: each widget is paid for
            # before the first frame.  Its columns are the rows' (setup.tcss).
            yield Static(self._plays_as(), id="plays-as", classes="row header")
            with Vertical(id="seat-rows"):
                # Only the rows shown: the others are made when more players are
                # picked (a row's widgets are much of what the first frame costs).
                for i in range(self.players):
                    yield self._seat_row(i)
            with Horizontal(classes="row"):
                yield Label("Seed", classes="label")
                yield Input(
                    "" if self.seed is None else str(self.seed),
                    placeholder="random",
                    id="seed",
                    compact=True,
                    restrict=r"[0-9]*",
                    classes="name",
                )
                yield Static("blank = new deal; a number replays it", classes="note")
            with Horizontal(classes="row", id="start-row"):
                yield Button("Start", id="start", variant="success", compact=True)
                yield Button("Play online", id="online", compact=True, action="app.play_online")
                yield Button("Past games", id="past", compact=True, action="app.past_games")
                yield Button("Statistics", id="stats", compact=True, action="app.statistics")
            yield Static(id="error")
        yield KeyFooter()

    def _plays_as(self) -> str:
        """The column heads: seat (9 wide), name (22 and a gap of 2), who plays."""
        return f"{'Seat':<9}{'Name':<24}Plays as · a bot's rating at {self.players} players"

    def _seat_row(self, i: int) -> Horizontal:
        """Seat ``i``'s row: its number, its name and who plays it."""
        seat = self.rows[i]
        name = Input(
            seat.name, id=f"name-{i}", max_length=MAX_NAME_LENGTH, compact=True, classes="name"
        )
        if self.still:
            name.cursor_blink = False
        kind = ChosenSelect(
            self.options,
            value=HUMAN if seat.kind == HUMAN else seat.bot,
            allow_blank=False,
            id=f"kind-{i}",
            compact=True,
        )
        label = Label(f"{i + 1}", classes="label")
        return Horizontal(label, name, kind, classes="row seat", id=f"row-{i}")

    def on_mount(self) -> None:
        if self.still:
            for field in self.query(Input):
                field.cursor_blink = False

    @on(Select.Changed, "#players")
    def _on_players(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self.players:
            self.players = event.value
            self.options = _choices(self.remembered_bots, self.players)
            self.query_one("#plays-as", Static).update(self._plays_as())
            for kind in self.query_one("#seat-rows").query(".seat Select").results(Select):
                relabel(kind, self.options)
            self._show_rows()

    def _show_rows(self) -> None:
        """Show the first ``players`` rows (made the first time they are needed), hide the rest.

        A hidden row keeps what was typed in it, for when it is shown again.
        """
        seat_rows = self.query_one("#seat-rows", Vertical)
        for i in range(MAX_SEATS):
            rows = seat_rows.query(f"#row-{i}")
            if rows:
                rows.first().display = i < self.players
            elif i < self.players:
                seat_rows.mount(self._seat_row(i))

    @on(Button.Pressed, "#start")
    @on(Input.Submitted)
    def action_start(self) -> None:
        error = self.query_one("#error", Static)
        seats = []
        for i in range(self.players):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            value = self.query_one(f"#kind-{i}", Select).value
            kind: SeatKind = HUMAN if value == HUMAN else "bot"
            seats.append(SeatInfo(name, kind, None if kind == HUMAN else str(value)))
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else None
        error.update("")
        try:
            check_names([seat.name for seat in seats])
        except SeatingError as exc:
            self.show_error(exc)
            return
        self.post_message(self.Start(self, tuple(seats), seed))

    def show_error(self, error: SeatingError) -> None:
        """Say why these seats cannot make a table, and go to the seat at fault."""
        self.query_one("#error", Static).update(plain.content(error))
        if error.seat is not None:  # e.g. a remembered bot that no longer loads
            self.query_one(f"#kind-{error.seat}", Select).focus()
