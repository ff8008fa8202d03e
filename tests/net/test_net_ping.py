"""``ping`` and ``pong`` (protocol 5): the round trip to the server, capped, from version 5 on.

Also the one rule of who hears what (``versions.first_heard``).
"""

from __future__ import annotations

from pathlib import Path

from netkit import Client, answer_to, create, heard, hosting, running_server, welcome

from mantis.base.clock import ManualClock
from mantis.net import protocol
from mantis.net.client import RoundTrip
from mantis.net.protocol import version1, versions
from mantis.net.server.limits import talk_limits


async def test_a_ping_is_answered_to_its_connection_alone_a_few_at_once(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        code = welcome(ann).code
        bea = await Client.connect(url)
        await bea.send(protocol.Join(protocol.PROTOCOL_VERSION, code, "Bea"))
        await bea.next(protocol.Welcome)
        for n in range(int(talk_limits.PING_BURST)):
            await ann.send(protocol.Ping(40 + n))
        await ann.until(lambda: len(heard(ann, protocol.Pong)) == 3, "three pongs")
        assert [p.id for p in heard(ann, protocol.Pong)] == [40, 41, 42]
        # One more at once is refused, in one line; the allowance comes back with time.
        mark = len(ann.heard)
        await ann.send(protocol.Ping(43))
        refused = await ann.error(mark)
        assert refused.code == protocol.SLOW_DOWN and "\n" not in refused.message
        clock.advance(1 / talk_limits.PING_RATE)
        await ann.send(protocol.Ping(44))
        await ann.until(lambda: heard(ann, protocol.Pong)[-1].id == 44, "the pong to 44")
        # Nobody else heard them.
        await bea.send(protocol.Ping(7))
        await bea.next(protocol.Pong)
        assert [p.id for p in heard(bea, protocol.Pong)] == [7]
        assert [p.id for p in heard(ann, protocol.Pong)] == [40, 41, 42, 44]
        for client in (ann, bea):
            await client.close()


async def test_an_older_protocol_is_refused_a_ping_as_a_bad_message(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open", "open"), "Ann")
        code = welcome(ann).code
        for version, name in ((protocol.PING_VERSION - 1, "Bea"), (version1.VERSION, "Cy")):
            old = await Client.connect(url)
            await old.send({"type": "join", "protocol": version, "code": code, "name": name})
            await old.next(protocol.Welcome)
            await old.send(protocol.Ping(1))
            refused = await old.error()
            assert refused.code == protocol.BAD_MESSAGE
            assert f"protocol {version}" in refused.message and "\n" not in refused.message
            assert not heard(old, protocol.Pong)
            await old.close()
        await ann.close()


async def test_the_client_times_the_round_trip(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = hosting(url, tmp_path)
        await ann.open()
        event = await answer_to(ann, ann.next_ping(), RoundTrip)
        assert event.seconds >= 0.0
        await ann.close()


def test_each_kind_is_heard_from_the_version_that_has_it() -> None:
    pong, clock = protocol.Pong(3), protocol.Clock(1, 0, 20.0, 30)
    ratings = protocol.Ratings(False, False, None, ())
    assert versions.frame(pong, protocol.PING_VERSION) == '{"type":"pong","id":3}'
    assert versions.frame(pong, protocol.PING_VERSION - 1) is None
    assert versions.frame(ratings, protocol.RATINGS_VERSION) is not None
    assert versions.frame(ratings, protocol.RATINGS_VERSION - 1) is None
    assert versions.frame(clock, 2) is not None and versions.frame(clock, version1.VERSION) is None
    offer, closed = protocol.Offer(0, (0,), 60.0), protocol.OfferClosed("lapsed")
    for message in (offer, closed, protocol.Said("players", 0, "Ann", "hi")):
        assert versions.first_heard(message) == 2  # version 1 has no offer, nor talk
        assert versions.frame(message, version1.VERSION) is None
