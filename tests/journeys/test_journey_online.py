"""Online play as people play it: ``mantis serve`` running, and an app per person, each in a
terminal of its own.

Hosting and joining, a round trip timed, talk and leaving (the leaver's app stays up and
keeps the game, a loss); "Play now" for two people, a bot filling the table, someone
watching; a turn clock running out, then another game; a server that is not there and a wrong code.

Every journey starts its own server on a free port (bots move at once, quick-play tables
fill after a short wait) and stops it at the end; each person plays from a home of their
own, at instant speed. Every table screen on the way is checked whole. Together they
take about 26 s of CPU time, run one after another (the apps, the servers and pytest).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from journeykit import Lines, Size, Terminal, notified, person_home
from playkit import play_out
from screenkit import assert_table_whole, table_faults
from servicekit import free_port

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


def ann_hosts(terminal, url: str, tmp_path, size: Size) -> tuple[Terminal, str]:
    """Ann hosts a public table of two seats, one open: her app and the table's code."""
    ann = terminal(
        "host",
        url,
        "--seats",
        "human,open",
        "--name",
        "Ann",
        size=size,
        home=person_home(tmp_path, "ann", speed="instant"),
    )
    return ann, table_code(ann.settle("Others join with"))


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
    # The server's first game is dealt from seed 1 (its own tests' seeds): once both have
    # left, the away bots play it out the same way every time, and Bea's seat wins it.
    server = serve(*SERVER, "--seed", "1")
    ann, code = ann_hosts(terminal, server.url, tmp_path, size)
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
        assert_table_whole(term.settle(whole(on_board)))

    # Ann times a round trip to the server from the command palette, and asks who is at
    # the table: a notification says each (its first line: at 80 columns the rest may
    # wrap beside the game log's border), and the table is whole again once it closed.
    for typed, described, said in (
        (
            "round trip",
            "Time how long the table's server takes to answer",
            "Round trip to the server:",
        ),
        (
            "who is here",
            "The people sitting at the table and those watching it",
            "At the table: Ann, Bea.",
        ),
    ):
        ann.press("ctrl+p")
        ann.settle("Search for commands")
        ann.type(typed)
        ann.settle(described)
        ann.press("enter")
        ann.wait_for(notified(said))
        assert_table_whole(ann.settle(whole(on_board)))

    # Bea says a line: Ann's log shows it.
    bea.press("t")
    bea.wait_for("Say ›")
    bea.type("hello Ann")
    bea.press("enter")
    ann.wait_for("Bea says “hello Ann”")

    # Ann leaves for good: Bea hears it, and Ann's app stays up, in the lobby.
    leave(ann)
    bea.wait_for("Ann left the game")
    # Bea leaves too: the away bots play both seats to the end, and Ann's app says the
    # game is kept (for a few seconds: it is looked for at once).
    bea.press("l")
    bea.wait_for("Leave this game for good?")
    bea.press("y")
    ann.wait_for(notified("is over: it is in your past games, counted as a loss"))
    bea.settle(in_lobby)

    # The game is in Ann's past games, won by Bea's seat, and counts as a loss in her
    # statistics.
    ann.press("escape")  # from the lobby to the setup screen
    ann.settle("set up a table")
    ann.press("g")
    lines = ann.wait_for(f"online {code}: Ann, Bea")
    (row,) = [line for line in lines if f"online {code}" in line]
    winner = row.split(f"online {code}: Ann, Bea")[1]  # the winner, then the moves
    assert "Bea" in winner and "Ann" not in winner, row
    ann.press("escape")
    ann.settle("set up a table")
    ann.press("t")
    ann.wait_for("1 game · 0 won")
    for term in (ann, bea):
        assert term.quit() == 0, term.printed()
        assert "Traceback" not in term.printed()


def whole(holds: Callable[[Lines], bool]) -> Callable[[Lines], bool]:
    """``holds``, on a screen drawn whole: under load a burst of drawing can pause longer
    than a settle's quiet spell (a key bar drawn a moment after the board), and a screen
    caught between is no fault of the app's; one that never becomes whole still fails."""

    def drawn(lines: Lines) -> bool:
        return holds(lines) and not table_faults(lines)

    drawn.__doc__ = f"{holds.__doc__ or 'the screen'}, drawn whole"
    return drawn


