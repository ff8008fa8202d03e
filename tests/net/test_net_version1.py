"""A version-1 client at a version-2 table: it plays, watches and reconnects as before.

It never hears a clock, an offer or talk, its stream has no notice it does
not know (numbered without them), and every frame it gets has version 1's
shape; its person is held to the clock all the same.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import msgspec
from netkit import Client, create, heard, play_my_turns, running_server, turn_to_answer, welcome

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed
from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.table import Left, Message, Opening, Talk, TimedOut

#: What version 1 says a room and a seat are (docs/protocol.md, version 1).
V1_ROOM = {"type", "code", "state", "private", "host", "away_bot", "seats", "moves", "you"}
V1_SEAT = {"name", "kind", "bot", "taken"}
V1_KINDS = {"welcome", "room", "presence", "stream", "error"}
V1_PRESENCE = {"bot", "open", "here", "gone", "away"}


def v1_problems(frames: list[str]) -> list[str]:
    """Whatever in ``frames`` version 1 would not understand."""
    problems: list[str] = []
    have = 0
    for frame in frames:
        data = json.loads(frame)
        kind = data["type"]
        if kind not in V1_KINDS:
            problems.append(f"a {kind!r} message")
            continue
        room = data["room"] if kind == "welcome" else data if kind == "room" else None
        if room is not None and (
            set(room) != V1_ROOM or any(set(seat) != V1_SEAT for seat in room["seats"])
        ):
            problems.append(f"a room of another shape: {sorted(room)}")
        if kind == "presence" and not set(data["seats"]) <= V1_PRESENCE:
            problems.append(f"presence {data['seats']}")
        if kind == "stream":
            messages = msgspec.convert(data["messages"], list[Message])
            if data["start"] > have:
                problems.append(f"a gap: {data['start']} after {have}")
            have = data["start"] + len(messages)
            for message in messages:
                if isinstance(message, TimedOut | Left | Talk):
                    problems.append(f"a {type(message).__name__} in the stream")
                if isinstance(message, Opening) and message.version != 1:
                    problems.append(f"an opening of version {message.version}")
    return problems


async def test_a_version_1_person_plays_reconnects_and_hears_only_version_1(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann", clock=30)
        code = welcome(ann).code
        old = await Client.connect(url)
        await old.send({"type": "join", "protocol": 1, "code": code, "name": "Old"})
        hello = await old.next(protocol.Welcome)
        assert hello.protocol == 1
        await ann.send(protocol.Start())
        await old.until(lambda: old.stream, "the game")
        await ann.send(protocol.Say("hello Old"))
        # Old lets one move's time run out.
        annie = asyncio.create_task(play_my_turns(ann, 0))
        await ann.until(lambda: (t := turn_to_answer(ann.stream)) and t.seat == 1, "Old's turn")
        turn = turn_to_answer(ann.stream).turn
        await ann.until(lambda: any(c.turn == turn for c in heard(ann, protocol.Clock)), "clock")
        clock.advance(30)
        await ann.until(lambda: any(isinstance(m, TimedOut) for m in ann.stream), "a timeout")
        # Old's connection drops; it comes back with its token, version 1 still.
        frames_before = list(old.raw)
        await old.close()
        again = await Client.connect(url)
        await again.send(
            {"type": "join", "protocol": 1, "code": code, "token": hello.token, "name": ""}
        )
        await again.next(protocol.Welcome)
        await asyncio.gather(annie, play_my_turns(again, 1, lambda view: SCORE))
        for frames in (frames_before, again.raw):
            assert v1_problems(frames) == []
        # Its stream is the table's, less what version 1 has no word for.
        record = parse_record(again.stream[-1].record)
        assert "notices" not in json.loads(again.stream[-1].record)
        assert [m for m in ann.stream if not isinstance(m, TimedOut)][:-1] == [
            msgspec.structs.replace(m, version=2) if isinstance(m, Opening) else m
            for m in again.stream[:-1]
        ]
        moved = [m for m in again.stream if isinstance(m, CardRevealed)]
        assert len(moved) == len(record.actions)


async def test_the_checker_sees_what_version_1_would_not_understand() -> None:
    room = json.dumps(
        {"type": "room", **dict.fromkeys(V1_ROOM - {"type"}), "seats": [], "clock": 30}
    )
    talk = json.dumps({"type": "talk", "channel": "players", "seat": 0, "name": "A", "text": "x"})
    assert len(v1_problems([room, talk])) == 2
