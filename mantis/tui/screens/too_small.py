"""Shown instead of a broken layout when the terminal is below the minimum size."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


def too_small(width: int, height: int) -> bool:
    """Whether a terminal of ``width`` x ``height`` is below the minimum."""
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmallScreen(Screen[None]):
    """A plain message, kept up to date, until the app sees the terminal large enough."""

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
    }
    TooSmallScreen Static {
        width: auto;
        max-width: 100%;
        height: auto;
        text-align: center;
        text-style: bold;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="message")

    def on_mount(self) -> None:
        self._update()

    def on_resize(self) -> None:
        self._update()

    def on_screen_resume(self) -> None:
        self._update()

    def _update(self) -> None:
        # Only the app pushes and pops this screen (on each of its resizes): two owners
        # popping one screen in the same round of resizes is one too many.
        width, height = self.app.size
        if not too_small(width, height):
            return
        self.query_one("#message", Static).update(
            f"Terminal too small ({width}×{height}) — need at least {MIN_WIDTH}×{MIN_HEIGHT}.\n"
            "Make the window larger; bots wait meanwhile. Ctrl+Q quits."
        )
