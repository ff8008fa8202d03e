"""The draw pile: cards left, the colours on the top card's back, the card just drawn."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine import BACKS, FACE
from .. import palette, plain


class DrawPile(Widget):
    """What everyone sees of the draw pile, and the card being revealed."""

    DEFAULT_CSS = """
    DrawPile {
        height: auto;
        min-height: 4;
        width: 1fr;
        border: round $foreground 40%;
        border-title-color: $foreground;
        padding: 0 1;
    }
    """

    pile_size: reactive[int] = reactive(0)
    top_back: reactive[int | None] = reactive(None, layout=True)
    # Changing these changes the number of lines, hence layout=True.
    drawn: reactive[tuple[int, str] | None] = reactive(None, layout=True)
    """The card being revealed and where it went, e.g. (card, "Ann's tank")."""
    faces: reactive[tuple[tuple[int, str], ...] | None] = reactive(None, layout=True)
    """With the odds shown: each back colour with its chance of being the face
    ("1/2", or "0" when that card is face up already: dealt or played)."""

    def on_mount(self) -> None:
        self.border_title = "Draw pile"

    def render(self) -> Text:
        wide = self.size.width >= 30
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.pile_size:
            # The space stays inside the bold run: some SVG viewers drop a
            # run's leading space, which glued "75cards" together in snapshots.
            text.append(f"{self.pile_size} ", style="bold")
            text.append("card left" if self.pile_size == 1 else "cards left")
        else:
            text.append("Empty", style="bold")
        text.append("\n")
        if self.top_back is not None and self.faces is not None:
            # The odds replace the colour names: each face with its chance.
            text.append("Top ")
            for colour, label in self.faces:
                text.append_text(palette.chip(colour))
                text.append(" ")
                text.append(label, style="dim" if label == "0" else "bold")
                text.append(" ")
        elif self.top_back is not None:
            text.append("Top back ")
            colours = BACKS[self.top_back]
            for colour in colours:
                text.append_text(palette.chip(colour, wide=wide))
                text.append(" ")
            text.append("\n")
            text.append(" ".join(palette.name(c) for c in colours), style="dim")
        elif self.pile_size:  # the game ended with cards left: on a score reaching the target
            text.append("The target was reached: nobody draws again", style="dim")
        else:
            text.append("No card left to draw", style="dim")
        if self.drawn is not None:
            card, where = self.drawn
            colour = FACE[card]
            text.append("\nDrew ")
            text.append_text(palette.chip(colour, wide=wide))
            text.append(" ")
            text.append(f"{palette.name(colour)} → ", style="bold")
            text.append(plain.visible(where))
        return text
