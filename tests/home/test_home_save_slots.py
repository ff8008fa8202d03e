"""Save slots: each app open at once has a save file of its own, held until it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from homekit import SEATS3

from mantis.base.paths import data_dir
from mantis.engine import Game, record_of
from mantis.home.save_slots import claim_slot, is_held, saved_games, slot_of, slot_path
from mantis.home.saves import SAVE_NAME, save_game

REPO = Path(__file__).resolve().parents[2]

HOLDER = """
import sys
from mantis.home.save_slots import claim_slot
slot = claim_slot()
print(slot.number, flush=True)
sys.stdin.read()  # hold the slot until told to go (or killed)
"""


def save_at(number: int, seed: int) -> None:
    save_game(record_of(Game.new(3, seed), SEATS3), slot_path(number))


def test_slot_1_is_the_save_a_single_app_always_used() -> None:
    assert slot_path(1) == data_dir() / SAVE_NAME
    assert slot_path(3).name == "current-game-3.json"
    assert [slot_of(slot_path(n)) for n in (1, 2, 12)] == [1, 2, 12]
    assert slot_of(data_dir() / "current-game.corrupt-20261201-101010.json") is None


def test_apps_open_at_once_hold_different_slots_and_a_released_one_is_reused() -> None:
    first, second = claim_slot(), claim_slot()
    assert first is not None and second is not None
    assert (first.number, second.number) == (1, 2)
    assert claim_slot(1) is None and is_held(1)
    first.release()
    assert not is_held(1)
    third = claim_slot()
    assert third is not None and third.number == 1
    third.release()
    second.release()


def test_saved_games_lists_only_the_games_no_other_app_is_playing() -> None:
    for number, seed in ((1, 5), (2, 6), (3, 7)):
        save_at(number, seed)
    playing = claim_slot(2)
    mine = claim_slot()
    assert playing is not None and mine is not None and mine.number == 1
    try:
        saves, warnings = saved_games(mine=mine)
        assert warnings == []
        assert [slot_of(save.path) for save in saves] == [1, 3]
    finally:
        playing.release()
        mine.release()
    saves, _ = saved_games()
    assert [slot_of(save.path) for save in saves] == [1, 2, 3]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs kill -9 (POSIX)")
def test_an_app_in_another_process_holds_its_slot_until_it_is_killed() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # MANTIS_HOME comes from the fixture
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "1"
        assert is_held(1)
        mine = claim_slot()
        assert mine is not None and mine.number == 2
        mine.release()
        holder.kill()
        holder.wait(60)
        assert not is_held(1)  # the system dropped the dead app's lock
    finally:
        holder.kill()
        holder.communicate()


def test_a_directory_that_cannot_be_written_gives_an_unheld_slot_1(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    slot = claim_slot(directory=blocked / "data")
    assert slot is not None and slot.number == 1 and not slot.held
    slot.release()  # harmless


async def test_a_save_handed_over_as_the_game_closes_is_on_disk_before_the_slot_is_let_go() -> None:
    """An app quitting right after a move: the move's save is cancelled by no one."""
    import asyncio
    import threading

    from mantis.home.saves import load_save
    from mantis.table import LocalKeeper

    slot = claim_slot()
    assert slot is not None
    keeper = LocalKeeper(save_path=slot.path, writes=slot.writes)
    # The slot's writer is busy, so the save waits in its queue when the table is closed.
    busy = threading.Event()
    slot.writes.submit(busy.wait, 30)
    saving = asyncio.ensure_future(keeper.save(record_of(Game.new(3, 8), SEATS3)))
    await asyncio.sleep(0)  # the save is handed over
    saving.cancel()  # the app quits: its table's tasks are cancelled
    with pytest.raises(asyncio.CancelledError):
        await saving
    busy.set()
    slot.release()
    assert not is_held(slot.number)
    save, warning = load_save(slot.path)
    assert warning is None and save is not None
    assert save.record.seed == 8
