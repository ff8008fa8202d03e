"""Three nodes behind HAProxy, on real PostgreSQL and Redis: one server to its players.

The nodes are real processes (killed with -9, drained with SIGTERM); people
and spectators are plain protocol clients, or the app's own client where a
test needs it to reconnect by itself.  Every wait is for a state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import urllib.error
from pathlib import Path

import pytest
from clusterkit import Nodes, said_by_any, until
from leakkit import leaks
from netkit import (
    WAIT,
    Client,
    create,
    elsewhere,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    watch,
    welcome,
)
from servicekit import need
from test_net_no_leak import play_table
from test_net_resilience import follow_and_play

from mantis.engine import SCORE, CardRevealed, TurnStarted
from mantis.engine.record import parse_record
from mantis.home.player_keys import PlayerKeys, new_key
from mantis.home.seat_tokens import SeatTokens
from mantis.net import client as client_module
from mantis.net import protocol
from mantis.net.client import Dropped, Reconnected, TableConnection
from mantis.net.protocol import codes
from mantis.net.protocol.key_proof import id_of, verifier_of
from mantis.net.server.room.rated_games import HISTORY
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate
from mantis.table import Away, PublicPosition, Recorded, TimedOut
from mantis.table.names import capitals_key

V = protocol.PROTOCOL_VERSION

# One worker runs them all: they share one set of nodes (and restart Redis and PostgreSQL).
pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture(scope="module")
def nodes(postgres, redis_server, tmp_path_factory):
    """Three nodes and HAProxy, shared by this module's tests (each asks them ``ready()``)."""
    need(binaries=("haproxy", "openssl"))
    database = postgres.create_database("cluster")
    # A person who leaves is played for after a second (a seat away, in the failover test).
    cluster = Nodes(
        tmp_path_factory.mktemp("proxy"), database, redis_server.url, "--away-after", "1"
    )
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


async def test_people_on_different_nodes_and_a_spectator_on_a_third_play_one_game(
    nodes: Nodes,
) -> None:
    nodes.ready()
    one, two, three = nodes.nodes
    ann = await create(one.url, ("human", "open", "greedy"), "Ann")
    code = welcome(ann).code
    bea = await join(two.url, code, "Bea")
    assert welcome(bea).seat == 1
    spectator = await Client.connect(three.url)
    await spectator.send(protocol.Watch(protocol.PROTOCOL_VERSION, code))
    await spectator.next(protocol.Welcome)
    # Through the proxy's TLS (wss://, its certificate trusted here), wherever it lands.
    secure = await Client.connect(
        nodes.proxy.tls_url, ssl=ssl.create_default_context(cafile=nodes.proxy.authority)
    )
    await secure.send(protocol.Watch(protocol.PROTOCOL_VERSION, code))
    await secure.next(protocol.Welcome)
    # Any node lists every node's public tables, and counts for all.
    await until(lambda: code in [t["code"] for t in json.loads(three.get("/tables")[1])])
    # (each node shares its figures at its heartbeat: the count may come a beat later)
    await until(lambda: three.status()["tables"] >= 1)
    assert three.status()["nodes"] == 3
    await ann.send(protocol.Start())
    await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
    await spectator.until(lambda: spectator.over, "the end")
    await secure.until(lambda: secure.over, "the end, over TLS")
    assert ann.stream == bea.stream == spectator.stream == secure.stream
    record = parse_record(ann.stream[-1].record)
    assert ann.public.view() == record.replay().view()
    assert moves_once(ann.stream, record)
    for client in (ann, bea, spectator, secure):
        await client.close()


def moves_once(stream, record) -> bool:
    """Every move of the record in the stream once, in order: none lost, none doubled."""
    shown = [(m.seat, m.action) for m in stream if type(m).__name__ == "CardRevealed"]
    return shown == list(record.actions) and len(shown) == record.result.turns


async def owner_of(redis_server, code: str) -> str:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_server.url)
    try:
        return (await client.get(f"mantis:owner:{code}")).decode()
    finally:
        await client.aclose()


