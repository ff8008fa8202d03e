"""Names that stay their owner's: bound only once seated, within a day's allowance, freed when
left unused, and never to a look-alike in any case.

Real servers on loopback, raw protocol clients; days run on a ``ManualClock``.
"""

from __future__ import annotations

from pathlib import Path

from netkit import (
    ROOMY,
    Client,
    create,
    elsewhere,
    heard,
    join,
    player_id,
    quick,
    running_server,
    watch,
    welcome,
)

from mantis.base.clock import ManualClock
from mantis.home.player_keys import new_key
from mantis.net import protocol
from mantis.net.server.limits.server_limits import ServerLimits

DAY = 86_400.0
#: A name with no rated game, unused this long, is free again (docs/ratings.md says 14 days).
RELEASE_DAYS = 14


async def opened(url: str, name: str, key: str) -> Client:
    """A ``create`` under ``name`` with ``key``, its answer not waited for (it may be no)."""
    client = await Client.connect(url, key=key)
    v = protocol.PROTOCOL_VERSION
    await client.send(protocol.Create(v, name, ("human", "open"), player=player_id(key)))
    return client


async def refused(client: Client, code: str) -> str:
    error = await client.error()
    assert error.code == code, error
    await client.closes()
    return error.message


# ---------------------------------------------------------------------- 3. squatting


async def test_a_refused_opening_holds_no_name(tmp_path: Path) -> None:
    limits = ServerLimits(tables_per_address=1)
    squatter = new_key()
    async with running_server(tmp_path, limits=limits) as (_, url):
        eve = await create(url, ("human", "open"), "Eve", key=squatter)  # her one table
        # Refused for too many tables: a table, and a quick-play table (none has room).
        v, player = protocol.PROTOCOL_VERSION, player_id(squatter)
        for opening in (
            protocol.Create(v, "Alice", ("human", "open"), player=player),
            protocol.Quick(v, "Bea", 2, player=player),
        ):
            client = await Client.connect(url, key=squatter)
            await client.send(opening)
            await refused(client, protocol.TOO_MANY_TABLES)
        # Neither name is hers: their owners sit under them.
        alice = await create(url, ("human", "open"), "Alice", key=new_key(), source=elsewhere(2))
        bea = await quick(url, "Bea", 2, key=new_key(), source=elsewhere(3))
        assert welcome(alice).room.seats[0].name == "Alice"
        assert welcome(bea).room.seats[welcome(bea).seat].name == "Bea"
        for client in (eve, alice, bea):
            await client.close()


async def test_new_names_a_day_are_three_per_key_and_ten_per_address(tmp_path: Path) -> None:
    # docs/ratings.md: a key may take 3 new names a day, the keys of one address 10.
    clock = ManualClock()
    limits = ServerLimits(tables_per_address=100, connections_per_address=100)
    key = new_key()
    async with running_server(tmp_path, clock=clock, limits=limits) as (_, url):
        held = [await create(url, ("human", "open"), name, key=key) for name in ("A1", "A2", "A3")]
        said = await refused(await opened(url, "A4", key), protocol.TOO_MANY_NAMES)
        assert "your player key took 3 new names" in said
        # A name it holds is no new name; the address's allowance is its own count.
        again = await create(url, ("human", "open"), "a1", key=key)
        others = [await create(url, ("human", "open"), f"B{n}", key=new_key()) for n in range(7)]
        eleventh = await opened(url, "C1", new_key())
        said = await refused(eleventh, protocol.TOO_MANY_NAMES)
        assert "your address took 10 new names" in said
        clock.advance(DAY)  # a day later: new names again
        fourth = await create(url, ("human", "open"), "A4", key=key)
        assert welcome(fourth).room.seats[0].name == "A4"
        for client in (*held, again, *others, fourth):
            await client.close()


async def test_a_name_with_no_rated_game_is_free_again_once_left_unused(tmp_path: Path) -> None:
    clock = ManualClock()
    first, second = new_key(), new_key()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", key=first)
        await ann.close()
        clock.advance((RELEASE_DAYS - 1) * DAY)
        early = await opened(url, "ANN", second)  # still hers
        assert "belongs to another player" in await refused(early, protocol.NAME_TAKEN)
        clock.advance(2 * DAY)  # unused that long: anyone's again
        taken = await create(url, ("human", "open"), "Ann", key=second)
        assert welcome(taken).room.seats[0].name == "Ann"
        await refused(await opened(url, "Ann", first), protocol.NAME_TAKEN)
        await taken.close()


# ---------------------------------------------------------------------- 4. look-alikes


async def test_look_alikes_of_a_held_name_are_refused_in_any_case(tmp_path: Path) -> None:
    owner = new_key()
    async with running_server(tmp_path, limits=ROOMY) as (_, url):
        tables = [
            await create(url, ("human", "open", "open"), name, key=owner)
            for name in ("Alice", "Ian", "Bill", "Olga")
        ]
        code = welcome(tables[0]).code
        for alike in ("AIice", "lan", "BiII", "0lga", "aiice", "LAN", "bill", "OLGA"):
            for key in (new_key(), None):  # another key, or none at all
                client = await join(url, code, alike, key=key)
                await refused(client, protocol.NAME_TAKEN)
            client = await quick(url, alike, 2, key=new_key())
            await refused(client, protocol.NAME_TAKEN)
        # Names that only look like each other in part are no look-alikes.
        bob = await create(url, ("human", "open"), "Bob", key=new_key())
        rob = await join(url, welcome(bob).code, "Rob", key=new_key())
        assert welcome(rob).room.seats[1].name == "Rob"
        for client in (*tables, bob, rob):
            await client.close()


async def test_a_spectator_never_talks_under_a_name_seated_at_the_table(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", key=new_key())
        code = welcome(ann).code
        zoe = await watch(url, code, "Zoe")
        for alike in ("Ann", "ANN", "\u0410nn"):  # (the last with a Cyrillic А)
            fake = await watch(url, code, alike)
            await fake.send(protocol.Say(f"I am {alike}"))
            line = await zoe.until(
                lambda a=alike: next(
                    (m for m in heard(zoe, protocol.Said) if m.text == f"I am {a}"), None
                ),
                "the line",
            )
            assert line.name != "Ann" and line.name.endswith(" 2"), line
            await fake.close()
        for client in (ann, zoe):
            await client.close()
