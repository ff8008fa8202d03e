"""Games here in lines, driven through a pseudo-terminal as a person at a screen reader plays."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from linekit import COLOURS, YOUR_TURN, Lines, controls_in, play_out, settle_speed

from mantis.store.stats import StatsDB

SEATS = "human,greedy,casual,score"


@pytest.fixture
def home(_mantis_home: Path) -> Path:
    settle_speed(_mantis_home)
    return _mantis_home


def test_a_whole_game_against_three_bots_in_lines_and_nothing_but_lines(home: Path) -> None:
    lines = Lines(home, "play", "--lines", "--seats", SEATS, "--seed", "11")
    try:
        lines.expect("New game (seed 11): 4 players, first to 10 scored cards wins.")
        lines.expect("Seats: 1, you; 2, Ann, greedy bot; 3, Bea, casual bot; 4, Cal, score bot.")
        play_out(lines)
        lines.type("q")
        assert lines.finish() == 0
    finally:
        lines.close()
    said = lines.lines()
    # Every prompt states the decision: the top card's back spelt as colours, the moves.
    prompts = [line for line in said if line.startswith("Your turn")]
    assert prompts
    spelt = re.compile(
        rf"Top card ({'|'.join(COLOURS)}), ({'|'.join(COLOURS)}) or ({'|'.join(COLOURS)})\."
    )
    for prompt in prompts:
        assert spelt.search(prompt), prompt
        assert ". s: score, you have " in prompt
        assert ". 2: steal from Ann, who has " in prompt and "4: steal from Cal" in prompt
        assert prompt.endswith("> s")  # the answer typed after "> ", on the prompt's line
    # The end, its result and the statistics, as the app keeps them.
    over = next(line for line in said if line.startswith("Game over: "))
    assert "Final scores: you " in lines.text
    with StatsDB(home / "data" / "stats.sqlite3") as db:
        [game] = db.past_games()
    turns = int(re.search(r"; (\d+) moves\.", lines.text).group(1))
    assert game.turns == turns, over
    # Each move is one line, named first: as many move lines as the record has moves.
    movers = ("You ", "Ann ", "Bea ", "Cal ")
    verbs = (" scored ", " missed a score", " stole ", " tried to steal ")
    moves = [
        line.split("> s", 1)[-1]
        for line in said
        if any(verb in line for verb in verbs) and not line.startswith("Your turn")
    ]
    moves = [m for m in moves if m.startswith(movers)]
    assert len(moves) == turns
    # Nothing the program wrote moves the cursor, clears the screen or colours a word.
    assert b"\x1b" not in lines.seen
    assert controls_in(lines.seen) == []


def test_bad_input_says_what_is_possible_and_asks_again(home: Path) -> None:
    lines = Lines(home, "play", "--lines", "--seats", SEATS, "--seed", "11")
    try:
        lines.expect(YOUR_TURN)
        lines.type("hello")
        lines.expect("'hello' is not a command here: s scores, 2, 3 or 4 steals; help lists")
        prompt = lines.expect(YOUR_TURN)
        assert prompt.group(0).startswith(b"Your turn")
        lines.type("9")
        lines.expect("There is no seat 9: s scores, 2, 3 or 4 steals.")
        lines.expect(YOUR_TURN)
        lines.type("1")
        lines.expect("You cannot steal from yourself: s scores, 2, 3 or 4 steals.")
        lines.expect(YOUR_TURN)
        lines.type("help")
        lines.expect("look or l: the whole table again, each seat's score and tank.")
        lines.expect(YOUR_TURN)
        lines.type("look")
        lines.expect(re.compile(rb"2, Ann, greedy bot: score \d+, tank "))
        lines.expect(YOUR_TURN)
        lines.type("odds")
        lines.expect(re.compile(rb"Odds for you\. The top card is \w+ (1 in \d|sure|no chance)"))
        lines.expect(YOUR_TURN)
        lines.type("2")  # a steal, at last
        lines.expect(re.compile(rb"You (stole|tried to steal) "))
        lines.type("q")
        lines.expect("Game saved after move")
        assert lines.finish() == 0
    finally:
        lines.close()
    assert controls_in(lines.seen) == []


def test_a_game_killed_mid_play_is_resumed_where_it_stood(home: Path) -> None:
    lines = Lines(home, "play", "--lines", "--seats", SEATS, "--seed", "5")
    try:
        for _ in range(4):
            lines.expect(YOUR_TURN)
            lines.type("s")
        lines.expect(re.compile(rb"You (scored|missed a score)[^\n]*\n"))
        lines.child.kill(signal.SIGKILL)
        lines.child.wait()
    finally:
        lines.close()
    before = lines.text
    played = before.count("Your turn")  # four moves of ours made, all saved before shown

    again = Lines(home, "play", "--lines")
    try:
        saved = again.expect(
            re.compile(rb"Saved game 1: 4 players, you, Ann, Bea and Cal, after move (\d+)")
        )
        moves = int(saved.group(1))
        again.expect("r resumes it, n starts a new game. > ")
        again.type("r")
        again.expect(f"Resumed after move {moves}.")
        assert moves >= 4 * played - 3  # every move said before the kill was kept
        play_out(again)
        again.type("q")
        assert again.finish() == 0
    finally:
        again.close()
    with StatsDB(home / "data" / "stats.sqlite3") as db:
        [game] = db.past_games()
    assert game.turns == int(re.search(r"; (\d+) moves\.", again.text).group(1)) > moves


def test_quit_keeps_the_game_and_resume_takes_it_at_once(home: Path) -> None:
    lines = Lines(home, "play", "--lines", "--seats", "human,greedy", "--seed", "3")
    try:
        lines.expect(YOUR_TURN)
        lines.type("q")
        moves = int(lines.expect(re.compile(rb"Game saved after move (\d+)")).group(1))
        assert lines.finish() == 0
    finally:
        lines.close()
    again = Lines(home, "play", "--lines", "--resume")
    try:
        again.expect(f"Resumed after move {moves}.")
        again.expect(YOUR_TURN)
        again.type("quit")
        assert again.finish() == 0
    finally:
        again.close()


def test_mantis_lines_makes_the_line_mode_the_default(home: Path) -> None:
    lines = Lines(home, "play", "--seats", "human,greedy", "--seed", "3", env={"MANTIS_LINES": "1"})
    try:
        lines.expect(YOUR_TURN)
        lines.type("q")
        assert lines.finish() == 0
    finally:
        lines.close()
    assert b"\x1b" not in lines.seen
