"""The table server: rooms by code, connections in, the public stream out.

``TableServer`` listens for WebSocket connections (and answers plain HTTP
requests on the same port: ``plain_pages``; its figures are served
elsewhere, ``metrics_listener``).  It is the only authority: a client says
who it is (``create``, ``join`` with a code, ``watch``, or ``quick`` for any
quick-play table; from version 4 it proves its player key, ``key_proof``:
``openings``), then sends intents (``requests``), and every one is checked
— its shape, its size, its rate, that it comes from the seat it is for, on
that seat's turn, and that the rules allow it — before anything happens.
Here: its life (``run``), admitting connections, and sending.  On a cluster
its node's part is ``cluster_node``, and connections held by one node at a
table another runs are ``links``.
It speaks protocol versions 1 to 5: an older client hears what its version
has (``net.version1`` for version 1).

Everything a table needs to go on is in the server's store before anyone
hears of it, so ``load`` brings every table back after a restart.

A server is handed what it uses, built by one function, ``assembly.table_server``
(from a ``TableStore``, what lasts; a ``Directory``, what spans tables: codes,
the public list, counts per address; the ``RoomConfig`` its rooms run with,
the ``ServerLimits`` it enforces and a ``Clock``): its rooms (``rooms``), how
it reaches connections (``sending``), its openings, requests and pages, its
counts and, on a cluster, its node's part.  ``mantis serve`` (``serve_cli``)
calls it.

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
import itertools
import logging
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ... import __version__
from ...base.clock import Clock, within
from ...engine import game_seed
from ...store.tables_interface import RoomPhase, StoreError, TableStore
from ...table.names import capitals_key
from .. import protocol
from ..cluster.links import RemoteClient
from ..cluster.membership import Cluster
from ..cluster.node_messages import Gone, Open
from ..cluster.outages import BUSY_ERRORS, CLUSTER_ERRORS
from .background import Background
from .cluster_node import ClusterNode
from .directory import Directory, Listing
from .key_proofs import Receive
from .limits.addresses import ClientAddresses
from .limits.bot_share import BotShare
from .limits.server_limits import ServerLimits, SharedCounts
from .limits.table_counts import TableCounts
from .limits.talk_limits import TalkLimits
from .metrics import Metrics
from .openings import Openings
from .pages.plain_pages import PlainPages
from .placement import Placement
from .problems import Problem
from .quick_play import QuickElsewhere
from .requests import Requests
from .room.audience import Connection
from .room.phases import Over, Playing, Waiting
from .room.room import Room
from .rooms import Rooms
from .sending import Sender
from .sockets import SocketGate, gated, hang_up
from .token_bucket import TokenBucket

log = logging.getLogger("mantis.server")

#: Seconds a new connection has to say who it is.
HELLO_TIMEOUT = 10.0
#: Messages a second a connection may send, on average and in a burst.
RATE, BURST = 10.0, 30.0
#: Messages dropped for flooding before the connection is closed.
MAX_DROPPED = 100
#: A finished room nobody is connected to is dropped after this long (its record is
#: kept, and every player has it already); a waiting one after ``ServerLimits.idle_waiting``.
OVER_ROOM = timedelta(minutes=5)
#: Seconds between two looks for rooms to drop (and counts to keep alive).
SWEEP_EVERY = 30.0


@dataclass(eq=False)
class TableServer:
    """Every room on this server, and the connections to them (its parts: ``table_server``)."""

    store: TableStore
    directory: Directory
    rooms: Rooms
    """The rooms this process runs, by code."""
    clock: Clock
    limits: ServerLimits
    addresses: ClientAddresses
    """Who a connection is, for the limits (through the trusted proxies)."""
    sockets: SocketGate
    connections: set[ServerConnection]
    """The WebSocket connections this process holds."""
    connections_held: SharedCounts
    """Connections per address group, across a cluster."""
    sender: Sender
    openings: Openings
    requests: Requests
    pages: PlainPages
    talk: TalkLimits
    tables: TableCounts
    bots: BotShare
    metrics: Metrics
    background: Background
    placement: Placement
    hello_timeout: float = HELLO_TIMEOUT
    node: str = ""
    """This server's name in logs and metrics."""
    cluster: Cluster | None = None
    """This node's place among others sharing the store (None: one process)."""
    cluster_node: ClusterNode | None = None
    """This node's part in a cluster (None: the server is one process)."""

    # ------------------------------------------------------------------ lifecycle

    async def load(self) -> None:
        """Bring back every table kept in the store (call on the running loop).

        A node of a cluster brings back none: tables whose node is gone are
        taken over as they are found (``watch_nodes``).
        """
        if self.cluster_node is not None:
            return
        for stored in await self.store.load_live(OVER_ROOM):
            await self.directory.reserve_code(stored.code)
            room = self.rooms[stored.code] = self.rooms.restore(stored)
            await room.resume()  # a quick-play table offered again; bots fill it in time

    def restore(self, stored: Any) -> Room:
        """A room for a kept table (a ``StoredRoom``), its game going on from where it was."""
        return self.rooms.restore(stored)

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
                process_request=self.pages.process_request,
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
                node = self.cluster_node
                if node is not None:
                    watcher = asyncio.get_running_loop().create_task(node.watch_nodes())
                await stop.wait()
                if node is not None:
                    if watcher is not None:
                        watcher.cancel()
                    await node.drain()
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
            self.background.cancel()

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
            if room.phase_name is RoomPhase.PLAYING or room.connections():
                continue
            if room.phase_name is RoomPhase.WAITING:
                idle = self.limits.idle_waiting
            else:
                idle = OVER_ROOM.total_seconds()
            if room.idle_since <= now - idle:
                del self.rooms[code]
                room.stop()
                with contextlib.suppress(StoreError, *CLUSTER_ERRORS):  # (said by the sweep)
                    if room.phase_name is RoomPhase.WAITING:
                        if room.rules.quick:
                            await self.directory.quick_free(code, len(room.seats), 0)
                        await self.store.drop_waiting(room.table_id)
                    await self.directory.release_code(code)
                    await self.placement.release(code)

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
        if len(self.connections) >= self.limits.max_connections:
            self.sender.error(
                connection, protocol.SERVER_FULL, "the server is full: try again later"
            )
            await hang_up(connection, 1013, "server full")
            return
        self.connections.add(connection)  # (taken as it is checked: nothing awaited between)
        group = self.group_of(connection)
        limit = self.limits.connections_per_address
        try:
            counted = await self.connections_held.take(group, limit)
        except CLUSTER_ERRORS as exc:  # (the directory is Redis, and Redis is away)
            self.connections.discard(connection)
            log.warning("node %s: a connection told busy: %s", self.node, exc)
            self.sender.busy(connection)
            await hang_up(connection, 1013, "busy")
            return
        except BaseException:
            self.connections.discard(connection)
            raise
        if not counted:
            self.connections.discard(connection)
            self.sender.error(
                connection,
                protocol.TOO_MANY_CONNECTIONS,
                f"your address holds {limit} connections to this server already: close one first",
            )
            await hang_up(connection, 1008, "refused")
            return
        room: Room | None = None
        try:
            try:
                first = await within(self.clock, self.hello_timeout, connection.recv())
            except TimeoutError:
                await hang_up(connection, 1008, "say create, join or watch")
                return
            if self.cluster_node is not None:
                try:
                    elsewhere = await self.cluster_node.owner_for(first, group)
                except BUSY_ERRORS as exc:
                    log.warning("node %s: a connection told busy: %s", self.node, exc)
                    self.sender.busy(connection)
                    await hang_up(connection, 1013, "busy")
                    return
                if elsewhere is not None:
                    await self.cluster_node.links.relay(connection, *elsewhere, first, group)
                    return
            try:
                opened = await self.openings.open(
                    connection, first, group, self._receiver(connection)
                )
                if isinstance(opened, Problem):
                    self.sender.refuse(connection, opened)
                else:
                    room = opened
            except BUSY_ERRORS as exc:
                log.warning("node %s: a connection told busy: %s", self.node, exc)
                self.sender.busy(connection)
            except QuickElsewhere as there:  # a quick-play seat at another node's table
                links = cast(ClusterNode, self.cluster_node).links
                await links.relay(connection, there.owner, there.code, first, group, there.code)
                return
            if room is None:
                await hang_up(connection, 1008, "refused")
                return
            self.talk.opened(connection)
            async for data in self.messages(connection):
                try:
                    await self.requests.handle(connection, room, data)
                except BUSY_ERRORS:
                    self.sender.busy(connection)
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

    async def messages(self, connection: ServerConnection) -> AsyncIterator[str | bytes]:
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
                self.sender.error(connection, protocol.SLOW_DOWN, "too many messages: slow down")
            if dropped > MAX_DROPPED:
                await hang_up(connection, 1008, "flooding")
                return

    def _receiver(self, connection: Connection) -> Receive:
        """How to read the connection's next message while it opens (a proof, within the
        opening's time)."""
        # (A WebSocket's own, or a relayed connection's inbox.)
        receive = cast(ServerConnection | RemoteClient, connection).recv
        return lambda: within(self.clock, self.hello_timeout, receive())

    async def serve_remote(self, client: RemoteClient) -> None:
        """A connection held by another node, at a table here: its messages, in order."""
        room: Room | None = None
        try:
            while True:
                said = await client.inbox.get()
                if isinstance(said, Gone):
                    return
                try:
                    if isinstance(said, Open):  # (again, after a table moved: seat taken back)
                        if room is not None:
                            room.detach(client)
                        self.talk.opened(client)
                        receive = self._receiver(client)
                        opened = await self.openings.open(
                            client, said.data, client.address, receive
                        )
                        if not isinstance(opened, Room):
                            if opened is not None:
                                self.sender.refuse(client, opened)
                            self.sender.close(client, 1008, "refused")
                            return
                        room = opened
                    elif room is not None:
                        await self.requests.handle(client, room, said.data)
                except BUSY_ERRORS as exc:
                    log.warning("node %s: a connection told busy: %s", self.node, exc)
                    self.sender.busy(client)
        finally:
            self.talk.closed(client)
            if room is not None:
                room.detach(client)

    def lost(self, room: Room) -> None:
        """Another node holds this room's table now: stop running it here."""
        self.rooms.lost(room)

    def spawn(self, coroutine: Any) -> None:
        """Run ``coroutine`` in the background (cancelled when the server stops)."""
        self.background.spawn(coroutine)

    def put(self, websockets: Any, data: str) -> None:
        """Put a frame on WebSockets of this node (dropping those that stopped reading)."""
        self.sender.put(websockets, data)

    async def alive(self, connection: Connection) -> bool:
        """Whether a connection still answers (a ping, within a short time)."""
        return await self.sender.alive(connection)

    # ------------------------------------------------------------------ figures

    def counts(self) -> dict[str, Any]:
        # Counted by phase class, then named: a node counts its rooms several times a
        # second, and a room's state read as an enum's value costs more.
        phases = Counter(type(room.phase) for room in self.rooms.values())
        tables = {"waiting": phases[Waiting], "playing": phases[Playing], "over": phases[Over]}
        return {"tables": tables, "connections": len(self.connections)}

    def local_status(self) -> dict[str, Any]:
        """This node's own figures."""
        counts = self.counts()
        return {
            "version": __version__,
            "protocol": protocol.PROTOCOL_VERSION,
            "tables": len(self.rooms),
            "playing": counts["tables"]["playing"],
            "connections": counts["connections"],
        }

    async def status(self) -> dict[str, Any]:
        """``GET /status``: this server's figures, or on a cluster every live node's added up."""
        status = self.local_status()
        if self.cluster_node is None:
            return status
        others = await self.cluster_node.statuses()
        for other in others:
            for key in ("tables", "playing", "connections"):
                status[key] += other.get(key, 0)
        status["nodes"] = 1 + len(others)
        return status

    async def listed_elsewhere(self) -> list[Listing]:
        """The public tables other nodes run (none if Redis is away: this node's at least)."""
        try:
            return await self.directory.listing(but=self.node)
        except CLUSTER_ERRORS:
            return []


def secret_seed() -> int:
    return secrets.randbits(63)


def seeded(seed: int) -> Callable[[], int]:
    """Seeds one after another from ``seed``: ``game_seed(seed, 0)``, ``game_seed(seed, 1)``…"""
    games = itertools.count()
    return lambda: game_seed(seed, next(games))