async def seated_everywhere(nodes: Nodes, redis_server, tmp_path: Path):
    """Ann (through the proxy, reconnecting by herself) hosts human/open/open/greedy; Bea sits
    on another node, Dan on the third and leaves (his seat goes away), a spectator there too.

    Returns (owner node, ann, bea, spectator, code), the game started.
    """
    ann = TableConnection(
        nodes.proxy.url,
        protocol.Create(V, "Ann", ("human", "open", "open", "greedy")),
        tokens=SeatTokens(tmp_path / "ann.json"),
    )
    code = (await ann.open()).code
    owner = nodes.by_name(await owner_of(redis_server, code))
    second, third = [node for node in nodes.nodes if node is not owner]
    bea = TableConnection(
        second.url, protocol.Join(V, code, "Bea"), tokens=SeatTokens(tmp_path / "bea.json")
    )
    await bea.open()
    dan = await join(third.url, code, "Dan")
    await dan.close()
    spectator = await Client.connect(third.url)
    await spectator.send(protocol.Watch(V, code))
    await spectator.next(protocol.Welcome)
    await ann.send(protocol.Start())
    return owner, ann, bea, spectator, code


async def play_through(ann, bea, spectator, upset, when: int = 6):
    """Both people play to the end; ``upset()`` once ``when`` moves are played.  The events
    Bea's client saw (she is never on the node upset)."""
    upsetting: list[asyncio.Task[None]] = []
    bea_events: list[object] = []

    async def watch_ann(event) -> None:
        if not upsetting and PublicPosition.of(ann.stream).turn >= when:
            upsetting.append(asyncio.create_task(upset()))  # while everyone plays on

    async def watch_bea(event) -> None:
        bea_events.append(event)

    playing = asyncio.ensure_future(
        asyncio.gather(
            follow_and_play(ann, on_event=watch_ann), follow_and_play(bea, on_event=watch_bea)
        )
    )
    async with asyncio.timeout(WAIT):
        while not playing.done():
            # An upset that fails (a service that would not stop or start) says so at
            # once, rather than as a game that never ends.
            # (looked at each second: the upset starts mid-game)
            await asyncio.wait([playing, *upsetting], timeout=1, return_when="FIRST_COMPLETED")
            if upsetting and upsetting[0].done() and upsetting[0].exception() is not None:
                playing.cancel()
                raise upsetting[0].exception()  # type: ignore[misc]
    await playing
    await spectator.until(lambda: spectator.over, "the end")
    assert upsetting
    await upsetting[0]
    return bea_events


async def test_two_nodes_creating_at_once_never_share_a_code(
    tmp_path: Path, pg_url: str, redis_server, monkeypatch
) -> None:
    # Every draw gives the same letters, so both nodes want BBBB at the same moment.
    monkeypatch.setattr(codes.secrets, "choice", lambda letters: letters[0])
    redis = redis_server.url.replace("/0", "/1")  # a cluster of its own
    async with (
        running_server(tmp_path / "a", pg_url, redis, node="alpha") as (_, one),
        running_server(tmp_path / "b", pg_url, redis, node="beta") as (_, two),
    ):
        tables = await asyncio.gather(*(create(url, name="Ann") for url in (one, two) * 3))
        found = sorted(welcome(t).code for t in tables)
        assert found == ["BBBB", "BBBBB", "BBBBBB", "BBBBBBB", "BBBBBBBB", "BBBBBBBBB"][:6]
        for table in tables:
            await table.close()


async def test_the_owner_killed_mid_game_another_node_takes_over_and_nothing_is_lost(
    nodes: Nodes, redis_server, tmp_path: Path
) -> None:
    nodes.ready()
    owner, ann, bea, spectator, code = await seated_everywhere(nodes, redis_server, tmp_path)

    async def kill() -> None:
        owner.kill()  # -9, mid-game

    bea_events = await play_through(ann, bea, spectator, kill)
    record = parse_record(ann.record)
    assert ann.record == bea.record == spectator.stream[-1].record
    assert moves_once(ann.stream, record) and moves_once(spectator.stream, record)
    assert moves_once(bea.stream, record)
    assert any(isinstance(m, Away) and m.seat == 2 for m in ann.stream)  # Dan's seat played
    assert not any(isinstance(e, Dropped | Reconnected) for e in bea_events)  # Bea saw no break
    # Her last move went again to the new owner, which had it: that is no error of hers.
    assert not [e for e in bea_events if isinstance(e, protocol.Error)]
    others = [node for node in nodes.nodes if node is not owner]
    assert await said_by_any(others, f"took over table {code}")
    for client in (ann, bea, spectator):
        await client.close()


