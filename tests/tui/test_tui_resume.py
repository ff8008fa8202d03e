"""Save and resume through the app: every action is saved, a restart resumes the
same position with the same future deals, and a damaged save is moved aside."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import positions
import pytest
from tuikit import wait_for, wait_for_human

from mantis.cli import main
from mantis.engine import SeatInfo, record_of
from mantis.store.saves import autosave, clear_save, default_save_path, load_save
from mantis.tui.app import RESUME_NOW, RESUME_OFFER, MantisApp
from mantis.tui.screens.resume import ResumeScreen
from mantis.tui.screens.setup import SetupScreen
from mantis.tui.screens.table import TableScreen

SIZE = (80, 24)
SEATS = (
    SeatInfo("You", "human"),
    SeatInfo("Ann", "bot", "random"),
    SeatInfo("Bea", "bot", "score"),
)


def notifications(app: MantisApp) -> list[str]:
    return [n.message for n in app._notifications]


MOVES = ("s", "2", "s", "3", "s")
"""The person's moves, in order: score, steal from Ann, score, steal from Bea, score."""


async def _play(pilot, moves: Sequence[str]) -> TableScreen:
    """Make the person's ``moves`` (the bots answer between them); the table, waiting again."""
    for key in moves:
        table = await wait_for_human(pilot)
        assert not table.result, "the game ended before the person's moves were made"
        turn = table.table.turn
        await pilot.press(key)
        if key != "s":
            await pilot.press("enter")
        await wait_for(pilot, lambda t=table, n=turn: t.table.turn > n)
    return await wait_for_human(pilot)


async def test_quit_and_resume_gives_the_same_position_and_future() -> None:
    # The game played through without a break, the person making every move:
    # what the resumed game must reproduce, bots' choices and cards alike.
    straight = MantisApp(seats=SEATS, seed=8, still=True)
    async with straight.run_test(size=SIZE) as pilot:
        unbroken = (await _play(pilot, MOVES)).record
    clear_save()

    # The same table, quit after two of the person's moves.
    app = MantisApp(seats=SEATS, seed=8, still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await _play(pilot, MOVES[:2])
        left = table.record.replay()
        await pilot.press("ctrl+q")
    save, warning = load_save()
    assert warning is None and save is not None
    assert save.record.actions == left.history and save.record.seats == SEATS

    resumed = MantisApp(still=True, resume=RESUME_NOW)
    async with resumed.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        assert table.names == [s.name for s in SEATS]
        assert table.state.view() == left.view()
        # Play on with the person's remaining moves: everything that follows,
        # the bots' moves and the cards drawn, is what the unbroken game had.
        table = await _play(pilot, MOVES[2:])
        assert table.record == unbroken
        assert table.state.view(0) == unbroken.replay().view(0)


async def test_launch_offers_the_unfinished_game() -> None:
    left = positions.played(3, 11, 0.45).replay(9)
    autosave(record_of(left, SEATS))
    app = MantisApp(still=True, resume=RESUME_OFFER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("r")
        table = await wait_for_human(pilot)
        assert table.state.view() == left.view()
    # "New game" keeps the save until the new game replaces it.
    again = MantisApp(still=True, resume=RESUME_OFFER)
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, ResumeScreen))
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(again.screen, SetupScreen)
        await pilot.click("#start")
        table = await wait_for_human(pilot)
        await wait_for(pilot, lambda: load_save()[0] is not None)
        save = load_save()[0]
        assert save is not None and save.record.pile == table.record.pile


async def test_a_garbage_save_is_moved_aside_and_reported(mantis_home: Path) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00\xffnot a game")
    app = MantisApp(still=True, resume=RESUME_OFFER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        messages = notifications(app)
        assert len(messages) == 1 and "moved to" in messages[0] and "\n" not in messages[0]
    assert not path.exists()
    assert list(path.parent.glob("current-game.corrupt-*"))


async def test_resume_without_a_save_says_so_and_sets_up() -> None:
    app = MantisApp(still=True, resume=RESUME_NOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert notifications(app) == ["No saved game to resume: set up a new one."]


def test_resume_with_seats_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--resume", "--seats", "human,random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resume" in err
