"""Watching a recorded game: step forward and back, jump to either end, autoplay.

The position after ``k`` actions is ``GameRecord.replay(k)``.  Stepping
forward applies the next action to the game on screen and shows its events
exactly as the table does (same widgets, same log sentences); stepping back
rebuilds the game at ``k - 1``, which is cheap, and sets the widgets from
that position's public view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ...engine import (
    CardRevealed,
    Event,
    ExtraTurn,
    GameOver,
    GameRecord,
    GameStarted,
    SeatInfo,
    Steal,
    TurnStarted,
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

#: Seconds between moves when autoplaying, slowest first.
AUTOPLAY_DELAYS = (2.0, 1.0, 0.5, 0.25, 0.1)
DEFAULT_DELAY_INDEX = 2
#: From this terminal height seats draw one row per colour.
ROOMY_PANEL_HEIGHT = 10


def seats_of(record: GameRecord) -> tuple[SeatInfo, ...]:
    """The record's seats, or "Seat 1", "Seat 2"… when it does not name them."""
    if record.seats is not None:
        return record.seats
    return tuple(SeatInfo(f"Seat {s + 1}", "bot", "?") for s in range(record.players))


class ReplayScreen(Screen[None]):
    """One recorded game, at any position from the deal to the end."""

    CSS_PATH = "replay.tcss"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    BINDINGS = [
        Binding("right,l", "step(1)", "Next", key_display="→"),
        Binding("left,h", "step(-1)", "Back", key_display="←"),
        Binding("home,g", "jump(0)", "Start", key_display="home"),
        Binding("end,G", "jump(-1)", "End", key_display="end"),
        Binding("space", "play", "Play", key_display="space"),
        Binding("plus,equals_sign", "speed(1)", "Speed", key_display="+-"),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("o", "toggle_odds", "Odds"),
        Binding("escape,q", "close", "Close", key_display="esc"),
    ]

    def __init__(self, record: GameRecord, *, title: str = "", standalone: bool = False) -> None:
        """A replay of ``record``; ``standalone`` (``mantis replay``) quits the app on close."""
        super().__init__()
        self.record = record
        self.seats = seats_of(record)
        self.names = [seat.name for seat in self.seats]
        self.title_text = title
        self.standalone = standalone
        self.position = 0
        """Actions played in the position on screen."""
        self.game = record.replay(0)
        self.events: list[Event] = list(self.game.opening_events())
        """Every event shown so far, from the deal to the position on screen."""
        self._marks = [len(self.events)]
        """``_marks[k]``: how many events lead up to position ``k``."""
        self._pending: list[Event] = []
        self._unsubscribe = self.game.subscribe(self._pending.append)
        self.playing = False
        self.delay_index = DEFAULT_DELAY_INDEX
        self._timer: Timer | None = None
        self.panels: list[SeatPanel] = []

    @property
    def mantis(self) -> MantisApp:
        return cast("MantisApp", self.app)

    @property
    def end(self) -> int:
        return len(self.record.actions)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        view = self.game.view()
        self.panels = [
            SeatPanel(seat, info.name, describe(info), view) for seat, info in enumerate(self.seats)
        ]
        yield Static(id="status")
        yield TurnBanner(id="banner")
        with Horizontal(id="seats", classes=f"-n{self.record.players}"):
            yield from self.panels
        with Horizontal(id="lower"):
            with Vertical(id="side"):
                yield DrawPile(id="pile")
                yield OddsPanel(id="odds")
            yield GameLog(id="log")
        yield Static(id="progress")
        yield Footer()

    def on_mount(self) -> None:
        started = self.events[0]
        assert isinstance(started, GameStarted)
        self.query_one(GameLog).add(narrate(started, self.names) or "")
        self.query_one(OddsPanel).display = self.mantis.settings.show_odds
        self._show_view()
        self._update_status()

    def on_resize(self) -> None:
        self._fit_tanks()

    def _fit_tanks(self) -> None:
        """One row per colour in each tank when everything fits that way, else one line."""
        players = self.record.players
        columns = {2: 2, 3: 3, 4: 4}.get(players, 3)
        rows = -(-players // columns)
        banner = 3 if self.size.height >= 32 else 1
        lower = 8 if not self.mantis.settings.show_odds else max(8, 2 + 3 + players)
        spare = self.size.height - (1 + banner + 1 + 1) - lower
        self.set_class(rows * ROOMY_PANEL_HEIGHT <= spare, "-roomy")

    def on_unmount(self) -> None:
        self._unsubscribe()

    # ------------------------------------------------------------------ moving

    def goto(self, position: int) -> None:
        """Show the position after ``position`` actions (clamped to the game)."""
        position = max(0, min(self.end, position))
        if position == self.position:
            return
        if position > self.position:
            for seat, action in self.record.actions[self.position : position]:
                self.game.apply(action, seat)
                self.position += 1
                events, self._pending[:] = list(self._pending), []
                for event in events:
                    self._present(event)
                self.events.extend(events)
                self._marks.append(len(self.events))
        else:
            self._unsubscribe()
            self.game = self.record.replay(position)
            self._pending.clear()
            self._unsubscribe = self.game.subscribe(self._pending.append)
            self.position = position
            del self.events[self._marks[position] :]
            del self._marks[position + 1 :]
            self.query_one(GameLog).rewind(position)
            self._show_view()
        self._update_insights()
        self._update_status()

    def _show_view(self) -> None:
        """Set every widget from the public view (after a jump back)."""
        view = self.game.view()
        for panel in self.panels:
            panel.show_view(view)
        pile = self.query_one(DrawPile)
        pile.pile_size = view.pile_size
        pile.top_back = view.top_back
        pile.drawn = self._last_drawn()
        banner = self.query_one(TurnBanner)
        if view.over:
            event = self.events[-1]
            assert isinstance(event, GameOver)
            banner.show_over(game_over_line(event, self.names))
        else:
            banner.show_turn(self.names[view.to_move], human=False, extra=view.extra_turn)
        self._update_insights()

    def _last_drawn(self) -> tuple[int, str] | None:
        """The card the last action turned over, and whose tank it went to."""
        if not self.position:
            return None
        seat, action = self.record.actions[self.position - 1]
        into = action.target if isinstance(action, Steal) else seat
        return self.record.pile[self.position - 1], f"{possessive(self.names[into])} tank"

    def _present(self, event: Event) -> None:
        """Bring every widget up to date with one event, as the table does."""
        for panel in self.panels:
            panel.apply(event)
        pile = self.query_one(DrawPile)
        if isinstance(event, CardRevealed):
            pile.pile_size = max(0, pile.pile_size - 1)
            pile.drawn = (event.card, f"{possessive(self.names[event.into])} tank")
        elif isinstance(event, TurnStarted):
            pile.pile_size = event.pile_size
            pile.top_back = event.top_back
            self.query_one(TurnBanner).show_turn(
                self.names[event.seat], human=False, extra=event.extra
            )
        elif isinstance(event, GameOver):
            pile.top_back = None
            self.query_one(TurnBanner).show_over(game_over_line(event, self.names))
        line = narrate(event, self.names)
        if line is not None:
            turn = None if isinstance(event, GameOver) else self.position
            self.query_one(GameLog).add(
                line, turn=turn, strong=isinstance(event, ExtraTurn | GameOver)
            )

    def _update_insights(self) -> None:
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

    def _update_status(self) -> None:
        record = self.record
        seed = "-" if record.seed is None else str(record.seed)
        parts = ["REPLAY"]
        if self.title_text:
            parts.append(self.title_text)
        parts += [f"seed {seed}", f"move {self.position}/{self.end}"]
        self.query_one("#status", Static).update(" · ".join(parts))
        state = "▶ playing" if self.playing else "❚❚ paused"
        delay = AUTOPLAY_DELAYS[self.delay_index]
        filled = round(24 * self.position / self.end) if self.end else 24
        bar = "█" * filled + "░" * (24 - filled)
        self.query_one("#progress", Static).update(
            f"{bar} move {self.position} of {self.end} · {state} · {delay:g} s a move"
        )

    # ------------------------------------------------------------------ actions

    def action_step(self, step: int) -> None:
        self._stop()
        self.goto(self.position + step)

    def action_jump(self, where: int) -> None:
        self._stop()
        self.goto(self.end if where < 0 else where)

    def action_play(self) -> None:
        if self.playing:
            self._stop()
        else:
            if self.position >= self.end:
                self.goto(0)
            self.playing = True
            self._start_timer()
        self._update_status()

    def action_speed(self, step: int) -> None:
        self.delay_index = max(0, min(len(AUTOPLAY_DELAYS) - 1, self.delay_index + step))
        if self.playing:
            self._start_timer()
        self._update_status()

    def action_toggle_odds(self) -> None:
        shown = not self.mantis.settings.show_odds
        self.mantis.update_settings(self.mantis.settings.with_changes(show_odds=shown))
        self.query_one(OddsPanel).display = shown
        self._fit_tanks()
        self._update_insights()

    def action_close(self) -> None:
        self._stop()
        if self.standalone:
            self.app.exit(0)
        else:
            self.dismiss(None)

    def _start_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(AUTOPLAY_DELAYS[self.delay_index], self._tick)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.playing:
            self.playing = False
            self._update_status()

    def _tick(self) -> None:
        if self.position >= self.end:
            self._stop()
            return
        self.goto(self.position + 1)
        if self.position >= self.end:
            self._stop()
