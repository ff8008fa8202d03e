"""The end of a game: who won, the final scores and tanks, and why it ended."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from ...engine import GameOver
from .. import plain
from ..narration import join_names, reason_text

CHOICES = ("again", "rematch", "replay", "new", "lobby", "quit")
"""What the screen can be dismissed with: a new deal with the same seats, the
same deal again, watching this game again, a new setup, the online lobby, or
quitting the app.  A local table offers all but the lobby."""


_BUTTONS: dict[str, tuple[str, ButtonVariant]] = {
    "again": ("Play again (a)", "success"),
    "rematch": ("Rematch (r)", "default"),
    "replay": ("Replay (v)", "default"),
    "new": ("New game (n)", "default"),
    "lobby": ("Lobby (l)", "success"),
    "quit": ("Quit (q)", "error"),
}


class GameOverScreen(ModalScreen[str]):
    """The result of a finished game, over the final table."""

    DEFAULT_CSS = """
    GameOverScreen {
        align: center middle;
        background: $background 60%;
    }
    #box {
        width: 74;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: heavy $success;
        border-title-align: center;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    #winners {
        text-style: bold;
        content-align: center middle;
        width: 1fr;
        color: $success;
    }
    #reason {
        margin: 1 0 0 0;
        width: 1fr;
    }
    #scores {
        width: 1fr;
        margin-top: 1;
    }
    #buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: center;
    }
    #buttons Button {
        margin: 0 1 0 0;
        min-width: 0;
    }
    #box .note {
        margin-top: 1;
    }
    """

    BINDINGS = [
        Binding("a", "choose('again')", "Play again"),
        Binding("r", "choose('rematch')", "Rematch"),
        Binding("v", "choose('replay')", "Replay"),
        Binding("n", "choose('new')", "New game"),
        Binding("l", "choose('lobby')", "Lobby"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "dismiss_screen", "Back to table"),
    ]

    def __init__(
        self,
        result: GameOver,
        names: Sequence[str],
        seed: int | None,
        *,
        choices: Sequence[str] = CHOICES,
        note: str | None = None,
    ) -> None:
        """The result; ``choices`` are the buttons offered (a subset of ``CHOICES``)."""
        super().__init__()
        self.result = result
        self.names = list(names)
        self.seed = seed
        self.choices = tuple(c for c in CHOICES if c in choices)
        self.note = note

    def compose(self) -> ComposeResult:
        result, names = self.result, self.names
        winners = [names[s] for s in result.winners]
        if len(winners) == 1:
            headline = f"★ {winners[0]} win{'' if winners[0] == 'You' else 's'}! ★"
        else:
            headline = f"★ Shared win: {join_names(winners)} ★"
        with Vertical(id="box") as box:
            box.border_title = "Game over"
            yield Static(plain.content(headline), id="winners")
            yield Static(plain.content(reason_text(result, names)), id="reason")
            yield Static(self._score_table(), id="scores")
            seed = "-" if self.seed is None else str(self.seed)
            note = self.note
            if note is None:
                note = f"{self.result.turns} moves · seed {seed} · Rematch replays this same deal"
            yield Static(plain.content(note), classes="note")
            with Horizontal(id="buttons"):
                for choice in self.choices:
                    label, variant = _BUTTONS[choice]
                    yield Button(label, id=choice, variant=variant, compact=True)

    def _score_table(self) -> Text:
        """Seat, Scored, Tank and the winner mark in fixed-width columns.

        Each row is one run of one style, so the columns line up in every
        terminal and in SVG snapshots (where a run's leading spaces can be lost).
        """
        result = self.result
        name_width = max(len("Seat"), *(len(f"{s + 1} {n}") for s, n in enumerate(self.names)))
        lines = [Text(f"{'Seat':<{name_width}}  {'Scored':>6}  {'Tank':>4}", style="bold")]
        order = sorted(
            range(len(self.names)),
            key=lambda s: (-result.scores[s], -result.tank_sizes[s], s),
        )
        for seat in order:
            won = seat in result.winners
            seat_label = f"{seat + 1} {self.names[seat]}"
            row = (
                f"{seat_label:<{name_width}}  {result.scores[seat]:>6}  "
                f"{result.tank_sizes[seat]:>4}  {'★ winner' if won else ''}"
            )
            lines.append(plain.rich(row.rstrip(), style="bold" if won else ""))
        return Text("\n").join(lines)

    @on(Button.Pressed)
    def _on_button(self, event: Button.Pressed) -> None:
        if event.button.id in CHOICES:
            self.dismiss(event.button.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return parameters[0] in self.choices
        return True

    def action_choose(self, choice: str) -> None:
        if choice in self.choices:
            self.dismiss(choice)

    def action_dismiss_screen(self) -> None:
        self.dismiss("stay")
