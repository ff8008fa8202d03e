"""A state monkey for the app: every key it offers, pressed at random moments, as a person would.

The installed ``mantis`` at 80x24 without colour, a table of you and two
bots: a seeded monkey presses the keys the app's screens bind (the board's
moves and switches, the result's choices, help, settings, the palette,
replay and review), sometimes in a burst while a bot's card is being turned,
sometimes once the screen has settled.  Each time it has settled, the screen
is whole (a board passes the layout check; any screen is drawn to its last row), and
nothing printed is a traceback.  Quitting is the only key left out (the app
ends cleanly if the palette's Quit is chosen all the same: that is checked,
and the run goes on in a new app).
"""

from __future__ import annotations

import random

import pytest
from journeykit import SIZES, Lines, Terminal
from playkit import footer_drawn, game_over, is_table, remember
from screenkit import assert_table_whole, dump

#: Every key the app's screens bind (as a terminal sends it: "?" for question_mark), but
#: quitting (ctrl+q, and q, which the result's Quit and several screens' Close share).
KEYS = (
    "s", "1", "2", "3", "4", "5", "6", "left", "right", "up", "down", "enter", "escape",
    "p", "n", "f", "r", "o", "c", "a", "d", "e", "v", "t", "g", "h", "j", "k", "x", "b",
    "y", "space", "+", "-", "home", "end", "?", "f1", "f2", "tab", "shift+tab", "pageup",
    "pagedown", "delete", "backspace", "ctrl+p", "ctrl+r", "ctrl+s", "ctrl+g", "ctrl+l",
    "[", "]",
)  # fmt: skip
#: How many of the presses come in a burst before the screen is checked.
BURST = (1, 2, 3, 6)


def drawn(lines: Lines) -> bool:
    """a screen drawn to its last row (the footer, or a modal's own bottom)"""
    return footer_drawn(lines) or bool(lines[-1].strip())


def kind(lines: Lines) -> str:
    """What a frame shows, in a word."""
    if any("🔎" in line for line in lines):
        return "palette"
    if game_over(lines):
        return "result"
    if is_table(lines) and lines[0].startswith(" MANTIS ·"):
        return "table"
    return lines[0].strip(" ╭─╮").split(" · ")[0][:24] or "other"


def check(lines: Lines) -> None:
    """The screen, settled, is whole (a board alone on it, by the layout check)."""
    text = "\n".join(lines)
    assert "Traceback" not in text, dump(lines)
    assert any(line.strip() for line in lines), "a blank screen"
    if kind(lines) == "table":
        assert_table_whole(lines)


def near_its_end(moves_left: int) -> None:
    """A saved game of you and two bots, ``moves_left`` moves from its end (``--resume``)."""
    from mantis.engine import SCORE, Game, SeatInfo, record_of, steal
    from mantis.home.saves import autosave

    game, rng = Game.new(3, 8), random.Random(8)
    while not game.over:
        others = [seat for seat in range(3) if seat != game.to_move]
        game.play(SCORE if rng.random() < 0.6 else steal(rng.choice(others)))
    upto = len(record_of(game).actions) - moves_left
    table = (
        SeatInfo("You", "human"),
        SeatInfo("Ann", "bot", "greedy"),
        SeatInfo("Bea", "bot", "random"),
    )
    autosave(record_of(record_of(game).replay(upto), table))


@pytest.mark.journey
@pytest.mark.parametrize(
    ("command", "speed", "presses", "scores"),
    [
        # Bots at a pace, their cards lingering: keys land mid-move, paused and stepping.
        (("play", "--seats", "human,greedy,random", "--seed", "5"), "fast", 40, 0.35),
        # A game resumed near its end: it ends, and the result's keys (another game, a
        # rematch, the replay, the review, a new table) are pressed too.
        (("play", "--resume"), "instant", 60, 0.4),
    ],
    ids=["bots", "to-the-end"],
)
def test_every_key_at_random_moments_leaves_a_whole_screen_and_no_traceback(
    terminal, command: tuple[str, ...], speed: str, presses: int, scores: float
) -> None:
    # No network to reach (the lobby's server is a closed port), nothing from an earlier run.
    remember(seats=3, speed=speed, animations=True, server="ws://127.0.0.1:9")
    if "--resume" in command:
        near_its_end(moves_left=6)
    rng = random.Random(41)
    size = SIZES[0]

    def start() -> Terminal:
        term = terminal(*command, size=size)
        term.settle(lambda lines: is_table(lines))
        return term

    term = start()
    pressed = 0
    screens: set[str] = set()
    while pressed < presses:
        for _ in range(rng.choice(BURST)):
            term.press("s" if rng.random() < scores else rng.choice(KEYS))
            pressed += 1
        try:
            lines = term.settle(drawn)
        except AssertionError:
            if term.status is None:
                raise
        if term.status is not None:  # the palette's Quit, say: a clean end
            assert term.wait_exit() == 0, term.printed()
            assert "Traceback" not in term.printed()
            screens.add("quit")
            term = start()
            continue
        check(lines)
        screens.add(kind(lines))
    assert "table" in screens, screens
    assert "Traceback" not in term.printed()
    assert term.quit() == 0, term.printed()
