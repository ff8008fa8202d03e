"""The offer to resume the unfinished game found at launch."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...store.saves import LoadedSave
from ...table import seats_of
from ..narration import join_names


def describe_save(save: LoadedSave) -> str:
    """ "3 players: You, Ann and Bea" and "after move 14 · saved 2026-11-30 03:40 UTC"."""
    record = save.record
    names = [seat.name for seat in seats_of(record)]
    when = f" · saved {save.saved_at:%Y-%m-%d %H:%M} UTC" if save.saved_at is not None else ""
    return f"{record.players} players: {join_names(names)}\nafter move {len(record.actions)}{when}"


class ResumeScreen(ModalScreen[bool]):
    """Resume (True) or start a new game (False)."""

    DEFAULT_CSS = """
    ResumeScreen {
        align: center middle;
        background: $background 60%;
    }
    #resume-box {
        width: 64;
        max-width: 100%;
        height: auto;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 1 2;
    }
    #resume-box .note {
        margin-top: 1;
    }
    #resume-buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: center;
    }
    #resume-buttons Button {
        margin: 0 1;
    }
    """

    BINDINGS = [
        Binding("r,enter", "choose(True)", "Resume"),
        Binding("n,escape", "choose(False)", "New game"),
    ]

    def __init__(self, save: LoadedSave) -> None:
        super().__init__()
        self.save = save

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box") as box:
            box.border_title = "Unfinished game"
            yield Static("A game was left unfinished:")
            yield Static(describe_save(self.save), id="resume-what")
            yield Static("A new game replaces it once it starts.", classes="note")
            with Horizontal(id="resume-buttons"):
                yield Button("Resume (r)", id="resume", variant="primary", compact=True)
                yield Button("New game (n)", id="new", compact=True)

    @on(Button.Pressed, "#resume")
    def _resume(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#new")
    def _new(self) -> None:
        self.dismiss(False)

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)
