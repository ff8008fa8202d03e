"""The statistics and past-games screens read the database in a worker: while another
program holds it locked they say so, and the app still answers keys."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import history
import pytest
from tuikit import shown, wait_for

from mantis.home.stats import default_stats_path
from mantis.tui.app import MantisApp
from mantis.tui.screens.help import HelpScreen
from mantis.tui.screens.past_games import PastGamesScreen
from mantis.tui.screens.replay import ReplayScreen
from mantis.tui.screens.stats import StatsScreen

SIZE = (100, 30)


def _texts(screen) -> str:
    return "\n".join(str(widget.render()) for widget in screen.query("Static"))


@pytest.fixture
def locked() -> Iterator[sqlite3.Connection]:
    """The statistics database, seeded, then held under an exclusive lock by another connection
    (as another program would); ``COMMIT`` on the connection releases it."""
    history.seed_stats()
    other = sqlite3.connect(default_stats_path(), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    yield other
    if other.in_transaction:
        other.execute("COMMIT")
    other.close()


async def _open_while_locked(pilot, key: str, kind: type, reading: str):
    """Press ``key``: a ``kind`` screen opens saying ``reading``, then that it waits for the
    lock, and F1 still opens help over it (the UI thread is free).  The screen."""
    app = pilot.app
    await pilot.press(key)
    await wait_for(pilot, lambda: shown(app, kind))
    screen = app.screen
    # It says it is reading; on a busy machine SQLite's lock timeout may run out before the
    # first look, and the screen has already moved on to saying why it waits.
    await wait_for(
        pilot, lambda: reading in _texts(screen) or "in use by another program" in _texts(screen)
    )
    # Each attempt waits out SQLite's own lock timeout; then the screen says why.
    await wait_for(pilot, lambda: "in use by another program" in _texts(screen))
    assert not screen.loaded
    await pilot.press("f1")
    await wait_for(pilot, lambda: shown(app, HelpScreen))
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen is screen)
    assert not screen.loaded
    return screen


async def test_statistics_wait_for_a_locked_database_without_freezing(locked) -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_while_locked(pilot, "t", StatsScreen, "Reading the statistics")
        assert "8 games" not in _texts(screen)
        locked.execute("COMMIT")
        await wait_for(pilot, lambda: screen.loaded)
        text = _texts(screen)
        assert "8 games · 5 won · 62%" in text
        assert "Reading the statistics" not in text and "in use" not in text


async def test_past_games_wait_for_a_locked_database_without_freezing(locked) -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_while_locked(pilot, "g", PastGamesScreen, "Reading the past games")
        assert screen.games == []
        locked.execute("COMMIT")
        await wait_for(pilot, lambda: screen.loaded)
        assert len(screen.games) == len(history.GAMES)
        assert "Reading" not in _texts(screen) and "in use" not in _texts(screen)
        await pilot.press("enter")  # the newest game, read in a worker too
        await wait_for(pilot, lambda: shown(app, ReplayScreen))
        newest = history.finished_records()[-1][0]
        assert app.screen.record == newest


async def test_closing_a_screen_that_is_still_waiting_is_fine(locked) -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_while_locked(pilot, "t", StatsScreen, "Reading the statistics")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, StatsScreen))
        # Its reader stops once the screen is gone, though the lock is still held.
        await wait_for(pilot, lambda: not [w for w in app.workers if w.node is screen])
        assert locked.in_transaction
