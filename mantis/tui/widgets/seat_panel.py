"""One seat at the table: its label, tank and score pile, kept current by events."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from ...engine import (
    CardRevealed,
    GameOver,
    Scored,
    ScoreMissed,
    StealMissed,
    Stolen,
    TurnStarted,
    View,
)
from ...table import Message as StreamMessage
from .. import plain
from .score_pile import ScorePile
from .tank import Tank


class SeatPanel(Vertical):
    """A seat: "1 Ann · human" on the border, the tank inside, the score below.

    State flags are shown as words on the border as well as by style:
    "▶ to move", "◎ steal from?" and "★ winner".
    """

    DEFAULT_CSS = """
    SeatPanel {
        height: 1fr;
        width: 1fr;
        border: round $foreground 30%;
        border-title-color: $foreground;
        border-subtitle-color: $foreground;
        padding: 0 1;
        &.-to-move {
            border: heavy $accent;
            border-title-style: bold;
            border-title-color: $accent;
            border-subtitle-color: $accent;
        }
        &.-target {
            border: double $warning;
            border-subtitle-color: $warning;
            border-subtitle-style: bold;
            background: $warning 10%;
        }
        &.-winner {
            border: heavy $success;
            border-subtitle-color: $success;
            border-subtitle-style: bold;
        }
        &.-pickable:hover {
            background: $warning 10%;
        }
    }
    """

    class Picked(Message):
        """The seat was clicked (a request to pick it as the steal target)."""

        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seat: int, name: str, kind: str, view: View) -> None:
        super().__init__(id=f"seat-{seat}")
        self.seat = seat
        self.seat_name = name
        self.kind = kind
        self.counts = list(view.tank_counts(seat))
        self.score = view.scores[seat]
        self.target = view.target
        self.presence = ""
        """How the seat's person is connected, online ("● online", "○ offline"…)."""
        self.border_title = plain.content(f"{seat + 1} {name} · {kind}")

    def compose(self) -> ComposeResult:
        yield Tank()
        yield ScorePile()

    def on_mount(self) -> None:
        self.query_one(Tank).show(self.counts)
        pile = self.query_one(ScorePile)
        pile.target = self.target
        pile.score = self.score
        pile.tank = sum(self.counts)
        self._update_subtitle()

    def apply(self, event: StreamMessage) -> None:
        """Follow one message of the stream that may concern this seat (others change nothing)."""
        seat = self.seat
        if isinstance(event, CardRevealed):
            # A new move: only its own outcome stays marked.
            tank = self.query_one(Tank)
            if tank.marked is not None:
                tank.marked = None
        elif isinstance(event, Scored) and event.seat == seat:
            self.counts[event.colour] = 0
            self.score = event.score
            self.query_one(ScorePile).score = event.score
            self._show(event.colour)
        elif isinstance(event, ScoreMissed) and event.seat == seat:
            self.counts[event.colour] += 1
            self._show(event.colour)
        elif isinstance(event, Stolen) and seat in (event.seat, event.target):
            if seat == event.target:
                self.counts[event.colour] = 0
            else:
                self.counts[event.colour] += event.count
            self._show(event.colour)
        elif isinstance(event, StealMissed) and event.target == seat:
            self.counts[event.colour] += 1
            self._show(event.colour)
        elif isinstance(event, TurnStarted):
            self._flag("-to-move", event.seat == seat)
        elif isinstance(event, GameOver):
            self._flag("-to-move", False)
            self._flag("-winner", seat in event.winners)
        self._update_subtitle()

    def show_view(self, view: View) -> None:
        """Jump to the position in ``view`` (used when a replay steps back)."""
        self.counts = list(view.tank_counts(self.seat))
        self.score = view.scores[self.seat]
        self.query_one(Tank).show(self.counts)
        pile = self.query_one(ScorePile)
        pile.score = self.score
        pile.tank = sum(self.counts)
        self._flag("-to-move", not view.over and view.to_move == self.seat)
        self._flag("-winner", view.winners is not None and self.seat in view.winners)
        self._update_subtitle()

    def mark(self, *, target: bool) -> None:
        """Set the "steal target" flag."""
        self._flag("-target", target)
        self._update_subtitle()

    def show_presence(self, presence: str) -> None:
        """Show the seat's connection (online play): a word or two on the border."""
        if presence != self.presence:
            self.presence = presence
            self._update_subtitle()

    def set_pickable(self, pickable: bool) -> None:
        """Whether clicking this seat would pick it as a steal target."""
        self._flag("-pickable", pickable)

    def _flag(self, name: str, on: bool) -> None:
        # Changing a class restyles the subtree, so skip no-op changes.
        if self.has_class(name) != on:
            self.set_class(on, name)

    def _show(self, marked: int) -> None:
        self.query_one(Tank).show(self.counts, marked)
        self.query_one(ScorePile).tank = sum(self.counts)

    def _update_subtitle(self) -> None:
        flags = []
        if self.has_class("-winner"):
            flags.append("★ winner")
        if self.has_class("-target"):
            flags.append("◎ steal from?")
        elif self.has_class("-to-move"):
            flags.append("▶ to move")
        if self.presence:
            flags.append(self.presence)
        subtitle = " · ".join(flags)
        if subtitle != self.border_subtitle:
            self.border_subtitle = subtitle

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.seat))
