"""The review's panel at a decision: each option's chance of winning, the best, the one played.

Shown beside the board when a reviewed game is opened at a position (the
replay) and after an answer when a mistake is retried.  The chances are the
review's (``mantis.review``: the expert's valuation from the mover's view),
written as the coach writes a chance (``players.coach.percent``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .. import plain

if TYPE_CHECKING:  # the review is loaded with the screen that shows it
    from ...engine import Action
    from ...review import Decision

#: The style of each label's word (the word carries it without colour): worse is hotter.
LABEL_STYLES = {"inaccuracy": "bold #e6c84f", "mistake": "bold #f08a24", "blunder": "bold #e5484d"}


def option_name(action: Action, names: Sequence[str]) -> str:
    """ "Score" or "Steal Bea", as the odds panel names an option."""
    from ...engine import Steal

    if isinstance(action, Steal):
        name = names[action.target] if action.target < len(names) else "?"
        return f"Steal {name}"
    return "Score"


def loss_text(decision: Decision) -> tuple[str, str]:
    """What the choice made cost, in words, and its style: "−15.0 points, a blunder"."""
    if not decision.real:
        return "no real choice: every option within 1 point", "dim"
    if decision.chosen == decision.best or decision.loss < 0.05:
        return "the best choice", "bold"
    if decision.label is None:
        return f"−{decision.loss:.1f} points", ""
    article = "an" if decision.label == "inaccuracy" else "a"
    return f"{article} {decision.label} (−{decision.loss:.1f})", LABEL_STYLES[decision.label]


class OptionChances(Widget):
    """ "Score 45% ★ best" and "Steal Bea 30% ◀ played" at one decision, and what it cost.

    ``show(decision, names)`` shows a reviewed decision; ``answer`` marks a
    retried answer, and ``played=False`` keeps the game's own choice out of
    it.  ``None`` shows only a line (the game is over, say).
    """

    DEFAULT_CSS = """
    OptionChances {
        height: auto;
        width: 1fr;
        border: round $foreground 40%;
        border-title-color: $foreground;
        /* No right padding: a row's marks use the whole width. */
        padding: 0 0 0 1;
    }
    """

    decision: reactive[Decision | None] = reactive(None, layout=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: tuple[str, ...] = ()
        self.answer: int | None = None
        self.played = True
        self.note = ""

    def show(
        self,
        decision: Decision | None,
        names: Sequence[str],
        *,
        answer: int | None = None,
        played: bool = True,
        note: str = "",
    ) -> None:
        """Show ``decision`` (``None``: just ``note``) with ``names`` for the seats."""
        self.names = tuple(names)
        self.answer = answer
        self.played = played
        self.note = note
        if decision is None:
            self.border_title = "Chances of winning"
        else:
            from ..narration import possessive

            mover = self.names[decision.seat] if decision.seat < len(self.names) else "?"
            self.border_title = plain.content(
                f"Move {decision.move + 1} · {possessive(mover)} chances"
            )
        self.decision = decision
        self.refresh(layout=True)

    def render(self) -> Text:
        decision = self.decision
        if decision is None:
            return Text(self.note, style="dim")
        from ...players.coach import percent

        width = max(self.size.width, 20)
        rows = []
        labels = [plain.visible(option_name(o.action, self.names)) for o in decision.options]
        label_width = max(8, min(max(map(len, labels)), 16, width - 16))
        for i, option in enumerate(decision.options):
            line = Text(no_wrap=True, overflow="ellipsis")
            label = labels[i]
            if len(label) > label_width:
                label = label[: label_width - 1] + "…"
            best = i == decision.best
            line.append(f"{label:<{label_width}}", style="bold" if best else "")
            line.append(f"{percent(option.win):>5}", style="bold" if best else "")
            marks = self._marks(decision, i)
            if marks:
                line.append(f" {marks}", style="bold green" if best else "")
            rows.append(line)
        if self.played:
            words, style = loss_text(decision)
            rows.append(Text(f"played: {words}", style=style))
        if self.note:
            rows.append(Text(self.note, style="dim"))
        return Text("\n").join(rows)

    def _marks(self, decision: Decision, option: int) -> str:
        marks = []
        if option == decision.best:
            marks.append("★ best")
        if option == self.answer:
            marks.append("● you")
        if self.played and option == decision.chosen:
            marks.append("◀ played")
        return " ".join(marks)
