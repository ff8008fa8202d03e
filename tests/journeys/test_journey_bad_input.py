"""A person's mistakes and a damaged file: a clear line, nothing lost, never a traceback.

An unknown bot on the command line and in the remembered seats, a damaged
save, a terminal too small (then made larger).  One size each: these draw no
table but the last, which ends at 80x24 (the smallest the app supports).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from journeykit import Size
from playkit import remember, your_turn
from screenkit import assert_table_whole

from mantis.base.paths import settings_path
from mantis.engine import SeatInfo
from mantis.home import Settings, save_settings

pytestmark = pytest.mark.journey


def test_an_unknown_remembered_bot_is_said_on_the_setup_screen(terminal) -> None:
    # A bot remembered from another machine (a plug-in that is not here).
    seats = (SeatInfo("You", "human"), SeatInfo("Ann", "bot", "nobody"))
    save_settings(Settings(speed="instant", last_seats=seats), settings_path())
    term = terminal()
    term.settle("set up a table")
    term.press("ctrl+s")
    shown = "\n".join(term.settle("unknown bot"))
    assert "Seat 2 (Ann)" in shown and "set up a table" in shown, shown
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()


def test_a_damaged_save_is_moved_aside_and_a_new_game_set_up(terminal) -> None:
    remember(seats=3)
    data = Path(os.environ["MANTIS_HOME"]) / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / "current-game.json").write_text('{"seed": 7, "actions": [', encoding="utf-8")
    term = terminal()
    shown = "\n".join(term.settle(lambda lines: "damaged" in "".join(lines)))
    assert "set up a table" in shown and "Unfinished game" not in shown, shown
    assert not (data / "current-game.json").exists()
    (aside,) = data.glob("current-game.corrupt-*.json")
    assert aside.read_text(encoding="utf-8") == '{"seed": 7, "actions": ['  # kept, as it was
    term.press("ctrl+s")
    assert_table_whole(term.settle(your_turn))
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()


def test_a_terminal_too_small_says_so_then_shows_the_whole_table(terminal) -> None:
    seats = ("--seats", "human,greedy,greedy,greedy", "--seed", "7")
    term = terminal("play", *seats, size=Size(70, 20, no_color=True))
    term.settle("Terminal too small (70×20)")
    term.resize(80, 24)
    assert_table_whole(term.settle(your_turn))
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()
