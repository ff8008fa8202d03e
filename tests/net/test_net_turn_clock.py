"""The turn clock: the server holds each person's time per move, and moves the game on.

Time is a ``ManualClock`` the tests move forward; every wait is on a message.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from leakkit import leaks
from netkit import (
    WAIT,
    Client,
    create,
    heard,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    welcome,
)

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed
from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.net.server.room.turn_timer import RESUME_GRACE
from mantis.table import Away, Back, TimedOut

CLOCK = 30


async def clocked_pair(url: str) -> tuple[Client, Client]:
    """Ann and Bea at a two-seat table with a 30 s clock, the game started."""
    ann = await create(url, ("human", "open"), "Ann", clock=CLOCK)
    bea = await join(url, welcome(ann).code, "Bea")
    await ann.send(protocol.Start())
    await ann.until(lambda: turn_to_answer(ann.stream), "the first turn")
    return ann, bea


async def clock_for(client: Client, turn: int) -> protocol.Clock:
    """The clock the server started for ``turn``."""

    def started() -> protocol.Clock | None:
        return next((c for c in heard(client, protocol.Clock) if c.turn == turn), None)

    return await client.until(started, f"the clock of turn {turn}")


def timed_out(client: Client) -> list[TimedOut]:
    return [m for m in client.stream if isinstance(m, TimedOut)]


async def test_a_persons_time_runs_out_and_the_away_bot_plays_that_move(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann, bea = await clocked_pair(url)
        turn = turn_to_answer(ann.stream)
        first = await clock_for(ann, 0)
        assert (first.turn, first.seat, first.seconds) == (0, turn.seat, CLOCK)
        assert 0 < first.remaining <= CLOCK
        assert first == await clock_for(bea, 0)  # everyone is told the same deadline
        clock.advance(CLOCK - 1)
        await asyncio.sleep(0)
        assert not timed_out(ann)  # a second to go
        clock.advance(1)
        await ann.until(lambda: timed_out(ann), "the time running out")
        [out] = timed_out(ann)
        assert (out.seat, out.bot) == (turn.seat, "greedy")
        # The move that follows is the away bot's, the one the notice names.
        await ann.until(lambda: turn_to_answer(ann.stream), "the next turn")
        moved = next(m for m in ann.stream if isinstance(m, CardRevealed))
        assert (moved.seat, moved.action) == (turn.seat, out.action)
        # A move sent now for that turn comes too late: it changes nothing.
        mover = ann if turn.seat == 0 else bea
        mark = len(mover.heard)
        await mover.send(protocol.Act(0, SCORE))
        late = await mover.error(mark)
        assert late.code in (protocol.STALE, protocol.OUT_OF_TIME)
        # The next person's clock starts in full.
        assert (await clock_for(ann, 1)).remaining > CLOCK - 1


async def test_three_timeouts_in_a_row_make_a_seat_away_and_acting_brings_it_back(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann", clock=CLOCK)
        bea = await join(url, welcome(ann).code, "Bea")
        await ann.send(protocol.Start())
        annie = asyncio.create_task(play_my_turns(ann, 0))  # Ann plays; Bea never does
        for n in range(1, 4):
            await ann.until(lambda: (t := turn_to_answer(ann.stream)) and t.seat == 1, "Bea's turn")
            turn = turn_to_answer(ann.stream).turn
            await clock_for(ann, turn)
            clock.advance(CLOCK)
            await ann.until(lambda n=n: len(timed_out(ann)) == n, f"timeout {n}")
        await ann.until(lambda: any(isinstance(m, Away) for m in ann.stream), "Bea away")
        assert [m.seat for m in ann.stream if isinstance(m, Away)] == [1]
        assert heard(ann, protocol.Presence)[-1].seats[1] == "away"  # though connected
        # Away, Bea's turns are the bot's at once: no clock, no timeout.
        await ann.until(
            lambda: sum(isinstance(m, CardRevealed) and m.seat == 1 for m in ann.stream) > 3,
            "the away bot's move",
        )
        assert len(timed_out(ann)) == 3
        await bea.send(protocol.Act(0, SCORE))  # any move of hers: she is back
        await ann.until(lambda: any(isinstance(m, Back) for m in ann.stream), "Bea back")
        await ann.until(lambda: (t := turn_to_answer(ann.stream)) and t.seat == 1, "her turn")
        # Her own turns again, and her clock runs for them.
        assert (await clock_for(bea, turn_to_answer(bea.stream).turn)).seat == 1
        await asyncio.gather(annie, play_my_turns(bea, 1))
        record = parse_record(ann.stream[-1].record)
        assert [n["seat"] for _, n in _notices(record) if n["type"] == "timed_out"] == [1, 1, 1]
        assert leaks(ann.raw, record) == leaks(bea.raw, record) == []


def _notices(record):
    return [(turn, json.loads(body)) for turn, body in record.notices]


async def test_a_disconnected_persons_clock_runs_and_a_version_1_person_is_bound_by_it(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock, away_after=WAIT * 10) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", clock=CLOCK)
        code = welcome(ann).code
        old = await Client.connect(url)  # a version-1 client: it knows of no clock
        await old.send({"type": "join", "protocol": 1, "code": code, "name": "Old"})
        await old.next(protocol.Welcome)
        await ann.send(protocol.Start())
        await ann.until(lambda: turn_to_answer(ann.stream), "the first turn")
        if turn_to_answer(ann.stream).seat == 0:
            await ann.send(protocol.Act(0, SCORE))
        await ann.until(lambda: (t := turn_to_answer(ann.stream)) and t.seat == 1, "Old's turn")
        turn = turn_to_answer(ann.stream).turn
        await clock_for(ann, turn)
        clock.advance(CLOCK)
        await ann.until(lambda: timed_out(ann), "Old's time running out")
        await old.until(
            lambda: any(isinstance(m, CardRevealed) and m.seat == 1 for m in old.stream)
        )
        # Version 1 hears no clock and no timeout notice, and its stream is whole.
        assert not any('"clock"' in frame.split(",")[0] for frame in old.raw)
        assert not any("timed_out" in frame for frame in old.raw)
        assert old.public.turn == turn + 1
        # Ann's connection drops on her turn: her clock runs all the same.
        await old.send({"type": "act", "turn": turn + 1, "action": {"type": "score"}})
        await ann.until(lambda: (t := turn_to_answer(ann.stream)) and t.seat == 0, "Ann's turn")
        mine = turn_to_answer(ann.stream).turn
        await clock_for(ann, mine)
        await ann.close()
        clock.advance(CLOCK)
        await old.until(
            lambda: (
                sum(isinstance(m, CardRevealed) and m.seat == 0 for m in old.stream) >= 1
                and old.public.turn > mine
            ),
            "the away bot's move for Ann",
        )


async def test_the_deadline_is_kept_over_a_restart_with_a_grace_for_the_person_to_move(
    tmp_path: Path,
) -> None:
    before = ManualClock()
    async with running_server(tmp_path, clock=before) as (_, url):
        ann, bea = await clocked_pair(url)
        mover = turn_to_answer(ann.stream).seat
        tokens = (welcome(ann).token, welcome(bea).token)
        code = welcome(ann).code
        await clock_for(ann, 0)
        before.advance(5)  # 25 s left when the server goes down
        await ann.close()
        await bea.close()
    after = ManualClock()
    after.advance(5)  # the same wall time, on the restarted server's clock
    async with running_server(tmp_path, clock=after) as (_, url):
        ann = await join(url, code, token=tokens[0])
        kept = await clock_for(ann, 0)
        # Kept, not started over: what was left (less the moment the restart took).
        assert RESUME_GRACE < kept.remaining <= CLOCK - 5
        after.advance(CLOCK - 5 - RESUME_GRACE + 1)  # under the grace now
        await ann.close()
    again = ManualClock()
    again.advance(CLOCK - RESUME_GRACE + 1)
    async with running_server(tmp_path, clock=again) as (_, url):
        ann = await join(url, code, token=tokens[0])
        graced = await clock_for(ann, 0)
        assert graced.remaining <= RESUME_GRACE  # what is left, but never under the grace:
        assert graced.remaining > RESUME_GRACE - 2  # (9 s were left: 10 are given)
        again.advance(RESUME_GRACE)
        await ann.until(lambda: timed_out(ann), "the time running out after all")
        assert timed_out(ann)[0].seat == mover


async def test_a_client_cannot_buy_time_and_the_table_list_shows_the_clock(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (server, url):
        ann, bea = await clocked_pair(url)
        mover, other = (ann, bea) if turn_to_answer(ann.stream).seat == 0 else (bea, ann)
        await clock_for(ann, 0)
        # Nothing a client says carries time: a made-up field is refused outright.
        mark = len(mover.heard)
        await mover.send({"type": "act", "turn": 0, "action": {"type": "score"}, "left": 999})
        assert (await mover.error(mark)).code == protocol.BAD_MESSAGE
        clock.advance(CLOCK)
        await mover.until(lambda: timed_out(mover), "the time running out")
        out = timed_out(mover)[0]
        await mover.until(lambda: mover.public.turn >= 1, "the stand-in's move")
        record_move = next(m for m in mover.stream if isinstance(m, CardRevealed))
        assert record_move.action == out.action  # the stand-in's, whatever anyone sends
        [listed] = server.rooms.listing()
        assert listed["clock"] == CLOCK and listed["quick"] is False
        assert other.public.turn == 1 or await other.until(lambda: other.public.turn >= 1)
        plain = await create(url, ("human", "greedy"), "Cal")
        assert {t["code"]: t["clock"] for t in server.rooms.listing()}[welcome(plain).code] is None
