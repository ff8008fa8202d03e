"""Finished games in lines: a replay says every move once and in order; the review in
sentences; the turn clock's warning."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from hostilekit import CLEANED, hostile_line, obeyed
from linekit import Lines, controls_in, settle_speed

from mantis.base.clock import ManualClock
from mantis.engine import Scored, ScoreMissed, StealMissed, Stolen
from mantis.home.record_file import read_records
from mantis.lines.live_table import seat_names
from mantis.lines.turn_clock import TurnClockCall, warnings
from mantis.lines.wording import heard
from mantis.table import moves_of
from mantis.table.narration import narrate

OUTCOMES = (Scored, ScoreMissed, Stolen, StealMissed)


def recorded(tmp_path: Path, players: int = 3) -> Path:
    path = tmp_path / "games.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mantis",
            "simulate",
            "--players",
            str(players),
            "--bots",
            "greedy",
            "--games",
            "2",
            "--seed",
            "4",
            "--record",
            str(path),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return path


def test_a_replay_says_every_move_of_the_record_once_and_in_order(
    _mantis_home: Path, tmp_path: Path
) -> None:
    settle_speed(_mantis_home)
    path = recorded(tmp_path)
    record = read_records(path)[1]
    moves = moves_of(record)
    names = seat_names(moves[0])
    expected = [
        heard(narrate(event, names))
        for move in moves[1:]
        for event in move
        if isinstance(event, OUTCOMES)
    ]
    assert len(expected) == len(record.actions)
    lines = Lines(_mantis_home, "replay", str(path), "--game", "2", "--lines")
    try:
        lines.expect("End of the replay.")
        assert lines.finish() == 0
    finally:
        lines.close()
    said = [line for line in lines.lines() if line in set(expected)]
    assert said == expected
    assert controls_in(lines.seen) == []


def test_a_hostile_record_is_replayed_with_its_names_and_words_cleaned(
    _mantis_home: Path, tmp_path: Path
) -> None:
    settle_speed(_mantis_home)
    path = tmp_path / "hostile.jsonl"
    path.write_text(hostile_line(), encoding="utf-8")
    lines = Lines(_mantis_home, "replay", str(path), "--lines")
    try:
        lines.expect("End of the replay.")
        assert lines.finish() == 0
    finally:
        lines.close()
    assert obeyed(lines.seen) == []
    # Cleaned as a server cleans names and talk, not shown as pictures of what was sent.
    assert f"{CLEANED[1]}, random 5m bot" in lines.text
    assert f"{CLEANED[1]}'s bot timed out 2Jc" in lines.text
    assert "␛" not in lines.text


def test_the_review_in_lines_is_a_sentence_per_seat(_mantis_home: Path, tmp_path: Path) -> None:
    path = recorded(tmp_path, players=2)
    done = subprocess.run(
        [sys.executable, "-m", "mantis", "review", str(path), "--game", "1", "--lines"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0].startswith("Review of game 1, seed ")
    record = read_records(path)[0]
    assert record.seats is not None
    for seat, line in zip(record.seats, out[1:3], strict=True):
        assert line.startswith(f"{seat.name} won: " if "won" in line else f"{seat.name} lost: ")
        assert "accuracy " in line and " percent" in line and "luck " in line
    # No columns to line up by eye: no run of spaces, no table header.
    assert all("  " not in line for line in out)


def test_the_clock_warns_at_half_time_and_five_seconds_once_each_scaled_to_its_length() -> None:
    assert warnings(30) == (15, 5)
    assert warnings(16) == (8, 5)
    assert warnings(11) == (5,)  # half time is 5 s too
    assert warnings(8) == (5,)  # half time (4 s) is too close to 5 s to say both
    assert warnings(6) == (3,)  # 5 s left is too soon after the start
    assert warnings(5) == (2,)
    assert warnings(3) == (1,)
    assert warnings(2) == ()


async def test_the_turn_clock_warns_a_turn_played_here_and_only_while_it_runs() -> None:
    said: list[str] = []
    clock = ManualClock(frozen=True)
    call = TurnClockCall(said.append, clock)
    call.heard(4, 1, 30.0, mine=True)
    assert call.seconds(4) == 30 and call.seconds(5) is None
    clock.advance(14.5)
    assert said == [] and call.seconds(4) == 16
    clock.advance(0.5)
    assert said == ["15 seconds left."]
    clock.advance(10)
    assert said == ["15 seconds left.", "5 seconds left."]
    clock.advance(5)
    assert len(said) == 2  # once each
    call.heard(5, 0, 30.0, mine=False)  # another seat's clock: never warned
    clock.advance(25)
    assert len(said) == 2
    # A clock told again part way (a reconnection): warned at its table's marks still to come.
    call.heard(6, 1, 12.0, mine=True, total=30.0)
    clock.advance(7)
    assert said[2:] == ["5 seconds left."]
    call.heard(7, 1, 30.0, mine=True)
    call.stop(before=7)  # the move before it was said: this clock runs on
    call.stop(before=8)  # its own move was said: no warning comes
    clock.advance(30)
    await asyncio.sleep(0)
    assert len(said) == 3


def test_a_replay_written_to_a_file_is_the_whole_game_and_asks_nothing(
    _mantis_home: Path, tmp_path: Path
) -> None:
    settle_speed(_mantis_home, "slow")  # the saved pace is not a file's
    path = recorded(tmp_path)
    record = read_records(path)[0]
    text = tmp_path / "game.txt"
    with text.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            [sys.executable, "-m", "mantis", "replay", str(path), "--lines"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    said = text.read_text(encoding="utf-8").splitlines()
    names = seat_names(moves_of(record)[0])
    outcomes = {
        heard(narrate(event, names))
        for move in moves_of(record)[1:]
        for event in move
        if isinstance(event, OUTCOMES)
    }
    assert len([line for line in said if line in outcomes]) == len(record.actions)
    assert said[-1] == "End of the replay."
    assert not any(line.endswith(">") or "> " in line for line in said)  # nothing asked


def test_a_replay_changes_no_saved_setting_and_takes_its_pace_from_speed(
    _mantis_home: Path, tmp_path: Path
) -> None:
    settle_speed(_mantis_home, "instant")
    settings = _mantis_home / "config" / "settings.json"
    before = settings.read_text(encoding="utf-8")
    path = recorded(tmp_path)
    lines = Lines(_mantis_home, "replay", str(path), "--lines", "--speed", "slow")
    try:
        lines.expect("Seats: ")
        for typed in ("speed fast", "odds on", "brief on", "bell on", "p"):
            lines.type(typed)
        lines.expect("Bots paused.")
        lines.type("q")
        lines.expect("Replay stopped.")
        assert lines.finish() == 0
    finally:
        lines.close()
    assert "Bot speed fast." in lines.text and "Brief on" in lines.text
    assert settings.read_text(encoding="utf-8") == before


def test_the_review_in_lines_names_the_costliest_decisions_the_text_report_names() -> None:
    import re

    from mantis.engine.record import record_of
    from mantis.lines.review import review_lines
    from mantis.players import bot_factory
    from mantis.review import review_game
    from mantis.review.report import costliest, format_review
    from mantis.sim.runner import play_game

    bots = [bot_factory(name)() for name in ("random", "greedy", "random")]
    record = record_of(play_game(bots, 12))
    review = review_game(record)
    seats = [0, 2]
    worst = costliest(review, seats)
    assert worst  # random bots make mistakes: the rule has something to name
    said = "\n".join(review_lines(review, "Game 1", seats))
    written = format_review(review, "Game 1", seats)
    moves = [d.move + 1 for d in worst]
    assert [
        int(n) for n in re.findall(r"^Move (\d+), [^:]+: .* percent to win", said, re.M)
    ] == moves
    assert [int(n) for n in re.findall(r"^  move +(\d+)  .*, best ", written, re.M)] == moves
