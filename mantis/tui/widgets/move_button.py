"""A button that plays a move: every click on it counts."""

from __future__ import annotations

from textual import events
from textual.widgets import Button


class MoveButton(Button):
    """Score or Steal: a click is honoured however soon it follows the last one.

    Textual's ``Button`` drops a click that lands while it still shows its
    pressed effect (about 0.2 s after a press), to absorb double clicks.  At
    the table that drops real moves: with bots answering at once, a person's
    next turn (and their next click on Score) can come inside that window.
    A move button needs no such guard, because the table disables it the
    moment a move is handed over, so one click can never play two moves.

    It never takes focus: at the table Enter always means "steal".
    """

    can_focus = False

    def on_click(self, event: events.Click) -> None:
        # Keeps Button's own click handler (the one that drops the click) from running.
        event.prevent_default()
        event.stop()
        self.press()
