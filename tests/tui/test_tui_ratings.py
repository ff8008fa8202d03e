"""Ratings in the app: each bot level's where it is chosen and in the help, a person's in
the statistics screen, and each person's change on the game-over screen."""

from __future__ import annotations

from dataclasses import replace

import history
import onlinekit
import positions
import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Select, Static
from tuikit import shown, wait_for, wait_for_human

from mantis.base.paths import settings_path
from mantis.engine import SeatInfo
from mantis.home import Settings, save_settings
from mantis.home.stats import StatsDB
from mantis.players.registry import BOTS, level_choices, level_label
from mantis.rating.levels import level_rating
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens import lobby
from mantis.tui.screens.game_over import GameOverScreen
from mantis.tui.screens.help import HelpScreen
from mantis.tui.screens.lobby import LobbyScreen
from mantis.tui.screens.setup import SetupScreen
from mantis.tui.screens.stats import StatsScreen
from mantis.tui.screens.waiting_room import WaitingRoomScreen
from mantis.tui.widgets.chart import Chart

SIZE = (80, 24)


def _shown(bot: str, players: int | None = None) -> str:
    rating = level_rating(bot, players)
    assert rating is not None
    return f"{rating.shown:,}"


def _prompts(select: Select) -> list[str]:
    options = select.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def _opened(pilot: Pilot, select: Select) -> list[str]:
    """What ``select`` offers once opened (the setup screen's fill their lists then)."""
    select.focus()
    await pilot.press("enter")
    await wait_for(pilot, lambda: select.expanded)
    prompts = _prompts(select)
    await pilot.press("escape")
    await wait_for(pilot, lambda: not select.expanded)
    return prompts


def _current(select: Select) -> str:
    return str(select.query_one("#label", Static).render())


# ------------------------------------------------------------------ the levels' ratings


async def test_setup_offers_each_level_with_its_rating_at_the_size_chosen() -> None:
    seats = (SeatInfo("You", "human"), SeatInfo("Ann", "bot", "expert"), SeatInfo("Bea", "human"))
    save_settings(Settings(last_seats=seats), settings_path())
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, SetupScreen))
        setup = app.screen
        for players in (3, 5, 2):
            setup.query_one("#players", Select).value = players
            await wait_for(pilot, lambda n=players: setup.players == n)
            await pilot.pause()
            for row in range(players):
                kind = setup.query_one(f"#kind-{row}", Select)
                prompts = await _opened(pilot, kind)
                for label, bot in level_choices():
                    assert f"Bot · {label} ({bot}) · {_shown(bot, players)}" in prompts
            assert f"rating at {players} players" in str(setup.query_one("#plays-as").render())
            # What was chosen stays chosen, shown with the rating at the new size.
            assert setup.query_one("#kind-1", Select).value == "expert"
            assert setup.query_one("#kind-0", Select).value == "human"
            assert _current(setup.query_one("#kind-1", Select)).endswith(_shown("expert", players))


async def test_the_lobby_offers_each_level_with_its_rating_at_the_size_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lobby, "list_tables", onlinekit.listed_tables)
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: shown(app, LobbyScreen))
        screen = app.screen
        screen.query_one("#online-seat-2", Select).value = "greedy"
        for players in (4, 6):
            screen.query_one("#online-players", Select).value = players
            await pilot.pause()
            last = screen.query_one(f"#online-seat-{players}", Select)
            await wait_for(
                pilot, lambda n=players, s=last: f"Hard bot · {_shown('greedy', n)}" in _prompts(s)
            )
            for seat in range(2, players + 1):
                prompts = _prompts(screen.query_one(f"#online-seat-{seat}", Select))
                assert prompts[0] == "Open seat"
                for label, bot in level_choices():
                    assert f"{label} bot · {_shown(bot, players)}" in prompts
            assert screen.query_one("#online-seat-2", Select).value == "greedy"


