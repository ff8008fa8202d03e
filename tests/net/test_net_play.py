"""Whole online games over loopback: people, bots and a spectator, one public stream."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest
from netkit import (
    WAIT,
    Client,
    create,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    watch,
    welcome,
)

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed, TurnStarted, steal
from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.net.protocol import codes
from mantis.table import Recorded, StartFailed


def _get(url: str):
    with urllib.request.urlopen(url, timeout=WAIT) as reply:
        assert reply.headers["Content-Type"] == "application/json"
        return json.loads(reply.read())


async def http_json(url: str, path: str):
    """GET ``path`` from the server (in a thread: the server runs on this loop)."""
    return await asyncio.to_thread(_get, url.replace("ws://", "http://") + path)


def steal_or_score(view):
    # Steal from whoever holds most cards, else score: a mixed game.
    others = [s for s in range(view.players) if s != view.seat]
    rich = max(others, key=view.tank_size)
    return steal(rich) if view.tank_size(rich) > 4 else SCORE


async def test_two_people_and_a_bot_play_a_whole_game_and_a_spectator_sees_it_all(
    tmp_path: Path, database: str | None
) -> None:
    async with running_server(tmp_path, database) as (server, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann")
        code = welcome(ann).code
        assert len(code) == 4 and code.isalpha() and code.isupper()
        bea = await join(url, code.lower(), "Bea")  # codes are read in any case
        assert welcome(bea).seat == 1 and welcome(bea).token
        watcher = await join(url, code)  # placeholder to check a full table below
        full = await watcher.error()
        assert full.code == protocol.TABLE_FULL
        spectator = await Client.connect(url)
        await spectator.send(protocol.Watch(protocol.PROTOCOL_VERSION, code))
        assert (await spectator.next(protocol.Welcome)).seat is None

        tables = await http_json(url, "/tables")
        assert [t["code"] for t in tables] == [code]
        assert tables[0]["state"] == "waiting"
        assert [s["taken"] for s in tables[0]["seats"]] == [True, True, True]

        await ann.send(protocol.Start())
        await asyncio.gather(
            play_my_turns(ann, 0, steal_or_score), play_my_turns(bea, 1, steal_or_score)
        )
        await spectator.until(lambda: spectator.over, "the end")
        # One public stream, the same for every seat and the spectator.
        assert ann.stream == bea.stream == spectator.stream
        record = parse_record(ann.stream[-1].record)
        assert record.result is not None and record.seats[2].bot == "greedy"
        assert [s.name for s in record.seats] == ["Ann", "Bea", record.seats[2].name]
        assert ann.public.view() == record.replay().view()
        assert not any(isinstance(m, StartFailed) for m in ann.stream)
        status = await http_json(url, "/status")
        assert status["tables"] == 1 and status["playing"] == 0
        assert status["protocol"] == protocol.PROTOCOL_VERSION
        assert (await http_json(url, "/tables"))[0]["state"] == "over"
        # The server kept the record too.
        assert await server.store.records() == [ann.stream[-1].record]


async def test_a_spectator_is_given_no_seat_and_no_token(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann")
        code = welcome(ann).code
        early = await watch(url, code, "Wes")  # while the table waits
        bea = await join(url, code, "Bea")
        await ann.send(protocol.Start())
        await ann.until(lambda: ann.stream, "the game")
        late = await watch(url, code, "Zoe")  # with the game on
        for spectator in (early, late):
            said = welcome(spectator)
            assert said.seat is None and said.token is None and said.room.you is None
        # Seated people are given theirs, and nobody else's.
        assert welcome(ann).token and welcome(bea).token
        assert welcome(ann).token != welcome(bea).token
        for client in (ann, bea, early, late):
            await client.close()


async def _first(*waits) -> int:
    """The index of the first of ``waits`` (awaitables) to finish; the others are cancelled."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        done, _ = await asyncio.wait(tasks, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
        assert done, "none of them happened"
        return next(i for i, task in enumerate(tasks) if task in done)
    finally:
        for task in tasks:
            task.cancel()


async def test_a_bot_waits_out_its_pace_and_a_person_is_never_held(tmp_path: Path) -> None:
    clock = ManualClock(frozen=True)  # (only the test moves time on)
    async with running_server(tmp_path, clock=clock, bot_pace=2.0) as (server, url):
        ann = await create(url, ("human", "greedy"), "Ann")
        room = server.rooms[welcome(ann).code]
        await ann.send(protocol.Start())
        handled: set[int] = set()
        moved = {0: 0, 1: 0}

        def revealed(turn: int) -> bool:
            return any(isinstance(m, CardRevealed) for m in ann.stream[turn_index(turn) :])

        def turn_index(turn: int) -> int:
            return next(
                i for i, m in enumerate(ann.stream) if isinstance(m, TurnStarted) and m.turn == turn
            )

        while min(moved.values()) < 3:
            turn = await ann.until(
                lambda: (t := turn_to_answer(ann.stream)) and t.turn not in handled and t,
                "the next turn",
            )
            handled.add(turn.turn)
            if turn.seat == 1:  # the bot: nothing until its two seconds have passed
                seen = ann.until(lambda t=turn.turn: revealed(t), "the bot's move")
                paced = clock.until_pending(2.0)
                assert await _first(paced, seen) == 0, "the bot moved without its pace"
                clock.advance(1.9)
                assert clock.pending(0.1) >= 1 and not revealed(turn.turn)
                clock.advance(0.1)
                await ann.until(lambda t=turn.turn: revealed(t), "the bot's move, in time")
            else:  # Ann's move goes out at once: time stands still meanwhile
                await ann.send(protocol.Act(turn.turn, SCORE))

                async def held(t: int = turn.turn) -> None:
                    # A wait set while her move is still to be made (not the bot's next).
                    while True:
                        await clock.until_pending(2.0)
                        if room.moves == t:
                            return
                        await asyncio.sleep(0.01)

                seen = ann.until(lambda t=turn.turn: revealed(t), "Ann's move")
                assert await _first(seen, held()) == 0, "Ann's move was held"
            moved[turn.seat] += 1
        await ann.close()


