"""The board every game position is shown on: seats, turn banner, draw pile, odds and log.

A board is drawn from a table's public stream and nothing else: the messages
it is given are folded into a ``PublicPosition`` (the position anyone may know)
and each one brings the widgets up to date.  So a local table, a replay and
a table played on a server look and behave the same: only where the stream
comes from differs.  Each subclass adds its own line above the footer
through ``compose_bottom`` (the table's coach and action buttons, the
replay's progress bar) and its own status line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import ClassVar, NamedTuple

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...engine import CardRevealed, ExtraTurn, GameOver, Scored, SeatInfo, Stolen, TurnStarted
from ...table import (
    Away,
    Back,
    Fault,
    KeepFailed,
    Left,
    Message,
    Opening,
    PublicPosition,
    StartFailed,
    Talk,
    TimedOut,
)
from ...table.credit import credited_names, stand_ins
from ...table.names import clean_name
from ...table.narration import game_over_line, narrate, opening_line, possessive
from ...table.seating import describe
from .. import plain
from ..preferences import Preferences
from ..widgets.draw_pile import DrawPile
from ..widgets.game_log import GameLog
from ..widgets.key_footer import KeyFooter
from ..widgets.odds_panel import OddsPanel, face_labels
from ..widgets.seat_panel import SeatPanel
from ..widgets.turn_banner import TurnBanner
from .styled_at_mount import StyledAtMount

#: The board's layout; subclasses list it before their own stylesheet.  Absolute,
#: because Textual resolves a relative CSS_PATH next to the subclass's module.
BOARD_CSS = Path(__file__).with_name("board.tcss")
#: From this terminal height the turn banner grows to three rows.
TALL_HEIGHT = 32
#: Rows the draw pile and log need at least; seats get the rest.
LOWER_MIN_HEIGHT = 8
#: A seat drawn with one row per colour: 7 rows, the score line and borders.
ROOMY_PANEL_HEIGHT = 10
#: Table notices the log shows without a move number.
NOTICES = (StartFailed, Away, Back, Left)


class LogLine(NamedTuple):
    """One line of the game log: its text, its move number (if any), bold, and talk."""

    text: str
    turn: int | None
    strong: bool = False
    talk: bool = False


class BoardScreen(StyledAtMount, Screen[None]):
    """One table's position from its public stream: every seat, the banner, the pile, the log.

    ``state`` is the stream folded so far and ``messages`` the stream itself.
    Subclasses feed further messages to ``_present`` and add their widgets
    below the log with ``compose_bottom``.
    """

    # Textual does not combine CSS_PATH along the class tree: a subclass lists both.
    CSS_PATH: ClassVar[str | PurePath | list[str | PurePath] | None] = BOARD_CSS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL_HEIGHT, "-tall")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    seed: int | None = None
    """The deal's seed when this board may show it (a local table, a replay)."""

    def __init__(self, backlog: Sequence[Message], prefs: Preferences) -> None:
        """A board for the stream so far: ``backlog`` starts with the table's ``Opening``.

        ``prefs`` say whether the odds are shown; the board follows their changes.
        """
        super().__init__()
        self.prefs = prefs
        if not backlog or not isinstance(backlog[0], Opening):
            raise ValueError("a board starts from the table's opening")
        self.state = PublicPosition.of(backlog)
        self.messages: list[Message] = list(backlog)
        """Every message shown so far, from the opening on."""
        self.seats: tuple[SeatInfo, ...] = self.state.seats
        self.names = self.seat_names()
        self.panels: list[SeatPanel] = []

    def seat_names(self) -> list[str]:
        """The names the board calls the seats by (the seats' own, unless a subclass says).

        Cleaned as every name is (``clean_name``): a record or save edited by
        hand may name a seat with markup or escape codes.
        """
        return [clean_name(seat.name) or f"Seat {i + 1}" for i, seat in enumerate(self.seats)]

    def played_on(self) -> dict[int, str]:
        """Per seat whose person left the game, the bot that plays it on (from the stream)."""
        return stand_ins(self.messages)

    def result_names(self) -> list[str]:
        """The seats' names as the result credits them: "Ann's seat (played by greedy)"
        where Ann left (``table.credit``)."""
        return credited_names(self.names, self.played_on())

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        self.note_sheets()  # before any widget is made (see StyledAtMount)
        # Roomy or not is settled before the widgets exist (the screen has its size
        # by now): settled on the first resize, it would restyle the whole board a
        # second time. The breakpoints' classes too, which Textual would set on that resize.
        self._set_breakpoints()
        self._fit_tanks()
        view = self.state.view()
        pickable = self.pickable_at_start()
        self.panels = [
            SeatPanel(seat, self.names[seat], describe(info), view, pickable=seat in pickable)
            for seat, info in enumerate(self.seats)
        ]
        yield Static(id="status")
        yield TurnBanner(id="banner")
        with Horizontal(id="seats", classes=f"-n{self.state.players}"):
            yield from self.panels
        with Horizontal(id="lower"):
            with Vertical(id="side"):
                yield DrawPile(id="pile")
                yield OddsPanel(id="odds")
            yield GameLog(id="log")
        yield from self.compose_bottom()
        yield KeyFooter()

    def pickable_at_start(self) -> tuple[int, ...]:
        """The seats a click picks as the board opens (a subclass's controls say)."""
        return ()

    def compose_bottom(self) -> ComposeResult:
        """The subclass's own widgets, between the log and the footer (one row, as a rule)."""
        yield from ()

    def on_mount(self) -> None:
        self.prefs.changed.subscribe(self, self.follow_preferences, immediate=True)

    def on_resize(self) -> None:
        self._fit_tanks()

    def _set_breakpoints(self) -> None:
        """The classes Textual gives the screen for its size (``*_BREAKPOINTS``), set now."""
        width, height = self.size
        classes: dict[str, bool] = {}
        for length, points in (
            (width, self.HORIZONTAL_BREAKPOINTS or []),
            (height, self.VERTICAL_BREAKPOINTS or []),
        ):
            reached = [name for at, name in sorted(points) if length >= at]
            classes.update((name, bool(reached) and name == reached[-1]) for _, name in points)
        self.update_classes(classes, update=False)

    def _fit_tanks(self) -> None:
        """Draw tanks one row per colour when every seat fits that way, else one line."""
        players = self.state.players
        columns = {2: 2, 3: 3, 4: 4}.get(players, 3)
        rows = -(-players // columns)
        banner = 3 if self.size.height >= TALL_HEIGHT else 1
        lower = LOWER_MIN_HEIGHT
        if self.prefs.settings.show_odds:
            # The pile's box holds 3 lines, then a row per action (score, steals).
            lower = max(lower, 2 + 3 + players)
        lower += self._extra_bottom_rows()
        # Status, banner, the subclass's bottom row and the footer.
        spare = self.size.height - (1 + banner + 1 + 1) - lower
        self.set_class(rows * ROOMY_PANEL_HEIGHT <= spare, "-roomy")

    def _extra_bottom_rows(self) -> int:
        """Rows ``compose_bottom`` shows beyond its one row (they come out of the seats')."""
        return 0

    # ------------------------------------------------------------------ showing

    def _log_stream(self, messages: Sequence[Message]) -> None:
        """Write the log of ``messages`` (from the opening on), as it read when they happened."""
        log = self.query_one(GameLog)
        replayed = PublicPosition()
        for message in messages:
            replayed.apply(message)
            entry = self._log_entry(message, replayed)
            if entry is not None:
                log.add(entry.text, turn=entry.turn, strong=entry.strong, talk=entry.talk)

    def _log_entry(self, message: Message, state: PublicPosition) -> LogLine | None:
        """The log line for ``message`` (``state`` has taken it in)."""
        if isinstance(message, Opening):
            return LogLine(opening_line(message.target, message.first, self.names, self.seed), None)
        line = narrate(
            message, self.result_names() if isinstance(message, GameOver) else self.names
        )
        if line is None:
            return None
        if isinstance(message, Fault | TimedOut):
            # Said before the move it replaces, under that move's number.
            return LogLine(line, state.turn + 1, True)
        if isinstance(message, GameOver):
            return LogLine(line, None, True)
        if isinstance(message, NOTICES):
            return LogLine(line, None)
        if isinstance(message, Talk):
            return LogLine(line, None, talk=True)
        return LogLine(line, state.turn, isinstance(message, ExtraTurn))

    def _show_position(self) -> None:
        """Set every widget from the position in ``state`` (on opening, or after a jump)."""
        view = self.state.view()
        for panel in self.panels:
            panel.show_view(view)
        pile = self.query_one(DrawPile)
        pile.pile_size = view.pile_size
        pile.top_back = view.top_back
        pile.drawn = self._drawn()
        banner = self.query_one(TurnBanner)
        over = self.game_over
        if over is not None:
            banner.show_over(game_over_line(over, self.result_names()))
        else:
            banner.show_turn(
                self.names[view.to_move],
                human=self._human_to_move(view.to_move),
                extra=view.extra_turn,
            )
        self._update_insights()

    @property
    def game_over(self) -> GameOver | None:
        """The stream's ``GameOver``, once the game on screen has ended."""
        if not self.state.over:
            return None
        return next(m for m in reversed(self.messages) if isinstance(m, GameOver))

    def _drawn(self) -> tuple[int, str] | None:
        """The card the last action turned over, and where it lies now: the tank it went
        to, until a score takes it to the score pile or a steal to the stealer's tank."""
        landed = self.state.landed
        if landed is None:
            return None
        card, seat, scored = landed
        return card, f"{possessive(self.names[seat])} {'score pile' if scored else 'tank'}"

    def _human_to_move(self, seat: int) -> bool:
        """Whether the turn banner should call on ``seat`` as a person at the keyboard."""
        return False

    def _present(self, message: Message) -> None:
        """Take in one message of the stream and bring the board up to date with it."""
        self.state.apply(message)
        self.messages.append(message)
        view = self.state.view()
        for panel in self.panels:
            panel.apply(message, view)
        pile = self.query_one(DrawPile)
        if isinstance(message, CardRevealed):
            pile.pile_size = self.state.pile_size
            pile.top_back = None if not pile.pile_size else pile.top_back
            pile.drawn = self._drawn()
        elif isinstance(message, Scored | Stolen):  # the card moved on from the tank it went to
            pile.drawn = self._drawn()
        elif isinstance(message, TurnStarted):
            pile.pile_size = self.state.pile_size
            pile.top_back = self.state.top_back
            self.query_one(TurnBanner).show_turn(
                self.names[message.seat],
                human=self._human_to_move(message.seat),
                extra=message.extra,
            )
        elif isinstance(message, GameOver):
            pile.top_back = None
            self.query_one(TurnBanner).show_over(game_over_line(message, self.result_names()))
        elif isinstance(message, KeepFailed):
            if message.what == "save":
                plain.notify(
                    self, f"Could not save the game: {message.reason}", severity="error", timeout=8
                )
            else:
                plain.notify(
                    self, f"Statistics not updated: {message.reason}", severity="warning", timeout=8
                )
        entry = self._log_entry(message, self.state)
        if entry is not None:
            self.query_one(GameLog).add(
                entry.text, turn=entry.turn, strong=entry.strong, talk=entry.talk
            )

    # ------------------------------------------------------------------ insights

    def _update_insights(self) -> None:
        """Bring the odds panel up to the position on screen (if shown)."""
        odds = self.query_one(OddsPanel)
        pile = self.query_one(DrawPile)
        side = self.query_one("#side")
        side.set_class(odds.display, "-odds")
        if odds.display:
            view = self.state.view()
            odds.show(view, self.names)
            pile.faces = face_labels(view)
            mover = "" if view.over else f" · odds for {self.names[view.to_move]}"
            side.border_title = plain.content(f"Draw pile{mover}")
        elif pile.faces is not None:
            pile.faces = None

    def follow_preferences(self, prefs: Preferences) -> None:
        """Show or hide the odds panel as the settings say (on every change of them)."""
        self.query_one(OddsPanel).display = prefs.settings.show_odds
        self._fit_tanks()
        self._update_insights()

    def action_toggle_odds(self) -> None:
        self.prefs.change(show_odds=not self.prefs.settings.show_odds)
