"""The key bar: Textual's footer, made to fit the terminal's width, its keys styled once.

A key that does not fit is left out whole, never cut ("f2 S"): first the
app's own keys that every screen has (``f2`` Settings, which the command
palette has too), then ``esc`` (which always goes back), then the screen's
keys from the last, and ``f1`` (Help, which lists every key) only when
nothing else is left to drop.  The command palette's key always stays.
The bar is made again when the terminal is resized.

Textual makes each ``FooterKey`` compact and then binds it to its footer's
``compact``: in a footer that is not compact (ours), every key is restyled
twice as it mounts, once to add ``-compact`` and once to take it off again,
about 20 restyles before a table's first frame (and the command palette's
key, which stays compact, once).  This footer makes its keys in the style
they end in: the same keys, styled once, as they mount.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: The keys left out first when the bar is too narrow, in order (then the screen's own,
#: from the last, and at the very last these).
SHED_FIRST = ("f2", "escape")
SHED_LAST = ("f1",)


def key_width(key: FooterKey) -> int:
    """Columns a key takes in a footer that is not compact: " k " and "Description " (the
    command palette's, compact: its edge, "k Description" and a space, as many)."""
    return cell_len(key.key_display) + cell_len(key.description) + 3


def fitted(keys: list[FooterKey], room: int) -> list[FooterKey]:
    """The ``keys`` (the palette's last, if shown) that fit in ``room`` columns, in order."""
    palette = [k for k in keys if k.has_class("-command-palette")]
    own = [k for k in keys if not k.has_class("-command-palette")]
    room -= sum(key_width(k) for k in palette)
    order = [k for name in SHED_FIRST for k in own if k.key == name]
    order += [k for k in reversed(own) if k.key not in SHED_FIRST + SHED_LAST]
    order += [k for name in SHED_LAST for k in own if k.key == name]
    kept = list(own)
    for key in order:
        if sum(key_width(k) for k in kept) <= room:
            break
        kept.remove(key)
    return [*kept, *palette]


class KeyFooter(Footer):
    """A ``Footer`` that fits its width by leaving keys out whole, its keys styled once."""

    def __init__(self) -> None:
        super().__init__()
        self._width = 0

    def compose(self) -> ComposeResult:
        made: list[Widget] = list(super().compose())
        keys = [w for w in made if isinstance(w, FooterKey)]
        room = self.size.width or self.app.size.width
        self._width = room
        kept = set(fitted(keys, room)) if len(keys) == len(made) else set(keys)
        for widget in made:
            if isinstance(widget, FooterKey):
                if widget not in kept:
                    continue
                if widget.has_class("-command-palette"):
                    # Not bound to the footer's style: compact, so made compact.
                    widget.add_class("-compact", update=False)
                elif not self.compact:
                    widget.set_reactive(FooterKey.compact, False)
            yield widget

    def on_resize(self, event: events.Resize) -> None:
        # (Noted now: a second resize before this one's bar is made makes it again too.)
        if event.size.width != self._width and self._bindings_ready:
            self._width = event.size.width
            self.call_after_refresh(self.recompose)