def board_of(code: str) -> Callable[[Lines], bool]:
    """A predicate: the board of table ``code`` is up."""

    def holds(lines: Lines) -> bool:
        return on_board(lines) and table_code(lines) == code

    holds.__doc__ = f"the board of table {code}"
    return holds


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_quick_play_seats_two_people_together_a_bot_fills_the_table_and_anyone_may_watch(
    terminal, serve, tmp_path, size: Size
) -> None:
    # Bots fill a quick-play table 5 s after someone sits: both people press "Play now"
    # with their lobbies up, so both sit within the same moment, long before then.
    server = serve(*SERVER, "--quick-wait", "5")
    people = {}
    for name in ("Ann", "Bea"):
        home = person_home(
            tmp_path, name, speed="instant", server=server.url, online_name=name, quick_players=3
        )
        people[name] = terminal(size=size, home=home)
    for term in people.values():
        term.settle("set up a table")
        term.press("o")
        term.settle(in_lobby)
    for term in people.values():
        term.press("ctrl+g")
    ann, bea = people["Ann"], people["Bea"]
    shown = ann.settle(whole(on_board))
    code = table_code(shown)
    assert_table_whole(shown)
    lines = bea.settle(whole(board_of(code)))
    assert_table_whole(lines)
    seats = " ".join(lines)
    assert "Ann · human" in seats and "You · human" in seats and "· greedy" in seats

    # Someone else watches the table by its code: the same board, as a spectator.
    cal = terminal(
        "watch", server.url, code, size=size, home=person_home(tmp_path, "cal", speed="instant")
    )
    lines = cal.settle(whole(lambda lines: any(f"watching {code}" in line for line in lines)))
    assert_table_whole(lines)
    assert "You · human" not in " ".join(lines)
    for term in (ann, bea, cal):
        assert term.quit() == 0, term.printed()
        assert "Traceback" not in term.printed()


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_clock_runs_out_the_bot_moves_for_her_then_another_game_follows(
    terminal, serve, tmp_path, size: Size
) -> None:
    server = serve(*SERVER)
    ann = terminal(
        "host",
        server.url,
        "--seats",
        "human,greedy",
        "--clock",
        "5",  # the shortest a table may have
        "--name",
        "Ann",
        size=size,
        home=person_home(tmp_path, "ann", speed="instant"),
    )
    code = table_code(ann.settle("Every seat is taken"))
    ann.press("ctrl+s")
    assert_table_whole(ann.settle(whole(on_board)))
    # Ann lets her first turn's time run out: the bot moves for her, and the game comes back
    # to her. She scores on each of her turns from then on, to the result. (Three times out
    # and the bot plays her seat to the end: tests/net drives that on a clock of its own.)
    ann.wait_for("Your time ran out")
    lines = play_out(ann)
    assert any("Play again (a)" in line for line in lines), lines
    ann.press("a")  # another game: the bot is always willing

    def next_game(lines: Lines) -> bool:
        """the next game's board: the result gone, a turn being played"""
        result = any("Play again (a)" in line for line in lines)
        return board_of(code)(lines) and not result and "TURN" in lines[1]

    assert_table_whole(ann.settle(whole(next_game)))
    assert ann.quit() == 0, ann.printed()
    assert "Traceback" not in ann.printed()


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_a_server_that_is_not_there_is_said_in_the_lobby_in_one_line(
    terminal, tmp_path, size: Size
) -> None:
    nowhere = f"ws://127.0.0.1:{free_port()}"
    home = person_home(tmp_path, "bea", server=nowhere, online_name="Bea")
    bea = terminal(size=size, home=home)
    bea.settle("set up a table")
    bea.press("o")
    lines = bea.settle("connection refused")
    # One sentence (wrapped to the lobby's width), with what to do about it.
    said = " ".join(" ".join(lines).split())
    assert f"cannot reach {nowhere}: connection refused" in said
    assert "or press Serve here to run one on this computer." in said
    assert bea.quit() == 0, bea.printed()


def test_the_command_line_says_a_missing_server_or_a_wrong_code_in_one_line(
    terminal, serve
) -> None:
    nowhere = terminal("join", f"ws://127.0.0.1:{free_port()}", "KXQD")
    assert nowhere.wait_exit() == 1
    assert (
        nowhere.printed().strip().splitlines() == [nowhere.printed().strip()]
        and "cannot reach" in nowhere.printed()
    )
    server = serve(*SERVER)
    wrong = terminal("join", server.url, "BDFH")
    assert wrong.wait_exit() == 1
    printed = wrong.printed().strip()
    assert printed == "mantis: there is no table 'BDFH' here"
