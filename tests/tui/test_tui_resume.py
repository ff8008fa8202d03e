"""Save and resume through the app: every action is saved, a restart resumes the
same position with the same future deals, and a damaged save is moved aside."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import positions
import pytest
from tuikit import shown, wait_for, wait_for_human

from mantis.cli import main
from mantis.engine import SeatInfo, record_of
from mantis.home.save_slots import claim_slot, is_held, slot_path
from mantis.home.saves import autosave, clear_save, default_save_path, load_save, save_game
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.local_play import LocalPlayScreen
from mantis.tui.screens.resume import ResumeScreen
from mantis.tui.screens.setup import SetupScreen

SIZE = (80, 24)
SEATS = (
    SeatInfo("You", "human"),
    SeatInfo("Ann", "bot", "random"),
    SeatInfo("Bea", "bot", "score"),
)

OFFER_RESUME = first_screens.Setup(resume=first_screens.Resume.OFFER)


def notifications(app: MantisApp) -> list[str]:
    return [n.message for n in app._notifications]


MOVES = ("s", "2", "s", "3", "s")
"""The person's moves, in order: score, steal from Ann, score, steal from Bea, score."""


async def _play(pilot, moves: Sequence[str]) -> LocalPlayScreen:
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
    straight = MantisApp(first_screens.NewTable(SEATS, 8), still=True)
    async with straight.run_test(size=SIZE) as pilot:
        unbroken = (await _play(pilot, MOVES)).record
    clear_save()

    # The same table, quit after two of the person's moves.
    app = MantisApp(first_screens.NewTable(SEATS, 8), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await _play(pilot, MOVES[:2])
        left = table.record.replay()
        await pilot.press("ctrl+q")
    save, warning = load_save()
    assert warning is None and save is not None
    assert save.record.actions == left.history and save.record.seats == SEATS

    resumed = MantisApp(first_screens.Setup(resume=first_screens.Resume.NOW), still=True)
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
    app = MantisApp(OFFER_RESUME, still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, ResumeScreen))
        await pilot.press("r")
        table = await wait_for_human(pilot)
        assert table.state.view() == left.view()
    # "New game" keeps the save until the new game replaces it.
    again = MantisApp(OFFER_RESUME, still=True)
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, ResumeScreen))
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(again.screen, SetupScreen)
        await pilot.click("#start")
        table = await wait_for_human(pilot)
        # The old save stays until the new game's first save replaces it (a busy
        # machine may look in between): wait for the new one, which must come.
        await wait_for(
            pilot,
            lambda: (save := load_save()[0]) is not None and save.record.pile == table.record.pile,
        )


async def test_a_garbage_save_is_moved_aside_and_reported(mantis_home: Path) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00\xffnot a game")
    app = MantisApp(OFFER_RESUME, still=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        messages = notifications(app)
        assert len(messages) == 1 and "moved to" in messages[0] and "\n" not in messages[0]
    assert not path.exists()
    assert list(path.parent.glob("current-game.corrupt-*"))


async def test_resume_without_a_save_says_so_and_sets_up() -> None:
    app = MantisApp(first_screens.Setup(resume=first_screens.Resume.NOW), still=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert notifications(app) == ["No saved game to resume: set up a new one."]


def test_resume_with_seats_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--resume", "--seats", "human,random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resume" in err


# ---------------------------------------------------------------- several apps at once


def _at_your_turn(seed: int, moves: int):
    """The game from ``seed`` after at least ``moves`` moves, where "You" (seat 0) are to move.

    Resumed there, the table waits for you at once, so the board shows exactly the saved position.
    """
    record = positions.played(3, seed, 0.45)
    for upto in range(moves, len(record.actions)):
        game = record.replay(upto)
        if game.to_move == 0:
            return game
    raise AssertionError(f"seed {seed}: no turn of yours after move {moves}")


def _save_in_slot(number: int, seed: int, moves: int):
    game = _at_your_turn(seed, moves)
    autosave(record_of(game, SEATS), slot_path(number))
    return game


async def test_every_unfinished_game_is_offered_and_the_one_picked_saves_on_in_its_slot() -> None:
    first = _save_in_slot(1, 11, 9)
    second = _save_in_slot(2, 12, 5)
    app = MantisApp(OFFER_RESUME, still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, ResumeScreen))
        assert len(app.screen.saves) == 2
        await pilot.press("2")
        table = await wait_for_human(pilot)
        assert table.state.view() == second.view()
        # This app now plays slot 2's game; slot 1's game is free for another app.
        assert is_held(2) and not is_held(1)
        turn = table.table.turn
        await pilot.press("s")
        await wait_for(pilot, lambda: len(load_save(slot_path(2))[0].record.actions) > turn)
        assert load_save(slot_path(1))[0].record.actions == first.history


async def test_a_game_another_app_plays_is_not_offered_and_a_new_game_never_overwrites_it() -> None:
    theirs = _save_in_slot(1, 11, 9)
    other_app = claim_slot()  # another app, playing slot 1's game right now
    assert other_app is not None and other_app.number == 1
    try:
        app = MantisApp(OFFER_RESUME, still=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            await pilot.click("#start")
            await wait_for_human(pilot)
            await wait_for(pilot, lambda: load_save(slot_path(2))[0] is not None)
        kept = load_save(slot_path(1))[0]
        assert kept is not None and kept.record.actions == theirs.history
    finally:
        other_app.release()


async def test_resume_now_takes_the_latest_of_several_games() -> None:
    latest = _at_your_turn(12, 5)
    record = record_of(latest, SEATS)
    save_game(record, slot_path(1), saved_at=datetime(2026, 1, 1, tzinfo=UTC))
    save_game(
        record_of(positions.played(3, 11, 0.45).replay(9), SEATS),
        slot_path(2),
        saved_at=datetime(2025, 1, 1, tzinfo=UTC),
    )
    app = MantisApp(first_screens.Setup(resume=first_screens.Resume.NOW), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        assert table.state.view() == latest.view()


def test_several_unfinished_games_prompt(snap_compare) -> None:
    for number, seed in ((1, 11), (2, 12), (3, 13)):
        game = positions.played(3, seed, 0.45).replay(4 + number)
        when = datetime(2026, 11, 30, 3, 40 + number, tzinfo=UTC)
        save_game(record_of(game, SEATS), slot_path(number), saved_at=when)
    assert snap_compare(
        MantisApp(OFFER_RESUME, still=True),
        terminal_size=SIZE,
    )
