"""A table server on loopback for tests, and plain protocol clients to talk to it.

``running_server`` starts a ``TableServer`` on a free port inside the test's
event loop (or ``server_process`` as a real ``mantis serve`` process, to be
killed); ``Client`` speaks the protocol directly and keeps every message it
receives, so tests wait on messages, never on time.  A server started here
deals from the seeds it is handed (``deals``), so a test whose outcome rests
on the cards names the deal that decides it, and runs on a ``ManualClock``
that a test (or ``play_my_turns``) moves on instead of waiting.  A client given a player
key proves it whenever the server challenges (protocol 4: the key is never
sent), as the reference client does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed, GameOver, TurnStarted
from mantis.engine.record import parse_record
from mantis.home.player_keys import PlayerKeys
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import TableConnection
from mantis.net.cluster.membership import Cluster
from mantis.net.protocol import key_proof
from mantis.net.server.assembly import table_server
from mantis.net.server.directory import Directory, LocalDirectory
from mantis.net.server.limits.server_limits import ServerLimits
from mantis.net.server.redis_directory import RedisDirectory
from mantis.net.server.room.room import RoomConfig
from mantis.net.server.server import RATE, TableServer, seeded
from mantis.store.tables_choice import open_table_store
from mantis.store.tables_sqlite import DB_NAME
from mantis.table import Message, PublicPosition, Recorded

#: Generous bound on any wait, a whole game included (three nodes, Redis, PostgreSQL and
#: HAProxy share the machine with the other tests): a slow machine only makes tests slower.
T = TypeVar("T")

WAIT = 120.0
#: The limits of a test's server unless it sets its own: every test client comes from
#: 127.0.0.1, so what one address may hold is not what most tests are about.
ROOMY = ServerLimits(
    tables_per_address=10_000,
    connections_per_address=10_000,
    names_per_key=10_000,
    names_per_address=10_000,
)
#: The seed a test's server deals its games from unless the test chooses its deals.
SEED = 2026

_clocks: dict[str, ManualClock] = {}
"""The clock of each server running here, by its URL (``refill`` moves it on)."""


def deals(*chosen: int) -> Callable[[], int]:
    """A test server's seed source: the ``chosen`` seeds first, in order (the deals a test's
    outcome rests on), then ``seeded``'s from the last of them (any game after those: the
    next at a table, or those a rematch draws until its first seat is the next one)."""
    queue = list(chosen)
    rest = seeded(chosen[-1] if chosen else SEED)
    return lambda: queue.pop(0) if queue else rest()


@contextlib.asynccontextmanager
async def running_server(
    data: Path, database: str | None = None, redis: str | None = None, **options: Any
) -> AsyncIterator[tuple[TableServer, str]]:
    """A server on 127.0.0.1 (a free port) for the duration of the block: (server, url).

    It keeps its tables in ``database`` (a PostgreSQL URL), or else in
    ``data``/server.sqlite3; with ``redis`` it is a node of a cluster (named
    by the ``node`` option).  ``away_after``, ``bot_pace`` (0 unless given) and
    ``bot_timeout`` make its ``RoomConfig``; the other options go to
    ``table_server``: ``limits`` (``ROOMY`` unless given), ``seeds`` (``deals()``
    unless given: the same deals in every run) and ``clock``.

    The clock is a ``ManualClock`` unless given: one running with the system's
    time, so a test that never moves it meets the timers a real server has (a
    hello's, a reconnect's ping, the flood allowance refilling), and one that
    any test may move on rather than wait (``refill`` does).  A test asserting
    what a timer does passes its own (frozen, to be sure nothing is due before
    it says so).
    """
    config = RoomConfig(
        **{
            key: options.pop(key)
            for key in ("away_after", "bot_timeout", "quick_fill", "quick_bot")
            if key in options
        },
        bot_pace=options.pop("bot_pace", 0.0),
    )
    clock = options.setdefault("clock", ManualClock())
    options.setdefault("limits", ROOMY)
    options.setdefault("seeds", deals())
    store = await open_table_store(database or data / DB_NAME, clock)
    directory: Directory = LocalDirectory(clock)
    if redis is not None:
        options["cluster"] = Cluster(redis, options.pop("node"), clock)
        await options["cluster"].start()
        directory = RedisDirectory(options["cluster"].redis, options["cluster"].node, clock)
    server = table_server(store, directory, config=config, **options)
    stop = asyncio.Event()
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(server.run("127.0.0.1", 0, stop, lambda h, p: bound.set_result(p)))
    url: str | None = None
    try:
        port = await asyncio.wait_for(asyncio.shield(bound), WAIT)
        url = f"ws://127.0.0.1:{port}"
        if isinstance(clock, ManualClock):
            _clocks[url] = clock
        yield server, url
    finally:
        if url is not None:
            _clocks.pop(url, None)
        stop.set()
        try:
            await asyncio.wait_for(task, WAIT)
        finally:
            await directory.close()
            if server.cluster is not None:
                await server.cluster.close()
            await store.close()


class ServerProcess:
    """``mantis serve`` as a real process, to be killed with -9 and started again.

    It deals game *i* it starts from ``game_seed(SEED, i)`` (``--seed``), as a
    server running here deals from ``deals()``: the same deals every run.
    """

    def __init__(self, data: Path, port: int = 0, *extra: str) -> None:
        command = [
            sys.executable,
            "-m",
            "mantis",
            "serve",
            "--port",
            str(port),
            "--data",
            str(data),
        ]
        self.process = subprocess.Popen(
            [*command, "--bot-pace", "0", "--seed", str(SEED), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("mantis server on ws://"), line + self.process.stderr.read()
        self.url = line.split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1])

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no chance to tidy anything up
        self.process.wait(WAIT)

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(WAIT)


class Client:
    """One connection speaking the protocol; every message it hears is kept in order."""

    def __init__(self, connection: ClientConnection, url: str = "", key: str | None = None) -> None:
        self.connection = connection
        self.url = url
        self.key = key
        """The player key this client proves when challenged (None: it has none)."""
        self.heard: list[protocol.ServerMessage] = []
        self.stream: list[Message] = []
        self.raw: list[str] = []
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self.closed = False

    @classmethod
    async def connect(
        cls,
        url: str,
        via: str | None = None,
        key: str | None = None,
        source: str | None = None,
        **options: Any,
    ) -> Client:
        """A new connection; ``via``: the address a trusted proxy says it is for; ``key``:
        the player key it proves; ``source``: the loopback address it connects from (any
        of 127.0.0.0/8: ``elsewhere(n)`` is another network for each ``n``); ``options``
        go to ``websockets``' ``connect``."""
        if via is not None:
            options["additional_headers"] = {"X-Forwarded-For": via}
        if source is not None:
            options["local_addr"] = (source, 0)
        return cls(await connect(url, compression=None, **options), url, key)

    async def _read(self) -> None:
        try:
            async for data in self.connection:
                assert isinstance(data, str)
                self.raw.append(data)
                message = protocol.decode_server(data)
                self.heard.append(message)
                if isinstance(message, protocol.Challenge) and self.key is not None:
                    prove = key_proof.answer(self.key, message, introduced=False)
                    await self.connection.send(protocol.encode(prove).decode())
                if isinstance(message, protocol.Stream):
                    assert message.start <= len(self.stream)
                    self.stream[message.start :] = list(message.messages)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._changed.set()

    async def send(self, message: object) -> None:
        if isinstance(message, dict):
            await self.connection.send(json.dumps(message))
        elif isinstance(message, str | bytes):
            await self.connection.send(message)
        else:
            await self.connection.send(protocol.encode(message).decode())  # type: ignore[arg-type]

    async def until(
        self,
        test: Callable[[], Any],
        what: str = "a message",
        fails: Callable[[], Any] | None = None,
    ) -> Any:
        """Wait until ``test()`` is true (checked whenever something arrives); fail at once
        if ``fails()`` is true first (it says what came instead), or the connection closes."""

        async def wait() -> Any:
            while True:
                result = test()
                if result:
                    return result
                wrong = fails() if fails is not None else None
                if wrong:
                    raise AssertionError(f"{wrong!r} came instead of {what}")
                if self.closed:
                    raise AssertionError(f"the connection closed before {what}")
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(wait(), WAIT)

    async def next(self, kind: type, after: int = 0) -> Any:
        """The first message of ``kind`` heard at index ``after`` or later."""

        def found() -> Any:
            return next((m for m in self.heard[after:] if isinstance(m, kind)), None)

        return await self.until(found, kind.__name__)

    async def error(
        self, after: int = 0, instead: tuple[type, ...] = (protocol.Welcome,)
    ) -> protocol.Error:
        """The first ``error`` heard at index ``after`` or later; a message of a kind in
        ``instead`` arriving first (once this is asked: what came before is history)
        fails at once, rather than after a long wait for an error that will not come."""
        since = len(self.heard)

        def found() -> protocol.Error | None:
            return next((m for m in self.heard[after:] if isinstance(m, protocol.Error)), None)

        def answered_otherwise() -> protocol.ServerMessage | None:
            if found() is not None:
                return None
            start = max(after, since)
            return next((m for m in self.heard[start:] if isinstance(m, instead)), None)

        return await self.until(found, "an error", answered_otherwise)

    async def closes(self) -> None:
        await self.until(lambda: self.closed, "the close")

    @property
    def public(self) -> PublicPosition:
        return PublicPosition.of(self.stream)

    @property
    def over(self) -> bool:
        return bool(self.stream) and isinstance(self.stream[-1], Recorded)

    async def close(self) -> None:
        await self.connection.close()
        with contextlib.suppress(Exception):
            await self._reader