async def test_a_relayed_persons_move_goes_again_after_a_takeover_not_a_line_saying_act(
    nodes: Nodes,
) -> None:
    nodes.ready()
    one, two, _ = nodes.nodes
    ann = await create(one.url, ("human", "open"), "Ann")  # the table runs on one...
    code = welcome(ann).code
    bea = await join(two.url, code, "Bea")  # ...and two relays Bea there
    await ann.send(protocol.Start())
    while (turn := await bea.until(lambda: turn_to_answer(bea.stream), "a turn")).seat != 1:
        await ann.send(protocol.Act(turn.turn, SCORE))
        await bea.until(lambda t=turn: turn_to_answer(bea.stream) != t, "Ann's move")
    before = len(bea.stream)
    one.kill()  # -9: what two passes on to one from now on is lost
    await bea.send(protocol.Act(turn.turn, SCORE))
    await bea.send(protocol.Say("act"))  # a line of talk, its text the name of a move

    def said_act() -> bool:
        return "act" in [m.text for m in bea.heard if isinstance(m, protocol.Said)]

    def played() -> bool:
        return any(isinstance(m, CardRevealed) and m.seat == 1 for m in bea.stream[before:])

    # Another node takes the table over, and two's relay opens there again with Bea's
    # last move: her move is played, and her line is not said a second time.
    await bea.until(lambda: played() or said_act(), "Bea's move, sent again")
    assert played() and not said_act()
    assert await said_by_any((two, nodes.nodes[2]), f"took over table {code}")
    await bea.close()
    with contextlib.suppress(Exception):
        await ann.close()


async def seasoned(database: str, keys: dict[str, str]) -> None:
    """These people hold their names with these keys, each with the rated games behind them
    that make them weigh fully as an opponent."""
    import asyncpg

    db = await asyncpg.connect(database)
    try:
        await db.executemany(
            "INSERT INTO players (name_key, name, key_hash, key_id, key_up, games, created_at, "
            "last_seen) VALUES ($1, $2, $3, $4, $5, $6, now(), now())",
            [
                (
                    name.lower(),
                    name,
                    verifier_of(k),
                    id_of(verifier_of(k)),
                    capitals_key(name),
                    HISTORY,
                )
                for name, k in keys.items()
            ],
        )
    finally:
        await db.close()


