"""Every screen of a game here, as a newcomer meets it: whole key bars, focus seen without
colour, words that explain themselves, one figure for a loss, and a game left for another
kept.

A short game is played (seed 77, you and two greedy bots, as in the history journey);
on the way each screen's key bar is checked whole at the terminal's width (each key as a
binding of the app's says it: never "f2 S"), and the setup and settings screens are tabbed
round, each stop of the focus showing without colour (both at 80x24 without colour,
where they are tight and the focus would need colour to show).  The review's losses are the ones
``mantis review --last`` prints.  The palette's New game asks, and the game left is
offered again.
"""

from __future__ import annotations

import re

import pytest
from barkit import assert_focus_shows, assert_key_bar_whole
from journeykit import SIZES, Lines, Size
from playkit import deal, is_table, move_of, play_out, remember, reviewed, your_turn
from screenkit import assert_table_whole, box_rows

pytestmark = pytest.mark.journey

_LOGGED = re.compile(r"\s*(\d+) ")
_LOSS = re.compile(r"^\s*(\d+)\s+1 You\b.*?−(\d+\.\d)")


def asking(lines: Lines) -> bool:
    """a question to leave the game up"""
    return any("Leave the game" in line for line in lines)


def words(lines: Lines) -> list[str]:
    """The words on the screen, row after row, a box's edges left out."""
    return " ".join(line.strip(" │╭╮╰╯─") for line in lines).split()


def app_losses(lines: Lines) -> dict[int, str]:
    """Each of your decisions' loss the review lists: {move: "8.0"}."""
    found = (_LOSS.match(line) for line in lines)
    return {int(m.group(1)): m.group(2) for m in found if m}


@pytest.mark.parametrize("size", SIZES[:2], ids=str)
def test_every_screen_of_a_game_here_is_whole_and_says_what_it_means(terminal, size: Size) -> None:
    remember(seats=3)
    narrow = size == SIZES[0]  # 80 columns without colour: key bars and focus are tried there
    term = terminal("play", "--seed", "77", size=size)
    setup = term.settle("set up a table")
    # The setup screen opens on its first choice, not on Start: Enter opens the list
    # (with an edge, over what lies under it), and deals nothing.
    term.press("enter")
    opened = term.settle("╭")
    assert not is_table(opened) and any("│6" in line.replace(" ", "") for line in opened)
    term.press("escape")
    term.settle(lambda lines: lines == setup)
    if narrow:
        assert_key_bar_whole(term)
        assert assert_focus_shows(term) >= 12  # players, 3 names and kinds, seed, 4 buttons

    term.press("ctrl+s")
    lines = term.settle(your_turn)
    # The status line numbers the move being played as the log will: one past its last.
    logged = [int(m.group(1)) for row in box_rows(lines, "Game log") if (m := _LOGGED.match(row))]
    assert logged and move_of(lines) == logged[-1] + 1, (lines[0], logged)
    term.press("p")  # bots paused: the bar's longest
    lines = term.settle(lambda lines: "PAUSED" in lines[0])
    if narrow:
        assert_key_bar_whole(term, showing="n Step")
    term.press("p")
    term.press("o")  # the odds: every face a chance, an impossible one 0 (never "seen")
    lines = term.settle(lambda lines: any("Top " in line and "/" in line for line in lines))
    assert not any("seen" in line for line in lines)
    term.press("o")
    term.settle(your_turn)
    play_out(term)

    # The review: its bar whole, Retry offered (there are mistakes to retry).
    term.press("e")
    review = term.settle(reviewed)
    if narrow:
        assert_key_bar_whole(term, showing="r Retry mistakes")
    losses = app_losses(review)
    assert losses, review
    term.press("r")
    term.settle(lambda lines: is_table(lines) and "RETRY" in lines[0])
    if narrow:
        assert_key_bar_whole(term, showing="a Show answer")
    term.press("a")  # the answer: the banner no longer asks for a move
    answered = term.settle(
        lambda lines: "The answer:" in "".join(lines) and "THE ANSWER" in lines[1]
    )
    assert not any("YOUR TURN" in line for line in answered), answered
    assert_table_whole(answered)
    term.press("escape")
    term.settle(reviewed)
    term.press("escape")
    term.settle(lambda lines: is_table(lines) and "Game over" in lines[1])
    term.press("r")  # the result again
    term.settle(lambda lines: "Play again (a)" in "".join(lines))
    term.press("n")
    term.settle("set up a table")

    if narrow:  # Settings: tabbed round, each stop seen
        term.press("f2")
        term.settle("Bot speed")
        assert_key_bar_whole(term, showing="^s Save")
        assert assert_focus_shows(term) >= 5
        term.press("escape")
        term.settle("set up a table")
    assert term.quit() == 0, term.printed()

    # The same losses, to the tenth, as `mantis review --last` prints them.
    printed = terminal("review", "--last", size=size)
    assert printed.wait_exit() == 0
    text = printed.printed()
    shown = {
        int(m.group(1)) - 1: m.group(2)
        for m in re.finditer(r"move\s+(\d+)\s+You:.*?-(\d+\.\d)", text)
    }
    common = set(shown) & {move - 1 for move in losses}
    assert common, (losses, text)
    for move in common:
        assert losses[move + 1] == shown[move], (move, losses, shown)


@pytest.mark.parametrize("size", SIZES[:2], ids=str)
def test_a_new_game_from_the_palette_asks_and_keeps_the_game_in_progress(
    terminal, size: Size
) -> None:
    remember(seats=3)
    term, first = deal(terminal, "77", size=size)
    term.press("s")
    term.settle(lambda lines: your_turn(lines) and move_of(lines) > move_of(first))

    def palette_new_game() -> Lines:
        term.press("ctrl+p")
        term.settle("Search for commands")
        term.type("new game")
        term.settle("a game in progress is kept")
        term.press("enter")
        return term.settle("Leave this game to set up a new one?")

    asked = " ".join(" ".join(box_rows(palette_new_game(), "Leave the game")).split())
    assert "It is kept as it stands" in asked, asked
    term.press("n")  # stay: the game goes on
    assert_table_whole(term.settle(lambda lines: your_turn(lines) and not asking(lines)))
    palette_new_game()
    term.press("y")
    term.settle("set up a table")
    assert term.quit() == 0, term.printed()

    # The game left is offered back at the next start, where it stood.
    again = terminal(size=size)
    offered = "\n".join(again.settle("Unfinished game"))
    assert "A game was left unfinished" in offered and "after move" in offered, offered
    again.press("r")
    assert_table_whole(again.settle(your_turn))
    assert again.quit() == 0, again.printed()
