"""After a game: past games, its replay, its review (the board at a decision, the chart,
retrying the mistakes), the statistics with their chart; help, settings, the palette.

A short game is played first (seed 77, three turns of yours), so every screen
shows a game this person played.  Every board on the way (the replay, the
review's, the retry's) passes the layout check, at every size; the screens
without a board (statistics, help, settings, the palette) are driven at 80x24.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from journeykit import SIZES, Lines, Size
from playkit import deal, is_table, play_out, remember, reviewed
from screenkit import assert_table_whole, box_rows

pytestmark = pytest.mark.journey


def gone(text: str) -> Callable[[Lines], bool]:
    """A wait for ``text`` to leave the screen."""

    def absent(lines: Lines) -> bool:
        return not any(text in line for line in lines)

    absent.__doc__ = f"{text!r} gone from the screen"
    return absent


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_past_games_replay_review_retry_statistics_help_settings_palette(
    terminal, size: Size
) -> None:
    remember(seats=3)
    term, _ = deal(terminal, "77", size=size)
    play_out(term)
    term.press("n")  # a new game: back to the setup screen
    term.settle("set up a table")

    # Past games: the game just played, replayed on its board.
    term.press("g")
    past = term.settle("past games (Enter replays one")
    assert any("You" in line and "Bea" in line for line in past), past
    term.press("enter")
    replay = term.settle(lambda lines: is_table(lines) and "REPLAY" in lines[0])
    assert_table_whole(replay)
    term.press("end")
    assert_table_whole(term.settle(lambda lines: "move 10 of 10" in "".join(lines)))
    term.press("escape")
    term.settle("past games (Enter replays one")

    # Its review: the verdict, the chart, the decisions; one opened on the board.
    term.press("e")
    review = "\n".join(term.settle(reviewed))
    assert "You lost." in review and "100%┤" in review, review  # the verdict, the chart
    term.press("enter")
    board = term.settle(lambda lines: is_table(lines) and "your chances" in "".join(lines))
    assert_table_whole(board)
    term.press("escape")
    term.settle("MANTIS · review")
    term.press("r")
    retry = term.settle(lambda lines: is_table(lines) and "RETRY" in lines[0])
    assert_table_whole(retry)
    term.press("a")  # the answer: each option's chance under the pile
    answered = term.settle(lambda lines: is_table(lines) and "The answer:" in "".join(lines))
    assert_table_whole(answered)
    assert any("★ best" in row for row in box_rows(answered, "Move 8 · your chances"))
    term.press("escape")  # back to the review (once ignored after an answer)
    term.settle(reviewed)
    term.press("escape")
    term.settle("past games (Enter replays one")
    term.press("escape")
    term.settle("set up a table")
    if size != SIZES[0]:
        # The screens below hold no board: 80x24, the tightest, is their test.
        assert term.quit() == 0, term.printed()
        return

    # Statistics, with the rating's chart.
    term.press("t")
    stats = "\n".join(term.settle("Rating after each rated game"))
    assert "1 game · 0 won" in stats and "┤" in stats, stats  # the line, and the chart
    term.press("escape")
    term.settle(gone("MANTIS · statistics"))

    # Help, settings, the command palette: each opens and closes.
    term.press("f1")
    term.settle("How to play Mantis")
    term.press("escape")
    term.settle(gone("How to play Mantis"))
    term.press("f2")
    term.settle("Bot speed")
    term.press("escape")
    term.settle(gone("Bot speed"))
    term.press("ctrl+p")
    term.settle("Search for commands")
    term.type("statis")
    term.settle("Each player's results")
    term.press("enter")
    term.settle("MANTIS · statistics")
    term.press("escape")
    term.settle("set up a table")
    assert term.quit() == 0, term.printed()
    assert "Traceback" not in term.printed()
