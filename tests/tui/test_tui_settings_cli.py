"""Settings on disk, the settings screen, and ``mantis play``'s argument checks."""

from __future__ import annotations

import json
from pathlib import Path

import positions
import pytest
from tuikit import table_of

from mantis.base.paths import config_dir, data_dir, settings_path
from mantis.cli import PLAIN_PLAY, UsageError, main
from mantis.cli.parser import build_parser
from mantis.cli.play import seats_asked
from mantis.engine import SeatInfo
from mantis.home import Settings, load_settings, save_settings
from mantis.players.decision import DEFAULT_BOT_TIMEOUT
from mantis.table.seating import default_names
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.settings import SettingsScreen
from mantis.tui.widgets.coach_bar import CoachBar
from mantis.tui.widgets.odds_panel import OddsPanel


def test_paths_live_under_mantis_home(mantis_home: Path) -> None:
    assert config_dir() == mantis_home / "config"
    assert data_dir() == mantis_home / "data"
    assert settings_path().parent == config_dir()


def test_settings_round_trip() -> None:
    settings = Settings(
        speed="fast",
        animations=False,
        theme="nord",
        bot_timeout=2.5,
        last_seats=(SeatInfo("You", "human"), SeatInfo("Ann", "bot", "random")),
    )
    save_settings(settings)
    assert load_settings() == (settings, None)
    assert not list(settings_path().parent.glob("*.tmp"))


def test_corrupt_settings_give_defaults_and_one_line() -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("{not json", encoding="utf-8")
    settings, warning = load_settings()
    assert settings == Settings()
    assert warning is not None and "\n" not in warning and "damaged" in warning


def test_one_bad_value_keeps_the_rest() -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(json.dumps({"speed": "warp", "theme": "nord"}), encoding="utf-8")
    settings, warning = load_settings()
    assert settings.speed == "normal" and settings.theme == "nord"
    assert warning is not None and "speed" in warning


async def test_app_starts_with_a_corrupt_settings_file() -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("\x00garbage", encoding="utf-8")
    app = MantisApp(still=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.settings == Settings()
        assert app.settings_warning is not None


def test_a_bot_budget_never_set_is_the_tables_own() -> None:
    """The settings keep no copy of the bots' budget: until one is set, none is saved."""
    save_settings(Settings(speed="fast"))
    settings, warning = load_settings()
    assert warning is None and settings.bot_timeout is None
    assert json.loads(settings_path().read_text(encoding="utf-8"))["bot_timeout"] is None


async def test_settings_screen_saves_to_disk() -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        # A budget never set is the one every table has by default.
        assert screen.query_one("#bot-timeout").value == f"{DEFAULT_BOT_TIMEOUT:g}"
        screen.query_one("#bot-timeout").value = "soon"
        screen.query_one("#save").scroll_visible(animate=False)  # (scrolled at 80x24)
        await pilot.pause()
        await pilot.click("#save")
        await pilot.pause()
        assert app.screen is screen
        error = screen.query_one("#settings-error")
        assert "seconds" in str(error.render())
        # ... and said where it is seen, the box scrolled to it.
        box = screen.query_one("#settings-box")
        assert box.region.contains_region(error.region), (box.region, error.region)
        screen.query_one("#bot-timeout").value = "7.5"
        screen.query_one("#speed").value = "slow"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
    saved, warning = load_settings()
    assert warning is None
    assert saved.bot_timeout == 7.5 and saved.speed == "slow"


async def test_palette_offers_new_game_help_settings_and_theme() -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=(80, 24)):
        titles = [command.title for command in app.get_system_commands(app.screen)]
    for title in ("New game", "Help", "Settings", "Theme"):
        assert title in titles


async def test_theme_from_the_palette_is_remembered() -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "nord"
        await pilot.pause()
    assert load_settings()[0].theme == "nord"
    again = MantisApp(still=True)
    assert again.theme == "nord"