async def test_a_rated_games_owner_killed_it_finishes_and_moves_both_ratings(
    nodes: Nodes, redis_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nodes.ready()
    ann_key, bea_key = new_key(), new_key()
    await seasoned(nodes.database, {"Ann": ann_key, "Bea": bea_key})
    # Bea sits from a network of her own (people of one network do not rate each other).
    direct = client_module.connect

    def from_elsewhere(url: str, **options: object):  # type: ignore[no-untyped-def]
        if not url.startswith(nodes.proxy.url):
            options["local_addr"] = (elsewhere(2), 0)
        return direct(url, **options)

    monkeypatch.setattr(client_module, "connect", from_elsewhere)
    ann = TableConnection(
        nodes.proxy.url,
        protocol.Create(V, "Ann", ("human", "open", "greedy"), rated=True, key=ann_key),
        tokens=SeatTokens(tmp_path / "ann.json"),
        keys=PlayerKeys(tmp_path / "ann-keys.json"),
    )
    code = (await ann.open()).code
    owner = nodes.by_name(await owner_of(redis_server, code))
    second, third = [node for node in nodes.nodes if node is not owner]
    bea = TableConnection(
        second.url,
        protocol.Join(V, code, "Bea", key=bea_key),
        tokens=SeatTokens(tmp_path / "bea.json"),
        keys=PlayerKeys(tmp_path / "bea-keys.json"),
    )
    await bea.open()
    spectator = await watch(third.url, code)
    await ann.send(protocol.Start())

    async def kill() -> None:
        owner.kill()  # -9, mid-game: the table finishes on another node

    await play_through(ann, bea, spectator, kill)
    others = [node for node in nodes.nodes if node is not owner]
    assert await said_by_any(others, f"took over table {code}")
    # Moved once, in the write that ended the game on the new owner: exactly the update's
    # numbers for this result, the bot at its anchor.
    record = parse_record(ann.record)
    assert record.result is not None
    after = rate([Rating(), Rating(), level_rating("greedy", 3)], record.result.winners)
    expected = [("Ann", HISTORY + 1, after[0].shown), ("Bea", HISTORY + 1, after[1].shown)]
    # Every node reads the one store: the same board on each.
    for node in (second, third):
        _, body = node.get("/leaderboard")
        board = sorted((row["name"], row["games"], row["rating"]) for row in json.loads(body))
        assert board == expected
    for client in (ann, bea, spectator):
        await client.close()


async def test_sigterm_hands_the_tables_over_at_once_and_play_goes_on(
    nodes: Nodes, redis_server, tmp_path: Path
) -> None:
    nodes.ready()
    owner, ann, bea, spectator, code = await seated_everywhere(nodes, redis_server, tmp_path)

    async def drain() -> None:
        assert await asyncio.to_thread(owner.terminate) == 0

    bea_events = await play_through(ann, bea, spectator, drain)
    record = parse_record(ann.record)
    assert ann.record == bea.record and moves_once(ann.stream, record)
    assert moves_once(bea.stream, record) and moves_once(spectator.stream, record)
    assert not any(isinstance(e, Dropped | Reconnected) for e in bea_events)
    assert owner.said("tables handed to 2 other nodes")
    for client in (ann, bea, spectator):
        await client.close()


async def test_redis_restarted_mid_game_and_play_goes_on(
    nodes: Nodes, redis_server, tmp_path: Path
) -> None:
    nodes.ready()
    owner, ann, bea, spectator, code = await seated_everywhere(nodes, redis_server, tmp_path)

    async def restart() -> None:
        await asyncio.to_thread(redis_server.stop)
        await until(lambda: owner.said("Redis is unreachable"), "the node to notice")
        await asyncio.to_thread(redis_server.start)

    await play_through(ann, bea, spectator, restart)
    record = parse_record(ann.record)
    assert ann.record == bea.record and moves_once(ann.stream, record)
    assert moves_once(bea.stream, record) and moves_once(spectator.stream, record)
    await until(lambda: owner.said("Redis is back"), "the node to say Redis is back")
    assert not any("Traceback" in line for node in nodes.nodes for line in node.log)
    for client in (ann, bea, spectator):
        await client.close()


async def test_postgresql_stopped_and_started_mid_game_nothing_unkept_is_published(
    nodes: Nodes, postgres, redis_server, tmp_path: Path
) -> None:
    nodes.ready()
    owner, ann, bea, spectator, code = await seated_everywhere(nodes, redis_server, tmp_path)

    async def outage() -> None:
        try:
            await asyncio.to_thread(postgres.stop)
            # The table waits, and says why; nothing is published meanwhile.
            await spectator.until(
                lambda: any(
                    isinstance(m, protocol.Error) and m.code == protocol.BUSY
                    for m in spectator.heard
                ),
                "busy",
            )
        finally:  # (cancelled or failed too: the session's other tests need the server)
            await asyncio.to_thread(postgres.start_again)

    await play_through(ann, bea, spectator, outage)
    record = parse_record(ann.record)
    assert ann.record == bea.record and moves_once(ann.stream, record)
    assert moves_once(spectator.stream, record)
    assert owner.said("the database went away") and owner.said("the database is back")
    assert not any("Traceback" in line for line in owner.log)
    for client in (ann, bea, spectator):
        await client.close()


async def test_no_client_on_any_node_hears_a_card_before_its_turn_or_the_seed(
    nodes: Nodes,
) -> None:
    nodes.ready()
    # Through the proxy, each table's people and spectators are spread over the nodes:
    # every kind of message crosses between them (a clock in games 1 and 5, talk in 2
    # and 10, someone leaving in 4, game 10 played again once an offer was declined, a
    # spectator's refused move at each table, a ping), to clients of protocol versions 1
    # to 5.
    tables = await asyncio.gather(*(play_table(nodes.proxy.url, n) for n in (*range(6), 10)))
    games = [game for table in tables for game in table]
    assert len(games) == 8
    for record, frames, shown in games:
        assert shown and record.result is not None
        for name, heard in frames.items():
            assert leaks(heard, record) == [], name


async def test_wrong_codes_count_across_nodes(nodes: Nodes, redis_server) -> None:
    nodes.ready()
    ann = await create(nodes.nodes[0].url, ("human", "open"), "Ann")
    code = welcome(ann).code
    try:
        for n in range(5):  # five wrong codes, each on another node than the last
            guess = await Client.connect(nodes.nodes[n % 3].url)
            await guess.send(protocol.Watch(V, "ZZZZZ"))
            assert (await guess.error()).code == protocol.UNKNOWN_CODE
        right = await Client.connect(nodes.nodes[2].url)
        await right.send(protocol.Watch(V, code))  # the right code, on a third node: it waits
        assert (await right.error()).code == protocol.TOO_MANY_GUESSES
    finally:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_server.url)
        await client.delete("mantis:hits:guess:127.0.0.1")  # the next tests guess nothing
        await client.aclose()
        await ann.close()


