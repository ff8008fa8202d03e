"""``who`` and ``people`` (protocol 6): who sits at a table and who watches it, to the asker
alone, capped, for version 6 only; what the client keeps of it (how it is shown: tests/follow)."""

from __future__ import annotations

from pathlib import Path

from netkit import Client, answer_to, create, heard, hosting, join, running_server, watch, welcome

from mantis.base.clock import ManualClock
from mantis.net import protocol
from mantis.net.server.limits import talk_limits


async def test_who_names_the_seated_people_and_the_spectators_to_the_asker_alone(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        # A spectator with a seat's name is told apart; one with no name is a Watcher.
        watchers = [await watch(url, code, name) for name in ("Cy", "", "Bea")]
        for _ in range(int(talk_limits.PING_BURST)):
            await ann.send(protocol.Who())
        await ann.until(lambda: len(heard(ann, protocol.People)) == 3, "three answers")
        people = heard(ann, protocol.People)[-1]
        assert people.players == ("Ann", "Bea")  # (not the greedy bot)
        assert people.watching == 3 and len(people.watchers) == 3
        assert "Cy" in people.watchers and "Watcher" in people.watchers
        assert "Bea" not in people.watchers and list(people.watchers) == sorted(people.watchers)
        # One more at once is refused, in one line; pings keep their own allowance.
        mark = len(ann.heard)
        await ann.send(protocol.Who())
        refused = await ann.error(mark)
        assert refused.code == protocol.SLOW_DOWN and "\n" not in refused.message
        await ann.send(protocol.Ping(1))
        await ann.next(protocol.Pong)
        clock.advance(1 / talk_limits.PING_RATE)
        await watchers.pop().close()  # (a spectator gone is no longer named)
        await ann.send(protocol.Who())
        await ann.until(lambda: len(heard(ann, protocol.People)) == 4, "the fourth answer")
        assert heard(ann, protocol.People)[-1].watching == 2
        # Nobody else heard it; a spectator may ask too.
        await watchers[0].send(protocol.Who())
        await watchers[0].next(protocol.People)
        assert not heard(bea, protocol.People)
        for client in (ann, bea, *watchers):
            await client.close()


async def test_an_older_protocol_is_refused_who_as_a_bad_message(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        old = await Client.connect(url)
        version = protocol.WHO_VERSION - 1
        await old.send(
            {"type": "join", "protocol": version, "code": welcome(ann).code, "name": "B"}
        )
        await old.next(protocol.Welcome)
        await old.send(protocol.Who())
        refused = await old.error()
        assert refused.code == protocol.BAD_MESSAGE and f"protocol {version}" in refused.message
        assert not heard(old, protocol.People)
        for client in (old, ann):
            await client.close()


async def test_the_client_keeps_the_answer_and_yields_it(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = hosting(url, tmp_path)
        await ann.open()
        event = await answer_to(ann, protocol.Who(), protocol.People)
        assert event == ann.people == protocol.People(("Ann",), (), 0)
        await ann.close()
