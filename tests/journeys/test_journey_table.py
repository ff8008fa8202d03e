"""Onto a table the two ways a person gets there, at every size: the table is whole.

Straight onto one with ``mantis play``, and from the setup screen with ctrl+s;
then a move, and ctrl+q.
"""

from __future__ import annotations

import pytest
from journeykit import SIZES, Lines, Size
from screenkit import assert_table_whole, box_rows

pytestmark = pytest.mark.journey

SEATS = ("--seats", "human,greedy,greedy,greedy")


def your_turn(lines: Lines) -> bool:
    """the table waiting for your move"""
    return any("▶ YOUR TURN" in line for line in lines)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_play_opens_a_whole_table_and_a_score_shows_in_the_log(terminal, size: Size) -> None:
    term = terminal("play", *SEATS, "--seed", "7", size=size)
    lines = term.settle(your_turn)
    assert_table_whole(lines)
    # Seed 7 deals you the first move: the log has only the opening so far.
    before = box_rows(lines, "Game log")
    assert not any(row.startswith("1 ") for row in before), before

    term.press("s")

    def scored(lines: Lines) -> bool:
        """your move in the game log"""
        return any(row.startswith("1 You ") for row in box_rows(lines, "Game log"))

    term.wait_for(scored)
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_first_table_from_the_setup_screen_is_whole(terminal, size: Size) -> None:
    term = terminal(size=size)
    term.settle("set up a table")
    term.press("ctrl+s")
    assert_table_whole(term.settle(your_turn))
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()
