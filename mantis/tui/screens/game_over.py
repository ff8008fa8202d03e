"""The end of a game: who won, the final scores and tanks, and why it ended.

At an online table it is also where another game is offered and answered:
those choices (``answers``) are said to the table (``Answered``) and the
screen stays up, showing how the offer stands (``show_offer``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from ...engine import GameOver
from ...table.credit import credited_names, left_note
from ...table.names import YOU
from ...table.narration import join_names, reason_text
from .. import plain
from .game_over_choice import LOCAL_CHOICES, GameOverChoice

if TYPE_CHECKING:
    from ...home.local_ratings import RatingChange


#: Buttons that fit in one row of the box at 80 columns.
ROW = 5
#: Each choice's key, button label and button style (STAY has no button: Esc).
_BUTTONS: dict[GameOverChoice, tuple[str, str, ButtonVariant]] = {
    GameOverChoice.AGAIN: ("a", "Play again (a)", "success"),
    GameOverChoice.DECLINE: ("d", "Decline (d)", "warning"),
    GameOverChoice.REMATCH: ("r", "Rematch (r)", "default"),
    GameOverChoice.REPLAY: ("v", "Replay (v)", "default"),
    GameOverChoice.REVIEW: ("e", "Review (e)", "primary"),
    GameOverChoice.NEW: ("n", "New game (n)", "default"),
    GameOverChoice.LOBBY: ("l", "Lobby (l)", "success"),
    GameOverChoice.QUIT: ("q", "Quit (q)", "error"),
}


class GameOverScreen(ModalScreen[GameOverChoice]):
    """The result of a finished game, over the final table."""

    class Answered(Message):
        """One of the ``answers`` was chosen: say it to the table (the screen stays up)."""

        def __init__(self, choice: GameOverChoice) -> None:
            super().__init__()
            self.choice = choice

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
    /* More buttons than one row holds at 80 columns: three to a row. */
    #buttons.-rows {
        layout: grid;
        grid-size: 3;
        grid-gutter: 0 1;
    }
    #buttons.-rows Button {
        width: 1fr;
        margin: 0;
    }
    #box .note, #ratings {
        margin-top: 1;
    }
    #offer {
        margin-top: 1;
        text-style: bold;
        color: $accent;
    }
    """

    BINDINGS = [
        *(
            Binding(key, f"choose('{choice.value}')", label.removesuffix(f" ({key})"))
            for choice, (key, label, _) in _BUTTONS.items()
        ),
        Binding("escape", "choose('stay')", "Back to table"),
    ]

    def __init__(
        self,
        result: GameOver,
        names: Sequence[str],
        seed: int | None,
        *,
        choices: Sequence[GameOverChoice] = LOCAL_CHOICES,
        note: str | None = None,
        answers: frozenset[GameOverChoice] = frozenset(),
        offer: str = "",
        ratings: Sequence[RatingChange] = (),
        played_on: Mapping[int, str] | None = None,
    ) -> None:
        """The result; ``choices`` are the buttons offered, ``answers`` those of them said
        to the table rather than closing the screen; ``offer``: how another game stands.

        ``ratings`` are the rating changes the game was recorded with (none
        if it was not rated): one "Ann 1,612 → 1,634" per person.  ``played_on``:
        per seat whose person left the game, the bot that played it to the end
        (the seat's result is not its person's: ``table.credit``).
        """
        super().__init__()
        self.result = result
        self.names = list(names)
        self.played_on = dict(played_on or {})
        self.seed = seed
        self.choices = tuple(c for c in GameOverChoice if c in choices and c in _BUTTONS)
        self.note = note
        self.answers = answers
        self.offer = offer
        self.declinable = False
        """Whether another game is on offer that this person may decline."""
        self.accepting = True
        """Whether "again" may be chosen now (not once this person has accepted)."""
        self.ratings = tuple(ratings)
        self.ratings_text = ratings_line([(c.name, c.before.shown, c.after.shown) for c in ratings])
        """The rating changes the game made, in a line ("" for none, or not yet known)."""

    def compose(self) -> ComposeResult:
        result = self.result
        credited = credited_names(self.names, self.played_on)
        winners = [credited[s] for s in result.winners]
        if len(winners) == 1:
            who = winners[0]
            headline = f"★ {who} win{'' if who == YOU else 's'}! ★"
        else:
            headline = f"★ Shared win: {join_names(winners)} ★"
        reason = reason_text(result, credited)
        left = left_note(self.names, self.played_on)
        with Vertical(id="box") as box:
            box.border_title = "Game over"
            yield Static(plain.content(headline), id="winners")
            yield Static(plain.content(f"{reason} {left}".strip()), id="reason")
            yield Static(self._score_table(), id="scores")
            ratings = Static(plain.content(self.ratings_text), id="ratings")
            ratings.display = bool(self.ratings_text)
            yield ratings
            seed = "-" if self.seed is None else str(self.seed)
            note = self.note
            if note is None:
                note = f"{self.result.turns} moves · seed {seed} · Rematch replays this same deal"
            yield Static(plain.content(note), classes="note")
            offer = Static(plain.content(self.offer), id="offer")
            offer.display = bool(self.offer)
            yield offer
            with Horizontal(id="buttons", classes="-rows" if len(self.choices) > ROW else ""):
                for choice in self.choices:
                    _, label, variant = _BUTTONS[choice]
                    yield Button(label, id=choice.value, variant=variant, compact=True)

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
            mark = "★ winner" if won else ""
            if seat in self.played_on:
                mark = f"{'★ won by ' if won else 'played by '}{self.played_on[seat]} (left)"
            row = (
                f"{seat_label:<{name_width}}  {result.scores[seat]:>6}  "
                f"{result.tank_sizes[seat]:>4}  {mark}"
            )
            lines.append(plain.rich(row.rstrip(), style="bold" if won else ""))
        return Text("\n").join(lines)

    def on_mount(self) -> None:
        self._show_offer_buttons()

    def show_ratings(self, text: str) -> None:
        """The rating changes the game made (``ratings_line``), once they are known: online,
        the server says them just after the game's end."""
        self.ratings_text = text
        if self.is_mounted:
            line = self.query_one("#ratings", Static)
            line.update(plain.content(text))
            line.display = bool(text)

    def show_offer(self, text: str, *, accept: bool, decline: bool) -> None:
        """How another game stands (``text``), and whether this person may accept (or
        offer: ``accept``) and decline it now."""
        self.offer = text
        self.declinable = decline
        self.accepting = accept
        if self.is_mounted:
            line = self.query_one("#offer", Static)
            line.update(plain.content(text))
            line.display = bool(text)
            self._show_offer_buttons()

    def _show_offer_buttons(self) -> None:
        for button in self.query(Button):
            if button.id == GameOverChoice.DECLINE.value:
                button.display = self.declinable
            elif button.id == GameOverChoice.AGAIN.value and self.answers:
                button.display = self.accepting
                button.label = "Accept (a)" if self.declinable else "Play again (a)"
        self.refresh_bindings()

    @on(Button.Pressed)
    def _on_button(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id or "")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters[0] != GameOverChoice.STAY.value:
            chosen = GameOverChoice(parameters[0])
            if chosen is GameOverChoice.DECLINE and not self.declinable:
                return False
            if chosen is GameOverChoice.AGAIN and chosen in self.answers and not self.accepting:
                return False
            return chosen in self.choices
        return True

    def action_choose(self, choice: str) -> None:
        chosen = GameOverChoice(choice)
        if chosen in self.answers:
            if self.check_action("choose", (choice,)):
                self.post_message(self.Answered(chosen))
        elif chosen is GameOverChoice.STAY or chosen in self.choices:
            self.dismiss(chosen)


def ratings_line(changes: Sequence[tuple[str, int, int]]) -> str:
    """ "Rating: Ann 1,612 → 1,634" from (name, before, after), a person after another
    ("Ratings: … · …"); "" for none."""
    if not changes:
        return ""
    moves = " · ".join(f"{name} {before:,} → {after:,}" for name, before, after in changes)
    return f"Rating{'s' if len(changes) > 1 else ''}: {moves}"