async def test_the_owner_closing_a_relayed_connection_leaves_no_traceback_on_any_node(
    nodes: Nodes,
) -> None:
    nodes.ready()
    logged = [len(node.log) for node in nodes.nodes]
    ann = await create(nodes.nodes[0].url, ("human", "open"), "Ann")
    code = welcome(ann).code
    try:
        for n in range(2):  # a wrong seat token, at another node: the owner refuses, and closes
            guess = await Client.connect(nodes.nodes[1 + n].url)
            await guess.send(protocol.Join(V, code, "Bea", token="not-a-token"))
            assert (await guess.error()).code == protocol.BAD_TOKEN
            await guess.closes()
        # Each node answers after that: what its closing logged was written before.
        for node in nodes.nodes:
            await asyncio.to_thread(node.status)
    finally:
        await ann.close()
    for node, start in zip(nodes.nodes, logged, strict=True):
        said = node.log[start:]
        assert not any("Traceback" in line or "Error" in line for line in said), said


async def test_an_addresss_tables_connections_and_a_tables_spectators_are_capped_across_nodes(
    tmp_path: Path, pg_url: str, redis_server
) -> None:
    from mantis.net.server.limits.server_limits import ServerLimits

    limits = ServerLimits(tables_per_address=2, connections_per_address=4, spectators_per_table=1)
    redis = redis_server.url.replace("/0", "/2")  # a cluster of its own
    async with (
        running_server(tmp_path / "a", pg_url, redis, node="alpha", limits=limits) as (_, one),
        running_server(tmp_path / "b", pg_url, redis, node="beta", limits=limits) as (_, two),
    ):
        ann = await create(one, ("human", "open"), "Ann")
        bob = await create(two, ("human", "open"), "Bob")
        code = welcome(ann).code
        third = await Client.connect(one)  # the address's third table
        await third.send(protocol.Create(V, "Cy", ("human", "open")))
        assert (await third.error()).code == protocol.TOO_MANY_TABLES
        await third.closes()
        watcher = await Client.connect(two)  # on beta, to alpha's table: the one spectator
        await watcher.send(protocol.Watch(V, code))
        await watcher.next(protocol.Welcome)
        second = await Client.connect(one)
        await second.send(protocol.Watch(V, code))
        assert (await second.error()).code == protocol.TOO_MANY_SPECTATORS
        await second.closes()
        fourth = await Client.connect(two)  # ann, bob, watcher: this is the fourth
        fifth = await Client.connect(one)
        assert (await fifth.error()).code == protocol.TOO_MANY_CONNECTIONS
        await fifth.closes()
        for client in (ann, bob, watcher, fourth):
            await client.close()


