"""A game played here from start to finish, as a person plays it, at every size.

Set up, ctrl+s, score on each turn until the game is over (bots at instant
speed), play again, quit; and a game killed mid-way (SIGKILL) resumed where
it stood.  Every table on the way is checked whole, frame by frame.
"""

from __future__ import annotations

import pytest
from journeykit import SIZES, Size
from playkit import deal, move_of, play_out, remember, your_turn
from screenkit import assert_table_whole, box_rows

pytestmark = pytest.mark.journey

#: You and two greedy bots: a deal that ends after three turns of yours (10 moves).
SHORT_GAME = "77"


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_a_game_from_the_setup_screen_to_its_end_then_another(terminal, size: Size) -> None:
    remember(seats=3)
    # `mantis play --seed` without seats: the setup screen, the seed typed in.
    term, first = deal(terminal, SHORT_GAME, size=size)
    assert_table_whole(first)
    over = play_out(term)
    shown = "\n".join(over)
    assert "★ Bea wins! ★" in shown and "10 moves · seed 77" in shown, shown
    term.press("a")  # play again: a new deal, the same seats
    again = term.settle(lambda lines: your_turn(lines) or "TURN" in "".join(lines))
    assert_table_whole(again)
    assert f"seed {SHORT_GAME} " not in again[0]
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()


def test_a_game_killed_mid_way_resumes_where_it_stood(terminal) -> None:
    # One size: resuming draws the same table as any other (the layout is the journeys' above).
    remember(seats=3)
    term, _ = deal(terminal, SHORT_GAME)
    term.press("s")
    before = term.settle(lambda lines: your_turn(lines) and move_of(lines) > 1)
    assert term.kill() == -9  # no chance to save anything more, or to say goodbye

    again = terminal()
    again.settle("Unfinished game")
    again.press("r")
    resumed = again.settle(your_turn)
    assert_table_whole(resumed)
    assert move_of(resumed) == move_of(before)
    for seat in ("1 You", "2 Ann", "3 Bea"):
        assert box_rows(resumed, seat) == box_rows(before, seat)
    assert box_rows(resumed, "Game log") == box_rows(before, "Game log")
    assert again.quit() == 0, again.printed()