def elsewhere(n: int, host: int = 1) -> str:
    """A loopback address in a network of its own (an IPv4 /24) for each ``n`` from 1:
    people who rate each other must sit from different networks.  The networks are
    neighbours (127.0.n.0/24: one /16), so a wider idea of a network than a /24 makes
    them one; ``host`` picks another address in the same /24 (one network, two
    addresses: two address groups, as far as the limits per address go)."""
    assert n >= 1 and 1 <= host <= 254, (n, host)  # (127.0.0.1 is every other client's)
    return f"127.{n // 250}.{n % 250}.{host}"


def player_id(key: str | None) -> str | None:
    """The id a version-4 opening names player key ``key`` by."""
    return None if key is None else key_proof.id_of(key_proof.verifier_of(key))


async def create(
    url: str,
    seats=("human", "open", "greedy"),
    name="Ann",
    via: str | None = None,
    key: str | None = None,
    source: str | None = None,
    **extra,
) -> Client:
    client = await Client.connect(url, via, key, source)
    await client.send(
        protocol.Create(
            protocol.PROTOCOL_VERSION, name, tuple(seats), player=player_id(key), **extra
        )
    )
    await client.next(protocol.Welcome)
    return client


def answered(client: Client) -> bool:
    """Whether the server answered the opening (a challenge is not an answer)."""
    return any(not isinstance(m, protocol.Challenge) for m in client.heard)


