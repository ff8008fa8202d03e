"""The odds panel: exact chances of every action for the seat to move.

Everything shown comes from ``mantis.players.odds.odds_for`` on the public
view, so it is what a player with perfect memory could work out, no more.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine import BACKS, View
from .. import plain

# The panel is hidden unless the odds are asked for: the odds (and the coach's
# number format) are imported when first shown, not with every table.
if TYPE_CHECKING:
    from ...players.odds import Odds

#: A face that cannot be the top card's: its card (one card a back and face) is face up.
IMPOSSIBLE = "0"
#: From this inner width the exact fractions are shown next to the percentages.
FRACTIONS_WIDTH = 34


def _fraction(p: Fraction) -> str:
    return str(p)


def face_labels(view: View) -> tuple[tuple[int, str], ...] | None:
    """Each colour on the top card's back with its exact chance ("1/2"; "0" for a face
    whose card is face up already).

    A card already dealt or played cannot be on top, which is how counting
    rules faces out.  ``None`` once the pile is empty.
    """
    from ...players.odds import odds_for

    odds = odds_for(view)
    if odds is None or view.top_back is None:
        return None
    possible = dict(odds.faces)
    return tuple(
        (colour, _fraction(possible[colour]) if colour in possible else IMPOSSIBLE)
        for colour in BACKS[view.top_back]
    )


class OddsPanel(Widget):
    """ "Score 67% ~1.3 cards" and "Steal Cal 33% ~1.7" for the seat to move.

    The top card's possible faces are shown on the draw pile (``face_labels``).
    """

    DEFAULT_CSS = """
    OddsPanel {
        height: auto;
        width: 1fr;
        border: round $foreground 40%;
        border-title-color: $foreground;
        padding: 0 1;
    }
    """

    odds: reactive[Odds | None] = reactive(None, layout=True)
    names: reactive[tuple[str, ...]] = reactive(())
    over: reactive[bool] = reactive(False)

    def on_mount(self) -> None:
        self.border_title = "Odds"

    def show(self, view: View, names: Sequence[str]) -> None:
        """Follow the position in ``view`` (any seat's view: the odds are public)."""
        from ...players.odds import odds_for

        odds = odds_for(view)
        self.names = tuple(names)
        self.over = view.over
        self.odds = odds
        if odds is None:
            self.border_title = "Odds"
        else:
            self.border_title = plain.content(f"Odds · {names[odds.seat]} to move")

    def render(self) -> Text:
        odds = self.odds
        if odds is None:
            return Text("The game is over." if self.over else "No card left.", style="dim")
        from ...players.coach import percent

        width = self.size.width
        exact = width >= FRACTIONS_WIDTH
        label_width = max(8, min(16, width - (18 if exact else 12)))

        def row(label: str, p: Fraction, cards: Fraction) -> Text:
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(plain.visible(f"{label[:label_width]:<{label_width}}"))
            line.append(f"{percent(p):>5} ", style="bold" if p else "dim")
            if not p:
                line.append("  —", style="dim")
            else:
                # Certain outcomes give exact card counts; uncertain ones an average.
                line.append(f"{'' if p == 1 else '~'}{float(cards):.1f}".rjust(5))
                if exact and p != 1:
                    line.append(f" {_fraction(p)}".rjust(6), style="dim")
            return line

        lines = [row("Score", odds.p_score, odds.expected_score_cards)]
        for steal in odds.steals:
            name = self.names[steal.target] if steal.target < len(self.names) else "?"
            lines.append(row(f"Steal {name}", steal.p_match, steal.expected_cards))
        return Text("\n").join(lines)
