"""Straight onto a table with ``mantis play``: 2, 4 and 6 seats at every size; and one
deal's first table looks the same however a person reaches it."""

from __future__ import annotations

import pytest
from journeykit import SIZES, Lines, Size
from playkit import deal, play_out, remember, your_turn
from screenkit import assert_table_whole, dump

pytestmark = pytest.mark.journey


def table_up(lines: Lines) -> bool:
    """a table, whoever's turn it is"""
    return any("'S TURN" in line or "YOUR TURN" in line for line in lines)


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("size", SIZES, ids=str)
def test_play_opens_a_whole_table_of_2_4_and_6_seats(terminal, size: Size, seats: int) -> None:
    bots = ",".join(["human"] + ["greedy"] * (seats - 1))
    term = terminal("play", "--seats", bots, "--seed", "7", size=size)
    lines = term.settle(your_turn)
    assert_table_whole(lines)
    assert f"{seats} players" in "".join(lines)
    assert term.quit() == 0, term.printed()


def test_a_deals_first_table_is_the_same_from_setup_from_play_and_as_a_rematch(terminal) -> None:
    # At 100x30, where the first table after the setup screen was once drawn without its
    # layout: the same deal (seed 77, you and two greedy bots) reached three ways.
    remember(seats=3)
    term, from_setup = deal(terminal, "77", size=SIZES[1])
    play_out(term)
    term.press("r")  # rematch: the same deal again, the second table of this process
    rematch = term.settle(your_turn)
    assert term.quit() == 0, term.printed()

    direct = terminal("play", "--seats", "human,greedy,greedy", "--seed", "77", size=SIZES[1])
    from_play = direct.settle(your_turn)
    assert direct.quit() == 0, direct.printed()

    assert_table_whole(from_setup)
    assert from_setup == from_play, f"setup:\n{dump(from_setup)}\nplay:\n{dump(from_play)}"
    assert rematch == from_setup, f"rematch:\n{dump(rematch)}\nsetup:\n{dump(from_setup)}"


def test_four_players_picked_from_the_setup_screens_list_sit_at_a_whole_table(terminal) -> None:
    # The players' list is made when first opened (ChosenSelect): opened here with keys.
    remember(seats=3)
    term = terminal(size=SIZES[0])
    term.settle("set up a table")
    term.press("enter")  # the players' select has the focus: Enter opens it
    term.settle("Dismiss menu")  # the list is open: 2 to 6, on 3
    term.press("down", "enter")
    term.settle(
        lambda lines: any(line.lstrip().startswith("4") and "Cal" in line for line in lines)
    )
    term.press("ctrl+s")
    lines = term.settle(lambda lines: table_up(lines) and "^p palette" in lines[-1])
    assert_table_whole(lines)
    assert "4 players" in "".join(lines)
    assert term.quit() == 0, term.printed()
