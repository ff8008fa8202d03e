"""Textual's ``Select``, made with its choice already shown as chosen."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Select
from textual.widgets._select import NoSelection, SelectCurrent, SelectOverlay

T = TypeVar("T", bound=Hashable)


class ChosenSelect(Select[T]):
    """A ``Select`` whose current-value line starts marked as holding a value,
    and whose list of options is made the first time it opens.

    Textual marks that line (the ``-has-value`` class) only once the select is
    mounted and its value set, which restyles the line and its parts, every
    select before the first frame of the screen it is on (some 4M instructions
    each on the setup screen).  Made with a value, the line starts marked.

    Textual also makes the hidden list (its ``SelectOverlay``) as the select
    mounts, some 15M instructions a select before the first frame, for a list
    nobody may open.  Here it is mounted, filled and given the value's
    highlight just before the select first opens, by the two ways ``Select``
    opens (its ``show_overlay`` action, bound to enter, space, up and down; and
    a click on the value line, ``SelectCurrent.Toggle``), and ``Select`` then
    opens it as usual.  Until then ``_watch_value`` shows the value without a
    list to highlight it in.  This relies on ``Select`` touching the list only
    there, in ``_setup_options_renderables`` and in ``_watch_prompt`` (with a
    blank option), and on ``expanded`` being set only by those two ways.  The
    select is otherwise Textual's own: keys, mouse, messages and looks.
    """

    def compose(self) -> ComposeResult:
        current = SelectCurrent(self.prompt)
        if self._value is not Select.NULL:
            current.set_reactive(SelectCurrent.has_value, True)
            current.add_class("-has-value", update=False)
        yield current

    async def _make_list(self) -> None:
        """Mount the list of options (as ``Select.compose`` makes it), if not yet there."""
        if self.query_children(SelectOverlay):
            return
        overlay = SelectOverlay(type_to_search=self._type_to_search)
        with self._context():  # data_bind binds to the widget whose code is running
            overlay.data_bind(compact=Select.compact)
        await self.mount(overlay)
        super()._setup_options_renderables()  # the opening highlights the value

    def _setup_options_renderables(self) -> None:
        if self.query_children(SelectOverlay):
            super()._setup_options_renderables()

    def _watch_value(self, value: T | NoSelection) -> None:
        if self.query_children(SelectOverlay):
            super()._watch_value(value)
            return
        self._value = value
        try:
            current = self.query_one(SelectCurrent)
        except NoMatches:
            return
        prompts = (prompt for prompt, option in self._options if option == value)
        current.update(self.NULL if value == self.NULL else next(prompts))
        self.post_message(self.Changed(self, value))

    def _watch_prompt(self, prompt: str) -> None:
        if self.query_children(SelectOverlay) or not self._allow_blank:
            super()._watch_prompt(prompt)
        elif self.is_mounted:  # Select's, less renaming the list's blank option
            current = self.query_one(SelectCurrent)
            current.placeholder = prompt
            if self.value == self.NULL:
                current.update(self.NULL)

    async def action_show_overlay(self) -> None:  # type: ignore[override]  # awaits the list
        await self._make_list()
        super().action_show_overlay()

    async def _on_select_current_toggle(self, event: SelectCurrent.Toggle) -> None:
        event.prevent_default()  # Select's own handler, after the list is made
        event.stop()
        await self._make_list()
        self.expanded = not self.expanded
