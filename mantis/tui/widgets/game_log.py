"""The scrolling game log: one narrated line per thing that happened, and what people said.

Talk is marked (a "›" in the number's column and its own style, so it stands
apart with ``NO_COLOR`` too) and can be hidden (``show_talk``) without
losing it: shown again, it is where it was.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from .. import plain

#: Older lines are dropped beyond this, so a long session stays light.
MAX_LINES = 500
#: Columns for the move number, so wrapped text hangs under the text, not the number.
NUMBER_WIDTH = 4
#: What a line of talk has where a move's number would be.
TALK_MARK = "  › "


class GameLog(VerticalScroll):
    """A read-only log that keeps the latest line in view and re-wraps on resize.

    ``texts`` holds every line as plain text, for tests and for copying.
    """

    DEFAULT_CSS = """
    GameLog {
        height: 1fr;
        width: 1fr;
        border: round $foreground 40%;
        border-title-color: $foreground;
        padding: 0 1;
        scrollbar-size-vertical: 1;
        background: $surface;
        & > Static {
            width: 1fr;
            height: auto;
        }
        & > .-strong {
            text-style: bold;
        }
        & > .-talk {
            text-style: italic;
            color: $text-accent;
        }
        &.-no-talk > .-talk {
            display: none;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.texts: list[str] = []
        """Every line written, as plain text."""
        self._moves: list[int] = []
        """Per line, the move it belongs to (for ``rewind``)."""

    def on_mount(self) -> None:
        self.border_title = "Game log"

    def add(
        self, line: str, *, turn: int | None = None, strong: bool = False, talk: bool = False
    ) -> None:
        """Append ``line``, prefixed with the move number when given (talk: marked as such).

        A line without a number belongs to the latest move so far (the deal
        is move 0), which is what ``rewind`` goes by.
        """
        self.texts.append(line)
        self._moves.append(turn if turn is not None else (self._moves[-1] if self._moves else 0))
        # A two-column grid gives wrapped lines a hanging indent under the text.
        grid = Table.grid(expand=True)
        grid.add_column(width=NUMBER_WIDTH, no_wrap=True, style="dim")
        grid.add_column(ratio=1)
        number = TALK_MARK if talk else f"{turn:>3} " if turn is not None else ""
        grid.add_row(Text(number, style="dim"), plain.rich(line))
        self.mount(Static(grid, classes="-talk" if talk else "-strong" if strong else ""))
        surplus = len(self.children) - MAX_LINES
        if surplus > 0:
            for child in list(self.children)[:surplus]:
                child.remove()
        self.call_after_refresh(self.scroll_end, animate=False)

    def show_talk(self, shown: bool) -> None:
        """Show or hide the lines of talk (they stay in the log either way)."""
        self.set_class(not shown, "-no-talk")
        self.call_after_refresh(self.scroll_end, animate=False)

    def rewind(self, turn: int) -> None:
        """Drop every line of the moves after ``turn`` (a replay stepping back)."""
        dropped = 0
        while self._moves and self._moves[-1] > turn:
            self._moves.pop()
            self.texts.pop()
            dropped += 1
        if dropped:
            for child in list(self.children)[-dropped:]:
                child.remove()
            self.call_after_refresh(self.scroll_end, animate=False)
