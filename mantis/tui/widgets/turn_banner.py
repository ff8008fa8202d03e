"""The banner that says, big and clear, whose turn it is."""

from __future__ import annotations

from textual.widgets import Static

from .. import plain
from ..narration import YOU


class TurnBanner(Static):
    """ "▶ ANN'S TURN", with an extra-turn flag in two-player games."""

    DEFAULT_CSS = """
    TurnBanner {
        width: 1fr;
        height: 1;
        content-align: center middle;
        text-style: bold;
        background: $panel;
        color: $foreground;
        &.-human {
            background: $primary;
            color: $text;
        }
        &.-extra {
            background: $warning;
            color: $background;
        }
        &.-over {
            background: $success;
            color: $background;
        }
    }
    """

    def show_turn(self, name: str, *, human: bool, extra: bool) -> None:
        """Announce ``name``'s turn."""
        whose = "YOUR TURN" if name == YOU else f"{name.upper()}'S TURN"
        text = f"▶ {whose}"
        if extra:
            text = f"★ EXTRA TURN ★ {text}"
        self.set_classes_for(human=human, extra=extra, over=False)
        self.update(plain.content(text))

    def show_over(self, text: str) -> None:
        """Announce the end of the game."""
        self.set_classes_for(human=False, extra=False, over=True)
        self.update(plain.content(f"■ {text}"))

    def set_classes_for(self, *, human: bool, extra: bool, over: bool) -> None:
        self.set_class(human, "-human")
        self.set_class(extra, "-extra")
        self.set_class(over, "-over")
