"""What the lines say, worded to be heard once: checked in-process, position by position."""

from __future__ import annotations

import asyncio
import io
import os
import re

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, ExtraTurn, GameOver, steal
from mantis.follow.preferences import Preferences
from mantis.home import Settings
from mantis.lines import wording
from mantis.lines.console import Console
from mantis.lines.live_table import LiveTable
from mantis.table import Away, Back, Fault, Left, StartFailed, Talk, TimedOut, dealt, moves_of
from mantis.table.narration import narrate
from mantis.table.seating import seats_from_text

SIX = "human,greedy,casual,score,expert,random"
#: What a heard line may hold: words, figures and plain punctuation; no glyph, no bracket, no
#: quotation mark (a screen reader names them), no colour carried by a sign.
HEARD = re.compile(r"[\w ,.;:'?-]+")


def six_player_game():
    seats = seats_from_text(SIX)
    game = dealt(seats, 7).replay()
    names = [seat.name for seat in seats]
    while game.view().to_move != 0:
        game.apply(SCORE, game.view().to_move)
    return game, names


def test_the_question_is_short_by_default_and_more_and_odds_add_to_it() -> None:
    game, names = six_player_game()
    view = game.view()
    back = wording.colours(view.top_back)
    short = wording.decision(view, names)
    assert short == (
        f"Your turn, top card {back}. s scores; steal from 2 Ann, 3 Bea, 4 Cal, 5 Dee or 6 Eve."
    )
    odds = wording.decision(view, names, odds=True)
    chance = r"(\d in \d|sure|no chance)"
    assert re.fullmatch(
        rf"Your turn, top card [\w ,]+\. s scores, {chance}; steal from 2 Ann, {chance}; "
        rf"3 Bea, {chance}; 4 Cal, {chance}; 5 Dee, {chance}; 6 Eve, {chance}\.",
        odds,
    ), odds
    more = wording.decision(view, names, more=True, clock=12)
    assert more.startswith(f"Your turn, 12 seconds left, top card {back}. s scores, you have ")
    assert "; 6 steals from Eve, who has " in more
    # What more says, a line a move, is what the question says with more on.
    assert [line.rstrip(".") for line in wording.option_lines(view, names)] == more.split(". ", 1)[
        1
    ].rstrip(".").split("; ")


def test_every_line_of_a_whole_game_is_words_and_plain_punctuation() -> None:
    seats = seats_from_text(SIX)
    record = dealt(seats, 7)
    game = record.replay()
    names = [seat.name for seat in seats]
    said = []
    while not game.over:
        view = game.view()
        said += [
            wording.decision(view, names, odds=True, more=True, clock=1),
            wording.decision(view, names, brief=True, clock=1),
            *wording.odds_lines(view, names),
            *wording.odds_lines(view, names, keyed=False),
            *wording.option_lines(view, names, keyed=False),
            *wording.table_lines(view, names, ["greedy bot"] * len(names), now="Your turn."),
            wording.coach_line(view, names),
            wording.scores_line(view, names),
        ]
        for event in game.apply(SCORE, view.to_move):
            for brief in (False, True):
                line = wording.move_line(event, names, brief=brief)
                if line is not None:
                    said.append(line)
            if isinstance(event, GameOver):
                said += wording.result_lines(event, names, seed=7)
    for line in said:
        assert HEARD.fullmatch(line), line
    assert any(", score " in line for line in said)  # "(score 4)" heard as ", score 4"


def test_notices_are_heard_without_brackets_or_abbreviations() -> None:
    names = ["You", "Ann"]
    said = [
        wording.heard(narrate(notice, names))
        for notice in (
            Fault(1, "took longer than 10 s"),
            Fault(1, "failed (ValueError: no)"),
            StartFailed(1, "no module named bots"),
            Away(0, "greedy"),
            Back(0),
            TimedOut(1, "greedy", steal(0)),
            Left(1, "greedy"),
        )
    ]
    assert said == [
        "Ann's bot took longer than 10 seconds; Ann scores instead.",
        "Ann's bot failed, ValueError: no; Ann scores instead.",
        "Ann's bot failed to start, no module named bots.",
        "You are away: greedy plays for you until you are back.",
        "You are back.",
        "Ann's time ran out: greedy steals from you for Ann.",
        "Ann left the game: greedy plays for Ann to the end.",
    ]
    assert wording.talk_text(Talk(None, "Cal", "hi"), names) == "Cal, watching, says: hi"


