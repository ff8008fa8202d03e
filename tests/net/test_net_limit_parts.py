"""The parts the server's limits are made of, one at a time: who a connection is,
counts shared through the directory, and the fair share of bot moves."""

from __future__ import annotations

import asyncio

import pytest
from netkit import WAIT

from mantis.base.clock import ManualClock
from mantis.net.server.directory import LocalDirectory
from mantis.net.server.limits.addresses import (
    ClientAddresses,
    address_group,
    network_of,
    parse_networks,
)
from mantis.net.server.limits.bot_share import BotShare
from mantis.net.server.limits.server_limits import SharedCounts

# ---------------------------------------------------------------------- addresses


@pytest.mark.parametrize(
    ("address", "group"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4 written as IPv6 is that IPv4
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("[2001:db8:1:3::1]", "2001:db8:1:3::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("not an address", "?"),
    ],
)
def test_addresses_are_grouped_as_one_party_holds_them(address: str, group: str) -> None:
    assert address_group(address) == group


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        # IPv4: one network is a /24 (docs/ratings.md), whatever else the addresses share.
        ("203.0.113.7", "203.0.113.200", True),
        ("203.0.113.7", "203.0.114.7", False),
        ("127.0.5.1", "127.0.5.2", True),
        ("127.0.5.1", "127.0.6.1", False),
        ("::ffff:203.0.113.7", "203.0.113.9", True),  # (IPv4 written as IPv6)
        # IPv6: one network is a /48; an address group is a /64 within it.
        ("2001:db8:1:2::/64", "2001:db8:1:ffff::/64", True),
        ("2001:db8:1:2::/64", "2001:db8:2:2::/64", False),
    ],
)
def test_a_network_is_an_ipv4_24_or_an_ipv6_48(one: str, other: str, same: bool) -> None:
    assert (network_of(one) == network_of(other)) is same


def test_a_network_is_named_by_its_prefix() -> None:
    assert network_of("203.0.113.7") == "203.0.113.0/24"
    assert network_of(address_group("2001:db8:1:2::9")) == "2001:db8:1::/48"
    assert network_of("nonsense") == "?"


def test_the_forwarded_address_is_believed_from_a_trusted_proxy_only() -> None:
    addresses = ClientAddresses(parse_networks(["10.0.0.0/8", "::1"]))
    # Not a proxy: whatever it writes, it is itself.
    assert addresses.client("198.51.100.9", ["203.0.113.7"]) == "198.51.100.9"
    # A trusted proxy: the last hop it names that is not a trusted proxy...
    assert addresses.client("10.1.2.3", ["203.0.113.7"]) == "203.0.113.7"
    assert addresses.client("::1", ["203.0.113.7, 10.9.9.9"]) == "203.0.113.7"
    # ...never what the client wrote before it (the proxy appends what it saw).
    assert addresses.client("10.1.2.3", ["6.6.6.6, 203.0.113.7"]) == "203.0.113.7"
    assert addresses.client("10.1.2.3", ["6.6.6.6", "203.0.113.7"]) == "203.0.113.7"
    # Nothing readable after the proxies: the proxy itself.
    assert addresses.client("10.1.2.3", []) == "10.1.2.3"
    assert addresses.client("10.1.2.3", ["203.0.113.7, junk"]) == "10.1.2.3"
    assert addresses.group("10.1.2.3", ["2001:db8::5"]) == "2001:db8::/64"


# ---------------------------------------------------------------------- shared counts


async def test_shared_counts_hold_a_limit_and_give_back_only_what_was_taken() -> None:
    clock = ManualClock()
    directory = LocalDirectory(clock)
    node_a, node_b = SharedCounts(directory, "t:"), SharedCounts(directory, "t:")
    assert await node_a.take("eve", 3) and await node_b.take("eve", 3)
    assert await node_a.take("eve", 3)
    assert not await node_b.take("eve", 3)  # three across both nodes: no fourth
    assert await node_a.count("eve") == 3
    await node_b.give_back("eve")
    await node_b.give_back("eve")  # it held one: the second gives back nothing
    assert await node_a.count("eve") == 2
    assert await node_b.take("ann", 1)
    assert await node_a.count("ann") == 1


async def test_a_count_outlives_its_ttl_while_refreshed_and_comes_back_if_lost() -> None:
    clock = ManualClock()
    directory = LocalDirectory(clock)
    counts = SharedCounts(directory, "t:", ttl=60)
    assert await counts.take("eve", 5)
    for _ in range(4):
        clock.advance(40)
        await counts.refresh()
    assert await counts.count("eve") == 1
    # A node that stops refreshing (it died) has its part forgotten after the TTL.
    clock.advance(61)
    assert await counts.count("eve") == 0
    # The node that holds it puts it back on its next refresh (a restarted directory).
    await counts.refresh()
    assert await counts.count("eve") == 1
    await counts.give_back("eve")
    assert await counts.count("eve") == 0


# ---------------------------------------------------------------------- bots' share


async def test_bots_move_at_once_while_the_server_is_not_busy() -> None:
    clock = ManualClock()
    share = BotShare(clock, rate=5)
    await asyncio.wait_for(asyncio.gather(*(share.move("ann") for _ in range(5))), WAIT)
    assert share.let_through["ann"] == 5 and share.waiting == 0


async def test_when_busy_the_group_asking_most_waits_most_and_one_table_has_its_turn() -> None:
    clock = ManualClock()
    share = BotShare(clock, rate=1)
    await share.move("eve")  # the second's worth of burst, used
    granted: list[str] = []

    async def move(group: str) -> None:
        await share.move(group)
        granted.append(group)

    eve = [asyncio.create_task(move("eve")) for _ in range(6)]
    ann = asyncio.create_task(move("ann"))
    while share.waiting < 7:
        await asyncio.sleep(0)
    for step in range(1, 8):
        await asyncio.wait_for(clock.until_pending(1.0), WAIT)
        clock.advance(1.0)
        while len(granted) < step:
            await asyncio.sleep(0)
    # Ann's one move went second: one move for each group in turn, never six of Eve's first.
    assert granted[:2] == ["eve", "ann"] and granted.count("eve") == 6
    assert ann.done() and all(task.done() for task in eve)


async def test_a_table_stopped_while_its_bot_waits_takes_no_move_from_the_others() -> None:
    clock = ManualClock()
    share = BotShare(clock, rate=1)
    await share.move("eve")
    stopped = asyncio.create_task(share.move("eve"))
    waiting = asyncio.create_task(share.move("ann"))
    while share.waiting < 2:
        await asyncio.sleep(0)
    stopped.cancel()
    await asyncio.wait_for(clock.until_pending(1.0), WAIT)
    clock.advance(1.0)
    await asyncio.wait_for(waiting, WAIT)
    assert share.let_through == {"eve": 1, "ann": 1}
