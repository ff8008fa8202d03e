"""The offer to resume the unfinished game found at launch."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...home.saves import LoadedSave
from ...table import seats_of
from ...table.narration import join_names
from .. import plain


def describe_save(save: LoadedSave) -> str:
    """ "3 players: You, Ann and Bea" and "after move 14 · saved 2026-11-30 03:40 UTC"."""
    record = save.record
    names = [seat.name for seat in seats_of(record)]
    when = f" · saved {save.saved_at:%Y-%m-%d %H:%M} UTC" if save.saved_at is not None else ""
    return f"{record.players} players: {join_names(names)}\nafter move {len(record.actions)}{when}"


class ResumeScreen(ModalScreen[LoadedSave | None]):
    """The unfinished games: resume one (the save), or start a new game (None).

    ``replaced`` is the save a new game would overwrite, if any (this app's
    own slot holds it); the other saves stay until they are resumed.
    """

    DEFAULT_CSS = """
    ResumeScreen {
        align: center middle;
        background: $background 60%;
    }
    #resume-box {
        width: 64;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 1 2;
        overflow-y: auto;
    }
    #resume-box .note {
        margin-top: 1;
    }
    #resume-box .game {
        margin-top: 1;
        height: auto;
    }
    #resume-box .number {
        width: 3;
    }
    #resume-buttons .label {
        width: auto;
    }
    #resume-buttons Button.pick {
        width: auto;
        min-width: 5;
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
        Binding("r,enter", "choose(1)", "Resume"),
        Binding("n,escape", "choose(0)", "New game"),
        *(Binding(str(n), f"choose({n})", "Resume", show=False) for n in range(1, 10)),
    ]

    def __init__(self, saves: Sequence[LoadedSave], *, replaced: LoadedSave | None = None) -> None:
        super().__init__()
        if not saves:
            raise ValueError("nothing to resume")
        self.saves = list(saves[:9])
        self.replaced = replaced

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box") as box:
            if len(self.saves) == 1:
                box.border_title = "Unfinished game"
                yield Static("A game was left unfinished:")
                yield Static(
                    plain.content(describe_save(self.saves[0]), lines=True), id="resume-what"
                )
                note = (
                    "A new game replaces it once it starts."
                    if self.replaced is not None
                    else "It stays saved if you start a new game."
                )
            else:
                box.border_title = "Unfinished games"
                yield Static(f"{len(self.saves)} games were left unfinished:")
                for n, save in enumerate(self.saves, start=1):
                    with Horizontal(classes="game"):
                        yield Static(f"[b]{n}[/b]", classes="number")
                        yield Static(plain.content(describe_save(save), lines=True))
                note = (
                    "A new game replaces the first once it starts; the others stay saved."
                    if self.replaced is not None
                    else "They stay saved if you start a new game."
                )
            yield Static(note, classes="note")
            with Horizontal(id="resume-buttons"):
                if len(self.saves) == 1:
                    yield Button("Resume (r)", id="resume-1", variant="primary", compact=True)
                else:
                    yield Static("Resume", classes="label")
                    for n in range(1, len(self.saves) + 1):
                        yield Button(
                            f" {n} ",
                            id=f"resume-{n}",
                            variant="primary" if n == 1 else "default",
                            compact=True,
                            classes="pick",
                        )
                yield Button("New game (n)", id="new", compact=True)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        self.action_choose(
            int(button.removeprefix("resume-")) if button.startswith("resume-") else 0
        )

    def action_choose(self, number: int) -> None:
        """Resume game ``number`` (from 1), or start a new game (0)."""
        if number == 0:
            self.dismiss(None)
        elif number <= len(self.saves):
            self.dismiss(self.saves[number - 1])
