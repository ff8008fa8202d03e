"""Games here in lines, driven through a pseudo-terminal as a person at a screen reader plays."""

from __future__ import annotations

import ctypes
import os
import platform
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from linekit import COLOURS, WAIT, YOUR_TURN, Lines, controls_in, play_out, settle_speed

from mantis.home.stats import StatsDB
from mantis.lines.wording import join_or
from mantis.players.registry import LEVELS

SEATS = "human,greedy,casual,score"
COLOUR = f"({'|'.join(COLOURS)})"
#: The question of a turn at SEATS, short as it is by default: the top card's back, the keys.
QUESTION_TEXT = (
    rf"Your turn, top card {COLOUR}, {COLOUR} or {COLOUR}\. "
    r"s scores; steal from 2 Ann, 3 Bea or 4 Cal\. > "
)
QUESTION = re.compile(QUESTION_TEXT.encode())
#: What a line may hold (the question's "> " besides): words, figures, plain punctuation.
HEARD = re.compile(r"[\w ,.;:'?>-]+")
#: The question again after an answer that was no move: the keys alone.
KEYS = "\r\ns, 2, 3 or 4 > "


@pytest.fixture
def home(_mantis_home: Path) -> Path:
    settle_speed(_mantis_home)
    return _mantis_home


@pytest.fixture
def asked(home: Path) -> Iterator[Lines]:
    """A game against three bots (seed 11), at its first question; ended after the test."""
    lines = Lines(home, "play", "--lines", "--seats", SEATS, "--seed", "11")
    try:
        lines.expect(QUESTION)
        yield lines
    finally:
        lines.close()


