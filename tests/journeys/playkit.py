"""What a person does at a table in a journey: wait for their turn, score, play a game out.

Every step waits on the screen (never on time): whose turn the banner says,
the move number on the status line, the game-over screen's buttons.  The
settings a journey starts with are written where the app reads them (under
the test's ``MANTIS_HOME``), as a person's earlier session would have left them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from journeykit import Lines, Terminal
from screenkit import assert_table_whole

from mantis.base.paths import settings_path
from mantis.engine import SeatInfo
from mantis.home import Settings, save_settings

_MOVE = re.compile(r"\bmove (\d+)\b")

BOTS = ("Ann", "Bea", "Cal", "Dee", "Eve")


def your_turn(lines: Lines) -> bool:
    """the table waiting for your move, drawn"""
    return any("▶ YOUR TURN" in line for line in lines) and footer_drawn(lines)


def is_table(lines: Lines) -> bool:
    """a board (a game log beside the draw pile) on the screen, its footer drawn"""
    return any("Game log" in line for line in lines) and footer_drawn(lines)


def footer_drawn(lines: Lines) -> bool:
    """the footer's keys on the bottom row (Textual draws them a moment after the rest)"""
    return "^p palette" in lines[-1]


def game_over(lines: Lines) -> bool:
    """the game-over screen"""
    return any("Play again (a)" in line for line in lines)


def reviewed(lines: Lines) -> bool:
    """the review, its analysis done and drawn whole: down to its chart's axis"""
    shown = "".join(lines)
    return "MANTIS · review" in shown and "Reviewing the game" not in shown and "%┤" in shown


def move_of(lines: Lines) -> int:
    """The move number on the status line (the top row)."""
    found = _MOVE.search(lines[0])
    assert found, f"no move number on the status line: {lines[0]!r}"
    return int(found.group(1))


def remember(seats: int = 3, **settings: object) -> None:
    """Settings as a person leaves them: you and greedy bots set up, bots at instant speed."""
    remembered = (
        SeatInfo("You", "human"),
        *(SeatInfo(name, "bot", "greedy") for name in BOTS[: seats - 1]),
    )
    values = {"speed": "instant", "animations": False, "last_seats": remembered, **settings}
    save_settings(Settings(**values), settings_path())  # type: ignore[arg-type]


def deal(terminal: Callable[..., Terminal], seed: str, **options: object) -> tuple[Terminal, Lines]:
    """``mantis play --seed SEED`` dealt from its setup screen (Ctrl+S): the app, and its
    table once it waits for your first move."""
    term = terminal("play", "--seed", seed, **options)
    term.settle("set up a table")
    term.press("ctrl+s")
    return term, term.settle(your_turn)


def play_out(term: Terminal) -> Lines:
    """Score on each of your turns until the game-over screen shows; the screen then.

    Each table on the way, every frame of it drawn whole, passes the layout check.
    """
    mark = term.mark()
    scored_at = -1
    while True:

        def next_turn(lines: Lines, after: int = scored_at) -> bool:
            """your next turn, or the game over"""
            return game_over(lines) or (your_turn(lines) and move_of(lines) != after)

        lines = term.wait_for(next_turn)
        if game_over(lines):
            break
        scored_at = move_of(lines)
        term.press("s")
    for frame in term.frames_since(mark):
        if is_table(frame) and not game_over(frame):
            assert_table_whole(frame)
    return lines