async def test_a_private_table_is_joinable_by_code_but_not_listed(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), private=True)
        code = welcome(ann).code
        assert (await http_json(url, "/tables")) == []
        bea = await join(url, code)
        assert welcome(bea).seat == 1
        assert (await http_json(url, "/status"))["tables"] == 1


async def test_a_person_dropped_on_their_turn_comes_back_and_plays_it(tmp_path: Path) -> None:
    async with running_server(tmp_path, away_after=WAIT) as (_, url):
        ann = await create(url, ("human", "open"))
        code = welcome(ann).code
        bea = await join(url, code)
        token = welcome(bea).token
        await ann.send(protocol.Start())
        await ann.until(lambda: ann.stream, "the stream")
        first = ann.stream[1]
        assert isinstance(first, TurnStarted)
        mover = ann if first.seat == 0 else bea
        other = bea if mover is ann else ann
        # The mover's connection drops before it moves; it joins again with its token.
        await mover.close()
        again = await join(url, code, token=welcome(mover).token)
        assert welcome(again).seat == first.seat
        await again.until(lambda: again.stream, "the stream again")
        assert again.stream == ann.stream if mover is bea else again.stream == bea.stream
        await again.send(protocol.Act(0, SCORE))
        await again.send(protocol.Act(0, SCORE))  # sent twice (a resend): played once
        stale = await again.error()
        assert stale.code == protocol.STALE
        await other.until(lambda: len(other.public.record or "") or other.public.turn >= 1)
        assert other.public.turn == 1
        assert token  # Bea's token was handed over at once


async def test_moves_out_of_turn_or_illegal_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with running_server(tmp_path, away_after=WAIT) as (_, url):
        ann = await create(url, ("human", "open"))
        bea = await join(url, welcome(ann).code)
        await ann.send(protocol.Start())
        await ann.until(lambda: ann.stream, "the stream")
        first = ann.stream[1]
        mover, waiting = (ann, bea) if first.seat == 0 else (bea, ann)
        seat = first.seat
        await waiting.send(protocol.Act(0, SCORE))
        assert (await waiting.error()).code == protocol.NOT_YOUR_TURN
        before = len(mover.heard)
        await mover.send(protocol.Act(0, steal(seat)))  # stealing from oneself
        assert (await mover.error(before)).code == protocol.ILLEGAL
        await mover.send(protocol.Act(5, SCORE))  # a turn that has not come
        assert (await mover.error(before + 1)).code == protocol.STALE
        assert mover.public.turn == 0 and len(mover.stream) == 2


@pytest.mark.parametrize("seats", [("human", "open", "open", "expert", "casual", "random")])
async def test_the_host_adds_and_removes_bots_and_starts_once_seats_are_full(
    tmp_path: Path, seats
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, seats)
        code = welcome(ann).code
        await ann.send(protocol.Start())
        assert "2 open seats" in (await ann.error()).message
        mark = len(ann.heard)
        await ann.send(protocol.RemoveSeat(1))  # an open seat
        await ann.send(protocol.AddBot("greedy"))  # back to six seats
        await ann.until(
            lambda: [m for m in ann.heard[mark:] if isinstance(m, protocol.RoomState)][1:], "rooms"
        )
        room = [m for m in ann.heard if isinstance(m, protocol.RoomState)][-1]
        assert [s.bot for s in room.seats] == [None, None, "expert", "casual", "random", "greedy"]
        bea = await join(url, code, "Bea")
        assert welcome(bea).seat == 1
        await bea.send(protocol.AddBot("expert"))
        assert (await bea.error()).code == protocol.NOT_HOST
        await ann.send(protocol.AddBot("expert"))
        assert "at most 6" in (await ann.error(mark)).message
        await ann.send(protocol.Start())
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        assert isinstance(ann.stream[-1], Recorded)


async def test_tables_created_at_once_never_share_a_code(tmp_path: Path, monkeypatch) -> None:
    # Every draw gives the same letters, so both tables want BBBB while the first is
    # still being written to disk: the second must be given another code.
    monkeypatch.setattr(codes.secrets, "choice", lambda letters: letters[0])
    async with running_server(tmp_path) as (server, url):
        ann, bea = await asyncio.gather(create(url, name="Ann"), create(url, name="Bea"))
        found = sorted([welcome(ann).code, welcome(bea).code])
        assert found == ["BBBB", "BBBBB"]
        assert sorted(server.rooms) == found
