"""A rolling restart: every node of three drained with SIGTERM and started again, in turn,
while tables play on; nothing lost, nothing doubled, everyone still in their seat.

The people are the app's own client (``TableConnection``) through HAProxy, so
they reconnect by themselves wherever the proxy sends them.  They answer at
once, but only up to a turn the test opens at each restart: every game is
still in play when the last node goes, whatever the machine's speed.  Every
wait is for a state (a process gone, a node up, a table's owner alive).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from clusterkit import Nodes, until
from netkit import WAIT, Client, create, join, running_server, turn_to_answer, welcome

from mantis.engine import SCORE, CardRevealed
from mantis.engine.record import parse_record
from mantis.home.player_keys import PlayerKeys
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import Reconnected, StreamUpdate, TableConnection
from mantis.net.cluster.membership import PREFIX
from mantis.table import Away, PublicPosition, Recorded

V = protocol.PROTOCOL_VERSION
TABLES = 3
#: The turn people play up to before the first restart, and how much further at each.
FIRST, STEP = 4, 3

# One worker runs every cluster test (they restart shared services).
pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture(scope="module")
def nodes(postgres, redis_server, tmp_path_factory):
    """Three nodes of their own behind HAProxy.  A person cut off is never played for
    (their seat waits for them), so every move of a seat is its person's own."""
    need_cluster()
    database = postgres.create_database("rolling")
    redis = redis_server.url.replace("/0", "/6")  # keys of its own
    cluster = Nodes(tmp_path_factory.mktemp("rolling"), database, redis, "--away-after", "600")
    for n, node in enumerate(cluster.nodes, 1):
        node.name = f"rolling{n}"  # pub/sub channels span Redis's databases: names of its own
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def need_cluster() -> None:
    from servicekit import need

    need(binaries=("haproxy", "openssl"))


