"""The table server: rooms by code, connections in, the public stream out.

``TableServer`` listens for WebSocket connections (and answers plain HTTP
requests on the same port: ``GET /status``, ``/tables`` and ``/leaderboard``;
its figures are served elsewhere, ``metrics_listener``).  It is the only
authority: a client says who it is (``create``, ``join`` with a code,
``watch``, or ``quick`` for any quick-play table; from version 4 it proves
its player key, ``key_proof``), then sends intents, and every one is checked
— its shape, its size, its rate, that it comes from the seat it is for, on
that seat's turn, and that the rules allow it — before anything happens.
It speaks protocol versions 1 to 4: an older client hears what its version
has (``net.version1`` for version 1).

Everything a table needs to go on is in the server's store before anyone
hears of it, so ``load`` brings every table back after a restart.

A server is handed what it uses: a ``TableStore`` (what lasts), a
``Directory`` (what spans tables: codes, the public list, counts per
address), the ``RoomConfig`` its rooms run with, the ``ServerLimits`` it
enforces and a ``Clock``.  ``mantis serve`` (``serve_cli``) builds them.

What one party may cost is bounded (``ServerLimits``; docs/protocol.md):
its sockets and connections, its tables (``table_counts``, every game
counted), its names (``name_claims``), its talk (``talk_limits``), its
plain pages, its spectators at a table, its share of bot moves when the
server is busy, its wrong guesses.  Counts per address group go through the
directory, so they hold across a cluster.  A rated game counts only when
earned against someone else (``rated_games``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import json
import logging
import math
import random
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import parse_qs

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from .. import __version__
from ..engine import SeatInfo, game_seed
from ..players import BOTS
from ..players.clock import Clock, SystemClock, within
from ..players.seat_specs import online_seats_problem
from ..store.table_rules import TableRules
from ..store.tables_interface import RoomPhase, StoredRoom, StoreError, TableStore
from ..table import dealt
from ..table.names import capitals_key, clean_line, clean_name
from . import protocol, version1
from .addresses import ClientAddresses, Network, network_of
from .allowances import Allowances
from .bot_share import BotShare
from .cluster import HEARTBEAT, Cluster, Message, redis_errors
from .codes import new_code, normal_code, shown_code
from .directory import Directory, Listing
from .key_proof import KeyProofs, Receive, Refused
from .leaderboard_pages import LeaderboardPages
from .limits import GuessLimiter, ServerLimits, SharedCounts, TokenBucket
from .links import Relay, RemoteClient, is_act
from .metrics import Metrics
from .name_claims import Claim, NameClaims, Refusal
from .open_files import OVERFLOW
from .plain_http import respond
from .rated_games import RatedGames, table_clock
from .rematch import OFFERS_PER_MINUTE
from .room import (
    Connection,
    Over,
    Playing,
    Room,
    RoomConfig,
    RoomHooks,
    Seat,
    Waiting,
    hash_token,
    stored_notices,
)
from .sockets import SocketGate, gated
from .table_counts import TableCounts
from .talk_limits import TalkLimits

log = logging.getLogger("mantis.server")

#: Seconds a new connection has to say who it is.
HELLO_TIMEOUT = 10.0
#: Messages a second a connection may send, on average and in a burst.
RATE, BURST = 10.0, 30.0
#: Messages dropped for flooding before the connection is closed.
MAX_DROPPED = 100
#: Plain pages (``/tables``, ``/leaderboard``) one address group may ask for: two a
#: second on average, twenty at once (a page of a big leaderboard is a costly read).
HTTP_RATE, HTTP_BURST = 2.0, 20.0
#: Seconds a refused page is held back at most (its wait, or this).
PAGE_HOLD_MOST = 2.0
#: Tries to seat a quick-play newcomer (a seat found may be gone when it is taken).
QUICK_TRIES = 5
#: Seconds a seat's old connection has to answer a ping before a reconnect replaces it.
LIVENESS_TIMEOUT = 2.0
#: A finished room nobody is connected to is dropped after this long (its record is
#: kept, and every player has it already); a waiting one after ``ServerLimits.idle_waiting``.
OVER_ROOM = timedelta(minutes=5)
#: Seconds between two looks for rooms to drop (and counts to keep alive).
SWEEP_EVERY = 30.0
#: Public tables in one page of ``GET /tables``.
PAGE_SIZE = 50
#: Seconds the order of the public tables is reused for ``GET /tables`` pages.
LISTING_AGE = 1.0

#: Seconds a relayed connection waits for its table's owner to answer before looking again.
OWNER_ANSWER = 3.0
#: Seconds between two looks in the store for tables no node holds (after Redis lost them).
STORE_SCAN = 10.0
#: Seconds a node gathers changes to its public list before telling the others.
SHARE_GAP = 0.25
#: Seconds after a node starts before its first look in the store.
HEARTBEAT_SCAN_DELAY = 2.0


class QuickElsewhere(Exception):
    """Quick play found a seat at a table another node runs: relay the connection there."""

    def __init__(self, owner: str, code: str) -> None:
        super().__init__(code)
        self.owner = owner
        self.code = code


class TableServer:
    """Every room on this server, and the connections to them."""

    def __init__(
        self,
        store: TableStore,
        directory: Directory,
        *,
        config: RoomConfig | None = None,
        clock: Clock | None = None,
        seeds: Callable[[], int] | None = None,
        limits: ServerLimits | None = None,
        trusted_proxies: Sequence[Network] = (),
        hello_timeout: float = HELLO_TIMEOUT,
        node: str = "",
        cluster: Cluster | None = None,
    ) -> None:
        """A server keeping its tables in ``store``, sharing codes and counts in ``directory``.

        ``seeds``: where each game's seed comes from, one call a game (the
        server's own tests hand it the deals they need; None: a secret seed
        each time).  ``trusted_proxies``:
        the reverse proxies whose ``X-Forwarded-For`` is believed.  ``node``:
        this server's name in logs and metrics.  ``cluster``: this node's
        place among others sharing the store (None: the server is one process).
        """
        self.store = store
        self.directory = directory
        self.config = config or RoomConfig()
        self.clock: Clock = clock or SystemClock()
        self.seeds: Callable[[], int] = seeds or _secret_seed
        self.limits = limits or ServerLimits()
        self.addresses = ClientAddresses(trusted_proxies)
        self.hello_timeout = hello_timeout
        self.node = cluster.node if cluster is not None else node
        self.cluster = cluster
        # The order this node tries a dead node's tables in: its own generator, seeded by
        # its name, so nodes differ (they share the tables out) and each is reproducible.
        self._adoption_order = random.Random(self.node)
        self.rooms: dict[str, Room] = {}
        self.connections: set[ServerConnection] = set()
        limits = self.limits
        self.sockets = SocketGate(
            limits.max_connections + OVERFLOW,
            limits.connections_per_address + OVERFLOW,
            self.addresses,
            limits.send_buffer,
        )
        self.guesses = GuessLimiter(directory, limits.guesses, limits.guess_window)
        self.tables = TableCounts(directory, limits, self.rooms)
        self.connections_held = SharedCounts(directory, "connections:")
        self.names = NameClaims(store, directory, self.clock, limits)
        self.proofs = KeyProofs(store)
        self.rated = RatedGames(store, self.clock)
        self.talk = TalkLimits(self.clock)
        self.leaders = LeaderboardPages(store, self.clock)
        self.pages_asked = Allowances(HTTP_RATE, HTTP_BURST, self.clock)
        """Plain pages each address group may ask for."""
        self.bots = BotShare(self.clock, limits.bot_moves)
        self.dropped_slow = 0
        """Connections dropped for not reading what they were sent."""
        self.background: set[asyncio.Task[None]] = set()
        self.metrics = Metrics(self.node or "mantis", self._counts)
        self.hooks = RoomHooks(
            moved=self._moved,
            committed=self.metrics.commit_seconds.observe,
            lost=self._lost,
            again=self.tables.again,
        )
        self.relays: dict[int, Relay] = {}
        """Connections here to tables another node runs, by id."""
        self.remote_clients: dict[tuple[str, int], RemoteClient] = {}
        """Connections on other nodes to tables here, by (node, id)."""
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self._asked_alive: dict[int, asyncio.Future[bool]] = {}
        self._ids = 0
        self._order: list[Room | Listing] = []
        self._order_at: float | None = None
        self._draining = False
        self._sharing = False
        self._shared: dict[str, Listing] = {}
        """The public tables this node last shared with the others (by code)."""
        self._touched: set[str] = set()
        """Tables changed since the last share (``_share_soon``), by code."""
        self._share_whole = True
        """Whether the next share is of the whole list (the first, or one after a failure)."""
        self._share_lock = asyncio.Lock()
        if cluster is not None:
            cluster.on_message = self._on_message
            cluster.on_owner = self._on_owner
            cluster.on_heartbeat = self._on_heartbeat
            cluster.on_reconnect = self._on_reconnect
            cluster.on_lag = self.metrics.pubsub_lag.observe

    @property
    def max_connections(self) -> int:
        """Connections this server takes at once."""
        return self.limits.max_connections

    # ------------------------------------------------------------------ lifecycle

    async def load(self) -> None:
        """Bring back every table kept in the store (call on the running loop).

        A node of a cluster brings back none: tables whose node is gone are
        taken over as they are found (``_watch_nodes``).
        """
        if self.cluster is not None:
            return
        for stored in await self.store.load_live(OVER_ROOM):
            await self.directory.claim_code(stored.code)
            room = self.rooms[stored.code] = self._restore(stored)
            await room.resume()  # a quick-play table offered again; bots fill it in time

    def _restore(self, stored: StoredRoom) -> Room:
        """A room for a kept table, its game (if any) going on from where it was kept."""
        seats = [Seat.restored(s) for s in stored.seats]
        room = self._room(
            stored.id,
            stored.code,
            rules=stored.rules,
            host=seats[stored.host],
            seats=seats,
        )
        game = stored.game
        if stored.state is RoomPhase.WAITING or game is None:
            return room
        infos = [SeatInfo(seat.name, seat.kind, seat.bot) for seat in seats]  # type: ignore[arg-type]
        record = replace(dealt(infos, game.seed), actions=game.moves)
        # Everyone was cut off by the restart: begin() has each seat wait for its person.
        room.begin(game.id, game.number, record, stored_notices(game.notices), game.deadline)
        room.send_ratings()  # (read now: a rated game's end shows what it moved from)
        return room

    def _room(self, table_id: int, code: str, **table: Any) -> Room:
        return Room(
            self.config,
            self.store,
            self._send,
            self.clock,
            hooks=self.hooks,
            directory=self.directory,
            seeds=self.seeds,
            table_id=table_id,
            code=code,
            bots=self.bots,
            rated=self.rated,
            **table,
        )

    async def run(
        self,
        host: str,
        port: int,
        stop: asyncio.Event,
        ready: Callable[[str, int], None] | None = None,
    ) -> None:
        """Serve on ``host``:``port`` until ``stop`` is set; calls ``ready(host, port)`` once up.

        However it ends (``stop``, a cancelled task, an error), the games are
        stopped before it returns (every move they made is kept already).
        The store and the directory are the caller's to close.
        """
        await self.store.rebuild_name_keys(capitals_key)  # (names held before v5: once)
        await self.load()
        sweeper: asyncio.Task[None] | None = None
        watcher: asyncio.Task[None] | None = None
        try:
            async with serve(
                self.handler,
                host,
                port,
                process_request=self.process_request,
                create_connection=gated(self.sockets),
                max_size=protocol.MAX_CLIENT_MESSAGE,
                compression=None,
                open_timeout=10,
                ping_interval=20,
                ping_timeout=20,
            ) as server:
                bound = next(iter(server.sockets)).getsockname()
                if ready is not None:
                    ready(host, bound[1])
                sweeper = asyncio.get_running_loop().create_task(self._sweep())
                if self.cluster is not None:
                    watcher = asyncio.get_running_loop().create_task(self._watch_nodes())
                await stop.wait()
                if self.cluster is not None:
                    if watcher is not None:
                        watcher.cancel()
                    await self._drain(server)
                server.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(server.wait_closed(), 5)
        finally:
            for task in (sweeper, watcher):
                if task is not None:
                    task.cancel()
            self.bots.stop()
            for room in self.rooms.values():
                room.stop()
            for task in list(self.background):
                task.cancel()

    async def _sweep(self) -> None:
        """Every ``SWEEP_EVERY`` seconds: drop rooms nobody is at any more (their tables
        stay in the store; a waiting one is closed), and keep this node's counts alive."""
        while True:
            await self.clock.sleep(SWEEP_EVERY)
            try:
                await self._drop_idle_rooms()
                await self.tables.settle()
                await self.tables.refresh()
                await self.connections_held.refresh()
            except Exception as exc:  # the store or the directory away: next time, then
                log.error("could not tidy the rooms up: %s", exc)

    async def _drop_idle_rooms(self) -> None:
        now = self.clock.now()
        for code, room in list(self.rooms.items()):
            if room.state is RoomPhase.PLAYING or room.connections():
                continue
            if room.state is RoomPhase.WAITING:
                idle = self.limits.idle_waiting
            else:
                idle = OVER_ROOM.total_seconds()
            if room.idle_since <= now - idle:
                del self.rooms[code]
                room.stop()
                with contextlib.suppress(StoreError, *_CLUSTER_ERRORS):  # (said by the sweep)
                    if room.state is RoomPhase.WAITING:
                        if room.rules.quick:
                            await self.directory.quick_free(code, len(room.seats), 0)
                        await self.store.drop_waiting(room.table_id)
                    await self.directory.release_code(code)
                    if self.cluster is not None:
                        await self.cluster.release(code)

    # ------------------------------------------------------------------ sending

    def send(self, connection: Connection, message: protocol.ServerMessage) -> None:
        """Send without waiting (a slow client never holds up a table)."""
        self._send((connection,), protocol.encode(message).decode())

    def _send(self, connections: Iterable[Connection], data: str) -> None:
        """Put ``data`` on each connection without waiting; drop any that stopped reading.

        One frame for all of them (encoded once).  Connections held by other
        nodes get it through the cluster (their node puts it on them).
        """
        if self.cluster is None:
            self._put(cast(Iterable[ServerConnection], connections), data)
            return
        here: list[ServerConnection] = []
        away: dict[str, list[int]] = {}
        for connection in connections:
            if isinstance(connection, RemoteClient):
                away.setdefault(connection.node, []).append(connection.id)
            else:
                here.append(cast(ServerConnection, connection))
        if here:
            self._put(here, data)
        for node, ids in away.items():
            self.cluster.send(node, {"t": "out", "ids": ids, "data": data})

    def _put(self, websockets: Iterable[ServerConnection], data: str) -> None:
        """Put ``data`` on WebSockets of this node, dropping those that stopped reading.

        A connection with more than ``max_buffered`` bytes still waiting to be
        written is not reading what it is sent: it is dropped at once rather
        than left to hold memory.
        """
        limit = self.limits.max_buffered
        reading = []
        for websocket in websockets:
            transport = websocket.transport
            if transport.get_write_buffer_size() > limit:
                if not transport.is_closing():
                    self.dropped_slow += 1
                    transport.abort()
                continue
            reading.append(websocket)
        broadcast(reading, data)

    def _error(
        self,
        connection: Connection,
        code: str,
        message: str,
        retry_after: float | None = None,
    ) -> None:
        self.metrics.refused.labels(code).inc()
        self.send(connection, protocol.Error(code, message, retry_after))

    # ------------------------------------------------------------------ plain HTTP

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """``/status``, ``/tables`` and ``/leaderboard`` for browsers and scripts (the costly
        two within each address group's share); WebSocket upgrades pass."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path, _, query = request.path.partition("?")
        if path not in ("/status", "/tables", "/leaderboard"):
            text = b"Not found: try /status, /tables or /leaderboard\n"
            return respond(request, HTTPStatus.NOT_FOUND, text, "text/plain; charset=utf-8")
        if path != "/status":
            group = self.addresses.group(
                str(connection.remote_address[0]) if connection.remote_address else "",
                request.headers.get_all("X-Forwarded-For"),
            )
            if not self.pages_asked.allow(group):
                wait = self.pages_asked.wait(group)
                # Answered once the wait is over: asking again at once only waits longer.
                await self.clock.sleep(min(wait, PAGE_HOLD_MOST))
                wait = max(1, math.ceil(wait))
                said = f"Too many requests from your address: try again in {wait} s\n"
                return respond(
                    request,
                    HTTPStatus.TOO_MANY_REQUESTS,
                    said.encode(),
                    "text/plain; charset=utf-8",
                    [("Retry-After", str(wait))],
                )
        if path == "/tables":
            return await self._tables_page(request, query)
        if path == "/leaderboard":
            page = await self.leaders.page(_page_number(query))
            if page.hold:
                await self.clock.sleep(page.hold)
            return respond(request, page.status, page.body, page.content_type, list(page.headers))
        body = await self._status()
        return respond(request, HTTPStatus.OK, json.dumps(body).encode(), "application/json")

    async def _tables_page(self, request: Request, query: str) -> Response:
        """One page of the public tables (``?page=N``, from 1): ``PAGE_SIZE`` at most.

        The order of the tables is taken at most once a ``LISTING_AGE``, and a
        page is built from its own tables only: a request costs the same with
        ten tables or ten thousand, and play never waits for a whole list.
        """
        number = _page_number(query)
        if number < 1:
            text = b"Bad request: page is a whole number from 1\n"
            return respond(request, HTTPStatus.BAD_REQUEST, text, "text/plain; charset=utf-8")
        order = await self._listing_order()
        start = (number - 1) * PAGE_SIZE
        page = [
            entry.listing() if isinstance(entry, Room) else entry
            for entry in order[start : start + PAGE_SIZE]
        ]
        count = max(1, -(-len(order) // PAGE_SIZE))
        links = [f'</tables?page={number + 1}>; rel="next"'] if number < count else []
        if number > 1:
            links.append(f'</tables?page={min(number - 1, count)}>; rel="prev"')
        headers = [("X-Total-Count", str(len(order))), ("X-Page-Size", str(PAGE_SIZE))]
        if links:
            headers.append(("Link", ", ".join(links)))
        body = json.dumps(page).encode()
        return respond(request, HTTPStatus.OK, body, "application/json", headers)

    async def _listing_order(self) -> list[Room | Listing]:
        """Every public table in the order pages show them (taken anew once it is stale)."""
        now = self.clock.now()
        if self._order_at is None or now - self._order_at >= LISTING_AGE:
            here: list[Room | Listing] = [
                room for room in self.rooms.values() if not room.private and room.table_id
            ]
            try:
                elsewhere = await self.directory.listing(but=self.node)
            except _CLUSTER_ERRORS:
                elsewhere = []  # Redis is away: this node's own tables at least
            # (sorted is stable: within a rank, this node's oldest first, then the others')
            self._order, self._order_at = sorted([*here, *elsewhere], key=_listing_rank), now
        return self._order

    # ------------------------------------------------------------------ connections

    def group_of(self, connection: Connection) -> str:
        """The address group ``connection`` counts in (through a trusted proxy: its client's;
        a connection held by another node: the group that node found for it)."""
        if isinstance(connection, RemoteClient):
            return connection.address
        connection = cast(ServerConnection, connection)
        address = connection.remote_address
        peer = str(address[0]) if address else ""
        request = connection.request
        forwarded = request.headers.get_all("X-Forwarded-For") if request is not None else []
        return self.addresses.group(peer, forwarded)

    async def handler(self, connection: ServerConnection) -> None:
        """One connection, from its opening message to its close."""
        if len(self.connections) >= self.max_connections:
            self._error(connection, protocol.SERVER_FULL, "the server is full: try again later")
            await _hang_up(connection, 1013, "server full")
            return
        group = self.group_of(connection)
        limit = self.limits.connections_per_address
        try:
            counted = await self.connections_held.take(group, limit)
        except _CLUSTER_ERRORS as exc:  # (the directory is Redis, and Redis is away)
            log.warning("node %s: a connection told busy: %s", self.node, exc)
            self._busy(connection)
            await _hang_up(connection, 1013, "busy")
            return
        if not counted:
            self._error(
                connection,
                protocol.TOO_MANY_CONNECTIONS,
                f"your address holds {limit} connections to this server already: close one first",
            )
            await _hang_up(connection, 1008, "refused")
            return
        self.connections.add(connection)
        room: Room | None = None
        try:
            try:
                first = await within(self.clock, self.hello_timeout, connection.recv())
            except TimeoutError:
                await _hang_up(connection, 1008, "say create, join or watch")
                return
            if self.cluster is not None:
                try:
                    elsewhere = await self._owner_for(first, group)
                except _BUSY_ERRORS as exc:
                    log.warning("node %s: a connection told busy: %s", self.node, exc)
                    self._busy(connection)
                    await _hang_up(connection, 1013, "busy")
                    return
                if elsewhere is not None:
                    await self._relay(connection, *elsewhere, first, group)
                    return
            try:
                room = await self._open(connection, first, group, self._receiver(connection))
            except _BUSY_ERRORS as exc:
                log.warning("node %s: a connection told busy: %s", self.node, exc)
                self._busy(connection)
            except QuickElsewhere as there:  # a quick-play seat at another node's table
                await self._relay(connection, there.owner, there.code, first, group, there.code)
                return
            if room is None:
                await _hang_up(connection, 1008, "refused")
                return
            self.talk.opened(connection)
            async for data in self._messages(connection):
                try:
                    await self._handle(connection, room, data)
                except _BUSY_ERRORS:
                    self._busy(connection)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(connection)
            self.talk.closed(connection)
            if room is not None:
                room.detach(connection)
            try:
                await self.connections_held.give_back(group)
            except Exception as exc:  # the directory away: its count expires by itself
                log.error("could not count a connection out: %s", exc)

    async def _messages(self, connection: ServerConnection) -> AsyncIterator[str | bytes]:
        """What a connection sends, within its rate: a flood is dropped, then cut off."""
        bucket = TokenBucket(RATE, BURST, self.clock.now())
        dropped = 0
        async for data in connection:
            if bucket.allow(self.clock.now()):
                dropped = 0  # only a flood that goes on is cut off
                yield data
                continue
            dropped += 1
            if dropped == 1 or dropped % 20 == 0:
                self._error(connection, protocol.SLOW_DOWN, "too many messages: slow down")
            if dropped > MAX_DROPPED:
                await _hang_up(connection, 1008, "flooding")
                return

    def _busy(self, connection: Connection) -> None:
        self._error(connection, protocol.BUSY, "the server is busy: try again in a moment")

    def _receiver(self, connection: Connection) -> Receive:
        """How to read the connection's next message while it opens (a proof, within the
        opening's time)."""
        # (A WebSocket's own, or a relayed connection's inbox.)
        receive = cast(ServerConnection | RemoteClient, connection).recv
        return lambda: within(self.clock, self.hello_timeout, receive())

    async def _open(
        self, connection: Connection, data: str | bytes, group: str, receive: Receive
    ) -> Room | None:
        """Act on a connection's first message; the room it is now in, or None (refused)."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            # Another version may open with what this one cannot read (a new field, a
            # new kind): it is told about the version, not about the message's shape.
            claimed = protocol.claimed_version(data)
            if claimed is not None and claimed not in protocol.SPOKEN:
                self._version_error(connection, claimed)
            else:
                self._error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return None
        if not isinstance(message, protocol.Opening):
            self._error(connection, protocol.BAD_MESSAGE, "start with create, join or watch")
            return None
        if message.protocol not in protocol.SPOKEN:
            self._version_error(connection, message.protocol)
            return None
        if isinstance(message, protocol.Rekey):
            await self._rekey(connection, message, receive)
            return None
        key_hash: str | None = None
        if isinstance(message, protocol.Seating):
            said = await self.proofs.key_of(lambda m: self.send(connection, m), message, receive)
            if isinstance(said, Refused):
                self._error(connection, said.code, said.message)
                return None
            key_hash = said
        if isinstance(message, protocol.Quick):
            if message.protocol == version1.VERSION:
                self._error(connection, protocol.BAD_MESSAGE, "quick play needs protocol 2")
                return None
            return await self._quick(connection, message, group, key_hash)
        if isinstance(message, protocol.Create):
            return await self._create(connection, message, group, key_hash)
        token = message.token if isinstance(message, protocol.Join) else None
        room = await self._find(connection, message.code, group, token)
        if room is None:
            return None
        if isinstance(message, protocol.Watch):
            if len(room.spectators) >= self.limits.spectators_per_table:
                self._error(
                    connection,
                    protocol.TOO_MANY_SPECTATORS,
                    f"table {shown_code(room.code)} has as many spectators as it takes",
                )
                return None
            room.attach(None, connection, message.protocol, clean_name(message.name))
            room.tell(connection, _welcome(room, None, None))
            room.tell(connection, room.presence())  # nothing changed for the others
            room.tell(connection, room.ratings_state())
            room.send_backlog(connection)
            return room
        return await self._join(connection, room, message, group, key_hash)

    async def _rekey(
        self, connection: Connection, message: protocol.Rekey, receive: Receive
    ) -> None:
        """Replace a player key by another (``mantis key rotate``), then the connection ends."""
        moved = await self.proofs.rekey(lambda m: self.send(connection, m), message, receive)
        if isinstance(moved, Refused):
            self._error(connection, moved.code, moved.message)
        else:
            self.send(connection, protocol.Rekeyed(moved))

    def _version_error(self, connection: Connection, claimed: int) -> None:
        older = ", ".join(str(v) for v in protocol.SPOKEN if v != protocol.PROTOCOL_VERSION)
        self._error(
            connection,
            protocol.VERSION,
            f"this server speaks protocol {protocol.PROTOCOL_VERSION} (and {older}), your "
            f"Mantis speaks {claimed}: use the same version of Mantis as the server",
        )

    async def _find(
        self, connection: Connection, code: str, group: str, token: str | None = None
    ) -> Room | None:
        """The room ``code`` names, unless ``group`` has guessed too often (then None, told).

        A reclaim with a token that is right for the table is never held back:
        the wrong guesses may be anyone's behind the same address.
        """
        wait = await self.guesses.wait(group)
        room = self.rooms.get(normal_code(code))
        if room is not None and not room.table_id:  # (a table still being kept: not yet)
            room = None
        if wait > 0:
            if token is not None and room is not None and room.claim(token) is not None:
                return room
            wait = math.ceil(wait * 10) / 10  # (never early: a client waits this long)
            self._error(
                connection,
                protocol.TOO_MANY_GUESSES,
                f"too many wrong codes from your address: try again in {wait:.0f} s",
                retry_after=wait,
            )
            return None
        if room is None and self.cluster is not None and await self._moving(code):
            # Handed from a draining node and not yet run by its next owner: the client
            # tries again in a moment (and lands where the table runs), no guess counted.
            self._busy(connection)
            return None
        if room is None:
            await self.guesses.missed(group)
            self._error(
                connection,
                protocol.UNKNOWN_CODE,
                f"there is no table {shown_code(normal_code(code))!r} here",
            )
            return None
        return room

    async def _claim(
        self, connection: Connection, name: str, key_hash: str | None, group: str
    ) -> Claim | None:
        """The name someone is about to sit under, checked (None: refused, and told)."""
        said = await self.names.check(name, key_hash, group)
        if isinstance(said, Refusal):
            self._error(connection, said.code, said.message)
            return None
        return said

    async def _bind(self, connection: Connection, claim: Claim) -> str | None | Refusal:
        """The seat is taken: the name ``claim`` holds now (its ``name_key``; None: no key);
        a refusal (told) if another key took it meanwhile."""
        bound = await self.names.bind(claim)
        if isinstance(bound, Refusal):
            self._error(connection, bound.code, bound.message)
        return bound

    def _refuse_second_seat(self, connection: Connection, room: Room) -> None:
        self._error(
            connection,
            protocol.SAME_PLAYER,
            f"your player key holds a seat at table {shown_code(room.code)} already: "
            "one seat a player",
        )

    async def _create(
        self, connection: Connection, message: protocol.Create, group: str, key_hash: str | None
    ) -> Room | None:
        specs = [spec.strip().lower() for spec in message.seats]
        away_bot = message.away_bot.strip().lower()
        problem = online_seats_problem(specs, away_bot)
        clock = table_clock(message.rated, message.clock)
        if problem is None and isinstance(clock, str):
            problem = clock
        if problem is not None:
            self._error(connection, protocol.BAD_SEATS, problem)
            return None
        claim = await self._claim(connection, message.name, key_hash, group)
        if claim is None:
            return None
        refused = await self.tables.take(group)
        if refused is not None:
            self._error(connection, refused, self.tables.refusal(refused))
            return None
        rules = TableRules(
            message.private,
            away_bot,
            clock,  # type: ignore[arg-type]
            message.talk,
            rated=message.rated,
        )
        room = await self._open_table(connection, message, specs, group, claim, rules)
        if room is None:
            await self.tables.give_back(group)
        else:
            self.tables.opened(group, room)
        return room

    async def _open_table(
        self,
        connection: Connection,
        message: protocol.Create,
        specs: list[str],
        group: str,
        claim: Claim,
        rules: TableRules,
    ) -> Room | None:
        """Open the table ``create`` asked for, counted already for ``group``."""
        player = await self._bind(connection, claim)
        if isinstance(player, Refusal):
            return None
        seats: list[Seat] = []
        for spec in specs:
            seats.append(Seat("", "bot", spec) if spec in BOTS else Seat("", "human"))
        host_index = specs.index("human")
        host = seats[host_index]
        token = secrets.token_urlsafe(24)
        host.token_hash = hash_token(token)
        host.player, host.key_hash, host.network = player, claim.key_hash, network_of(group)
        code = await new_code(self.directory.claim_code, private=message.private)
        room = self._room(
            0,
            code,
            rules=rules,
            host=host,
            seats=seats,
            owner=group,
        )
        host.name = room.unique_name(claim.name, host_index)
        for s, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = room.unique_name(room._bot_name(), s)
        if not await self._keep_new(connection, room, host_index):
            return None
        room.attach(host_index, connection, message.protocol)
        room.tell(connection, _welcome(room, host_index, token))
        room.send_presence()
        room.send_ratings()
        return room

    async def _keep_new(self, connection: Connection, room: Room, host: int) -> bool:
        """Keep a new room's table (whether it could be kept: if not, the caller is told)."""
        code = room.code
        if self.cluster is not None:
            await self.cluster.claim(code)  # (a new code: nobody else holds it)
        # The code is taken before the table is kept: another table created while this
        # one is being written must not draw the same code.
        self.rooms[code] = room
        try:
            room.table_id = await self.store.create_table(
                code, room.rules, host=host, seats=[seat.stored() for seat in room.seats]
            )
        except Exception as exc:  # the store's trouble: this table only, said in one line
            del self.rooms[code]
            with contextlib.suppress(*_CLUSTER_ERRORS):
                await self.directory.release_code(code)
                if self.cluster is not None:
                    await self.cluster.release(code)
            log.error("could not keep a new table: %s", exc)
            if isinstance(exc, StoreError):
                self._busy(connection)
            else:
                self._error(connection, protocol.SERVER_FULL, "the server could not keep the table")
            return False
        room.kept.set()
        self._share_soon(room)
        return True

    async def _quick(
        self, connection: Connection, message: protocol.Quick, group: str, key_hash: str | None
    ) -> Room | None:
        """Seat a person at the oldest quick-play table of that size with room, or a new one.

        A new one counts as a table opened by ``group`` (its address): an
        address at its limit of tables is seated only where there is room.
        On a cluster the table found may run on another node: the connection
        is then relayed there (``QuickElsewhere``), and that node seats it at
        the table found (``RemoteClient.quick_at``) without asking again.
        """
        claim = await self._claim(connection, message.name, key_hash, group)
        if claim is None:
            return None
        at = connection.quick_at if isinstance(connection, RemoteClient) else None
        for attempt in range(QUICK_TRIES):
            if attempt == 0 and at is not None:
                seat_at: tuple[str, bool] | None = (at, False)  # found by the person's node
            else:
                seat_at = await self._quick_seat(message.players, group)
            if seat_at is None:
                self._error(
                    connection,
                    protocol.TOO_MANY_TABLES,
                    self.tables.refusal(protocol.TOO_MANY_TABLES),
                )
                return None
            code, opened = seat_at
            if opened:
                room = self._quick_room(code, message.players, group)
                if not await self._keep_new(connection, room, 0):
                    await self.directory.quick_free(code, message.players, 0)
                    await self.tables.give_back(group)
                    return None
                self.tables.opened(group, room)
            else:
                found = self.rooms.get(code)
                if found is None:
                    owner = await self._running_elsewhere(code)
                    if owner is not None and not isinstance(connection, RemoteClient):
                        raise QuickElsewhere(owner, code)
                    found = self.rooms.get(code)  # (taken over just now, if its node was gone)
                if found is None:
                    continue  # (offered by a node that is gone, or by another at a relay)
                room = found
                await room.kept.wait()
            if key_hash is not None and room.holds_key(key_hash):
                free = sum(1 for seat in room.seats if not seat.taken)
                await self.directory.quick_free(code, len(room.seats), free)  # (not taken)
                self._refuse_second_seat(connection, room)
                return None
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                continue  # it started, or filled, meanwhile: look again
            seat, token = taken
            player = await self._bind(connection, claim)
            if isinstance(player, Refusal):
                room.unsit(seat)
                return None
            room.seats[seat].player = player
            await self._keep_seats(room)
            return await self._seated(connection, room, seat, token, message.protocol, True)
        self._error(
            connection, protocol.TABLE_FULL, "no quick-play table could seat you: try again"
        )
        return None

    async def _quick_seat(self, players: int, group: str) -> tuple[str, bool] | None:
        """A seat from the directory (``Directory.quick_seat``), with a fresh code to open a
        table with if ``group`` may open one (counted; given back if not opened)."""
        may_open = await self.tables.take(group) is None
        fresh = await new_code(self.directory.claim_code) if may_open else None
        seat_at = await self.directory.quick_seat(players, fresh)
        if seat_at is None or not seat_at[1]:
            if may_open:
                await self.tables.give_back(group)
            if fresh is not None:
                await self.directory.release_code(fresh)
        return seat_at

    async def _running_elsewhere(self, code: str) -> str | None:
        """The live node (not this one) that runs table ``code``; None if none does — then
        it is taken over here if it is still to be played."""
        if self.cluster is None:
            return None
        owner = await self.cluster.live_owner(code)
        if owner is not None and owner != self.node:
            return owner
        await self._adopt(code)
        return None

    def _quick_room(self, code: str, players: int, group: str) -> Room:
        """A new quick-play table of ``players`` open seats (the first to sit is its host)."""
        seats = [Seat("", "human") for _ in range(players)]
        return self._room(
            0,
            code,
            rules=TableRules(
                away_bot=self.config.quick_bot, clock=protocol.QUICK_CLOCK, quick=True, rated=True
            ),
            host=seats[0],
            seats=seats,
            owner=group,
        )

    async def _join(
        self,
        connection: Connection,
        room: Room,
        message: protocol.Join,
        group: str,
        key_hash: str | None,
    ) -> Room | None:
        token = message.token
        if token is not None:
            seat = room.claim(token)
            if seat is None:
                await self.guesses.missed(group)
                self._error(
                    connection,
                    protocol.BAD_TOKEN,
                    f"that seat token is not for table {shown_code(room.code)}",
                )
                return None
            held_by = room.seats[seat].key_hash
            if (
                held_by is not None
                and key_hash is not None
                and not hmac.compare_digest(held_by, key_hash)
            ):
                self._error(
                    connection, protocol.NAME_TAKEN, "that seat is another player's: not yours"
                )
                return None
            if room.seats[seat].left:
                self._error(
                    connection,
                    protocol.SEAT_LEFT,
                    f"you left table {room.code}: its seat is played for, and not yours again",
                )
                return None
            old = room.seats[seat].connection
            if old is not None and old is not connection:
                if await self._alive(old):
                    self._error(
                        connection,
                        protocol.SEAT_IN_USE,
                        "this seat is connected from somewhere else",
                    )
                    return None
                seat = room.claim(token)  # (seats before it may have moved meanwhile)
                if seat is None:
                    self._error(connection, protocol.BAD_TOKEN, "that seat was removed")
                    return None
                now = room.seats[seat].connection
                if now is not None and now is not old:
                    # Another reclaim with the same token took the seat while the old
                    # connection was being pinged: the first to come back has it.
                    self._error(
                        connection,
                        protocol.SEAT_IN_USE,
                        "this seat was just taken back by another connection",
                    )
                    return None
                if now is old:
                    room.detach(old)
                self._close(old, 1000, "replaced by a new connection")
        else:
            if room.state is not RoomPhase.WAITING:
                self._error(
                    connection,
                    protocol.TABLE_FULL,
                    f"table {shown_code(room.code)} has started: watch it instead",
                )
                return None
            claim = await self._claim(connection, message.name, key_hash, group)
            if claim is None:
                return None
            if key_hash is not None and room.holds_key(key_hash):
                self._refuse_second_seat(connection, room)
                return None
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                self._error(
                    connection, protocol.TABLE_FULL, f"table {shown_code(room.code)} is full"
                )
                return None
            seat, token = taken
            try:
                player = await self._bind(connection, claim)
                if isinstance(player, Refusal):
                    room.unsit(seat)
                    return None
                room.seats[seat].player = player
                await self._keep_seats(room)
            except StoreError:
                room.unsit(seat)
                raise
        return await self._seated(
            connection, room, seat, token, message.protocol, message.token is None
        )

    async def _seated(
        self,
        connection: Connection,
        room: Room,
        seat: int,
        token: str,
        version: int,
        newcomer: bool,
    ) -> Room:
        """``connection`` sits at ``seat`` now: it is told, and so is everyone else; a
        newcomer may be the one a quick-play table was waiting for."""
        room.attach(seat, connection, version)
        room.tell(connection, _welcome(room, seat, token))
        room.send_room(but=connection)
        room.send_presence()
        room.send_backlog(connection)
        if newcomer:
            await room.seated()
        return room

    async def _seat_request(
        self, connection: Connection, room: Room, seat: int, message: protocol.SeatRequest
    ) -> None:
        """A seated person's move, or their word on the game: played, offered, left…"""
        problem: str | None
        if isinstance(message, protocol.Act):
            problem = room.act(seat, message.turn, message.action)
        elif isinstance(message, protocol.Again):
            if isinstance(room.phase, Over) and room.phase.offer is None:
                full = await self.tables.full(room.owner)
                if full is not None:  # another game counts as a table, for the table's address
                    self._error(connection, full, _PROBLEMS[protocol.Again][full])
                    return
                key = f"offer:{room.code}:{seat}"
                made = await self.directory.hits(key, 60.0)
                if made.count >= OFFERS_PER_MINUTE:
                    self._error(
                        connection,
                        protocol.OFFER_LIMIT,
                        f"you offered {made.count} times this minute: try again in "
                        f"{made.clears_in:.0f} s",
                    )
                    return
                await self.directory.hit(key, 60.0)
            problem = await room.again(seat)
        elif isinstance(message, protocol.Decline):
            problem = room.decline(seat)
        elif isinstance(message, protocol.Leave):
            problem = await room.leave(connection)
        else:
            problem = room.back(seat)
        if problem is not None:
            self._error(connection, problem, _PROBLEMS[type(message)].get(problem, problem))

    async def _say(self, connection: Connection, room: Room, text: str) -> None:
        if not room.rules.talk:
            self._error(connection, protocol.TALK_OFF, "the host turned talk off at this table")
            return
        line = clean_line(text)
        if not line:
            self._error(connection, protocol.BAD_MESSAGE, "nothing is left of that line to say")
            return
        channel = f"{room.code}:{'watchers' if room.seat_of(connection) is None else 'players'}"
        if not self.talk.allow(connection, self.group_of(connection), channel):
            self._error(connection, protocol.SLOW_DOWN, "you are talking too fast: wait a little")
            return
        await room.say(connection, line)

    async def _keep_seats(self, room: Room) -> None:
        await self.store.set_seats(room.table_id, [seat.stored() for seat in room.seats])

    async def _handle(self, connection: Connection, room: Room, data: str | bytes) -> None:
        """One message from a connection already at a table."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            self._error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return
        seat = room.seat_of(connection)
        if isinstance(message, protocol.Opening | protocol.Prove):
            self._error(connection, protocol.BAD_MESSAGE, "this connection is already at a table")
            return
        if (
            isinstance(message, protocol.VERSION_2_REQUESTS)
            and room.version(connection) == version1.VERSION
        ):
            self._error(connection, protocol.BAD_MESSAGE, "not a message of protocol 1")
            return
        if isinstance(message, protocol.Say):
            await self._say(connection, room, message.text)
            return
        if isinstance(message, (protocol.Act, *protocol.VERSION_2_REQUESTS)):
            if seat is None:
                self._error(
                    connection, protocol.NOT_YOUR_TURN, "spectators watch: they do not play"
                )
                return
            await self._seat_request(connection, room, seat, message)
            return
        if seat is None or room.seats[seat] is not room.host:
            self._error(connection, protocol.NOT_HOST, "only the host sets up and starts the table")
            return
        if room.state is not RoomPhase.WAITING:
            self._error(connection, protocol.NOT_NOW, "the game has started")
            return
        if room.rules.quick:
            self._error(connection, protocol.NOT_NOW, "a quick-play table starts by itself")
            return
        if isinstance(message, protocol.Start):
            problem = room.ready_to_start()
            if problem is not None:
                self._error(connection, protocol.BAD_SEATS, f"cannot start: {problem}")
                return
            # This connection's messages are handled one at a time, and only the host
            # may start, so nothing else changes the room while the seed is kept.
            await room.start_next()
            self._share_soon(room)
            return
        if isinstance(message, protocol.AddBot):
            problem = room.add_bot(message.level)
        elif isinstance(message, protocol.AddOpen):
            problem = room.add_open()
        else:
            problem = room.remove_seat(message.seat)
        if problem is not None:
            self._error(connection, protocol.BAD_SEATS, problem)
            return
        await self._keep_seats(room)
        room.send_room()
        room.send_presence()
        self._share_soon(room)

    def _spawn(self, coroutine) -> None:  # type: ignore[no-untyped-def]
        task = asyncio.get_running_loop().create_task(coroutine)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _alive(self, connection: Connection) -> bool:
        """Whether a connection still answers (a ping, within a short time)."""
        if isinstance(connection, RemoteClient):
            return await self._ask_alive(connection)
        try:
            pong = await cast(ServerConnection, connection).ping()
            await within(self.clock, LIVENESS_TIMEOUT, pong)
        except (TimeoutError, ConnectionClosed):
            return False
        return True

    def _close(self, connection: Connection, code: int, reason: str) -> None:
        """Close a connection (here, or through the node that holds it)."""
        if isinstance(connection, RemoteClient):
            assert self.cluster is not None
            self.cluster.send(
                connection.node, {"t": "close", "id": connection.id, "code": code, "reason": reason}
            )
        else:
            self._spawn(cast(ServerConnection, connection).close(code, reason))

    # ------------------------------------------------------------------ figures

    def _counts(self) -> dict[str, Any]:
        # Counted by phase class, then named: a node counts its rooms several times a
        # second, and a room's state read as an enum's value costs more.
        phases = Counter(type(room.phase) for room in self.rooms.values())
        tables = {"waiting": phases[Waiting], "playing": phases[Playing], "over": phases[Over]}
        return {"tables": tables, "connections": len(self.connections)}

    def _local_status(self) -> dict[str, Any]:
        counts = self._counts()
        return {
            "version": __version__,
            "protocol": protocol.PROTOCOL_VERSION,
            "tables": len(self.rooms),
            "playing": counts["tables"]["playing"],
            "connections": counts["connections"],
        }

    async def _status(self) -> dict[str, Any]:
        """``GET /status``: this server's figures, or on a cluster every live node's added up."""
        status = self._local_status()
        if self.cluster is None:
            return status
        try:
            others = [s for s in await self.cluster.statuses() if s.get("node") != self.node]
        except _CLUSTER_ERRORS:
            others = []
        for other in others:
            for key in ("tables", "playing", "connections"):
                status[key] += other.get(key, 0)
        status["nodes"] = 1 + len(others)
        return status

    def _moved(self, latency: float | None) -> None:
        self.metrics.moves.inc()
        if latency is not None:
            self.metrics.move_latency.observe(latency)

    # ------------------------------------------------------------------ the cluster
    # A table runs on one node, its owner.  A connection that reaches another node is
    # relayed to the owner (``_relay``); at the owner it is a ``RemoteClient``.

    async def _owner_for(self, data: str | bytes, group: str) -> tuple[str, str] | None:
        """(the node, the code) to relay a new connection to; None: it is handled here.

        A table whose owner is gone is taken over on the way (``_adopt``).  An
        address group that guessed too often is refused here (``_find``), but
        for a reclaim with a token, which its table's owner judges.
        """
        assert self.cluster is not None
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError:
            return None
        if not isinstance(message, protocol.Join | protocol.Watch):
            return None
        code = normal_code(message.code)
        if code in self.rooms:
            return None
        if await self.guesses.wait(group) > 0:
            if not isinstance(message, protocol.Join) or message.token is None:
                return None
            owner = await self.cluster.live_owner(code)  # (no takeover for a guesser)
            if owner is not None and owner != self.node:
                return owner, code
            return None
        for _ in range(2):
            owner = await self.cluster.live_owner(code)
            if owner is not None and owner != self.node:
                return owner, code
            if await self._adopt(code):
                return None
        return None

    async def _adopt(self, code: str) -> bool:
        """Take table ``code`` over if no live node runs it; whether it runs here now."""
        pending = self._adopting.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._adopting[code] = future
        try:
            adopted = await self._take_over(code)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # (read: nobody else may be waiting)
            raise
        finally:
            del self._adopting[code]
        future.set_result(adopted)
        return adopted

    async def _moving(self, code: str) -> bool:
        """Whether table ``code`` is in play but runs on no node just now (between nodes)."""
        stored = await self.store.load(code)
        return stored is not None and _live(stored)

    async def _take_over(self, code: str) -> bool:
        assert self.cluster is not None
        if code in self.rooms:
            return True
        if self._draining:
            return False
        stored = await self.store.load(code)
        if stored is None or not _live(stored):
            return False
        if not await self.cluster.claim(code):
            return False
        stored = await self.store.load(code)  # as its last owner left it, now that it is ours
        if stored is None:
            await self.cluster.release(code)
            return False
        room = self.rooms[code] = self._restore(stored)
        await self.directory.claim_code(code)
        await room.resume()  # (before the relays open here: they hear an offer going on)
        self.cluster.announce_owner(code)
        self.metrics.takeovers.inc()
        log.warning("node %s: took over table %s", self.node, code)
        return True

    async def _watch_nodes(self) -> None:
        """Take over the tables of nodes that are gone; now and then, those nobody holds."""
        assert self.cluster is not None
        cluster = self.cluster
        next_scan = self.clock.now() + HEARTBEAT_SCAN_DELAY
        while True:
            await self.clock.sleep(HEARTBEAT)
            with contextlib.suppress(StoreError, *_CLUSTER_ERRORS):
                orphans = await cluster.orphans()
                self._adoption_order.shuffle(orphans)
                for code in orphans:
                    await self._adopt(code)
                # Not just after Redis came back: its nodes take their own tables first.
                settled = time.monotonic() - cluster.back_at > STORE_SCAN
                if self.clock.now() >= next_scan and cluster.reachable and settled:
                    next_scan = self.clock.now() + STORE_SCAN
                    codes = [
                        c for c in await self.store.live_codes(OVER_ROOM) if c not in self.rooms
                    ]
                    for code, owner in (await cluster.owners(codes)).items():
                        if owner is None:
                            await self._adopt(code)

    def _share_soon(self, room: Room) -> None:
        """``room`` changed how it is listed: tell the other nodes soon, not at the next beat.

        Changes within ``SHARE_GAP`` go out together, and only the tables that
        changed: on a busy node tables open and start many times a second, and
        going through every table held (most of them games that ended) each time
        took 5-7 ms of the loop at 1,100 tables.  The heartbeat goes through all
        of them once a second (moves, games started and ended).
        """
        if self.cluster is None:
            return
        self._touched.add(room.code)
        if self._sharing:
            return
        self._sharing = True

        async def share() -> None:
            try:
                await self.clock.sleep(SHARE_GAP)
                with contextlib.suppress(*_CLUSTER_ERRORS):
                    await self._share(self._touched)
            finally:
                self._sharing = False

        self._spawn(share())

    async def _on_heartbeat(self) -> None:
        """Every heartbeat: what this node shares (its figures, its public tables)."""
        await self._share(None)

    async def _share(self, codes: set[str] | None) -> None:
        """Share this node's figures and what changed in its list: of the tables ``codes``
        names (emptied as they are shared), or of every table (None)."""
        assert self.cluster is not None
        # One share at a time (the heartbeat's and a change's may meet): each is sent
        # against what the one before sent, and a late one would write older entries.
        async with self._share_lock:
            shared, whole = self._shared, self._share_whole
            if whole:  # nothing shared yet, or the last share failed: all of it
                shared, codes = {}, None
            # Both taken at once: a table opened while the status is being written
            # would otherwise be listed but not yet counted.
            status = self._local_status()
            if codes is None:
                self._touched.clear()
                listing = self._listing()
                gone = [code for code in shared if code not in listing]
            else:
                listing, gone = {}, []
                for code in codes:
                    room = self.rooms.get(code)
                    if room is not None and not room.private:
                        listing[code] = room.listing()
                    elif code in shared:
                        gone.append(code)
                codes.clear()
            status["node"] = self.node
            await self.cluster.put_status(status)
            # Only what changed since the last share: most tables are games that ended,
            # or had no move since (a room hands out the same entry until it changes).
            changed = {
                code: entry
                for code, entry in listing.items()
                if (old := shared.get(code)) is not entry and old != entry
            }
            self._share_whole = True  # (should this share fail, the next one is whole)
            kept = await self.directory.share_listing(self.node, changed, gone, whole)
            if not kept and not whole:  # the list was lost meanwhile: all of it again
                listing = self._listing()
                await self.directory.share_listing(self.node, listing, (), whole=True)
            elif codes is not None:
                for code in gone:
                    del shared[code]
                listing = shared | listing
            self._shared, self._share_whole = listing, False

    def _listing(self) -> dict[str, Listing]:
        """Every public table held here, as ``GET /tables`` lists it (by code)."""
        return {room.code: room.listing() for room in self.rooms.values() if not room.private}

    async def _on_reconnect(self) -> None:
        """Redis is back (and forgot everything): take this node's tables again."""
        assert self.cluster is not None
        self._share_whole = True  # its list too
        for code, room in list(self.rooms.items()):
            if await self.cluster.claim(code):
                await self.directory.claim_code(code)
                await room.share_again()
            else:
                self._lost(room)

    def _on_owner(self, code: str, node: str) -> None:
        """Table ``code`` runs on ``node`` now (no code: ``node`` may have missed messages,
        or this node if none is named)."""
        if not code:
            for relay in list(self.relays.values()):
                if node in ("", relay.owner):
                    self._open_at(relay, resume=True)
            return
        if node != self.node and code in self.rooms:
            self._spawn(self._check_owner(code))
        for relay in list(self.relays.values()):
            if relay.code == code and relay.owner != node:
                relay.owner = node
                self._open_at(relay, resume=True)

    async def _check_owner(self, code: str) -> None:
        assert self.cluster is not None
        room = self.rooms.get(code)
        if room is not None and await self.cluster.owner(code) not in (None, self.node):
            self._lost(room)

    def _lost(self, room: Room) -> None:
        """Another node holds this room's table now: stop running it here; the connections
        here are closed, and their clients reconnect (to the table where it runs now)."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            here = [c for c in room.connections() if not isinstance(c, RemoteClient)]
            room.stop()
            for connection in here:
                self._close(connection, 1012, "the table moved: connect again")
            log.warning("node %s: table %s is run by another node now", self.node, room.code)

    def _on_message(self, message: Message) -> None:
        """A message from another node (or from this one, to itself)."""
        kind = message["t"]
        if kind == "out":
            for relay_id in message["ids"]:
                relay = self.relays.get(relay_id)
                if relay is not None:
                    self._pass_on(relay, message["data"])
        elif kind in ("open", "msg", "gone"):
            key = (message["from"], message["id"])
            client = self.remote_clients.get(key)
            if client is None:
                if kind != "open":
                    return
                client = RemoteClient(
                    message["from"], message["id"], message["addr"], message.get("at")
                )
                self.remote_clients[key] = client
                client.task = asyncio.get_running_loop().create_task(self._serve_remote(client))
            client.inbox.put_nowait((kind, message.get("data", "")))
        elif kind == "close":
            relay = self.relays.get(message["id"])
            if relay is not None:
                self._spawn(_hang_up(relay.websocket, message["code"], message["reason"]))
        elif kind == "alive?":
            self._spawn(self._say_alive(message))
        elif kind == "alive!":
            answer = self._asked_alive.pop(message["q"], None)
            if answer is not None and not answer.done():
                answer.set_result(bool(message["ok"]))
        elif kind == "adopt":
            self._spawn(self._adopt_handed(message["code"]))

    async def _adopt_handed(self, code: str) -> None:
        with contextlib.suppress(StoreError, *_CLUSTER_ERRORS):
            await self._adopt(code)

    async def _serve_remote(self, client: RemoteClient) -> None:
        """A connection held by another node, at a table here: its messages, in order."""
        assert self.cluster is not None
        room: Room | None = None
        try:
            while True:
                kind, data = await client.inbox.get()
                if kind == "gone":
                    return
                try:
                    if kind == "open":  # (again, after a table moved: the seat is taken back)
                        if room is not None:
                            room.detach(client)
                        self.talk.opened(client)
                        room = await self._open(
                            client, data, client.address, self._receiver(client)
                        )
                        if room is None:
                            self._close(client, 1008, "refused")
                            return
                    elif room is not None:
                        await self._handle(client, room, data)
                except _BUSY_ERRORS as exc:
                    log.warning("node %s: a connection told busy: %s", self.node, exc)
                    self._busy(client)
        finally:
            self.talk.closed(client)
            if room is not None:
                room.detach(client)
            if self.remote_clients.get(client.key) is client:
                del self.remote_clients[client.key]

    async def _ask_alive(self, client: RemoteClient) -> bool:
        assert self.cluster is not None
        self._ids += 1
        question = self._ids
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._asked_alive[question] = answer
        self.cluster.send(
            client.node, {"t": "alive?", "from": self.node, "id": client.id, "q": question}
        )
        try:
            return await within(self.clock, 2 * LIVENESS_TIMEOUT, answer)
        except TimeoutError:
            return False
        finally:
            self._asked_alive.pop(question, None)

    async def _say_alive(self, message: Message) -> None:
        assert self.cluster is not None
        relay = self.relays.get(message["id"])
        alive = relay is not None and await self._alive(relay.websocket)
        self.cluster.send(message["from"], {"t": "alive!", "q": message["q"], "ok": alive})

    async def _relay(
        self,
        connection: ServerConnection,
        owner: str,
        code: str,
        first: str | bytes,
        group: str,
        quick_at: str | None = None,
    ) -> None:
        """A connection here to a table ``owner`` runs: pass everything on, both ways
        (``quick_at``: the quick-play table a seat was found at for it)."""
        assert self.cluster is not None
        self._ids += 1
        opening = first if isinstance(first, str) else first.decode(errors="replace")
        relay = Relay(self._ids, connection, code, owner, opening, group, quick_at=quick_at)
        self.relays[relay.id] = relay
        self._open_at(relay)
        try:
            async for data in self._messages(connection):
                text = data if isinstance(data, str) else data.decode(errors="replace")
                if is_act(text):
                    relay.last_act, relay.resent = text, False
                self.cluster.send(
                    relay.owner, {"t": "msg", "from": self.node, "id": relay.id, "data": text}
                )
        except ConnectionClosed:
            pass
        finally:
            del self.relays[relay.id]
            if relay.follower is not None:
                relay.follower.cancel()
            self.cluster.send(relay.owner, {"t": "gone", "from": self.node, "id": relay.id})

    def _open_at(self, relay: Relay, resume: bool = False) -> None:
        """(Re)open a relayed connection at its table's owner; its last move goes again."""
        assert self.cluster is not None
        relay.answered.clear()
        relay.resuming = resume
        self.cluster.send(
            relay.owner,
            {
                "t": "open",
                "from": self.node,
                "id": relay.id,
                "addr": relay.address,
                "data": relay.opened(),
                "at": relay.quick_at,
            },
        )
        if resume and relay.last_act is not None:
            relay.resent = True
            self.cluster.send(
                relay.owner,
                {"t": "msg", "from": self.node, "id": relay.id, "data": relay.last_act},
            )
        if relay.follower is not None:
            relay.follower.cancel()
        relay.follower = asyncio.get_running_loop().create_task(self._follow(relay))

    async def _follow(self, relay: Relay) -> None:
        """If the owner does not answer, look for the table again: if it moved (its node
        died), open at its new owner; a live owner that is only slow is waited for."""
        assert self.cluster is not None
        for _ in range(10):
            try:
                await within(self.clock, OWNER_ANSWER, relay.answered.wait())
                return
            except TimeoutError:
                pass
            try:
                if await self.cluster.alive(relay.owner) and relay.code not in self.rooms:
                    continue  # busy, not gone: an open sent twice would take a second seat
                found = await self._owner_for(relay.opened(), relay.address)
            except _BUSY_ERRORS:
                continue
            relay.owner = self.node if found is None else found[0]
            relay.follower = None
            self._open_at(relay, resume=relay.reopening is not None)
            return
        await _hang_up(relay.websocket, 1013, "the table cannot be reached: try again")

    def _pass_on(self, relay: Relay, data: str) -> None:
        """A frame from the owner to a relayed connection."""
        relay.answered.set()
        out, gap = relay.filter(data)
        if gap:
            self._open_at(relay, resume=True)  # the whole stream again, then on from there
        elif out is not None:
            self._put([relay.websocket], out)

    async def _drain(self, server: Any) -> None:
        """SIGTERM on a node: hand every table to the other nodes at once, then go."""
        assert self.cluster is not None
        self._draining = True
        rooms = list(self.rooms.items())
        for _, room in rooms:
            room.stop()
        with contextlib.suppress(StoreError):
            await self.store.flush()  # every move made here is kept before anyone takes over
        try:
            others = [n for n in await self.cluster.live_nodes() if n != self.node]
            for n, (code, _) in enumerate(rooms):
                del self.rooms[code]
                await self.cluster.release(code)
                if others:
                    self.cluster.send(others[n % len(others)], {"t": "adopt", "code": code})
            await self.cluster.leave()
        except _CLUSTER_ERRORS:
            log.warning("node %s: Redis is unreachable: its tables wait for their lease", self.node)
        log.warning(
            "node %s: stopping: %d tables handed to %d other nodes",
            self.node,
            len(rooms),
            len(others) if "others" in locals() else 0,
        )

    def listing(self) -> list[Listing]:
        """This server's public tables, as ``GET /tables`` shows them (every page at once)."""
        return [room.listing() for room in self.rooms.values() if not room.private]


