"""Quick play: the server seats people at the oldest quick-play table with room, or a new one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from netkit import heard, play_my_turns, quick, running_server, welcome

from mantis.base.clock import ManualClock
from mantis.net import protocol

WAIT_FOR_PEOPLE = 60.0


async def test_people_asking_at_once_share_a_table_that_starts_by_itself_when_full(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, quick_fill=WAIT_FOR_PEOPLE) as (server, url):
        ann, bea = await asyncio.gather(quick(url, "Ann"), quick(url, "Bea"))
        code = welcome(ann).code
        assert welcome(bea).code == code and {welcome(ann).seat, welcome(bea).seat} == {0, 1}
        room = welcome(ann).room
        assert (room.quick, room.clock, room.away_bot, room.state) == (
            True,
            30,
            "greedy",
            "waiting",
        )
        # The bots' level and when they come are shown before they do.
        await ann.until(lambda: heard(ann, protocol.RoomState), "the room with Bea")
        assert 0 < heard(ann, protocol.RoomState)[-1].bots_in <= WAIT_FOR_PEOPLE
        [listed] = server.rooms.listing()
        assert (listed["code"], listed["quick"], listed["clock"]) == (code, True, 30)
        two = await quick(url, "Two", players=2)  # another size: another table
        assert welcome(two).code != code
        cal = await quick(url, "Cal")
        assert welcome(cal).code == code
        # Full: it starts by itself, nobody pressing anything.
        for client in (ann, bea, cal):
            await client.until(lambda c=client: c.stream, "the game")
        assert [s.name for s in ann.public.seats] == ["Ann", "Bea", "Cal"]
        dan = await quick(url, "Dan")  # a started table is full: a new one
        assert welcome(dan).code not in (code, welcome(two).code)


async def test_after_the_wait_bots_fill_the_open_seats_and_a_seat_left_is_free_again(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock, quick_bot="casual") as (_, url):
        ann = await quick(url, "Ann", players=3)
        bea = await quick(url, "Bea", players=3)
        await bea.close()  # Bea gives up waiting: her seat is free at once
        await ann.until(
            lambda: (
                [s.taken for s in heard(ann, protocol.RoomState)[-1].seats] == [True, False, False]
            ),
            "Bea's seat free",
        )
        cal = await quick(url, "Cal", players=3)
        assert welcome(cal).seat == 1 and welcome(cal).code == welcome(ann).code
        await clock.until_pending(WAIT_FOR_PEOPLE)
        clock.advance(WAIT_FOR_PEOPLE)
        await ann.until(lambda: ann.stream, "the game, with a bot")
        seats = ann.public.seats
        assert [s.name for s in seats[:2]] == ["Ann", "Cal"]
        assert (seats[2].kind, seats[2].bot) == ("bot", "casual")
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(cal, 1))
