"""The line mode for the ear and the fingers, checked in-process, one finding at a time.

What a card being turned, another seat's turn and the end allow to be said;
the question's keys after a line interrupts it and a prompt while nothing is
asked; "you" first; the bell; brief; ``look N``, ``last`` and ``log N``;
help that is true about its letters; the words themselves.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import re

from mantis.engine import (
    SCORE,
    GameOver,
    Steal,
    StealMissed,
    Stolen,
    TurnStarted,
    steal,
)
from mantis.engine.record import record_of
from mantis.follow.preferences import Preferences
from mantis.home import Settings
from mantis.lines import wording
from mantis.lines.commands import ALIASES, WORDS, read_command
from mantis.lines.console import Console
from mantis.lines.help import help_lines
from mantis.lines.live_table import LiveTable
from mantis.table import Message, dealt, moves_of
from mantis.table.seating import named, seats_from_text


class Sent:
    """A move sink that keeps what was sent."""

    can_hold = True

    def __init__(self) -> None:
        self.moves: list[tuple[int, object]] = []

    def play(self, seat: int, turn: int, action: object) -> None:
        self.moves.append((seat, action))


def table(
    seats: str = "human,greedy,random,score",
    seed: int = 11,
    *,
    names: str | None = None,
    bell: bool = False,
    brief: bool = False,
) -> tuple[LiveTable, io.StringIO, Sent, list[list[Message]]]:
    """A table of ``seats`` at its deal, seat 1 played here; its moves, played through."""
    chosen = seats_from_text(seats)
    record = dealt(chosen if names is None else named(chosen, names.split(",")), seed)
    game = record.replay()
    while not game.over:
        view = game.view()
        stealable = [a for a in view.legal_actions() if isinstance(a, Steal)]
        game.play(stealable[0] if game.turn % 3 == 1 else SCORE)
    full = record_of(game, record.seats)
    out = io.StringIO()
    settings = Settings(speed="instant", bell=bell, lines_brief=brief)
    sent = Sent()
    live = LiveTable(
        Console(out=out, bell=lambda: settings.bell),
        moves_of(full)[0],
        Preferences(settings, saving=False),
        sent,
        controls=(0,),
        seed=seed,
        about=lambda seat: "" if seat == 0 else f"{full.seats[seat].bot} bot",  # type: ignore[index]
    )
    return live, out, sent, moves_of(full)[1:]


def said(out: io.StringIO, since: int = 0) -> str:
    return out.getvalue()[since:]


def handle(live: LiveTable, *lines: str) -> None:
    for line in lines:
        live.handle(read_command(line))


async def test_a_card_being_turned_has_no_odds_advice_or_turn_to_speak_of() -> None:
    live, out, sent, moves = table()
    live.begin()
    for move in moves:
        if live.asking is not None:
            break
        for message in move:
            live.take(message)
    assert live.asking == 0
    handle(live, "s")  # the move is sent: its card is not shown yet
    assert sent.moves == [(0, SCORE)]
    mark = len(out.getvalue())
    handle(live, "m", "o", "c", "look", "s")
    after = said(out, mark)
    assert after.count("A card is being turned for your move: ask again on the next turn.") == 3
    assert after.rstrip().endswith("Your move is made: its card is being turned.")
    assert "Your card is being turned." in after and "Your turn" not in after
    assert "game is over" not in after
    # The card turned over, its outcome not shown yet: still nothing to say of odds.
    live.take(moves[live.state.turn][0])  # the card is turned over
    mark = len(out.getvalue())
    handle(live, "m", "o", "c", "look")
    assert said(out, mark).count("A card is being turned for your move") == 3


async def test_another_seats_turn_is_spoken_of_by_its_name_never_as_yours() -> None:
    live, out, _, moves = table()
    live.begin()
    for message in moves[0]:
        if isinstance(message, TurnStarted) and message.seat != 0:
            live.take(message)
            break
        live.take(message)
    mover = live.names[live.state.to_move]
    assert live.asking is None and mover != "You"
    mark = len(out.getvalue())
    handle(live, "o", "m", "c", "s")
    after = said(out, mark)
    assert f"Odds for {mover}: " in after and f"\n{mover} scores: " in after
    assert "\ns scores" not in after and "steals from" not in after.split("Odds")[0]
    assert f"{mover} scores, {mover} has " in after
    assert f"The coach advises on your own turns; this is {mover}'s turn." in after
    assert f"Not your turn: {mover}'s turn." in after


def test_the_game_is_said_over_only_once_it_is() -> None:
    live, out, _, moves = table()
    live.begin()
    for move in moves:
        for message in move:
            live.take(message)
            if live.asking is not None:
                handle(live, "s")
            if not live.state.over:
                mark = len(out.getvalue())
                handle(live, "look", "o", "", "scores")
                assert "The game is over." not in said(out, mark)
    assert live.state.over
    mark = len(out.getvalue())
    handle(live, "look", "o", "s")
    assert said(out, mark).count("The game is over.") == 3


def test_an_interrupted_question_asks_its_keys_again_and_nothing_asked_leaves_a_prompt() -> None:
    out = io.StringIO()
    console = Console(out=out)
    console.prompt("Leave this game for good? yes leaves, no stays.", "yes or no")
    console.say("Ann scored 2 red.")
    assert out.getvalue().endswith("no stays. > \nAnn scored 2 red.\nyes or no > ")
    console.settle()

    async def idle() -> None:
        console.idle = True
        console.say("Bea stole 2 red from Ann.", "Cal scored 2 pink.")
        await asyncio.sleep(0)  # the burst is over: the bare prompt, for what may be typed
        console.say("Dee missed, red.")
        await asyncio.sleep(0)

    asyncio.run(idle())
    assert out.getvalue().endswith(
        "yes or no > \nBea stole 2 red from Ann.\nCal scored 2 pink.\n> \nDee missed, red.\n> "
    )


def test_moves_aimed_at_you_are_said_you_first_even_when_your_seat_has_a_name() -> None:
    live, out, _, moves = table("human,greedy", 3, names="Zed,Ann")
    assert live.names == ["You", "Ann"] and live.you == 0
    assert "Seats: 1, you, Zed; 2, Ann, greedy bot." in "\n".join(live.opening_lines())
    names = ["You", "Ann"]
    red = 0  # a colour, by its number: red
    assert wording.move_line(Stolen(1, 0, red, (5, 12)), names) == "You lost 2 red to Ann."
    assert (
        wording.move_line(StealMissed(1, 0, 12, red), names)
        == "Your tank took red: Ann tried to steal and missed."
    )
    assert wording.move_line(StealMissed(1, 0, 12, red), names, brief=True) == (
        "You got red, Ann missed."
    )
    # Moves by you, and by others at others, are as the log says them.
    assert wording.move_line(Stolen(0, 1, red, (5, 12)), names) == "You stole 2 red from Ann."


def test_the_bell_rings_for_your_turn_a_steal_from_you_and_the_end_and_only_if_on() -> None:
    for bell in (True, False):
        live, out, _, moves = table("human,greedy", 3, bell=bell)
        live.begin()
        for move in moves:
            for message in move:
                live.take(message)
            if live.asking is not None:
                handle(live, "2" if live.state.turn % 2 else "s")
        text = out.getvalue()
        rings = text.count("\a")
        if not bell:
            assert rings == 0
            continue
        questions = len(re.findall(r"Your (extra )?turn", text))
        stolen = text.count("You lost ")
        assert rings == questions + stolen + 1, (rings, questions, stolen)  # +1: the end
        assert re.search(r"\aGame over: ", text)


def test_brief_says_a_round_at_four_seats_in_25_words_and_asks_in_40_characters() -> None:
    from benchmarks.lines_words import measure

    heard = measure(4, 6, brief=True)
    assert sum(heard.round_words) / len(heard.round_words) <= 25
    assert max(heard.questions) <= 40
    default = measure(4, 2, brief=False)
    assert sum(default.round_words) / len(default.round_words) > 35  # brief says less


def test_look_n_last_and_log_n_count_moves() -> None:
    live, out, _, moves = table()
    live.begin()
    for move in moves[:8]:
        for message in move:
            live.take(message)
        if live.asking is not None:
            handle(live, "s")
    mark = len(out.getvalue())
    handle(live, "look 2")
    assert re.fullmatch(r"2, Ann, greedy bot: score \d+, tank [^\n]+\.\n", said(out, mark)[:200])
    handle(live, "look 9")
    assert "Look at which seat? look, then its number, 1 to 4." in said(out, mark)
    mark = len(out.getvalue())
    handle(live, "log 3")
    logged = re.findall(r"^Move (\d+): ", said(out, mark), re.M)
    played = live.state.turn
    assert sorted({int(n) for n in logged}) == [played - 2, played - 1, played]
    mark = len(out.getvalue())
    handle(live, "last")
    assert set(re.findall(r"^Move (\d+): ", said(out, mark), re.M)) == {str(played)}


def test_help_is_true_about_which_commands_have_a_letter() -> None:
    states = [
        help_lines(playing=True),
        help_lines(playing=False),
        help_lines(playing=True, online=True),
        help_lines(playing=False, online=True),
        help_lines(playing=False, online=True, waiting=True, host=True),
    ]
    for lines in states:
        text = "\n".join(lines)
        for word, letter in re.findall(r"\b([a-z]+) or ([a-z])\b", text):
            assert ALIASES.get(letter) == word, f"help says {word} or {letter}"
        for word in ("scores", "log", "speed", "clock", "ping", "last"):
            assert not re.search(rf"\b{word} or [a-z]\b", text)
    assert not any("first letter" in line for lines in states for line in lines)


#: Where help names a command: a line's start, or after "; " or ". ", then an argument or a
#: letter, then ":" or ", " ("log 20:", "talk TEXT or t TEXT:", "brief on, brief off:").
NAMED = re.compile(r"(?:^|; |\. )([a-z]+)(?: [A-Za-z0-9]+)?(?: or [a-z](?: [A-Z]+)?)?(?::|, )")


def test_help_names_every_command_the_line_mode_reads_and_nothing_else() -> None:
    # The line mode's commands are words a person types: ``read_command`` reads a line into
    # one of ``WORDS`` (its letters through ``ALIASES``), and each place answers the ones
    # that mean something there, one line saying what does for the rest.  So the table to
    # keep true is the help's: what it names is read as a command, and every command is
    # named in the help of some place.
    named: set[str] = set()
    for playing, online, seated, waiting, host in itertools.product((True, False), repeat=5):
        lines = help_lines(
            playing=playing, online=online, seated=seated, waiting=waiting, host=host
        )
        for line in lines[1:]:
            for word in NAMED.findall(line):
                assert read_command(word).word in WORDS, f"help names {word!r}: {line}"
                named.add(read_command(word).word)
    # Three are said otherwise: a steal by the seat's number (the help's "A seat's
    # number, such as 2: steal"), yes in the question it answers ("Leave this game for
    # good? … yes leaves, no stays."), and new as its letter (n: a new table).
    assert set(WORDS) - named == {"steal", "yes", "new"}
    assert read_command("2").word == "steal" and read_command("n").word == "next"
    assert any(line.startswith("A seat's number") for line in help_lines(playing=True))


def test_words_heard_have_no_quotes_no_1_cards_and_chances_as_the_question_says_them() -> None:
    assert wording.spoken("~1.0 cards banked") == "about 1 card banked"
    live, out, _, moves = table()
    live.handle(read_command("xyzzy"))
    assert "xyzzy is not a command: help lists them." in out.getvalue()
    assert "'" not in out.getvalue().split("xyzzy", 1)[1].split("\n", 1)[0]
    # The coach's chances are the question's: "2 in 3", never "67 percent".
    seats = seats_from_text("human,greedy,random")
    game = dealt(seats, 2).replay()
    names = ["You", "Ann", "Bea"]
    for _ in range(30):
        if game.over:
            break
        if game.to_move == 0:
            line = wording.coach_line(game.view(), names)
            assert "percent" not in line or "to match" not in line, line
            assert "from You" not in line
        game.play(SCORE)
    # A server's 19-digit seed is not read out.
    over = GameOver((0,), "target", (10, 2), (3, 4), 40)
    assert wording.result_lines(over, ["You", "Ann"], 1234567890123456789)[-1] == "40 moves."
    assert wording.result_lines(over, ["You", "Ann"], 42)[-1] == "40 moves, seed 42."


def test_a_question_a_move_key_and_the_keys_it_offers_are_the_legal_moves() -> None:
    live, out, sent, moves = table("human,greedy,random", 4)
    live.begin()
    asked = 0
    for move in moves:
        for message in move:
            live.take(message)
        if live.asking is not None:
            asked += 1
            view = live.state.view()
            legal = [
                "s",
                *(str(a.target + 1) for a in view.legal_actions() if isinstance(a, Steal)),
            ]
            assert wording.keys(view) == legal
            handle(live, "steal 2" if asked % 2 else "s")
    assert asked and sent.moves
    assert all(action in (SCORE, steal(1)) for _, action in sent.moves)