def test_a_tie_on_the_pile_running_out_says_the_tiebreak() -> None:
    names = ["You", "Ann", "Bea"]
    shared = GameOver((0, 1), "deck_out", (6, 6, 2), (3, 3, 5), 57)
    lines = wording.result_lines(shared, names)
    assert lines[0] == "Game over: the draw pile ran out; You and Ann share the win."
    assert "Tiebreak: the larger tank, still tied at 3 cards, so the win is shared." in lines[1]
    assert lines[2:] == ["Scores: you 6, Ann 6, Bea 2.", "Tanks: you 3, Ann 3, Bea 5.", "57 moves."]
    won = GameOver((2,), "target", (4, 1, 11), (3, 3, 5), 40)
    assert wording.result_lines(won, names, seed=9) == [
        "Game over: Bea wins with 11 scored cards.",
        "Scores: Bea 11, you 4, Ann 1.",
        "Tanks: Bea 5, you 3, Ann 3.",
        "40 moves, seed 9.",
    ]
    assert wording.ratings_text([("You", 1500, 1467)]) == "Rating: you 1,500 to 1,467, down 33."


async def test_bots_moves_are_said_at_the_pace_set_and_speed_changes_it() -> None:
    """As in the app: a bot's move waits its thinking time, then lingers, at the speed set."""
    seats = seats_from_text("greedy,human")
    record = dealt(seats, 4)  # seat 0, the bot, starts
    moves = moves_of(record)
    bot_move = record.replay().apply(SCORE, 0)
    out = io.StringIO()
    clock = ManualClock(frozen=True)
    prefs = Preferences(Settings(speed="normal"))
    live = LiveTable(Console(out=out), moves[0], prefs, _NoMoves(), controls=(1,), clock=clock)
    showing = asyncio.ensure_future(live.show())
    try:
        live.begin()
        for message in bot_move:
            live.feed(message)
        for _ in range(20):
            await asyncio.sleep(0)
        assert "Ann " not in out.getvalue()  # still "thinking": 0.5 s at normal speed
        clock.advance(0.5)
        for _ in range(20):
            await asyncio.sleep(0)
        assert "Ann " not in out.getvalue()  # the card turned over lingers 0.6 s
        clock.advance(0.6)
        for _ in range(20):
            await asyncio.sleep(0)
        assert re.match(r"Ann (scored|missed a score).*\nYour turn, ", out.getvalue())
    finally:
        showing.cancel()
    live.handle(_command("speed instant"))
    assert prefs.pace.think == 0 and "Bot speed instant." in out.getvalue()


class _NoMoves:
    can_hold = True

    def play(self, seat: int, turn: int, action: object) -> None:
        raise AssertionError("no move is played here")


def _command(text: str):
    from mantis.lines.commands import read_command

    return read_command(text)


async def test_a_line_typed_before_the_prompt_keeps_the_prompt_line_open() -> None:
    """A fast typist's line comes before the question is written: the terminal echoed it
    above the question, so the next line said starts on a line of its own."""
    read, write = os.pipe()
    out = io.StringIO()
    with open(read, encoding="utf-8") as source, open(write, "w", encoding="utf-8") as typed:
        console = Console(out=out, source=source)
        console.start_reading()
        typed.write("s\n")
        typed.flush()
        assert await asyncio.wait_for(_queued(console), 60)
        console.prompt("s or 2")  # written after the line was typed
        assert await console.line() == "s"
        console.say("You scored 2 red.")
        console.prompt("s or 2")
        typed.write("2\n")  # typed at the prompt, as usual: Enter ends the prompt's line
        typed.flush()
        assert await console.line() == "2"
        console.say("You stole 2 red from Ann.")
    assert out.getvalue() == ("s or 2 > \nYou scored 2 red.\ns or 2 > You stole 2 red from Ann.\n")


async def _queued(console: Console) -> bool:
    while console._lines is None or console._lines.empty():
        await asyncio.sleep(0.01)
    return True


def test_an_extra_turn_is_said_once_with_the_turn() -> None:
    """Bea, a person elsewhere, steals and goes again: "Bea's extra turn, top card ...",
    not also "Extra turn for Bea"."""
    seats = seats_from_text("human,human")
    for seed in range(200):
        record = dealt(seats, seed)
        game = record.replay()
        if game.view().to_move == 1:
            move = game.apply(steal(0), 1)
            if any(isinstance(event, ExtraTurn) for event in move):
                break
    else:
        raise AssertionError("no deal where the second seat's first steal matches")
    out = io.StringIO()
    live = LiveTable(
        Console(out=out),
        moves_of(record)[0],
        Preferences(Settings(speed="instant")),
        _NoMoves(),
        controls=(0,),
        said_turns=lambda seat: seat == 1,
    )
    for message in move:
        live.take(message)
    said = out.getvalue()
    assert "\nBea's extra turn, top card " in said and "Extra turn" not in said, said
