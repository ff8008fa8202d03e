"""The banner that says, big and clear, whose turn it is (and, online, how long they have)."""

from __future__ import annotations

from textual.widgets import Static

from ...table.names import YOU
from .. import plain


class TurnBanner(Static):
    """ "▶ ANN'S TURN", with an extra-turn flag in two-player games, and a turn clock.

    A person's own clock in its last seconds stands out twice: by style
    (reversed, in the error colour) and in words ("‼ 8 s LEFT ‼"), so it
    does with ``NO_COLOR`` too.
    """

    DEFAULT_CSS = """
    TurnBanner {
        width: 1fr;
        height: 1;
        content-align: center middle;
        text-style: bold;
        background: $panel;
        color: $foreground;
        &.-human {
            background: $primary;
            color: $text;
        }
        &.-extra {
            background: $warning;
            color: $background;
        }
        &.-over {
            background: $success;
            color: $background;
        }
        &.-urgent {
            background: $error;
            color: $text;
            text-style: bold reverse;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = ""
        self._clock = ""

    def show_turn(self, name: str, *, human: bool, extra: bool) -> None:
        """Announce ``name``'s turn."""
        whose = "YOUR TURN" if name == YOU else f"{name.upper()}'S TURN"
        text = f"▶ {whose}"
        if extra:
            text = f"★ EXTRA TURN ★ {text}"
        self.set_classes_for(human=human, extra=extra, over=False)
        self._show(text, "")

    def show_over(self, text: str) -> None:
        """Announce the end of the game."""
        self.show_done(f"■ {text}")

    def show_done(self, text: str) -> None:
        """Say that nobody is to move here any more, and why (``text``, as it is shown)."""
        self.set_classes_for(human=False, extra=False, over=True)
        self._show(text, "")

    def show_clock(self, seconds: int | None, *, urgent: bool = False) -> None:
        """The seconds the seat to move has left (None: no clock runs); ``urgent``: the
        clock is this keyboard's own, in its last seconds."""
        if seconds is None:
            clock = ""
        elif urgent:
            clock = f"‼ {seconds} s LEFT ‼"
        else:
            clock = f"{seconds} s left"
        self.set_class(urgent and seconds is not None, "-urgent")
        self._show(self._text, clock)

    def _show(self, text: str, clock: str) -> None:
        if (text, clock) == (self._text, self._clock):
            return
        self._text, self._clock = text, clock
        self.update(plain.content(f"{text} · {clock}" if clock else text))

    def set_classes_for(self, *, human: bool, extra: bool, over: bool) -> None:
        self.set_class(human, "-human")
        self.set_class(extra, "-extra")
        self.set_class(over, "-over")
        self.set_class(False, "-urgent")  # a new turn (or the end): no clock yet
