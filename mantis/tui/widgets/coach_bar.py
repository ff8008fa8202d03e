"""The coach's line: the strongest bot's choice for the seat to move, and why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from .. import plain

if TYPE_CHECKING:  # the bar is hidden unless the coach is asked for: see PlayScreen
    from ...players.coach import Advice


class CoachBar(Static):
    """ "Coach: steal from Cal — 2 of 3 possible faces in Cal's tank (67%)…"."""

    DEFAULT_CSS = """
    CoachBar {
        width: 1fr;
        height: auto;
        max-height: 2;
        padding: 0 1;
        background: $boost;
        color: $foreground;
    }
    """

    def show(self, advice: Advice | None, mover: str | None = None) -> None:
        """Show ``advice`` for ``mover`` (nothing to advise once the game is over)."""
        if advice is None:
            self.update(Text("Coach: the game is over.", style="dim"))
            return
        text = Text()
        who = f" for {mover}" if mover else ""
        text.append(plain.visible(f"Coach{who}: "), style="bold")
        verb, _, rest = advice.reason.partition(":")
        # Spaces end runs rather than start them (see ``palette.tag``).
        text.append(f"{verb}: ", style="bold underline")
        text.append(rest.strip())
        self.update(text)