def test_default_names() -> None:
    assert default_names(["human", "bot", "bot"]) == ["You", "Ann", "Bea"]
    assert default_names(["human", "human"]) == ["Ann", "Bea"]


def test_seats_asked() -> None:
    seats = seats_asked("human,random,score", "Me,Ann,Bob")
    assert seats is not None
    assert [s.name for s in seats] == ["Me", "Ann", "Bob"]
    assert [s.bot for s in seats] == [None, "random", "score"]


@pytest.mark.parametrize(
    ("seats", "names", "message"),
    [
        ("human,nosuchbot", None, "^--seats: unknown bot 'nosuchbot'"),
        ("human,,random", None, "^--seats has an empty entry"),
        ("human", None, "2 to 6 seats, not 1"),
        ("human,random,random,random,random,random,random", None, "not 7"),
        ("human,random", "A,B,C", "^--names gives 3 names for 2 seats"),
        (None, "A,B", "^--names needs --seats"),
        ("human,random", "A,a", "names must differ"),
        ("human,nomodule_xyz:Bot", None, "cannot import"),
        ("human,random", "[/],B", "may hold only letters"),  # markup on every board
        ("human,random", "A\nB,C", "may hold only letters"),
    ],
)
def test_bad_seats_are_rejected(seats: str | None, names: str | None, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        seats_asked(seats, names)


def test_mantis_alone_runs_what_mantis_play_parses_to() -> None:
    # `mantis` skips the parser (for its first frame's sake): it must not skip a default.
    assert vars(build_parser().parse_args(["play"])) == vars(PLAIN_PLAY)
    # and `mantis play ...` builds only its own part of it
    argv = ["play", "--seats", "human,random", "--names", "A,B", "--seed", "3", "--speed", "fast"]
    assert build_parser(play_only=True).parse_args(argv) == build_parser().parse_args(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--seats", "human,nosuchbot"],
        ["play", "--seats", "human,random", "--names", "A,B,C"],
        ["play", "--seats", "human,random,random,random,random,random,random"],
        ["play", "--names", "A,B"],
        ["--seats", "human,nosuchbot"],  # play is the default command
        ["--speed", "warp"],
        ["nosuchcommand"],
    ],
)
def test_cli_errors_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("mantis: error: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_old_settings_files_load_with_odds_and_coach_off() -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(json.dumps({"speed": "fast", "theme": "nord"}), encoding="utf-8")
    settings, warning = load_settings()
    assert warning is None
    assert settings.speed == "fast" and not settings.show_odds and not settings.coach


def test_odds_and_coach_round_trip_and_bad_values_are_reported() -> None:
    save_settings(Settings(show_odds=True, coach=True))
    assert load_settings() == (Settings(show_odds=True, coach=True), None)
    settings_path().write_text(json.dumps({"show_odds": "yes"}), encoding="utf-8")
    settings, warning = load_settings()
    assert not settings.show_odds and warning is not None and "show_odds" in warning


async def test_odds_and_coach_toggle_at_the_table_and_are_remembered() -> None:
    record, upto = positions.mid_game(3)
    app = MantisApp(first_screens.Position(record, upto), still=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        odds, coach = app.screen.query_one(OddsPanel), app.screen.query_one(CoachBar)
        assert not odds.display and not coach.display
        await pilot.press("o", "c")
        await pilot.pause()
        assert odds.display and coach.display
        assert odds.odds is not None and odds.odds.seat == record.replay(upto).to_move
        assert "Coach for You" in str(coach.render())
        # The settings screen shows and edits the same switches.
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert screen.query_one("#show-odds").value is True
        screen.query_one("#coach").value = False
        screen.query_one("#bot-timeout").value = "7.5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        # The change reached the open board, and the table it runs.
        assert odds.display and not coach.display
        assert table_of(app).table.bot_timeout == 7.5
    saved, _ = load_settings()
    assert saved.show_odds and not saved.coach
