"""Text from outside the app, shown as plain text: never read as markup, never obeyed.

What a server sends (seat names, codes, bot levels, its error messages),
what a record, save or settings file holds, what a plug-in or the system
says in an error: the app shows it, and none of it is the app's to style.
Textual reads a plain ``str`` as markup in most places (``Static``,
``Label``, buttons, border titles, notifications, table cells): ``[/x]``
there crashes the app and ``[@click=app.quit]Ann[/]`` quits it when
clicked.  And a terminal obeys the escape sequences a string may carry.

So every widget turns outside text into something to show through this one
module: ``content`` (a Textual ``Content``), ``rich`` (a Rich ``Text``, for
table cells and Rich renderables), ``fill`` (the app's own markup with
outside values dropped in as text), ``notify`` (a notification) or
``visible`` (a ``str``, for a ``Text`` being built).  Each shows the
characters as they are, square brackets included; control characters show
as their visible pictures (ESC as ␛) and bidirectional overrides are dropped
(``mantis.base.printable``: the same rule as the command line's own output).
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.text import Text
from textual.content import Content

from ..base.printable import printable


def visible(text: object, *, lines: bool = False) -> str:
    """``text`` with nothing a terminal would obey (``mantis.base.printable``'s one rule).

    ``lines``: keep line breaks (elsewhere a newline shows as ␊, so outside
    text cannot add lines of its own to a one-line place).
    """
    return printable(text, lines=lines)


def content(text: object, style: str = "", *, lines: bool = False) -> Content:
    """``text`` as Textual content, shown as it is (for ``Static``, buttons, titles...)."""
    shown = visible(text, lines=lines)
    return Content.styled(shown, style) if style else Content(shown)


def rich(text: object, style: str = "", *, lines: bool = False, **options: Any) -> Text:
    """``text`` as a Rich ``Text``, shown as it is (for ``DataTable`` cells, Rich tables...)."""
    return Text(visible(text, lines=lines), style=style, **options)


def fill(markup: str, **values: object) -> Content:
    """The app's own ``markup`` with ``$name`` places filled by ``values``, shown as they are.

    ``fill("[b]$name[/b] wins", name=name)``: the bold is the app's, the name is text.
    """
    return Content.from_markup(markup, **{k: visible(v) for k, v in values.items()})


class Notifies(Protocol):
    """What shows a notification: a widget, a screen, the app (or the app as a ``Shell``)."""

    def notify(
        self,
        message: str,
        *,
        title: str = ...,
        severity: Any = ...,
        timeout: float | None = ...,
        markup: bool = ...,
    ) -> None: ...


def notify(node: Notifies, text: object, **options: Any) -> None:
    """A notification of ``text`` (``options`` as ``notify`` takes them), shown as it is."""
    node.notify(visible(text, lines=True), markup=False, **options)
