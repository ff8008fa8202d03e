"""The scrolling game log: one narrated line per thing that happened."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

#: Older lines are dropped beyond this, so a long session stays light.
MAX_LINES = 500


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
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.texts: list[str] = []
        """Every line written, as plain text."""

    def on_mount(self) -> None:
        self.border_title = "Game log"

    def add(self, line: str, *, turn: int | None = None, strong: bool = False) -> None:
        """Append ``line``, prefixed with the move number when given."""
        self.texts.append(line)
        prefix = f"{turn:>3} " if turn is not None else "    "
        content = Content.assemble((prefix, "dim"), line)
        self.mount(Static(content, classes="-strong" if strong else ""))
        surplus = len(self.children) - MAX_LINES
        if surplus > 0:
            for child in list(self.children)[:surplus]:
                child.remove()
        self.call_after_refresh(self.scroll_end, animate=False)
