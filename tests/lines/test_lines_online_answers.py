"""Online tables in lines, in-process against a real server: the prompt in every state, the
leave question and a move's key, the answer to an offer said before its keys."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from pathlib import Path

from netkit import join, play_my_turns, running_server
from test_lines_states import Typist

from mantis.base.clock import ManualClock
from mantis.follow.preferences import Preferences
from mantis.home import Settings
from mantis.lines.console import Console
from mantis.lines.online import OnlineGames
from mantis.net import protocol
from mantis.net.client import take_seat

#: Generous bound on any wait (a slow machine only makes the test slower).
WAIT = 60.0


async def until(test: Callable[[], object], what: str) -> None:
    """Wait until ``test()`` holds (the table plays on meanwhile)."""
    for _ in range(int(WAIT / 0.005)):
        if test():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"no {what} within {WAIT:g} s")


class Table:
    """A table hosted from here, in lines, and what was said at it."""

    def __init__(self, connection, *, typist: Typist) -> None:
        self.out = io.StringIO()
        self.typist = typist
        console = Console(out=self.out, source=typist.source)  # type: ignore[arg-type]
        prefs = Preferences(Settings(speed="instant"), saving=False)
        self.games = OnlineGames(console, prefs, connection, clock=ManualClock(frozen=True))
        self.run = asyncio.ensure_future(self.games.run())

    @property
    def text(self) -> str:
        return self.out.getvalue()

    def type(self, line: str) -> int:
        """Type ``line``; where the output stood before it."""
        mark = len(self.text)
        self.typist.type(line)
        return mark

    async def close(self) -> None:
        self.typist.type("q")
        await asyncio.wait_for(self.run, WAIT)
        self.typist.close()


def asked(table: Table) -> bool:
    live = table.games.live
    return live is not None and live.question_open


async def play_yours(table: Table, done: Callable[[], object]) -> None:
    """Score at the next question of yours, unless ``done`` comes first."""
    await until(lambda: done() or asked(table), "your turn")
    if asked(table):
        turn = table.games.live.state.turn  # type: ignore[union-attr]
        table.type("s")
        await until(lambda: table.games.live.state.turn > turn, "your move said")  # type: ignore[union-attr]


async def hosted(url: str, seats: tuple[str, ...]) -> Table:
    connection = await take_seat(
        url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", seats, talk=True)
    )
    return Table(connection, typist=Typist())


async def test_the_waiting_room_and_the_gaps_between_turns_end_in_a_prompt(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await hosted(url, ("human", "open"))
        try:
            await until(lambda: ann.text.endswith("join with the code.\n> "), "waiting room prompt")
            code = ann.games.table.code
            assert code is not None
            bea = await join(url, code, "Bea")
            await until(lambda: ann.text.endswith("Every seat is taken: type start.\n> "), "taken")
            ann.type("start")
            await until(lambda: ann.games.live is not None, "the game")
            bea_plays = asyncio.ensure_future(play_my_turns(bea, 1))
            # Bea's turn: said as it starts, and a prompt after it for whatever is typed.
            bea_turn = re.compile(r"\nBea's turn, top card [^\n]+\.\n> ")
            while not bea_turn.search(ann.text):
                await play_yours(ann, lambda: bea_turn.search(ann.text))
            bea_plays.cancel()
            await bea.close()
        finally:
            await ann.close()


async def test_the_leave_question_takes_no_move_key_as_its_answer(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await hosted(url, ("human", "greedy"))
        try:
            ann.type("start")
            await until(lambda: asked(ann), "your turn")
            ann.type("leave")
            await until(lambda: ann.text.endswith("yes leaves, no stays. > "), "the question")
            mark = ann.type("s")
            await until(lambda: re.search(r"\nYou (scored|missed)", ann.text[mark:]), "the move")
            after = ann.text[mark:]
            assert after.startswith("You stay.\n")
            assert ann.games.seated and "You left" not in ann.text
            # A bot's move while the question is open: its keys are asked again after it.
            await until(lambda: asked(ann), "your turn again")
            ann.type("leave")
            await until(lambda: ann.text.endswith("no stays. > "), "the question again")
            mark = ann.type("yes")
            await until(lambda: "You left the game." in ann.text[mark:], "leaving")
            assert not ann.games.seated
        finally:
            await ann.close()


async def test_an_offer_of_another_game_is_said_before_its_keys_are_asked(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await hosted(url, ("human", "open"))
        try:
            await until(lambda: ann.games.table.code, "the code")
            bea = await join(url, ann.games.table.code, "Bea")
            await until(lambda: "type start." in ann.text, "every seat taken")
            ann.type("start")
            bea_plays = asyncio.ensure_future(play_my_turns(bea, 1))
            while "What next?" not in ann.text:
                await play_yours(ann, lambda: "What next?" in ann.text)
            await bea_plays
            await until(lambda: ann.text.endswith("q quit. > "), "what next")
            mark = ann.type("a")
            await until(lambda: ann.text.endswith("a, v, e or q > "), "the keys again")
            after = ann.text[mark:]
            assert re.match(
                r"\n?You asked for another game, waiting for Bea; \d+ seconds to answer\.\n"
                r"a, v, e or q > $",
                after,
            ), after
            await bea.close()
        finally:
            await ann.close()
