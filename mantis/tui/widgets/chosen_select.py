"""Textual's ``Select``, made with its choice already shown as chosen."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from textual.app import ComposeResult
from textual.widgets import Select
from textual.widgets._select import SelectCurrent

T = TypeVar("T", bound=Hashable)


class ChosenSelect(Select[T]):
    """A ``Select`` whose current-value line starts marked as holding a value.

    Textual marks that line (the ``-has-value`` class) only once the select is
    mounted and its value set, which restyles the line and its parts, every
    select before the first frame of the screen it is on (some 4M instructions
    each on the setup screen).  Made with a value, the line starts marked; the
    select is otherwise Textual's own, keys, mouse and looks alike.
    """

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, SelectCurrent) and self._value is not Select.NULL:
                widget.set_reactive(SelectCurrent.has_value, True)
                widget.add_class("-has-value", update=False)
            yield widget
