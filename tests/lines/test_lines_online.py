"""Online tables in lines: against a real ``mantis serve``, with another person at the table.

The other person is a protocol client (as the network tests' people are);
the line mode is ``mantis host|join ... --lines`` in a pseudo-terminal.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from linekit import YOUR_TURN, Lines, controls_in, settle_speed
from netkit import (
    ServerProcess,
    create,
    heard,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    welcome,
)

from mantis.engine import SCORE
from mantis.net import protocol
from mantis.players.clock import ManualClock
from mantis.table import TimedOut


@pytest.fixture
def home(_mantis_home: Path) -> Path:
    settle_speed(_mantis_home)
    return _mantis_home


async def play_in_lines(lines: Lines) -> None:
    """Score at every prompt of ours until the game is over."""
    while True:
        found = await lines.expect_async(re.compile(rb"Your turn[^\n]*> |a: offer another game"))
        if found.group(0).startswith(b"a: offer"):
            return
        lines.type("s")


async def test_an_online_game_in_lines_against_a_person_at_a_real_server(
    home: Path, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "server")
    lines = Lines(home, "host", server.url, "--seats", "human,open", "--name", "Ann", "--lines")
    bea = None
    try:
        found = await lines.expect_async(re.compile(rb"Table ([A-Z]{4}), spelt ([A-Z ]+), on "))
        code = found.group(1).decode()
        assert found.group(2).decode() == " ".join(code)
        await lines.expect_async("Seats: 1, you, host; 2, open.")
        await lines.expect_async("Type start once every seat is taken")
        bea = await join(server.url, code, "Bea")
        await lines.expect_async("Bea sat down in seat 2.")
        lines.type("start")
        await lines.expect_async(re.compile(rb"New game: 2 players, first to 15 scored cards"))
        # Talk both ways, mid-game.
        await bea.send(protocol.Say("good luck"))
        await lines.expect_async("Bea says “good luck”")
        lines.type("talk you too")
        await bea.until(
            lambda: any(s.text == "you too" for s in heard(bea, protocol.Said)), "Ann's words"
        )
        seat = welcome(bea).seat
        assert seat == 1
        playing = asyncio.ensure_future(play_my_turns(bea, seat))
        # The question may have been asked while we talked: Enter alone asks it again.
        lines.type("")
        await play_in_lines(lines)
        await asyncio.wait_for(playing, 60)
        assert "Game over: " in lines.text
        # Bea's turns are said as they start (a person's, not a bot's), then her move.
        assert re.search(r"Bea to move: \w+, \w+ or \w+\.", lines.text)
        lines.type("q")
        assert await asyncio.to_thread(lines.finish) == 0
    finally:
        lines.close()
        if bea is not None:
            await bea.close()
        server.stop()
    assert b"\x1b" not in lines.seen
    assert controls_in(lines.seen) == []


async def test_a_turn_clock_is_said_and_running_out_is_said(home: Path, tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", clock=30)
        code = welcome(ann).code
        lines = Lines(home, "join", url, code, "--name", "Bea", "--lines")
        try:
            await lines.expect_async("The host starts the game.")
            await ann.until(
                lambda: any(all(s.taken for s in r.seats) for r in heard(ann, protocol.RoomState)),
                "Bea seated",
            )
            await ann.send(protocol.Start())
            await ann.until(lambda: turn_to_answer(ann.stream), "the first turn")
            if turn_to_answer(ann.stream).seat == 0:
                await ann.send(protocol.Act(0, SCORE))
            asked = await lines.expect_async(YOUR_TURN)
            # Said at the prompt, or in a line of its own if the clock's word came after it.
            # (Counted down on this machine's clock from the server's word: a loaded machine
            # may say fewer than 30, never more.)
            seconds = re.compile(rb"(\d+) seconds? to move")
            said = seconds.search(asked.group(0)) or await lines.expect_async(seconds)
            assert 0 < int(said.group(1)) <= 30
            clock.advance(30)
            await lines.expect_async("Your time ran out: greedy scores for you.")
            await ann.until(lambda: any(isinstance(m, TimedOut) for m in ann.stream), "time out")
            lines.type("q")
            assert await asyncio.to_thread(lines.finish) == 0
        finally:
            lines.close()
            await ann.close()
    assert controls_in(lines.seen) == []
