"""A question that needs a yes before anything happens (leaving a game for good, say)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from .. import plain


class ConfirmScreen(ModalScreen[bool]):
    """``question`` and what saying yes does; dismissed True only by a yes (y, or its button)."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
        background: $background 60%;
    }
    #confirm-box {
        width: 64;
        max-width: 100%;
        height: auto;
        border: heavy $warning;
        border-title-align: center;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    #confirm-text {
        margin: 1 0;
    }
    #confirm-buttons {
        height: auto;
        align-horizontal: center;
    }
    #confirm-buttons Button {
        margin: 0 1 0 0;
        min-width: 0;
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.title_text = title
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box") as box:
            box.border_title = self.title_text
            yield Static(plain.content(self.question), id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error", compact=True)
                yield Button(f"{self.no} (n)", id="no", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # the safe answer is the one Enter gives

    @on(Button.Pressed)
    def _on_button(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
