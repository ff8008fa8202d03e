"""Pictures of the main screens at fixed positions, sizes and seeds.

Every app runs ``still`` (no delays, animations or cursor blink) on a game
reopened from a record at an exact move, with a human to move so nothing
changes while the picture is taken.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import history
import positions
import pytest
from screenkit import app_lines, assert_snapshot_table_whole, assert_table_whole, snapshot_lines
from tuikit import wait_for

from mantis.base.paths import settings_path
from mantis.engine import SeatInfo
from mantis.home import Settings, save_settings
from mantis.home.saves import save_game
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.game_over import GameOverScreen

SMALL = (80, 24)
LARGE = (120, 40)

OFFER_RESUME = first_screens.Setup(resume=first_screens.Resume.OFFER)


def table_app(position: positions.Position) -> MantisApp:
    record, upto = position
    return MantisApp(first_screens.Position(record, upto), still=True)


async def until_game_over(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))
    await pilot.pause()


def test_setup_screen(snap_compare, mantis_home: Path) -> None:
    remembered = (
        SeatInfo("You", "human"),
        SeatInfo("Ann", "bot", "random"),
        SeatInfo("Bea", "bot", "random"),
    )
    save_settings(Settings(last_seats=remembered), settings_path())
    assert snap_compare(MantisApp(still=True), terminal_size=SMALL)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_table_small_terminal(snap_compare, request, players: int) -> None:
    upto = 12 if players == 2 else 14
    assert snap_compare(table_app(positions.mid_game(players, upto=upto)), terminal_size=SMALL)
    assert_snapshot_table_whole(request)


async def test_a_table_read_in_the_tests_is_its_snapshot(request) -> None:
    # The text of an app's screen in the tests is the text its snapshot stores.
    app = table_app(positions.mid_game(4, upto=14))
    async with app.run_test(size=SMALL) as pilot:
        # As snap_compare waits before its picture.
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        lines = app_lines(app)
    assert lines == snapshot_lines(request.path, "test_table_small_terminal[4]")
    assert_table_whole(lines)


def test_table_large_terminal(snap_compare, request) -> None:
    assert snap_compare(table_app(positions.mid_game(6)), terminal_size=LARGE)
    assert_snapshot_table_whole(request)


def test_steal_target_selected(snap_compare, request) -> None:
    # "You" sit in seat 1 here: pressing 4 picks Dee, and nothing is stolen yet.
    assert snap_compare(table_app(positions.mid_game(4)), press=["4"], terminal_size=SMALL)
    assert_snapshot_table_whole(request)


def test_two_player_extra_turn_banner(snap_compare, request) -> None:
    assert snap_compare(table_app(positions.extra_turn()), terminal_size=SMALL)
    assert_snapshot_table_whole(request)


def test_game_over_single_winner(snap_compare) -> None:
    assert snap_compare(
        table_app(positions.single_win()), terminal_size=SMALL, run_before=until_game_over
    )


def test_game_over_shared_win(snap_compare) -> None:
    assert snap_compare(
        table_app(positions.shared_win()), terminal_size=SMALL, run_before=until_game_over
    )


def test_help_screen(snap_compare) -> None:
    assert snap_compare(table_app(positions.mid_game(4)), press=["f1"], terminal_size=SMALL)


def test_terminal_too_small(snap_compare) -> None:
    assert snap_compare(table_app(positions.mid_game(4)), terminal_size=(60, 20))


def test_no_color(snap_compare, request, monkeypatch: pytest.MonkeyPatch) -> None:
    # Textual reads NO_COLOR when the app is built and renders in monochrome.
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(table_app(positions.mid_game(4)), terminal_size=SMALL)
    assert_snapshot_table_whole(request)


# ----------------------------------------------------------------- odds, coach, replay, history


def _settings(**changes) -> None:
    save_settings(Settings(**changes), settings_path())


def test_odds_panel(snap_compare, request) -> None:
    _settings(show_odds=True)
    assert snap_compare(table_app(positions.mid_game(3)), terminal_size=SMALL)
    assert_snapshot_table_whole(request)


def test_coach(snap_compare, request) -> None:
    _settings(coach=True)
    assert snap_compare(table_app(positions.mid_game(4)), terminal_size=SMALL)
    assert_snapshot_table_whole(request)


def _replay_app() -> MantisApp:
    record = replace(positions.played(3, 4, 0.5), seats=positions.seats("hrr", "You,Ann,Bea"))
    return MantisApp(first_screens.Replay(record, "sample game"), still=True)


def test_replay_screen(snap_compare, request) -> None:
    _settings(show_odds=True)
    assert snap_compare(_replay_app(), press=["right"] * 9, terminal_size=SMALL)
    assert_snapshot_table_whole(request)


def test_statistics_screen(snap_compare) -> None:
    history.seed_stats()

    async def open_stats(pilot) -> None:
        await pilot.press("t")
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "loaded", False))
        await pilot.pause()

    assert snap_compare(MantisApp(still=True), terminal_size=(80, 40), run_before=open_stats)


def test_past_games_screen(snap_compare) -> None:
    history.seed_stats()

    async def open_past(pilot) -> None:
        await pilot.press("g")
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "loaded", False))
        await pilot.pause()

    assert snap_compare(MantisApp(still=True), terminal_size=(100, 24), run_before=open_past)


def test_resume_prompt(snap_compare) -> None:
    record = replace(positions.played(3, 11, 0.45), result=None)
    record = replace(
        record, actions=record.actions[:14], seats=positions.seats("rhr", "Ann,You,Bea")
    )
    save_game(record, saved_at=datetime(2026, 3, 14, 21, 5, tzinfo=UTC))
    assert snap_compare(
        MantisApp(OFFER_RESUME, still=True),
        terminal_size=SMALL,
    )


def test_settings_screen(snap_compare) -> None:
    # The form is built from the settings' declarations: this holds its look to what it was.
    _settings(show_odds=True, bot_timeout=7.5)
    assert snap_compare(MantisApp(still=True), press=["f2"], terminal_size=SMALL)
