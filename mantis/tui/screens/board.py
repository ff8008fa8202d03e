"""The board every game position is shown on: seats, turn banner, draw pile, odds and log.

The table (a game being played) and the replay (a recorded game) show a
position the same way, so ``BoardScreen`` composes those widgets, fits them to
the terminal and keeps them current from the engine's events.  Each subclass
adds its own line above the footer through ``compose_bottom`` (the table's
coach and action buttons, the replay's progress bar) and its own status line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...engine import (
    CardRevealed,
    Event,
    ExtraTurn,
    Game,
    GameOver,
    GameStarted,
    SeatInfo,
    Steal,
    TurnStarted,
    View,
)
from ..narration import game_over_line, narrate, possessive
from ..seating import describe
from ..widgets.draw_pile import DrawPile
from ..widgets.game_log import GameLog
from ..widgets.odds_panel import OddsPanel, face_labels
from ..widgets.seat_panel import SeatPanel
from ..widgets.turn_banner import TurnBanner

if TYPE_CHECKING:
    from ..app import MantisApp

#: The board's layout; subclasses list it before their own stylesheet.  Absolute,
#: because Textual resolves a relative CSS_PATH next to the subclass's module.
BOARD_CSS = Path(__file__).with_name("board.tcss")
#: From this terminal height the turn banner grows to three rows.
TALL_HEIGHT = 32
#: Rows the draw pile and log need at least; seats get the rest.
LOWER_MIN_HEIGHT = 8
#: A seat drawn with one row per colour: 7 rows, the score line and borders.
ROOMY_PANEL_HEIGHT = 10


class BoardScreen(Screen[None]):
    """One game position: every seat, the turn banner, the draw pile with its odds, the log.

    Subclasses own ``game`` (the position on screen), add their widgets below
    the log with ``compose_bottom`` and feed events to ``_present``.
    """

    # Textual does not combine CSS_PATH along the class tree: a subclass lists both.
    CSS_PATH = BOARD_CSS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL_HEIGHT, "-tall")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    def __init__(self, game: Game, seats: Sequence[SeatInfo]) -> None:
        """A board for ``game``, with one ``SeatInfo`` per seat."""
        super().__init__()
        self.seats = tuple(seats)
        self.names = [seat.name for seat in self.seats]
        self.panels: list[SeatPanel] = []
        self._pending: list[Event] = []
        """The engine's events not shown yet."""
        self._follow(game)

    @property
    def mantis(self) -> MantisApp:
        return cast("MantisApp", self.app)

    def _follow(self, game: Game) -> None:
        """Show ``game`` from now on, collecting its events in ``_pending``."""
        self.game = game
        self._pending.clear()
        self._unsubscribe = game.subscribe(self._pending.append)

    def _take_pending(self) -> list[Event]:
        """The events collected since the last call, oldest first."""
        events, self._pending[:] = list(self._pending), []
        return events

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        view = self.game.view()
        self.panels = [
            SeatPanel(seat, info.name, describe(info), view) for seat, info in enumerate(self.seats)
        ]
        yield Static(id="status")
        yield TurnBanner(id="banner")
        with Horizontal(id="seats", classes=f"-n{self.game.players}"):
            yield from self.panels
        with Horizontal(id="lower"):
            with Vertical(id="side"):
                yield DrawPile(id="pile")
                yield OddsPanel(id="odds")
            yield GameLog(id="log")
        yield from self.compose_bottom()
        yield Footer()

    def compose_bottom(self) -> ComposeResult:
        """The subclass's own widgets, between the log and the footer (one row, as a rule)."""
        yield from ()

    def on_resize(self) -> None:
        self._fit_tanks()

    def on_unmount(self) -> None:
        # Textual calls every class's on_unmount: a subclass's own runs as well.
        self._unsubscribe()

    def _fit_tanks(self) -> None:
        """Draw tanks one row per colour when every seat fits that way, else one line."""
        players = self.game.players
        columns = {2: 2, 3: 3, 4: 4}.get(players, 3)
        rows = -(-players // columns)
        banner = 3 if self.size.height >= TALL_HEIGHT else 1
        lower = LOWER_MIN_HEIGHT
        if self.mantis.settings.show_odds:
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

    def _log_opening(self) -> None:
        """Start the log with the deal."""
        started = self.game.opening_events()[0]
        assert isinstance(started, GameStarted)
        self.query_one(GameLog).add(narrate(started, self.names) or "")

    def _show_pile(self, view: View) -> None:
        """Set the draw pile from the public view, with the card the last move drew."""
        pile = self.query_one(DrawPile)
        pile.pile_size = view.pile_size
        pile.top_back = view.top_back
        pile.drawn = self._last_drawn()

    def _last_drawn(self) -> tuple[int, str] | None:
        """The card the last action turned over, and whose tank it went to."""
        history = self.game.history
        if not history:
            return None
        seat, action = history[-1]
        into = action.target if isinstance(action, Steal) else seat
        return self.game.initial_pile[len(history) - 1], f"{possessive(self.names[into])} tank"

    def _human_to_move(self, seat: int) -> bool:
        """Whether the turn banner should call on ``seat`` as a person at the keyboard."""
        return False

    def _present(self, event: Event) -> None:
        """Bring the board up to date with one event."""
        for panel in self.panels:
            panel.apply(event)
        pile = self.query_one(DrawPile)
        if isinstance(event, CardRevealed):
            pile.pile_size = max(0, pile.pile_size - 1)
            pile.top_back = None if not pile.pile_size else pile.top_back
            pile.drawn = (event.card, f"{possessive(self.names[event.into])} tank")
        elif isinstance(event, TurnStarted):
            pile.pile_size = event.pile_size
            pile.top_back = event.top_back
            self.query_one(TurnBanner).show_turn(
                self.names[event.seat], human=self._human_to_move(event.seat), extra=event.extra
            )
        elif isinstance(event, GameOver):
            pile.top_back = None
            self.query_one(TurnBanner).show_over(game_over_line(event, self.names))
        line = narrate(event, self.names)
        if line is not None:
            turn = None if isinstance(event, GameOver) else self.game.turn
            self.query_one(GameLog).add(
                line, turn=turn, strong=isinstance(event, ExtraTurn | GameOver)
            )

    # ------------------------------------------------------------------ insights

    def _update_insights(self) -> None:
        """Bring the odds panel up to the position on screen (if shown)."""
        odds = self.query_one(OddsPanel)
        pile = self.query_one(DrawPile)
        side = self.query_one("#side")
        side.set_class(odds.display, "-odds")
        if odds.display:
            view = self.game.view()
            odds.show(view, self.names)
            pile.faces = face_labels(view)
            mover = "" if view.over else f" · odds for {self.names[view.to_move]}"
            side.border_title = f"Draw pile{mover}"
        elif pile.faces is not None:
            pile.faces = None

    def apply_insight_settings(self) -> None:
        """Show or hide the odds panel as the settings say."""
        self.query_one(OddsPanel).display = self.mantis.settings.show_odds
        self._fit_tanks()
        self._update_insights()

    def action_toggle_odds(self) -> None:
        shown = not self.mantis.settings.show_odds
        self.mantis.update_settings(self.mantis.settings.with_changes(show_odds=shown))
        self.apply_insight_settings()
