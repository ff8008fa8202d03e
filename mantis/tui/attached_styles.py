"""An app that restyles only widgets in its DOM: one being made is styled as it mounts.

Textual restyles a widget each time one of its classes changes, at once, even
while the widget is still being made and in no DOM: a ``Button``'s variant, a
compact ``Input`` or ``Select``, an ``Input``'s validity, all set from their
constructors.  Such a widget is styled anew as it mounts (Textual applies the
style sheet to each widget it registers), so styling it before is wasted: some
20M instructions of the setup screen's first frame.  Widgets in the DOM, and
the app, restyle as usual.
"""

from __future__ import annotations

from textual.app import App
from textual.dom import DOMNode


class StylesWhenAttached(App[int]):
    """An app whose ``update_styles`` skips nodes not linked to it yet."""

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        if node is self or node.is_attached:
            super().update_styles(node, animate=animate)
