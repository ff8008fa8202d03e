"""What the settings file remembers can never crash the app: a remembered bot that no
longer loads is named on the setup screen, and the person picks another."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select, Static
from tuikit import shown, table_of, wait_for

from mantis.base.paths import settings_path
from mantis.home.settings import Settings, load_settings
from mantis.tui.app import MantisApp
from mantis.tui.screens.confirm import ConfirmScreen
from mantis.tui.screens.local_play import LocalPlayScreen
from mantis.tui.screens.settings import SettingsScreen
from mantis.tui.screens.setup import SetupScreen

SIZE = (100, 30)
GONE = "gone_plugin_for_mantis_tests:Bot"


def _settings_file(data: Any) -> Path:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _error(app: MantisApp) -> str:
    return str(app.screen.query_one("#error", Static).render())


async def test_a_remembered_bot_that_no_longer_loads_is_named_and_another_can_be_picked() -> None:
    seats = [
        {"name": "You", "kind": "human"},
        {"name": "Ann", "kind": "bot", "bot": GONE},
        {"name": "Bea", "kind": "bot", "bot": "random"},
    ]
    path = _settings_file({"last_seats": seats})
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#start")
        await wait_for(pilot, lambda: _error(app) != "")
        error = _error(app)
        assert "\n" not in error
        assert error.startswith("Seat 2 (Ann): ") and GONE in error
        assert isinstance(app.screen, SetupScreen)
        kind = app.screen.query_one("#kind-1", Select)
        assert app.focused is kind  # the seat to change is where the cursor is
        assert json.loads(path.read_text(encoding="utf-8"))["last_seats"] == seats  # untouched
        await pilot.press("enter")  # open the list of what the seat can be
        await pilot.press("up", "enter")  # the bot just above the broken one: Expert
        await wait_for(pilot, lambda: kind.value == "expert")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: shown(app, LocalPlayScreen))
        assert [seat.bot for seat in table_of(app).seats] == [None, "expert", "random"]
        assert app.settings.last_seats[1].bot == "expert"


#: Remembered bots that cannot sit at a table (a name, a plug-in, or not a string at all).
BAD_BOTS = ("nope", "", ":Cls", "mod:", "a:b:c", "os:getcwd", "json:JSONDecoder", "[/]:X", None, 7)
#: Bots that look odd but load: "human" in a bot seat, spaces around a name.
ODD_BOTS = ("human", " random ")
#: Names a hand-edited file can hold: empty, long, one name twice, markup, controls.
BAD_NAMES = (
    "",
    "A" * 50,
    "Ann",
    "ann",
    "A\nB",
    "\x1b[31mred",
    "[bold]Ann",
    "[/]",
    "Ann[",
    "A\\[b]",
)


def _seats(first: Any, second: Any) -> list[Any]:
    return [first, second]


#: Remembered seats, each as a hand-edited file might hold them.
SEATS: list[Any] = [
    *(_seats({"name": "You", "kind": "human"}, {"name": "Ann", "kind": "bot", "bot": bot})
      for bot in (*BAD_BOTS, *ODD_BOTS)),
    *(_seats({"name": name, "kind": "human"}, {"name": "Ann", "kind": "bot", "bot": "random"})
      for name in BAD_NAMES),
    [{"name": "You", "kind": "human"}] * 7,
    [{"name": "You", "kind": "human"}],
    _seats({"name": "You", "kind": "robot"}, {"name": "B", "kind": "bot"}),
    {"name": "You"},
    [None, 3],
]  # fmt: skip

#: Whole files: every other value wrong at once, wrong types, not an object at all.
FILES: list[Any] = [
    {"speed": ["fast"], "theme": "no-such-theme", "animations": "yes", "bot_timeout": 1e308,
     "show_odds": 1, "coach": None, "server": "not a url", "online_name": "x" * 300,
     "online_seats": ["robot", "open", "x" * 20], "last_seats": SEATS[7]},
    {"theme": 12, "bot_timeout": -1, "server": 8765, "online_name": ["Ann"],
     "online_seats": "open", "unknown": {"deep": [1, {"x": None}]}, "last_seats": SEATS[0]},
    {"bot_timeout": "5", "server": "ws://[::1", "online_name": "[bold]Zed", "online_seats": []},
    [1, 2, 3],
    None,
    "settings",
]  # fmt: skip


def _on_setup(app: MantisApp, other_than: object = None) -> bool:
    """A setup screen (not ``other_than``) is up and ready: its first choice has the focus."""
    screen = app.screen
    return (
        isinstance(screen, SetupScreen)
        and screen is not other_than
        and app.focused is not None
        and app.focused.id == "players"
    )


async def _start(pilot: Any) -> None:
    """Press Start: a table opens, or the setup screen says why not in one line."""
    app = pilot.app
    await pilot.click("#start")
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, LocalPlayScreen)
            or (isinstance(app.screen, SetupScreen) and _error(app))
        ),
    )
    if isinstance(app.screen, SetupScreen):
        assert "\n" not in _error(app)


async def test_every_remembered_seating_starts_a_table_or_says_why() -> None:
    app = MantisApp(still=True)
    default = Settings().last_seats
    started_default = False
    async with app.run_test(size=SIZE) as pilot:
        for seats in SEATS:
            app.prefs.settings, _ = load_settings(_settings_file({"last_seats": seats}))
            if app.settings.last_seats == default:
                # Dropped by the loader: the setup screen offers the default seats,
                # which need starting only once (each start costs the suite ~0.6 s).
                if started_default:
                    continue
                started_default = True
            before = app.screen
            app.action_new_game()  # a new setup screen, offering the remembered seats
            if isinstance(before, LocalPlayScreen):  # (a game in progress: asked, and left)
                await wait_for(pilot, lambda: shown(app, ConfirmScreen))
                await pilot.press("y")
            await wait_for(pilot, lambda before=before: _on_setup(app, other_than=before))
            await _start(pilot)


@pytest.mark.parametrize("data", FILES, ids=[f"file-{i}" for i in range(len(FILES))])
async def test_no_hand_edited_settings_file_crashes_the_app(data: Any) -> None:
    _settings_file(data)
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _on_setup(app))
        await pilot.press("f2")
        await wait_for(pilot, lambda: shown(app, SettingsScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: _on_setup(app))
        await _start(pilot)
