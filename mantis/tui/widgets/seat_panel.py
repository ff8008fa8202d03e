"""One seat at the table: its label, tank and score pile, drawn from the folded position."""

from __future__ import annotations

from rich.cells import cell_len
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
    "▶ to move", "◎ steal from?" and "★ winner"; online, the seat's connection
    and rating follow.  Where the border is too short for them all, each
    gives up its words for its mark, the flag first ("▶ · ● online · 1,537").
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

    def __init__(
        self, seat: int, name: str, kind: str, view: View, *, pickable: bool = False
    ) -> None:
        """Seat ``seat``'s panel, showing ``view``; ``pickable``: a click picks it now."""
        # Flagged from the start: a class changed once mounted restyles the panel again.
        flags = {**_view_flags(seat, view), "-pickable": pickable}
        super().__init__(id=f"seat-{seat}", classes=" ".join(f for f, on in flags.items() if on))
        self.seat = seat
        self.seat_name = name
        self.kind = kind
        self.view = view
        """The position shown (the board's fold of the stream)."""
        self.presence = ""
        """How the seat's person is connected and rated, online ("● online · 1,537")."""
        self._presence: tuple[str, ...] = ()
        title = plain.content(self._titles()[0])
        self._title = title.plain
        self.border_title = title

    @property
    def counts(self) -> tuple[int, ...]:
        """Cards of each colour in the seat's tank, as shown."""
        return self.view.tank_counts(self.seat)

    @property
    def score(self) -> int:
        return self.view.scores[self.seat]

    def _titles(self) -> tuple[str, ...]:
        """The border's title, longest first: "1 Ann · greedy", then shorter forms.

        A plug-in's kind ("my_bots.py:CountingBot") gives way to its class's
        name, then the kind to nothing, so a narrow panel is never cut mid-word.
        """
        number = f"{self.seat + 1} {self.seat_name}"
        short = self.kind.rpartition(":")[2]
        return tuple(dict.fromkeys((f"{number} · {self.kind}", f"{number} · {short}", number)))

    def on_resize(self) -> None:
        # Textual draws the title between the corners, a line and a space on each side.
        room = self.outer_size.width - 6
        titles = [plain.content(title) for title in self._titles()]
        title = next((t for t in titles if t.cell_length <= room), titles[-1])
        if title.plain != self._title:
            self._title = title.plain
            self.border_title = title
        self._update_subtitle()

    def compose(self) -> ComposeResult:
        yield Tank()
        yield ScorePile()

    def on_mount(self) -> None:
        self.query_one(ScorePile).target = self.view.target
        self.show_view(self.view)

    def apply(self, event: StreamMessage, view: View) -> None:
        """Show ``view``, the position once ``event`` is taken in; the event says what to mark.

        The drawn card's colour stays marked in the tank it changed until the
        next card is drawn; the turn and the result flag the border.
        """
        seat = self.seat
        marked = self.query_one(Tank).marked
        if isinstance(event, CardRevealed):
            marked = None  # a new move: only its own outcome stays marked
        elif isinstance(event, Scored | ScoreMissed | Stolen | StealMissed):
            if seat in _tanks_changed(event):
                marked = event.colour
        elif isinstance(event, TurnStarted):
            self._flag("-to-move", event.seat == seat)
        elif isinstance(event, GameOver):
            self._flag("-to-move", False)
            self._flag("-winner", seat in event.winners)
        self._show_counts(view, marked)
        self._update_subtitle()

    def show_view(self, view: View) -> None:
        """Jump to the position in ``view`` (on opening, or when a replay steps back)."""
        self._show_counts(view, None)
        for name, on in _view_flags(self.seat, view).items():
            self._flag(name, on)
        self._update_subtitle()

    def _show_counts(self, view: View, marked: int | None) -> None:
        self.view = view
        self.query_one(Tank).show(self.counts, marked)
        pile = self.query_one(ScorePile)
        pile.score = self.score
        pile.tank = sum(self.counts)

    def mark(self, *, target: bool) -> None:
        """Set the "steal target" flag."""
        self._flag("-target", target)
        self._update_subtitle()

    def show_presence(self, *parts: str) -> None:
        """Show the seat's connection and rating (online play) on the border: "● online",
        "1,537" (an empty part is left out)."""
        presence = tuple(part for part in parts if part)
        if presence != self._presence:
            self._presence = presence
            self.presence = " · ".join(presence)
            self._update_subtitle()

    def set_pickable(self, pickable: bool) -> None:
        """Whether clicking this seat would pick it as a steal target."""
        self._flag("-pickable", pickable)

    def _flag(self, name: str, on: bool) -> None:
        # Changing a class restyles the subtree, so skip no-op changes.
        if self.has_class(name) != on:
            self.set_class(on, name)

    def _update_subtitle(self) -> None:
        flags = []
        if self.has_class("-winner"):
            flags.append("★ winner")
        if self.has_class("-target"):
            flags.append("◎ steal from?")
        elif self.has_class("-to-move"):
            flags.append("▶ to move")
        # The border's corners and the space each side of the text take six cells.
        subtitle = _fitted([*flags, *self._presence], self.outer_size.width - 6)
        if subtitle != self.border_subtitle:
            self.border_subtitle = subtitle

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.seat))


def _fitted(parts: list[str], room: int) -> str:
    """``parts`` joined by " · ", within ``room`` cells if they can be: from the first
    on, each is shortened to its first word (its mark) until they fit (``room`` of 0 or
    less: not laid out yet, nothing to fit)."""
    for shortened in range(len(parts) + 1):
        text = " · ".join(
            part.split(" ", 1)[0] if n < shortened else part for n, part in enumerate(parts)
        )
        if room <= 0 or cell_len(text) <= room:
            break
    return text


def _view_flags(seat: int, view: View) -> dict[str, bool]:
    """The flags ``view`` gives ``seat``'s panel: to move, winner."""
    return {
        "-to-move": not view.over and view.to_move == seat,
        "-winner": view.winners is not None and seat in view.winners,
    }


def _tanks_changed(event: Scored | ScoreMissed | Stolen | StealMissed) -> tuple[int, ...]:
    """The seats whose tanks an outcome changed."""
    if isinstance(event, Stolen):
        return (event.seat, event.target)
    if isinstance(event, StealMissed):
        return (event.target,)
    return (event.seat,)
