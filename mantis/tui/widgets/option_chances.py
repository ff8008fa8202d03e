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


def loss_text(decision: Decision, *, short: bool = False) -> tuple[str, str]:
    """What the choice made cost, in words, and its style: "a blunder (−25.0)".

    ``short``: the fewest words ("−25.0 blunder", "no real choice").
    """
    from ...review.report import loss_points

    if not decision.real:
        return ("no real choice" if short else "no real choice: every option within 1 point"), "dim"
    if decision.chosen == decision.best or decision.loss < 0.05:
        return "the best choice", "bold"
    if decision.label is None:
        return f"−{loss_points(decision.loss)} points", ""
    if short:
        return f"−{loss_points(decision.loss)} {decision.label}", LABEL_STYLES[decision.label]
    article = "an" if decision.label == "inaccuracy" else "a"
    lost = loss_points(decision.loss)
    return f"{article} {decision.label} (−{lost})", LABEL_STYLES[decision.label]


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
            from ...table.narration import possessive

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
        words, style = loss_text(decision)
        tail = [Text(f"played: {words}", style=style)] if self.played else []
        if self.note:
            tail.append(Text(self.note, style="dim"))
        rows, glyphs = self._rows(decision)
        if glyphs:  # the marks as glyphs alone: their key under the rows
            tail.insert(0, self._key(decision, played=False))
        if self.size.height and len(rows) + len(tail) > self.size.height:
            # Too many options for the room (a big table in a small terminal): they
            # flow, several to a line, marked with the glyphs alone, then one line
            # with the key to the glyphs and what the choice played cost.
            rows = self._flowing(decision)
            tail = [self._key(decision, played=self.played)]
        # One line per row: a name too long is cut, never wrapped onto the next row.
        return Text("\n", no_wrap=True, overflow="ellipsis").join([*rows, *tail])

    def _key(self, decision: Decision, *, played: bool) -> Text:
        """The key to the glyphs: "★ best  ● you", and with ``played`` what the choice cost."""
        key = Text("★ best", style="dim", no_wrap=True, overflow="ellipsis")
        if self.answer is not None:
            key.append("  ● you", style="dim")
        if played:
            words, style = loss_text(decision, short=True)
            key.append(f"  ◀ {words}", style=style or "dim")
        elif self.played:
            key.append("  ◀ played", style="dim")
        return key

    def _label(self, option: int) -> str:
        assert self.decision is not None
        return plain.visible(option_name(self.decision.options[option].action, self.names))

    def _rows(self, decision: Decision) -> tuple[list[Text], bool]:
        """A row per option: its name, its chance, and what it was (best, yours, played);
        and whether the marks are glyphs alone (their words would not fit the row)."""
        from ...players.coach import percent

        width = max(self.size.width, 20)
        labels = [self._label(i) for i in range(len(decision.options))]
        label_width = max(8, min(max(map(len, labels)), 16, width - 16))
        marked = [self._marks(decision, i) for i in range(len(decision.options))]
        # "★ best, played": the first glyph says enough; and where a row's marks in words
        # would not fit, the glyphs alone ("★●"), their key under the rows.
        words = [", ".join([*named[:1], *(mark[2:] for mark in named[1:])]) for named in marked]
        glyphs = any(label_width + 5 + 1 + len(text) > width for text in words if text)
        rows = []
        for i, option in enumerate(decision.options):
            line = Text(no_wrap=True, overflow="ellipsis")
            label = labels[i]
            if len(label) > label_width:
                label = label[: label_width - 1] + "…"
            best = i == decision.best
            line.append(f"{label:<{label_width}}", style="bold" if best else "")
            line.append(f"{percent(option.win):>5}", style="bold" if best else "")
            marks = "".join(mark[0] for mark in marked[i]) if glyphs else words[i]
            if marks:
                line.append(f" {marks}", style="bold green" if best else "")
            rows.append(line)
        return rows, glyphs

    def _flowing(self, decision: Decision) -> list[Text]:
        """The options side by side as "Steal Ann 21%◀", as many to a line as fit."""
        from ...players.coach import percent

        width = max(self.size.width, 20)
        lines: list[Text] = [Text()]
        for i, option in enumerate(decision.options):
            glyphs = "".join(mark[0] for mark in self._marks(decision, i))
            token = f"{self._label(i)} {percent(option.win)}{glyphs}"
            line = lines[-1]
            if line.cell_len and line.cell_len + 2 + len(token) > width:
                line = Text()
                lines.append(line)
            if line.cell_len:
                line.append("  ")
            line.append(token, style="bold" if i == decision.best else "")
        return lines

    def _marks(self, decision: Decision, option: int) -> list[str]:
        """ "★ best", "● you", "◀ played": what ``option`` was."""
        marks = []
        if option == decision.best:
            marks.append("★ best")
        if option == self.answer:
            marks.append("● you")
        if self.played and option == decision.chosen:
            marks.append("◀ played")
        return marks
