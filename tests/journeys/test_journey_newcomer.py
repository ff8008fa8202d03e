"""What confused a newcomer, driven as a person meets it: the installed mantis in a terminal.

A finished game reviewed from the shell (``mantis review --last``); a retried mistake
with the odds hidden until it is answered; an online waiting room offering its bots at
the rating its seats show; an online table's footer listing ``l``; and a person who
left, whose seat's win is never theirs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from journeykit import SIZES, Lines, Size, Terminal, environment
from screenkit import box_rows

from mantis.base.paths import settings_path
from mantis.home import Settings, save_settings
from mantis.rating.levels import rating_text

pytestmark = pytest.mark.journey

SMALL = SIZES[0]
"""80x24 without colour: where a line is cut first."""


def game_over(lines: Lines) -> bool:
    """the game-over box"""
    return any("━ Game over ━" in line for line in lines)


def moves_played(lines: Lines) -> int:
    """The move count on the status line ("MANTIS · seed 4 · move 12 · …")."""
    found = re.search(r"· move (\d+) ·", lines[0])
    return int(found.group(1)) if found else -1


def play_to_the_end(term: Terminal) -> Lines:
    """Score whenever it is this person's turn, until the game-over box shows."""

    def turn_or_over(lines: Lines) -> bool:
        """your turn, or the end"""
        return game_over(lines) or any("▶ YOUR TURN" in line for line in lines)

    while True:
        lines = term.settle(turn_or_over)
        if game_over(lines):
            return lines
        before = moves_played(lines)
        term.press("s")
        term.wait_for(lambda lines, n=before: game_over(lines) or moves_played(lines) > n)


# ----------------------------------------------------------------- a past game, from the shell


def test_a_game_played_in_the_app_is_reviewed_from_the_shell(terminal) -> None:
    term = terminal("play", "--seats", "greedy,random,random", "--speed", "instant", "--seed", "4")
    term.settle(game_over)
    assert term.quit() == 0, term.printed()
    review = terminal("review", "--last", size=SMALL)
    assert review.wait_exit() == 0
    text = " ".join(review.printed().split())
    assert "Past game 1 (seed 4): 3 players" in text  # (after the progress bar)
    assert "Luck: what the faces turned over did to the chance of winning, in win-% points" in text
    assert "Adjusted: the result (won 100, lost 0) minus the luck." in text
    # Each seat's luck and adjusted result in points: the result (100 a win) less the luck.
    rows = re.findall(
        r"\d \w+ \(\w+\) (won|lost) \S+ \S+ \d+ \d+ \d+ ([+-]\d+\.\d) (-?\d+\.\d)", text
    )
    assert len(rows) == 3, text
    for result, luck, adjusted in rows:
        assert float(adjusted) == pytest.approx((100 if result == "won" else 0) - float(luck))


# ----------------------------------------------------------------- retrying a mistake


def odds_shown(lines: Lines) -> bool:
    """the odds beside the draw pile"""
    return any("odds for You" in line for line in lines)


def test_a_retried_mistake_hides_the_odds_until_it_is_answered(terminal) -> None:
    term = terminal(
        "play", "--seats", "human,random,random", "--speed", "instant", "--seed", "4", size=SMALL
    )
    term.settle("▶ YOUR TURN")
    term.press("o")  # the odds on, as a newcomer turns them on
    term.settle(odds_shown)
    play_to_the_end(term)
    term.press("e")
    term.settle("r retries 1 mistake")
    term.press("r")
    lines = term.settle("RETRY YOUR MISTAKES")
    # Each option's chance of coming off would all but give the answer: not shown, and
    # o does not bring it back while the position is open.
    assert not odds_shown(lines) and "Odds" not in "".join(lines)
    term.press("o")
    assert not odds_shown(term.settle("RETRY YOUR MISTAKES"))
    term.press("a")  # the answer: now the odds are no secret
    lines = term.settle("The answer:")
    assert odds_shown(lines)
    assert term.quit() == 0, term.printed()


# ----------------------------------------------------------------- online


def instant(home: Path | None = None) -> None:
    """The app shows every move at once (its settings, in ``home`` or the test's own)."""
    path = settings_path() if home is None else home / "config" / "settings.json"
    save_settings(Settings(speed="instant", animations=False), path)


@pytest.fixture
def server(serve) -> str:
    """A real ``mantis serve`` on a free port, its bots moving at once; its address."""
    return serve("--bot-pace", "0", "--seed", "3").url


def test_the_waiting_room_offers_each_bot_at_the_rating_its_seats_show(terminal, server) -> None:
    term = terminal("host", server, "--seats", "human,open,greedy", "--name", "Ann", size=SMALL)
    lines = term.settle("Add open seat")
    three = rating_text("greedy", 3)
    assert three != rating_text("greedy")  # the overall rating differs: one number per table
    seat = next(line for line in lines if "bot · greedy" in line)
    assert seat.split()[-1] == three
    assert f"Bot · Hard (greedy) · {three}" in "\n".join(lines)
    term.press("b")  # another greedy bot: four seats, every number at four
    four = rating_text("greedy", 4)

    def four_seats(lines: Lines) -> bool:
        """the fourth seat, a bot"""
        return sum("bot · greedy" in line for line in lines) == 2

    lines = term.settle(four_seats)
    assert [line.split()[-1] for line in lines if "bot · greedy" in line] == [four, four]
    assert f"Bot · Hard (greedy) · {four}" in "\n".join(lines)
    assert term.quit() == 0, term.printed()


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_online_tables_footer_lists_leaving(terminal, server, size: Size) -> None:
    term = terminal("host", server, "--seats", "human,greedy", "--name", "Ann", size=size)
    term.settle("Every seat is taken")
    term.press("ctrl+s")
    lines = term.settle("▶ YOUR TURN")
    footer = lines[-1]
    assert " l Leave " in footer and " t Talk " in footer
    assert "f2 Settings" in footer  # and nothing cut to make room for it
    assert term.quit() == 0, term.printed()


def test_a_person_who_left_is_never_named_the_winner(terminal, server, tmp_path: Path) -> None:
    instant()
    ann = terminal("host", server, "--seats", "human,open", "--name", "Ann", size=SMALL)
    lines = ann.settle("Others join with")
    code = re.search(r"mantis join \S+ (\S+)", "\n".join(lines)).group(1)
    # Bea is another person: her own app, with her own data.
    bea = Terminal(
        ("join", server, code, "--name", "Bea"), SMALL, environment(SMALL, str(tmp_path / "bea"))
    )
    try:
        bea.settle("Waiting for the host")
        ann.settle("Every seat is taken")
        ann.press("ctrl+s")
        bea.settle("Steal (⏎)")
        bea.press("l")
        bea.settle("Leave (y)")
        bea.press("y")
        ann.wait_for("Bea left the game")
        lines = play_to_the_end(ann)
    finally:
        bea.close()
    text = " ".join(" ".join(box_rows(lines, "Game over")).split())
    # Whoever won, the seat's result is never Bea's: she left, and it is her loss.
    assert "Bea left the game: it counts as a loss for Bea." in text
    assert "Bea wins" not in text
    assert "★ Bea's seat (played by greedy) wins! ★" in text or "played by greedy (left)" in text
    assert ann.quit() == 0, ann.printed()
