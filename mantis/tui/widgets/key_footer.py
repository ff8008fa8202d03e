"""Textual's footer, its keys made in the footer's style rather than set to it.

Textual makes each ``FooterKey`` compact and then binds it to its footer's
``compact``: in a footer that is not compact (ours), every key is restyled
twice as it mounts, once to add ``-compact`` and once to take it off again,
about 20 restyles before a table's first frame (and the command palette's
key, which stays compact, once).  This footer makes its keys in the style
they end in: the same keys, styled once, as they mount.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """A ``Footer`` whose keys start in its own style (the same keys, the same look)."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                if widget.has_class("-command-palette"):
                    # Not bound to the footer's style: compact, so made compact.
                    widget.add_class("-compact", update=False)
                elif not self.compact:
                    widget.set_reactive(FooterKey.compact, False)
            yield widget