class Heard(TableConnection):
    """The app's client, also keeping every stream frame's messages by index."""

    def __init__(self, *args, by_index: dict[int, set[str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.by_index = by_index
        self.reconnected = 0

    def _take(self, data: str | bytes):
        message = protocol.decode_server(data)
        if isinstance(message, protocol.Stream):
            for i, m in enumerate(message.messages):
                self.by_index.setdefault(message.start + i, set()).add(repr(m))
        return super()._take(data)


class Pace:
    """The turn people may play up to (not including it); raised by the test."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.raised = asyncio.Event()

    def raise_to(self, limit: int) -> None:
        self.limit = limit
        self.raised.set()
        self.raised = asyncio.Event()


async def play(seat: Heard, pace: Pace) -> None:
    """Play this seat's turns (score), each once, below ``pace.limit``, until the record."""
    answered: set[int] = set()
    events = aiter(seat.events())
    heard = asyncio.ensure_future(anext(events))
    while True:
        raised = asyncio.ensure_future(pace.raised.wait())
        await asyncio.wait({heard, raised}, return_when=asyncio.FIRST_COMPLETED)
        raised.cancel()
        if heard.done():
            event = heard.result()
            if isinstance(event, Reconnected):
                seat.reconnected += 1
            if isinstance(event, StreamUpdate) and isinstance(seat.stream[-1], Recorded):
                return
            heard = asyncio.ensure_future(anext(events))
        turn = turn_to_answer(seat.stream)
        mine = turn is not None and turn.seat == seat.seat and turn.turn not in answered
        if mine and turn.turn < pace.limit:
            answered.add(turn.turn)
            await seat.send(protocol.Act(turn.turn, SCORE))


def moves(stream) -> int:
    return sum(1 for m in stream if isinstance(m, CardRevealed))


async def test_every_node_restarted_in_turn_mid_game_loses_nothing_and_keeps_every_seat(
    nodes: Nodes, redis_server, tmp_path: Path
) -> None:
    import redis

    nodes.ready()
    directory = redis.Redis.from_url(redis_server.url.replace("/0", "/6"))
    pace = Pace(FIRST)
    tables: list[tuple[str, Heard, Heard, Heard, dict[int, set[str]]]] = []
    for t in range(TABLES):  # people through the proxy: round-robin spreads them over nodes
        frames: dict[int, set[str]] = {}

        def person(opening: protocol.Hello, name: str, frames=frames) -> Heard:
            tokens = SeatTokens(tmp_path / f"{name}.json")  # each person's own seat token
            keys = PlayerKeys(tmp_path / f"{name}-keys.json")  # and player key
            return Heard(nodes.proxy.url, opening, tokens=tokens, keys=keys, by_index=frames)

        ann = person(protocol.Create(V, f"Ann{t}", ("human", "open", "greedy")), f"Ann{t}")
        code = (await ann.open()).code
        bea = person(protocol.Join(V, code, f"Bea{t}"), f"Bea{t}")
        await bea.open()
        watcher = person(protocol.Watch(V, code), f"Wes{t}")
        await watcher.open()
        await ann.send(protocol.Start())
        tables.append((code, ann, bea, watcher, frames))
    people = [person for _, ann, bea, _, _ in tables for person in (ann, bea)]
    watchers = [table[3] for table in tables]
    playing = [asyncio.create_task(play(person, pace)) for person in people]
    following = [asyncio.create_task(play(w, pace)) for w in watchers]

    def owner(code: str) -> str | None:
        value = directory.get(f"{PREFIX}owner:{code}")
        return value.decode() if value is not None else None

    def alive(node: str) -> bool:
        return bool(directory.exists(f"{PREFIX}alive:{node}"))

    def reached(limit: int) -> bool:
        return all(moves(w.stream) >= limit - 1 for w in watchers)

    owners: list[dict[str, str | None]] = []
    for n, node in enumerate(nodes.nodes):
        await until(lambda n=n: reached(FIRST + STEP * n), "every table to play up to the pace")
        owners.append({code: await asyncio.to_thread(owner, code) for code, *_ in tables})
        pace.raise_to(FIRST + STEP * (n + 1))  # the games go on while the node restarts
        assert await asyncio.to_thread(node.terminate) == 0
        assert node.said("stopping:")

        def handed(node=node) -> bool:
            now = [owner(code) for code, *_ in tables]
            return all(o is not None and o != node.name and alive(o) for o in now)

        await until(handed, f"{node.name}'s tables to be owned by a live node")
        await asyncio.to_thread(node.start)
        await asyncio.to_thread(nodes.ready)
    pace.raise_to(10_000)  # then every game plays to its end
    await asyncio.wait_for(asyncio.gather(*playing, *following), WAIT)

    for t, (code, ann, bea, watcher, frames) in enumerate(tables):
        record = parse_record(ann.record)
        assert ann.record == bea.record == watcher.record
        for client in (ann, bea, watcher):
            shown = [(m.seat, m.action) for m in client.stream if isinstance(m, CardRevealed)]
            assert shown == list(record.actions) and len(shown) == record.result.turns
            public = PublicPosition()
            for m in client.stream:
                public.apply(m)
            assert public.view() == record.replay().view()
        # One message per index, whichever node sent it, before or after any restart.
        assert all(len(said) == 1 for said in frames.values()), code
        assert not any(isinstance(m, Away) for m in ann.stream)  # each seat played by its own
        for seat, (person, name) in enumerate(((ann, f"Ann{t}"), (bea, f"Bea{t}"))):
            assert person.seat == seat and person.room.seats[seat].name == name
    # Every node was restarted under someone, and every table changed hands.
    assert all(person.reconnected >= 1 for person in people)
    for code, *_ in tables:
        assert any(
            before[code] == node.name for before, node in zip(owners, nodes.nodes, strict=True)
        ), code
    for client in (*people, *watchers):
        await client.close()
    directory.close()


async def test_a_table_between_nodes_is_busy_for_a_moment_not_unknown(
    tmp_path: Path, pg_url: str, redis_server
) -> None:
    import redis.asyncio as aioredis

    redis = redis_server.url.replace("/0", "/7")  # a cluster of its own
    async with (
        running_server(tmp_path / "a", pg_url, redis, node="alpha") as (_, one),
        running_server(tmp_path / "b", pg_url, redis, node="beta") as (_, two),
        running_server(tmp_path / "c", pg_url, redis, node="gamma") as (_, three),
    ):
        ann = await create(one, ("human", "open"), "Ann")
        code = welcome(ann).code
        directory = aioredis.Redis.from_url(redis)
        # The instant of a drain when the table's owner key still names a live node that
        # has already let it go: a join relayed there finds no table in that node's hands.
        await directory.set(f"{PREFIX}owner:{code}", "beta")
        early = await Client.connect(three)
        await early.send(protocol.Join(V, code, "Bea"))
        said = await early.error()
        assert said.code == protocol.BUSY  # not unknown_code, which a client gives up on
        await early.closes()
        await directory.set(f"{PREFIX}owner:{code}", "alpha")  # the next owner has it
        bea = await join(three, code, "Bea")  # the same join, a moment later: seated
        assert welcome(bea).seat == 1
        await directory.aclose()
        for client in (ann, bea):
            await client.close()
