"""A seat's tank: its face-up cards grouped by colour, with counts."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine import NUM_COLOURS
from .. import palette

#: Height from which the tank draws one row per colour instead of one line.
TALL_HEIGHT = NUM_COLOURS


class Tank(Widget):
    """Card counts per colour, one line when short and one row per colour when tall.

    Every colour is labelled by its letter, so the tank reads the same
    without colour.  The colour that changed last is marked until the next
    change, so a person can see where the drawn card went.
    """

    DEFAULT_CSS = """
    Tank {
        height: 1fr;
        min-height: 1;
        width: 1fr;
    }
    """

    counts: reactive[tuple[int, ...]] = reactive((0,) * NUM_COLOURS)
    marked: reactive[int | None] = reactive(None)

    def show(self, counts: Sequence[int], marked: int | None = None) -> None:
        """Display ``counts`` (one per colour), marking colour ``marked``."""
        self.counts = tuple(counts)
        self.marked = marked

    def render(self) -> Text:
        if self.size.height >= TALL_HEIGHT:
            return self._render_rows()
        return self._render_line()

    def _render_line(self) -> Text:
        # Every colour takes 3 cells ("R2 "); when that does not fit, only the
        # colours held are listed, so no count is ever cut off.
        full = self.size.width >= 3 * NUM_COLOURS - 1 or not self.size.width
        shown = [c for c, count in enumerate(self.counts) if full or count or c == self.marked]
        text = Text(no_wrap=True, overflow="ellipsis")
        if not shown:
            return Text("empty", style="dim")
        for i, colour in enumerate(shown):
            count = self.counts[colour]
            if i:
                text.append(" ")
            cell = Text()
            if count:
                cell.append_text(palette.tag(colour))
                cell.append(str(count), style="bold")
            else:
                cell.append(f"{palette.letter(colour)}·", style="dim")
            if colour == self.marked:
                cell.stylize("reverse")
            text.append_text(cell)
        return text

    def _render_rows(self) -> Text:
        width = self.size.width
        named = width >= 22
        label_width = 9 if named else 2
        # room for the bar after the label and before a space and a 2-digit count
        room = max(1, width - label_width - 3)
        lines = []
        for colour, count in enumerate(self.counts):
            line = Text(no_wrap=True, overflow="ellipsis")
            style = "" if count else "dim"
            # Spaces end a run rather than start one (see ``palette.tag``).
            line.append_text(
                palette.tag(colour, spaced=True) if count else Text(f"{palette.letter(colour)} ")
            )
            if named:
                line.append(f"{palette.name(colour):<7} ", style=style)
            if count:
                bar = palette.GLYPHS[colour] * min(count, room)
                if count > room:
                    bar = bar[:-1] + "…"
                line.append(f"{bar} ", style=palette.hue(colour))
                line.append(f"{count}", style="bold")
            else:
                line.append("·", style="dim")
            if colour == self.marked:
                line.stylize("reverse")
            lines.append(line)
        return Text("\n").join(lines)
