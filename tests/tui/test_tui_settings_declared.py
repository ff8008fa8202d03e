"""Settings declared once: the file's reading and checking, and the settings form, follow
the declarations (a setting added there is read, written, shown and saved)."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields

from textual.app import App
from textual.widgets import Input, Label, Select

from mantis.base.paths import settings_path
from mantis.home import Settings, load_settings, save_settings
from mantis.home.setting_kinds import Number, Switch, declared, setting
from mantis.home.settings import SETTINGS, _from_json
from mantis.tui.screens.settings import SettingsScreen, field_id


@dataclass(frozen=True, slots=True)
class _More(Settings):
    """The settings with two more: a switch and a number the form shows."""

    tips: bool = setting(True, Switch(), "Tips")
    hint_delay: float | None = setting(
        2.0, Number(0, 9, above_low=True, unit="seconds"), "Hint delay (s)", "the hint delay"
    )


class _Host(App[None]):
    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.given, self.saved = settings, [Settings()][:0]

    def on_mount(self) -> None:
        self.push_screen(SettingsScreen(self.given, ["textual-dark"]), self.saved.append)


def test_every_field_is_declared_and_its_default_reads_back() -> None:
    assert list(SETTINGS) == [f.name for f in fields(Settings)]
    saved = json.loads(Settings().to_json())
    assert _from_json(saved) == (Settings(), [])


def test_a_setting_added_to_the_declarations_round_trips_through_json() -> None:
    save_settings(_More(tips=False, hint_delay=4.5))
    assert json.loads(settings_path().read_text(encoding="utf-8"))["tips"] is False
    data = json.loads(settings_path().read_text(encoding="utf-8"))
    assert _from_json(data, _More) == (_More(tips=False, hint_delay=4.5), [])
    assert _from_json({**data, "hint_delay": 9.5}, _More) == (
        _More(tips=False),
        ["hint_delay (must be more than 0 and at most 9)"],
    )
    # The app's own settings read the same file, the added ones left aside.
    assert load_settings() == (Settings(), None)


async def test_a_setting_added_to_the_declarations_is_on_the_form_and_saved() -> None:
    app = _Host(_More(show_odds=True, bot_timeout=5.0))
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        labels = [str(label.render()) for label in screen.query(Label)]
        shown = [d.label for d in declared(_More).values() if d.label is not None]
        assert labels[: len(shown)] == shown and shown[-2:] == ["Tips", "Hint delay (s)"]
        assert screen.query_one("#tips", Select).value is True
        assert screen.query_one("#show-odds", Select).value is True
        screen.query_one("#tips", Select).value = False
        screen.query_one(f"#{field_id('hint_delay')}", Input).value = "12"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "The hint delay is a number of seconds, more than 0 and at most 9." in str(
            screen.query_one("#settings-error").render()
        )
        screen.query_one("#hint-delay", Input).value = "3"
        screen.query_one("#bot-timeout", Input).value = "7.5"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.saved == [_More(show_odds=True, tips=False, hint_delay=3.0, bot_timeout=7.5)]
