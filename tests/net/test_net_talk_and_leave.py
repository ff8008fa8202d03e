"""Table talk (players among themselves, spectators among themselves) and leaving for good."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from netkit import (
    Client,
    board_winners,
    create,
    deals,
    heard,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    watch,
    welcome,
)

from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.net.server.limits.talk_limits import TALK_BURST
from mantis.table import Left, Talk, stream_of

#: A two-seat deal that the seat played by its away bot (casual) wins against a person
#: scoring every card: only the rule that leaving loses makes it the leaver's loss.
LEAVER_WINS = 0


def said(client: Client, after: int = 0) -> list[protocol.Said]:
    return heard(client, protocol.Said, after)


async def test_players_and_spectators_talk_on_their_own_channels_cleaned_and_kept(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        sue = await watch(url, code, "Sue")
        tom = await watch(url, code)
        old = await Client.connect(url)  # a version-1 spectator hears no talk at all
        await old.send({"type": "watch", "protocol": 1, "code": code})
        await old.next(protocol.Welcome)
        await ann.send(protocol.Start())
        await ann.until(lambda: ann.stream, "the game")
        await ann.send(protocol.Say("good luck [bold]all[/]\x1b[2J\n!"))
        line = protocol.Said("players", 0, "Ann", "good luck bold all / 2J !")
        assert await bea.next(protocol.Said) == line
        assert await ann.next(protocol.Said) == line
        await sue.send(protocol.Say("Ann will win"))
        assert await tom.next(protocol.Said) == protocol.Said(
            "watchers", None, "Sue", "Ann will win"
        )
        await tom.send(protocol.Say("no way"))
        assert (await sue.next(protocol.Said, 0)).text == "Ann will win"
        await sue.until(lambda: len(said(sue)) == 2, "Tom's line")
        assert said(sue)[1].name == "Watcher"
        # Too long, or nothing left once cleaned: refused in one line.
        mark = len(bea.heard)
        await bea.send({"type": "talk", "text": "x" * 201})
        await bea.send(protocol.Say("\x1b\x07[]"))
        await bea.until(lambda: len(heard(bea, protocol.Error, mark)) == 2, "two refusals")
        assert [e.code for e in heard(bea, protocol.Error, mark)] == [protocol.BAD_MESSAGE] * 2
        # A flood of talk is slowed down, and nothing of it gets through.
        mark = len(ann.heard)
        for n in range(int(TALK_BURST) + 3):
            await bea.send(protocol.Say(f"spam {n}"))
        await bea.until(
            lambda: any(e.code == protocol.SLOW_DOWN for e in heard(bea, protocol.Error))
        )
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        await sue.until(lambda: sue.over, "the end, watched")
        # Players' talk never reached a spectator, nor spectators' a player.
        assert all(s.channel == "watchers" for s in said(sue) + said(tom))
        assert all(s.channel == "players" for s in said(ann) + said(bea))
        assert len([s for s in said(ann, mark) if s.text.startswith("spam")]) == int(TALK_BURST)
        assert not any('"talk"' in frame for frame in old.raw)
        # The players' talk is in the record, so a replay shows it.
        record = parse_record(ann.stream[-1].record)
        talk = [m for m in stream_of(record) if isinstance(m, Talk)]
        assert talk[0] == Talk(0, "Ann", "good luck bold all / 2J !")
        assert len(talk) == 1 + int(TALK_BURST)


async def test_talk_is_off_when_the_host_says_so(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", talk=False)
        assert welcome(ann).room.talk is False
        bea = await join(url, welcome(ann).code, "Bea")
        sue = await watch(url, welcome(ann).code, "Sue")
        for client in (bea, sue):
            await client.send(protocol.Say("hello?"))
            assert (await client.error()).code == protocol.TALK_OFF
        assert not said(ann)


async def test_a_person_who_leaves_is_played_for_loses_and_cannot_come_back(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, seeds=deals(LEAVER_WINS)) as (_, url):
        ann = await create(url, ("human", "open", "open"), "Ann", away_bot="casual")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        cal = await join(url, code, "Cal")
        await cal.send(protocol.Leave())  # leaving the waiting room frees the seat
        await ann.until(
            lambda: (
                [s.taken for s in heard(ann, protocol.RoomState)[-1].seats] == [True, True, False]
            ),
            "Cal's seat free",
        )
        await ann.send(protocol.RemoveSeat(2))
        await ann.until(lambda: len(heard(ann, protocol.RoomState)[-1].seats) == 2)
        await ann.send(protocol.Start())
        await bea.until(lambda: turn_to_answer(bea.stream), "the first turn")
        await bea.send(protocol.Leave())
        await ann.until(lambda: any(isinstance(m, Left) for m in ann.stream), "Bea left")
        assert [m for m in ann.stream if isinstance(m, Left)] == [Left(1, "casual")]
        await ann.until(lambda: heard(ann, protocol.Presence)[-1].seats[1] == "left")
        assert heard(ann, protocol.RoomState)[-1].seats[1].left
        # Her seat cannot be taken back.
        back = await join(url, code, token=welcome(bea).token)
        refused = await back.error()
        assert refused.code == protocol.SEAT_LEFT and "\n" not in refused.message
        # The away bot plays her seat to the end; the record says she left.
        await play_my_turns(ann, 0)
        record = parse_record(ann.stream[-1].record)
        assert board_winners(ann) == (1,)  # her seat won on the board, and still:
        assert record.left == (1,) and record.lost_by(1)
        assert any(seat == 1 for seat, _ in record.actions)
        # Leaving made her connection a spectator's: it heard the end too.
        await bea.until(lambda: bea.over, "the end")
        notices = [json.loads(body)["type"] for _, body in record.notices]
        assert "left" in notices