async def test_a_clocked_games_owner_killed_the_clock_moves_it_on_from_the_new_owner(
    nodes: Nodes,
) -> None:
    nodes.ready()
    one, two, three = nodes.nodes  # the table is created on one: one runs it
    ann = await create(one.url, ("human", "open"), "Ann", clock=5)
    code = welcome(ann).code
    bea = await join(two.url, code, "Bea")  # Bea never moves: only the clock plays for her
    spectator = await watch(three.url, code)
    await ann.send(protocol.Start())
    await spectator.until(lambda: any(isinstance(m, TurnStarted) for m in spectator.stream))
    one.kill()  # -9: Ann is cut off (her seat goes away), the clock's timer dies with it
    seen = len(spectator.stream)

    def timed_out_after_kill() -> bool:
        later = spectator.stream[seen:]
        stood_in = [i for i, m in enumerate(later) if isinstance(m, TimedOut) and m.seat == 1]
        return bool(stood_in) and any(isinstance(m, CardRevealed) for m in later[stood_in[0] :])

    await spectator.until(timed_out_after_kill, "Bea's time to run out at the new owner")
    assert await said_by_any((two, three), f"took over table {code}")
    # Bea (on a node that lives) heard the new owner's clock, then its stand-in's move.
    await bea.until(lambda: any(isinstance(m, TimedOut) and m.seat == 1 for m in bea.stream))
    assert any(isinstance(m, protocol.Clock) and m.seat == 1 for m in bea.heard)
    for client in (ann, bea, spectator):
        await client.close()


async def test_quick_play_asked_on_two_nodes_seats_people_at_one_table(
    tmp_path: Path, pg_url: str, redis_server
) -> None:
    redis = redis_server.url.replace("/0", "/4")  # a cluster of its own
    async with (
        running_server(tmp_path / "a", pg_url, redis, node="alpha") as (_, one),
        running_server(tmp_path / "b", pg_url, redis, node="beta") as (_, two),
    ):

        async def quick(url: str, name: str) -> Client:
            client = await Client.connect(url)
            await client.send(protocol.Quick(V, name, players=2))
            await client.next(protocol.Welcome)
            return client

        # One waits at a table alpha runs; someone asking beta sits at it (through beta).
        ann = await quick(one, "Ann")
        bea = await quick(two, "Bea")
        assert welcome(ann).code == welcome(bea).code
        # Four asking at once, two on each node: two full tables, never a third.
        racers = await asyncio.gather(*(quick((one, two)[n % 2], f"P{n}") for n in range(4)))
        tables: dict[str, int] = {}
        for client in racers:
            tables[welcome(client).code] = tables.get(welcome(client).code, 0) + 1
        assert sorted(tables.values()) == [2, 2]
        for client in (ann, bea, *racers):  # a full quick-play table starts by itself
            await client.until(lambda c=client: any(isinstance(m, TurnStarted) for m in c.stream))
            await client.close()


async def test_another_game_offered_before_the_owner_dies_is_accepted_at_the_new_owner(
    nodes: Nodes,
) -> None:
    nodes.ready()
    one, two, three = nodes.nodes
    ann = await create(one.url, ("human", "open", "open"), "Ann")  # one runs the table
    code = welcome(ann).code
    bea = await join(two.url, code, "Bea")
    cy = await join(three.url, code, "Cy")
    await ann.send(protocol.Start())
    await asyncio.gather(*(play_my_turns(c, welcome(c).seat) for c in (ann, bea, cy)))
    await ann.send(protocol.Leave())  # Ann goes (her seat is played for in any next game)
    await bea.send(protocol.Again())
    await cy.next(protocol.Offer)  # Bea's offer, on three: Bea and Ann's seat accept
    one.kill()  # -9: the offer was in one's memory, and in the directory
    seen = len(cy.heard)

    def offer_again() -> protocol.Offer | None:
        return next((m for m in cy.heard[seen:] if isinstance(m, protocol.Offer)), None)

    await cy.until(offer_again, "the offer, from the table's new owner")
    assert set(offer_again().accepted) == {0, 1}  # Ann's seat and Bea: only Cy to answer
    await cy.send(protocol.Again())
    for client in (bea, cy):  # a second game, with the first seat moved on
        await client.until(lambda c=client: c.stream and not c.over, "the next game")
    assert await said_by_any((two, three), f"took over table {code}")
    for client in (ann, bea, cy):
        await client.close()


