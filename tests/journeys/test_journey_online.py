"""Online play as people play it: ``mantis serve`` running, and an app per person, each in a
terminal of its own.

Every journey starts its own server on a free port (bots move at once, quick-play tables
fill after a short wait) and stops it at the end; each person plays from a home of their
own, at instant speed. Every table screen on the way is checked whole.
"""

from __future__ import annotations

import re

import pytest
from journeykit import Lines, Size, Terminal, notified, person_home
from screenkit import assert_table_whole

pytestmark = pytest.mark.journey

SIZES = (Size(80, 24, no_color=True), Size(100, 30))
"""The smallest size (without colour), and one where the seats show their colours' names."""

SERVER = ("--bot-pace", "0")


def on_board(lines: Lines) -> bool:
    """an online table's board"""
    return any(re.match(r"\s*MANTIS · (online|watching) \w+ · move ", line) for line in lines)


def in_lobby(lines: Lines) -> bool:
    """the lobby"""
    return any("MANTIS · play online" in line for line in lines)


def table_code(lines: Lines) -> str:
    """The code of the table a waiting room or a board shows."""
    for line in lines:
        found = re.search(r"online(?: table)? ([A-Z]{4,12})\b", line)
        if found:
            return found.group(1)
    raise AssertionError("no table code on the screen:\n" + "\n".join(lines))


def leave(term: Terminal) -> None:
    """Leave the game for good: l, then yes; the app goes on, in the lobby."""
    term.press("l")
    term.wait_for("Leave this game for good?")
    term.press("y")
    term.settle(in_lobby)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_host_join_talk_and_leave_the_game_which_counts_as_a_loss(
    terminal, serve, tmp_path, size: Size
) -> None:
    server = serve(*SERVER)
    ann = terminal(
        "host",
        server.url,
        "--seats",
        "human,open",
        "--name",
        "Ann",
        size=size,
        home=person_home(tmp_path, "ann", speed="instant"),
    )
    code = table_code(ann.settle("Others join with"))
    bea = terminal(
        "join",
        server.url,
        code,
        "--name",
        "Bea",
        size=size,
        home=person_home(tmp_path, "bea", speed="instant"),
    )
    ann.wait_for("Every seat is taken")
    ann.press("ctrl+s")
    for term in (ann, bea):
        assert_table_whole(term.settle(on_board))

    # Bea says a line: Ann's log shows it.
    bea.press("t")
    bea.wait_for("Say ›")
    bea.type("hello Ann")
    bea.press("enter")
    ann.wait_for("Bea says “hello Ann”")

    # Ann leaves for good: Bea hears it, and Ann's app stays up, in the lobby.
    leave(ann)
    bea.wait_for("Ann left the game")
    # Bea leaves too: the away bots play both seats to the end.
    leave(bea)
    for term in (ann, bea):
        term.wait_for(notified("is over: it is in your past games, counted as a loss"))

    # The game is in Ann's past games, and counts as a loss in her statistics.
    ann.press("escape")  # from the lobby to the setup screen
    ann.settle("set up a table")
    ann.press("g")
    ann.wait_for(f"online {code}: Ann, Bea")
    ann.press("escape")
    ann.settle("set up a table")
    ann.press("t")
    ann.wait_for("1 game · 0 won")
    for term in (ann, bea):
        assert term.quit() == 0
        assert "Traceback" not in term.printed()
