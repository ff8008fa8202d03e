"""The settings form: bot speed, animations, theme, odds, coach, table talk, the line mode
(for screen readers: the next start plays in lines) and the bots' time budget; and this
app's player keys (what holds its names on servers), exported to a file or imported from
one."""

from __future__ import annotations

import os
from collections.abc import Iterable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ...home import Settings
from ...home.player_keys import KeyFileError, PlayerKeys
from ...home.setting_kinds import Declared, Number, OneOf, Switch, declared
from .. import plain
from ..widgets.key_footer import KeyFooter

#: The options of a setting that is on or off.
ON_OFF = (("on", True), ("off", False))


def field_id(name: str) -> str:
    """The id of a setting's widget on the form: ``show_odds`` is ``#show-odds``."""
    return name.replace("_", "-")


def choice(
    label: str, options: Iterable[tuple[str, object]], value: object, id: str
) -> ComposeResult:
    """A setting's label, then a drop-down of its ``options`` that is never blank."""
    yield Label(label)
    yield Select(options, value=value, allow_blank=False, id=id, compact=True)


class SettingsScreen(ModalScreen[Settings | None]):
    """Edits a copy of the settings; dismissed with the new settings, or None."""

    DEFAULT_CSS = """
    SettingsScreen {
        align: center middle;
        background: $background 60%;
    }
    #settings-box {
        width: 62;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 1 2;
    }
    #settings-grid Input {
        width: 12;
    }
    #settings-grid {
        grid-size: 2;
        grid-columns: 22 1fr;  /* the longest label, "Table talk online (h)", whole */
        grid-rows: 1;
        grid-gutter: 1 0;
        height: auto;
    }
    #settings-grid Label {
        padding-top: 0;
    }
    #settings-box .note {
        margin-top: 1;
    }
    #keys-row {
        height: 1;
    }
    #settings-grid #keys-file {
        width: 1fr;
    }
    #keys-row Button {
        width: auto;
        min-width: 0;
        padding: 0 1;
        margin-left: 1;
    }
    #settings-error {
        color: $error;
        height: auto;
    }
    #settings-buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: right;
    }
    #settings-buttons Button {
        margin-left: 1;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(
        self, settings: Settings, themes: Iterable[str], keys: PlayerKeys | None = None
    ) -> None:
        """``keys``: this app's player keys, to export or import (None: the default file)."""
        super().__init__()
        self.settings = settings
        self.themes = sorted(set(themes) | {settings.theme})
        self.keys = keys if keys is not None else PlayerKeys()
        self.form = {n: d for n, d in declared(type(settings)).items() if d.label is not None}
        """The settings the form shows, in the order they are declared (those with a label)."""

    def compose(self) -> ComposeResult:
        # Scrolled within when the terminal is short, above the settings' own key bar.
        with VerticalScroll(id="settings-box") as box:
            box.border_title = "Settings"
            with Grid(id="settings-grid"):
                for name, declaration in self.form.items():
                    yield from self._field(name, declaration)
                yield Label("Player keys file")
                with Horizontal(id="keys-row"):
                    yield Input(placeholder="keep a copy", id="keys-file", compact=True)
                    yield Button("Export", id="export-keys", compact=True)
                    yield Button("Import", id="import-keys", compact=True)
            yield Static(
                "Animations off, or speed instant: no delay at all.",
                id="settings-note",
                classes="note",
            )

            yield Static(id="settings-error")
            with Horizontal(id="settings-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Save", id="save", variant="primary", compact=True)
        yield KeyFooter()

    def _field(self, name: str, declaration: Declared) -> ComposeResult:
        """A setting's label and its widget, as its kind asks: on/off, one of its choices
        (or the app's themes), or a number typed."""
        value = getattr(self.settings, name)
        label, kind = declaration.label or name, declaration.kind
        if isinstance(kind, Switch):
            yield from choice(label, ON_OFF, value, field_id(name))
        elif isinstance(kind, OneOf):
            names = kind.choices if kind.choices is not None else self.themes
            yield from choice(label, [(n, n) for n in names], value, field_id(name))
        elif isinstance(kind, Number):
            yield Label(label)
            yield Input("" if value is None else f"{value:g}", id=field_id(name), compact=True)
        else:
            raise TypeError(f"the settings form has no widget for {name}'s kind")

    def on_mount(self) -> None:
        self.query_one(f"#{field_id(next(iter(self.form)))}").focus()

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        changes: dict[str, object] = {}
        for name, declaration in self.form.items():
            widget = self.query_one(f"#{field_id(name)}")
            if isinstance(widget, Select):
                chosen = widget.value  # never blank: each is made with allow_blank=False
                changes[name] = getattr(self.settings, name) if chosen is Select.NULL else chosen
                continue
            kind = declaration.kind
            assert isinstance(widget, Input) and isinstance(kind, Number)  # as _field made them
            try:
                changes[name] = kind.read((int if kind.whole else float)(widget.value.strip()))
            except ValueError:  # not a number, or out of its bounds (BadSetting)
                about = declaration.about
                error = self.query_one("#settings-error", Static)
                error.update(f"{about[:1].upper()}{about[1:]} is {kind.words}.")
                self.call_after_refresh(error.scroll_visible, animate=False)  # (a short terminal)
                return
        self.dismiss(self.settings.with_changes(**changes))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#export-keys")
    def _on_export_keys(self) -> None:
        self._keys("export")

    @on(Button.Pressed, "#import-keys")
    def _on_import_keys(self) -> None:
        self._keys("import")

    def _keys(self, way: str) -> None:
        """Export the keys to, or import them from, the file typed (one line either way)."""
        error = self.query_one("#settings-error", Static)
        note = self.query_one("#settings-note", Static)
        typed = self.query_one("#keys-file", Input).value.strip()
        error.update("")
        if not typed:
            error.update("Type the file to export the keys to, or to import them from.")
            return
        path = os.path.expanduser(typed)
        try:
            if way == "export":
                count = self.keys.export(path)
                done = f"{count} key{'s' * (count != 1)} written to {path}: keep it safe."
            else:
                count = self.keys.import_from(path)
                done = f"{count} new key{'s' * (count != 1)} taken in from {path}."
        except KeyFileError as exc:
            error.update(plain.content(str(exc)))
            return
        note.update(plain.content(done))