def _page_number(query: str) -> int:
    """The ``page`` a query asks for (1 if none; 0 if it is not a whole number from 1)."""
    pages = parse_qs(query).get("page", ["1"])
    return int(pages[-1]) if pages[-1].isdigit() and len(pages[-1]) < 9 else 0


def _listing_rank(entry: Room | Listing) -> int:
    """Where a table (here, or another node's listing) comes in the list: seats to take
    first, then games on, then over."""
    if isinstance(entry, Room):
        state, open_seat = entry.state.value, any(not seat.taken for seat in entry.seats)
    else:
        state, open_seat = entry["state"], any(not seat["taken"] for seat in entry["seats"])
    if state == RoomPhase.WAITING.value:
        return 0 if open_seat else 1
    return 2 if state == RoomPhase.PLAYING.value else 3


def _cluster_errors() -> tuple[type[BaseException], ...]:
    try:
        return redis_errors()
    except ImportError:  # no cluster extra: no cluster either
        return ()


_CLUSTER_ERRORS = _cluster_errors()
"""What Redis raises when it cannot be reached."""
_BUSY_ERRORS: tuple[type[BaseException], ...] = (StoreError, *_CLUSTER_ERRORS)
"""The store or Redis cannot be reached: a client is told the server is busy."""


_PROBLEMS: dict[type, dict[str, str]] = {
    protocol.Act: {
        protocol.NOT_NOW: "the game is not being played",
        protocol.NOT_YOUR_TURN: "it is not your turn",
        protocol.STALE: "that move does not answer the turn being played: ignored",
        protocol.ILLEGAL: "the rules do not allow that move",
        protocol.OUT_OF_TIME: "your time for that move ran out: the away bot played it",
    },
    protocol.Again: {
        protocol.NOT_NOW: "another game can be offered once this one is over",
        protocol.TOO_MANY_TABLES: "another game cannot start now: this table's address has as "
        "many tables waiting or playing as it may; finish one first",
        protocol.SERVER_FULL: "another game cannot start now: this server has as many tables "
        "as it can hold",
    },
    protocol.Decline: {protocol.NOT_NOW: "no other game is on offer"},
    protocol.Leave: {
        protocol.NOT_HOST: "the host's seat cannot be left open: close the table instead",
    },
    protocol.ImBack: {protocol.NOT_NOW: "your seat is not away"},
}


