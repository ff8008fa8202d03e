"""Finished games go into the statistics; the statistics and past-games screens show them."""

from __future__ import annotations

from dataclasses import replace

import history
import positions
from tuikit import Heard, shown, wait_for, wait_for_human

from mantis.engine import SeatInfo
from mantis.home.saves import load_save
from mantis.home.stats import StatsDB, default_stats_path
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.game_over import GameOverScreen
from mantis.tui.screens.past_games import PastGamesScreen
from mantis.tui.screens.replay import ReplayScreen
from mantis.tui.screens.setup import SetupScreen
from mantis.tui.screens.stats import StatsScreen, level_label
from mantis.tui.widgets.chart import Chart

SIZE = (80, 24)


async def _loaded(pilot, kind: type) -> None:
    """Wait until a ``kind`` screen is up and has shown what its worker read."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and app.screen.loaded)


def _texts(screen) -> str:
    return "\n".join(str(widget.render()) for widget in screen.query("Static"))


async def test_a_game_finished_in_the_app_is_recorded_and_shown() -> None:
    record, upto = positions.one_move_from_a_win()
    app = MantisApp(first_screens.Position(record, upto), still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_human(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        await wait_for(pilot, lambda: default_stats_path().exists())
        with StatsDB() as db:
            (past,) = db.past_games()
            assert db.game_record(past.id).actions == record.actions
        assert [past.seats[w].name for w in past.winners] == ["You"]
        assert load_save() == (None, None)  # recorded, then the save is cleared
        await pilot.press("escape")
        app.action_statistics()
        await _loaded(pilot, StatsScreen)
        text = _texts(app.screen)
        assert "1 game · 1 won · 100%" in text
        assert "Beginner (random)" in text
        # One game is no line to draw: no chart of results, nor "the last 1 game" of them.
        assert "The one game so far" in text and "last 1 game" not in text
        charts = app.screen.query(Chart)
        assert [c.series[0].label for c in charts] == ["rating"]


async def test_a_broken_stats_database_is_reported_and_the_game_goes_on() -> None:
    default_stats_path().parent.mkdir(parents=True, exist_ok=True)
    default_stats_path().write_bytes(b"this is not a database" * 100)
    record, upto = positions.one_move_from_a_win()
    app = MantisApp(first_screens.Position(record, upto), still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_human(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("Statistics not updated: ") for m in messages)
        assert all("\n" not in m for m in messages)
        await pilot.press("escape")
        app.action_statistics()
        await _loaded(pilot, StatsScreen)
        assert "cannot be read" in _texts(app.screen)


async def test_statistics_and_past_games_from_setup() -> None:
    history.seed_stats()
    app = MantisApp(still=True)
    heard = Heard()
    async with app.run_test(size=(100, 24), message_hook=heard) as pilot:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Statistics" in titles and "Past games" in titles
        await pilot.press("t")
        await _loaded(pilot, StatsScreen)
        assert "8 games · 5 won · 62%" in _texts(app.screen)
        await pilot.press("escape")
        await pilot.press("g")
        await _loaded(pilot, PastGamesScreen)
        screen = app.screen
        assert len(screen.games) == len(history.GAMES)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: shown(app, ReplayScreen))
        replay = app.screen
        newest_first = [record for record, _ in reversed(history.finished_records())]
        (opened,) = heard.of(PastGamesScreen.Open)
        assert opened.record == replay.record == newest_first[1]
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


def test_level_labels() -> None:
    assert level_label("expert") == "Expert (expert)"
    assert level_label("my_bot:Bot") == "my_bot:Bot"


async def test_names_stored_with_markup_are_shown_as_they_are() -> None:
    """A database from before names were checked may hold any name: it is shown, not parsed."""
    record = positions.played(3, 4, 0.5)
    seats = (SeatInfo("[/]", "human"), SeatInfo("[b]Ann", "human"), SeatInfo("Cal", "human"))
    with StatsDB() as db:
        db.record_game(replace(record, seats=seats))
    app = MantisApp(still=True)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.press("t")
        await _loaded(pilot, StatsScreen)
        assert "[b]Ann" in _texts(app.screen) and "[/]" in _texts(app.screen)
        await pilot.press("escape")
        await pilot.press("g")
        await _loaded(pilot, PastGamesScreen)
        assert "[/], [b]Ann, Cal" in str(app.screen.query_one("DataTable").get_row_at(0)[2])