async def test_the_waiting_rooms_bots_are_offered_at_the_rating_the_seats_show() -> None:
    app = onlinekit.waiting_room_app()  # four seats, an expert bot among them
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
        room = app.screen
        players = len(room.room.seats)
        seats = room.query_one(DataTable)
        assert str(seats.get_row_at(3)[3]) == _shown("expert", players)
        # One table, one size: the levels offered to add are rated at it too, not overall.
        offered = await _opened(pilot, room.query_one("#bot-level", Select))
        for label, bot in level_choices():
            assert f"Bot · {label} ({bot}) · {_shown(bot, players)}" in offered
        assert _shown("greedy", players) != _shown("greedy")


async def test_the_help_shows_every_bots_rating_at_every_size() -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await wait_for(pilot, lambda: shown(app, HelpScreen))
        console = Console(width=76, no_color=True)
        with console.capture() as capture:
            console.print(app.screen.query_one("#level-ratings", Static).content)
        lines = capture.get().splitlines()
        # Every built-in bot the README rates, score (no level of the setup screen's) too.
        for bot in BOTS:
            label = level_label(bot)
            (line,) = [line.strip() for line in lines if line.strip().startswith(label + " ")]
            numbers = line.removeprefix(label).split()
            assert numbers == [_shown(bot, n) for n in (2, 3, 4, 5, 6)] + [_shown(bot)]


# ------------------------------------------------------------------ a person's rating


async def test_the_statistics_screen_shows_the_rating_and_its_history() -> None:
    history.seed_stats()
    with StatsDB() as db:
        (you,) = db.player_stats()
    rating = you.rating
    assert rating is not None and rating.provisional
    app = MantisApp(still=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.loaded)
        line = str(app.screen.query_one(".rating", Static).render())
        assert line == (
            f"Rating {rating.shown:,} ± {rating.plus_minus:,} provisional · after 8 rated games"
        )
        chart = app.screen.query_one(".rating-chart", Chart)
        (series,) = chart.series
        assert series.ys == tuple(float(p.rating.shown) for p in you.ratings)
        assert series.band is not None
        assert series.band[0][-1] == rating.shown - rating.plus_minus
        assert chart.figure.x_ticks == ((1.0, "2026-03-03"), (8.0, "2026-03-24"))


async def _finish(position, *, press: bool) -> tuple[str, GameOverScreen]:
    app = MantisApp(first_screens.Position(*position), still=True)
    async with app.run_test(size=SIZE) as pilot:
        if press:
            await wait_for_human(pilot)
            await pilot.press("s")
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        screen = app.screen
        assert isinstance(screen, GameOverScreen)
        ratings = screen.query_one("#ratings", Static)
        line = str(ratings.render()) if ratings.display else ""
        return line, screen


async def test_game_over_shows_each_rating_change_as_recorded() -> None:
    history.seed_stats()
    with StatsDB() as db:
        (you,) = db.player_stats()
    assert you.rating is not None
    before = you.rating
    # A win, then a loss: each line is what the statistics recorded, one after the other.
    for position, won in (
        (positions.last_move(3, 4, you_win=True), True),
        (positions.last_move(4, 2, you_win=False), False),
    ):
        line, screen = await _finish(position, press=won)
        with StatsDB() as db:
            latest = db.past_games(1)[0]
            recorded = db.rating_change(latest.id)
        (change,) = screen.ratings
        assert recorded == screen.ratings
        assert change.name == "You" and change.before == before
        assert (change.after.mu > before.mu) is won
        assert line == f"Rating: You {before.shown:,} → {change.after.shown:,}"
        before = change.after


async def test_a_game_that_is_not_rated_shows_no_rating_line() -> None:
    record, upto = positions.last_move(3, 4, you_win=True)
    seats = tuple(
        seat if seat.kind == "human" else SeatInfo(seat.name, "bot", "sample_bots:CountingBot")
        for seat in record.seats
    )
    line, screen = await _finish((replace(record, seats=seats), upto), press=True)
    assert screen.ratings == () and line == ""
    assert screen.ratings_text == ""
    with StatsDB() as db:
        assert len(db.past_games()) == 1  # recorded, but a plug-in has no anchor: unrated


def test_game_over_rating_line_snapshot(snap_compare) -> None:
    history.seed_stats()

    async def win(pilot) -> None:
        await wait_for_human(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))
        await pilot.pause()

    position = positions.last_move(3, 4, you_win=True)
    app = MantisApp(first_screens.Position(*position), still=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=win)