def test_a_whole_game_against_three_bots_in_lines_and_nothing_but_lines(home: Path) -> None:
    lines = Lines(home, "play", "--lines", "--seats", SEATS, "--seed", "11")
    try:
        lines.expect("New game, seed 11: 4 players, first to 10 scored cards wins. Bea starts.")
        lines.expect("Seats: 1, you; 2, Ann, greedy bot; 3, Bea, casual bot; 4, Cal, score bot.")
        play_out(lines)
        lines.type("q")
        assert lines.finish() == 0
    finally:
        lines.close()
    said = lines.lines()
    # Every question is the short one: the top card's back spelt as colours, each move's key.
    prompts = [line for line in said if line.startswith("Your turn")]
    assert prompts
    for prompt in prompts:
        assert re.fullmatch(QUESTION_TEXT + "s", prompt), prompt  # "s" typed after "> "
    # The end as the game-over screen has it, and the game in the statistics.
    over = re.search(r"Game over: (\w+) wins? with (\d+) scored cards\.", lines.text)
    assert over is not None and int(over.group(2)) >= 10
    assert re.search(r"\nScores: \w+ \d+, \w+ \d+, \w+ \d+, \w+ \d+\.\r?\n", lines.text)
    assert re.search(r"\nTanks: \w+ \d+, \w+ \d+, \w+ \d+, \w+ \d+\.\r?\n", lines.text)
    turns = int(re.search(r"\n(\d+) moves, seed 11\.", lines.text).group(1))
    assert re.search(r"Rating: you 1,500 to [\d,]+, (up|down) \d+\.", lines.text)
    with StatsDB(home / "data" / "stats.sqlite3") as db:
        [game] = db.past_games()
    assert game.turns == turns
    # The statistics, heard: sentences, no table of figures, no chart, no sign.
    stats = subprocess.run(
        [sys.executable, "-m", "mantis", "stats", "--lines"],
        env={**os.environ, "MANTIS_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert stats.returncode == 0, stats.stderr
    won = over.group(1) == "you"
    wins = "1 win, 100" if won else "0 wins, 0"
    assert stats.stdout.startswith(f"You: 1 game, {wins} percent.\n"), stats.stdout
    assert f"\nYour last game: {'won' if won else 'lost'}.\n" in stats.stdout
    assert re.search(
        r"\nYour rating: [\d,]+, give or take [\d,]+, provisional, after 1 rated game", stats.stdout
    )
    assert "\nYou against each bot: casual, won " in stats.stdout
    assert all(HEARD.fullmatch(line) for line in stats.stdout.splitlines()), stats.stdout
    # Each move is one line, named first: as many move lines as the record has moves.
    # (A move aimed at you is said you first: "You lost 2 red to Bea.")
    movers = ("You ", "Your ", "Ann ", "Bea ", "Cal ")
    verbs = (" scored ", " missed a score", " stole ", " tried to steal", " lost ")
    moves = [
        line.split("> s", 1)[-1]
        for line in said
        if any(verb in line for verb in verbs) and not line.startswith("Your turn")
    ]
    assert len([m for m in moves if m.startswith(movers)]) == turns
    # Nothing the program wrote moves the cursor, clears the screen or colours a word, and
    # nothing is a glyph: brackets and quotation marks are read out by name, so none either.
    assert b"\x1b" not in lines.seen
    assert controls_in(lines.seen) == []
    assert all(HEARD.fullmatch(line) for line in said if line), set(said) - set(
        filter(HEARD.fullmatch, said)
    )


def test_answers_at_the_question_are_said_once_and_the_question_keys_follow(asked: Lines) -> None:
    lines = asked
    lines.type("hello")
    lines.expect("hello is not a command: help lists them." + KEYS)
    lines.type("talk hello")  # talk is for online tables
    lines.expect("Talk does nothing here: help lists what does." + KEYS)
    lines.type("9")
    lines.expect("There is no seat 9." + KEYS)
    lines.type("1")
    lines.expect("You cannot steal from yourself." + KEYS)
    lines.type("help")
    lines.expect("look or l: the whole table, each seat's score and tank; look 2: seat 2 alone.")
    lines.expect(KEYS)
    # look ends on whose turn it is; the question is not asked whole again after it.
    lines.type("look")
    lines.expect(re.compile(rb"2, Ann, greedy bot: score \d+, tank "))
    lines.expect(KEYS)
    looked = lines.text.rsplit("look", 1)[1]
    assert looked.count("Your turn") == 1, looked
    lines.type("odds")
    lines.expect(re.compile(rb"Odds for you: the top card is \w+ (1 in \d|sure|no chance)"))
    lines.expect(re.compile(rb"\n2 steals from Ann: (\d in \d|sure|no chance) to match"))
    lines.expect(KEYS)
    lines.type("more")
    lines.expect(re.compile(rb"\ns scores, you have [^\n]+\.\r\n2 steals from Ann, who has "))
    lines.expect(KEYS)
    # Enter alone: the whole question again.
    lines.type("")
    lines.expect(QUESTION)
    # More and odds at every question, then the short question again.
    lines.type("more on")
    lines.expect("More on: every question says what each tank holds")
    lines.expect(re.compile(rb"Your turn, [^\n]*; 4 steals from Cal, who has [^\n]*\. > "))
    lines.type("odds on")
    lines.expect(re.compile(rb"Your turn, [^\n]*, (\d in \d|sure) to match[^\n]*\. > "))
    lines.type("more off")
    lines.type("odds off")
    lines.expect("Odds off.")
    lines.expect(QUESTION)
    lines.type("2")  # a steal, at last
    lines.expect(re.compile(rb"You (stole|tried to steal) "))
    lines.type("q")
    lines.expect("Game saved after move")
    assert lines.finish() == 0
    assert controls_in(lines.seen) == []


def test_p_pauses_the_bots_before_each_move_and_n_plays_one(asked: Lines) -> None:
    lines = asked
    lines.type("p")
    lines.expect("Bots paused." + KEYS)
    lines.type("s")
    lines.expect(re.compile(rb"You (scored|missed a score)"))
    lines.expect("Paused before Ann's move: n plays it, p plays on.")
    lines.type("n")
    # (Between the lines, nothing asked: the bare prompt, for whatever may be typed.)
    lines.expect(re.compile(rb"\nAnn [^\n]+\r\n(> \r\n)?Paused before Bea's move: "))
    lines.type("p")
    lines.expect("Bots play on.")
    # Cal's move (said "you" first when it is aimed at you), then the question.
    lines.expect(re.compile(rb"\n[^\n]*\bCal\b[^\n]+\r\n(> \r\n)?" + QUESTION.pattern))
    lines.type("q")
    assert lines.finish() == 0
    # While held, nothing moved: Bea's move came only after p.
    held = lines.text.split("Paused before Bea's move", 1)[1]
    assert held.index("Bots play on.") < held.index("\nBea ")


def move_lines(text: str) -> list[str]:
    """The lines that say a move, in order."""
    return re.findall(r"^\w+ (?:scored|missed a score|stole|tried to steal) [^\r\n]*", text, re.M)


def test_after_a_game_replay_a_new_table_and_a_rematch(home: Path) -> None:
    lines = Lines(home, "play", "--lines", "--seats", "human,score", "--seed", "3")
    try:
        play_out(lines)
        played = move_lines(lines.text)
        lines.type("v")
        lines.expect("New game, seed 3: 2 players")
        lines.expect("End of the replay.")
        lines.expect("\r\na, r, v, e, n or q > ")
        # The replay says the game's moves again, in the same words.
        assert move_lines(lines.text) == played * 2
        # A new table: its seats typed as --seats takes them; a bad one is said, and asked again.
        lines.type("n")
        lines.expect(f"then bots, {join_or([bot for _, bot in LEVELS])};")  # the registry's
        lines.expect("Seats: > ")
        lines.type("human, nobody")
        # (in the table's words: no command-line option is named at this prompt)
        lines.expect(re.compile(rb"No table: unknown bot 'nobody'[^\n]*\.\r\nSeats: > "))
        lines.type("human, random, random")
        seed = lines.expect(re.compile(rb"New game, seed (\d+): 3 players")).group(1)
        lines.expect("Seats: 1, you; 2, Ann, random bot; 3, Bea, random bot.")
        play_out(lines)
        # The rematch deals the same cards again: the same seed.
        lines.type("r")
        lines.expect(b"New game, seed " + seed + b": 3 players")
        lines.expect(YOUR_TURN)
        lines.type("q")
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
        again.expect(f"Game resumed after move {moves}, seed 5: 4 players, first to 10")
        assert moves >= 4 * played - 3  # every move said before the kill was kept
        play_out(again)
        again.type("q")
        assert again.finish() == 0
    finally:
        again.close()
    with StatsDB(home / "data" / "stats.sqlite3") as db:
        [game] = db.past_games()
    assert game.turns == int(re.search(r"\n(\d+) moves, seed 5\.", again.text).group(1)) > moves


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
        again.expect(f"Game resumed after move {moves}, seed 3: 2 players")
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


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+d"])
def test_ctrl_c_and_ctrl_d_say_the_game_was_saved(home: Path, key: str) -> None:
    lines = Lines(home, "play", "--lines", "--seats", "human,greedy", "--seed", "3")
    try:
        lines.expect(YOUR_TURN)
        lines.type("s")
        lines.expect(YOUR_TURN)
        if key == "ctrl+c":
            lines.child.sendintr()
        else:
            lines.child.sendeof()
        moves = lines.expect(re.compile(rb"Game saved after move (\d+): mantis play --lines"))
        status = lines.finish()
    finally:
        lines.close()
    assert status == (130 if key == "ctrl+c" else 0)
    assert int(moves.group(1)) >= 2
    assert "Traceback" not in lines.text and "interrupted" not in lines.text
    # The last thing said is that, with no prompt after it: nothing more is read.
    assert lines.text.rstrip().endswith("mantis play --lines offers it again.")


def _tgkill(pid: int, tid: int, sig: int) -> None:
    """Send ``sig`` to one thread of ``pid`` (Linux's tgkill: Python has no call for it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(TGKILL[platform.machine()], pid, tid, sig) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


#: tgkill's system call number on the machines where tests send a signal to one thread.
TGKILL = {"x86_64": 234, "aarch64": 131}


@pytest.mark.skipif(
    sys.platform != "linux" or platform.machine() not in TGKILL, reason="Linux's tgkill only"
)
def test_ctrl_c_is_heard_whichever_thread_the_signal_reaches(home: Path) -> None:
    # The kernel gives a terminal's Ctrl+C to any thread of the program; now and then not
    # the main one, which slept on in its event loop: the game hung with ^C on the screen.
    lines = Lines(home, "play", "--lines", "--seats", "human,greedy", "--seed", "3")
    try:
        lines.expect(YOUR_TURN)
        pid = lines.child.pid
        others = sorted(int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid)
        assert others, "no thread but the main one: the line mode reads lines on one"
        for tid in others:  # a bot's thread may end meanwhile: the reading one lasts
            try:
                _tgkill(pid, tid, signal.SIGINT)
                break
            except ProcessLookupError:
                continue
        lines.expect(re.compile(rb"Game saved after move \d+: mantis play --lines"))
        assert lines.finish() == 130
    finally:
        lines.close()


def test_what_is_typed_between_turns_never_runs_into_what_is_said(home: Path) -> None:
    settle_speed(home, "slow")  # a bot thinks 1.4 s: time to start typing
    lines = Lines(home, "play", "--lines", "--seats", "human,greedy", "--seed", "0")  # you start
    try:
        lines.expect(YOUR_TURN)
        lines.type("s")
        # Nothing is asked while the bot thinks, yet a prompt ends what was said...
        lines.expect(re.compile(rb"\nYou (scored|missed a score)[^\n]*\r\n> $"))
        lines.child.send("lo")  # ...so what is typed starts after it,
        lines.expect(re.compile(rb"lo\r\n[A-Z]"))  # and the bot's move starts a line of its own.
        assert re.search(r"\n> lo\r\n[A-Z]", lines.text), lines.text
        lines.type("zz")  # (the line typed is then answered as any other)
        lines.expect("lozz is not a command")
        lines.type("q")
        assert lines.finish() == 0
    finally:
        lines.close()