async def join(
    url: str,
    code: str,
    name: str = "Bea",
    token: str | None = None,
    via: str | None = None,
    key: str | None = None,
    source: str | None = None,
) -> Client:
    client = await Client.connect(url, via, key, source)
    opening = protocol.Join(protocol.PROTOCOL_VERSION, code, name, token, player=player_id(key))
    await client.send(opening)
    await client.until(lambda: answered(client), "an answer")
    return client


async def watch(url: str, code: str, name: str = "", source: str | None = None) -> Client:
    client = await Client.connect(url, source=source)
    await client.send(protocol.Watch(protocol.PROTOCOL_VERSION, code, name))
    await client.next(protocol.Welcome)
    return client


async def quick(
    url: str,
    name: str,
    players: int = 3,
    key: str | None = None,
    via: str | None = None,
    source: str | None = None,
) -> Client:
    client = await Client.connect(url, via, key, source)
    await client.send(
        protocol.Quick(protocol.PROTOCOL_VERSION, name, players, player=player_id(key))
    )
    await client.until(lambda: answered(client), "an answer")
    return client


def _each(value: Any, n: int) -> list[Any]:
    """``value`` for each of ``n`` (a list or tuple is already one each)."""
    if isinstance(value, list | tuple):
        assert len(value) == n, (len(value), n)
        return list(value)
    return [value] * n


async def at_once(
    url: str,
    openings: Sequence[protocol.ClientMessage],
    *,
    via: str | Sequence[str | None] | None = None,
    source: str | Sequence[str | None] | None = None,
    key: str | Sequence[str | None] | None = None,
) -> list[Client]:
    """Every opening in ``openings`` sent together, each on a connection of its own, and
    every connection once answered (a refusal, a welcome; a challenge is no answer).

    The connections are all made first, then every opening is written at once: the
    server has them all before it has answered any.  ``via`` (the address a trusted
    proxy says each is for), ``source`` (the loopback address each connects from) and
    ``key`` (the player key each proves) are one for all, or one each.
    """
    n = len(openings)
    vias, sources, keys = _each(via, n), _each(source, n), _each(key, n)
    clients = await asyncio.gather(
        *(Client.connect(url, vias[i], keys[i], sources[i]) for i in range(n))
    )
    await asyncio.gather(
        *(_say(client, opening) for client, opening in zip(clients, openings, strict=True))
    )
    await asyncio.gather(
        *(client.until(lambda c=client: answered(c) or c.closed, "an answer") for client in clients)
    )
    return list(clients)


