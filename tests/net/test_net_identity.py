"""A name that is yours on a server: a player key holds it, nobody else sits under it.

Real servers on loopback, real clients speaking the protocol; every wait is on a message.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from netkit import (
    create,
    heard,
    join,
    quick,
    running_server,
    watch,
    welcome,
)

from mantis.home.player_keys import new_key
from mantis.net import protocol
from mantis.store.tables_sqlite import DB_NAME

V = protocol.PROTOCOL_VERSION


async def refused_with(client, code: str) -> str:
    error = await client.error()
    assert error.code == code, error
    assert "\n" not in error.message
    await client.closes()
    return error.message


async def test_a_name_held_by_one_key_is_refused_to_any_other_in_any_case(
    tmp_path: Path, database: str | None
) -> None:
    ann_key, eve_key = new_key(), new_key()
    async with running_server(tmp_path, database) as (_, url):
        ann = await create(url, ("human", "open", "open"), "Ann", key=ann_key)
        code = welcome(ann).code
        # Create, join, quick play: under "ANN", "ann", "Аnn" (a Cyrillic А), with another
        # key or none at all, it is refused, in one line.
        eve = await create_refused(url, "ANN", eve_key)
        assert "'ANN' belongs to another player" in await refused_with(eve, protocol.NAME_TAKEN)
        for name, key in (("ann", eve_key), ("Аnn", eve_key), ("aNN", None)):
            client = await join(url, code, name, key=key)
            await refused_with(client, protocol.NAME_TAKEN)
        client = await quick(url, "Ann", 2, key=eve_key)
        await refused_with(client, protocol.NAME_TAKEN)
        client = await quick(url, "ann")  # (no key: nobody's name can be taken without one)
        await refused_with(client, protocol.NAME_TAKEN)
        # The table is as it was: Ann, and two open seats.
        assert [s.taken for s in welcome(ann).room.seats] == [True, False, False]
        # Eve sits under her own name (it is hers from now on); Ann's key sits as Ann
        # anywhere on the server, in any case.
        bea = await join(url, code, "Eve", key=eve_key)
        assert welcome(bea).seat == 1
        other = await create(url, ("human", "greedy"), "ann", key=ann_key)
        assert welcome(other).room.seats[0].name == "ann"
        # A seat's token with another player's key is not that player's seat back.
        token = welcome(ann).token
        await ann.close()
        thief = await join(url, code, "", token, key=eve_key)
        await refused_with(thief, protocol.NAME_TAKEN)
        back = await join(url, code, "", token, key=ann_key)
        assert welcome(back).seat == 0
        for client in (back, bea, other):
            await client.close()


async def create_refused(url: str, name: str, key: str):
    from netkit import Client, answered, player_id

    client = await Client.connect(url, key=key)
    await client.send(protocol.Create(V, name, ("human", "open"), player=player_id(key)))
    await client.until(lambda: answered(client), "an answer")
    return client


async def test_one_key_one_seat_at_a_table(tmp_path: Path) -> None:
    key = new_key()
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open", "open"), "Ann", key=key)
        code = welcome(ann).code
        twin = await join(url, code, "Ann Again", key=key)
        assert "one seat a player" in await refused_with(twin, protocol.SAME_PLAYER)
        # Quick play: the second seat of one key at the same waiting table is refused too.
        first = await quick(url, "Cy", 3, key=new_key())
        cy_key = new_key()
        cy = await quick(url, "Cyd", 3, key=cy_key)
        assert welcome(cy).code == welcome(first).code
        again = await quick(url, "Cyd 2", 3, key=cy_key)
        await refused_with(again, protocol.SAME_PLAYER)
        # The seat the refusal did not take is still offered: someone else takes it.
        dee = await quick(url, "Dee", 3, key=new_key())
        assert welcome(dee).code == welcome(first).code
        for client in (ann, first, cy, dee):
            await client.close()


@pytest.mark.parametrize(
    "key",
    ["short", "x" * 44, "x" * 42 + "!", "a" * 10_000, 12345],
    ids=["short", "long", "bad-letter", "huge", "number"],
)
async def test_a_malformed_key_is_refused_as_a_bad_message(tmp_path: Path, key) -> None:
    async with running_server(tmp_path) as (_, url):
        from netkit import Client

        client = await Client.connect(url)
        await client.send(
            {"type": "join", "protocol": V, "code": "ABCD", "name": "Ann", "key": key}
        )
        await client.until(lambda: client.heard or client.closed, "an answer")
        if client.heard:  # (a frame beyond the size cap is closed on, unanswered)
            assert (await client.error()).code == protocol.BAD_MESSAGE
        await client.closes()


async def test_the_server_keeps_only_the_keys_digest(tmp_path: Path) -> None:
    key = new_key()
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "greedy"), "Ann", key=key)
        await ann.close()
    data = b"".join(p.read_bytes() for p in tmp_path.glob(DB_NAME + "*"))
    assert key.encode() not in data
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        [(held, digest)] = db.execute("SELECT name_key, key_hash FROM players").fetchall()
    assert (held, digest) == ("ann", hashlib.sha256(key.encode()).hexdigest())


async def test_a_version_2_client_is_served_as_before_and_hears_no_ratings(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        from netkit import Client

        old = await Client.connect(url)
        await old.send(protocol.Create(2, "Old", ("human", "open")))
        await old.next(protocol.Welcome)
        assert '"protocol":2' in old.raw[0]
        new = await join(url, welcome(old).code, "New", key=new_key())
        await new.next(protocol.Ratings)
        spectator = await watch(url, welcome(old).code)
        await spectator.next(protocol.Ratings)
        await old.until(lambda: len(heard(old, protocol.RoomState)) >= 1, "the new room")
        assert heard(old, protocol.Ratings) == []
        assert all('"ratings"' not in frame for frame in old.raw)
        # Without a key, a person with an older Mantis cannot take a held name either.
        late = await Client.connect(url)
        await late.send(protocol.Join(2, welcome(old).code, "new"))
        await refused_with(late, protocol.NAME_TAKEN)
        for client in (old, new, spectator):
            await client.close()