def _live(stored: StoredRoom) -> bool:
    """Whether a kept table is one a server holds (not over, or over only lately)."""
    if stored.state is not RoomPhase.OVER:
        return True
    finished = stored.game.finished_at if stored.game is not None else None
    return finished is not None and finished >= datetime.now(UTC) - OVER_ROOM


def _welcome(room: Room, seat: int | None, token: str | None) -> protocol.Welcome:
    """``welcome`` in version 2's words (``Room.tell`` says it in the connection's own)."""
    code = room.code
    return protocol.Welcome(protocol.PROTOCOL_VERSION, code, seat, token, room.room_state(seat))


def _secret_seed() -> int:
    return secrets.randbits(63)


def seeded(seed: int) -> Callable[[], int]:
    """Seeds one after another from ``seed``: ``game_seed(seed, 0)``, ``game_seed(seed, 1)``…"""
    games = itertools.count()
    return lambda: game_seed(seed, next(games))


async def _hang_up(connection: ServerConnection, code: int, reason: str) -> None:
    """Close ``connection``, reading (and dropping) whatever it still sends meanwhile.

    The closing handshake ends with the client's close frame, which comes after
    everything it sent before (a flood, say): left unread, those stop the
    connection reading at all, and the close stalls until websockets' close
    timeout gives up on it.
    """
    closing = asyncio.ensure_future(connection.close(code, reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in connection:
            pass
    await closing