async def _say(client: Client, message: protocol.ClientMessage) -> None:
    with contextlib.suppress(ConnectionClosed):  # refused before it could say anything
        await client.send(message)


def outcomes(clients: Sequence[Client]) -> Counter[str]:
    """How each client's opening was answered: ``welcome``, or its error's code."""
    said: Counter[str] = Counter()
    for client in clients:
        first = next((m for m in client.heard if not isinstance(m, protocol.Challenge)), None)
        if first is None:
            said["closed"] += 1
        elif isinstance(first, protocol.Error):
            said[first.code] += 1
        else:
            said[type(first).__name__.lower()] += 1
    return said


async def refill(client: Client) -> None:
    """Time enough for one more message of ``client``'s allowance (``RATE`` a second).

    On a server running here its clock is moved on; one in another process
    (``mantis serve``, a cluster's node) refills on its real clock, so that
    long is waited for real.
    """
    clock = _clocks.get(client.url)
    if clock is not None:
        clock.advance(1 / RATE)
    else:
        await asyncio.sleep(1 / RATE)


def heard(client: Client, kind: type, after: int = 0) -> list[Any]:
    """Every message of ``kind`` the client heard (from index ``after`` on)."""
    return [m for m in client.heard[after:] if isinstance(m, kind)]


def board_winners(client: Client) -> tuple[int, ...]:
    """The seats that won the game just recorded on the board (whoever left or not)."""
    assert client.over, "the game is not over"
    result = parse_record(client.stream[-1].record).result
    assert result is not None
    return result.winners


def welcome(client: Client) -> protocol.Welcome:
    return next(m for m in client.heard if isinstance(m, protocol.Welcome))


def turn_to_answer(stream: list[Message]) -> TurnStarted | None:
    """The turn waiting for a move: the last one started, if no card has been drawn since.

    Notices (a seat away or back) may follow it, so it is not always the last message.
    """
    for message in reversed(stream):
        if isinstance(message, TurnStarted):
            return message
        if isinstance(message, CardRevealed | GameOver):
            return None
    return None


async def play_my_turns(client: Client, seat: int, choose=lambda view: SCORE) -> None:
    """Answer every turn of ``seat`` until the game's record arrives."""
    answered: set[int] = set()

    def my_turn() -> TurnStarted | None:
        turn = turn_to_answer(client.stream)
        if turn is not None and turn.seat == seat and turn.turn not in answered:
            return turn
        return None

    sent: tuple[int, int] | None = None  # (turn, messages heard before it was sent)

    def dropped() -> bool:
        """Whether the server dropped the last move sent, for the flood limit."""
        return sent is not None and any(
            isinstance(m, protocol.Error) and m.code == protocol.SLOW_DOWN
            for m in client.heard[sent[1] :]
        )

    while True:
        await client.until(lambda: client.over or my_turn() or dropped(), "my turn or the end")
        if client.over:
            return
        if dropped():
            # Answered at machine speed, a game can spend a person's allowance: the move
            # is sent again once it refills.
            assert sent is not None
            answered.discard(sent[0])
            sent = None
            await refill(client)
            continue
        turn = my_turn()
        assert turn is not None
        answered.add(turn.turn)
        view = client.public.view(seat)
        sent = (turn.turn, len(client.heard))
        await client.send(protocol.Act(turn.turn, choose(view)))


def hosting(url: str, folder: Path) -> TableConnection:
    """Ann's app's connection hosting a table beside a greedy bot (its tokens and keys kept
    in ``folder``)."""
    return TableConnection(
        url,
        protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "greedy")),
        tokens=SeatTokens(folder / "tokens.json"),
        keys=PlayerKeys(folder / "keys.json"),
    )


async def answer_to(
    connection: TableConnection, request: protocol.TableRequest, kind: type[T]
) -> T:
    """The first event of ``kind`` that ``connection`` yields once it has sent ``request``."""

    async def first() -> T:
        async for event in connection.events():
            if isinstance(event, kind):
                return event
        raise AssertionError("the connection ended")

    waiting = asyncio.ensure_future(first())
    await connection.send(request)
    return await asyncio.wait_for(waiting, WAIT)