async def test_talk_crosses_nodes_each_on_its_own_channel(nodes: Nodes) -> None:
    nodes.ready()
    one, two, three = nodes.nodes
    ann = await create(one.url, ("human", "open"), "Ann")
    code = welcome(ann).code
    bea = await join(two.url, code, "Bea")
    wes = await watch(three.url, code, "Wes")
    zoe = await watch(one.url, code, "Zoe")

    def said(client: Client, channel: str) -> list[protocol.Said]:
        return [m for m in client.heard if isinstance(m, protocol.Said) and m.channel == channel]

    await ann.send(protocol.Say("hello Bea"))  # from one (the owner) to a person on two
    await bea.until(lambda: said(bea, "players"), "Ann's line")
    assert [(m.seat, m.name, m.text) for m in said(bea, "players")] == [(0, "Ann", "hello Bea")]
    await wes.send(protocol.Say("hi all"))  # from three, through one, to a spectator on one
    await zoe.until(lambda: said(zoe, "watchers"), "Wes's line")
    assert [(m.name, m.text) for m in said(zoe, "watchers")] == [("Wes", "hi all")]
    await bea.send(protocol.Say("hi Ann"))  # (said after the others: they arrived before)
    await ann.until(lambda: "hi Ann" in [m.text for m in said(ann, "players")], "Bea's line")
    assert not said(wes, "players") and not said(zoe, "players")
    assert not said(ann, "watchers") and not said(bea, "watchers")
    for client in (ann, bea, wes, zoe):
        await client.close()


async def test_metrics_on_every_node(nodes: Nodes) -> None:
    nodes.ready()
    ann = await create(nodes.nodes[0].url, ("human", "greedy"), "Ann")
    await ann.send(protocol.Start())
    await play_my_turns(ann, 0)
    assert isinstance(ann.stream[-1], Recorded)
    node = nodes.nodes[0]
    kind, text = node.get("/metrics", node.metrics_port)  # only where the operator said
    assert kind.startswith("text/plain")
    with pytest.raises(urllib.error.HTTPError) as refused:
        node.get("/metrics")  # never on the players' port
    assert refused.value.code == 404
    body = text.decode()
    for name in (
        "mantis_tables",
        "mantis_connections",
        "mantis_moves_total",
        "mantis_move_latency_seconds_bucket",
        "mantis_store_commit_seconds_bucket",
        "mantis_pubsub_lag_seconds_bucket",
        "mantis_takeovers_total",
        "mantis_refused_intents_total",
    ):
        assert name in body, name
    moves = next(line for line in body.splitlines() if line.startswith("mantis_moves_total"))
    assert float(moves.split()[-1]) >= len(parse_record(ann.stream[-1].record).actions)
    await ann.close()


async def test_a_data_folder_with_a_game_in_play_moves_to_postgresql_and_finishes_on_a_cluster(
    tmp_path: Path, pg_url: str, redis_server
) -> None:
    from test_net_migrate import migrate, play_until

    data = tmp_path / "server"
    async with running_server(data, away_after=WAIT) as (_, url):
        ann = await create(url, ("human", "open", "greedy"), "Ann")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        await ann.send(protocol.Start())
        await asyncio.gather(play_until(ann, 0, 5), play_until(bea, 1, 5))
        before = [m for m in ann.stream if type(m).__name__ == "CardRevealed"]
        tokens = welcome(ann).token, welcome(bea).token
        await ann.close()
        await bea.close()
    copied = await asyncio.to_thread(migrate, data, pg_url)
    assert copied.returncode == 0, copied.stderr
    redis = redis_server.url.replace("/0", "/2")  # a cluster of its own, on the copy
    async with (
        running_server(tmp_path / "a", pg_url, redis, node="east", away_after=WAIT) as (_, one),
        running_server(tmp_path / "b", pg_url, redis, node="west", away_after=WAIT) as (_, two),
    ):
        ann = await join(one, code, token=tokens[0])  # the first to ask takes the table
        bea = await join(two, code, token=tokens[1])  # ...and the other node relays
        assert (welcome(ann).seat, welcome(bea).seat) == (0, 1)
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        record = parse_record(ann.stream[-1].record)
        after = [m for m in ann.stream if type(m).__name__ == "CardRevealed"]
        assert after[: len(before)] == before and moves_once(ann.stream, record)
        assert ann.stream == bea.stream
        await ann.close()
        await bea.close()
