"""This node's part in a cluster: which tables it runs, taking others over, sharing its list.

A table runs on one node, its owner (``cluster``: a lease in Redis).  A
connection that reaches another node is relayed to the owner (``links``).
``ClusterNode`` is where a node decides where a table runs: a new table's
code's lease is taken here; a table whose node is gone is taken over by the first
node to need it (a connection for it, a quick-play seat at it) or to find
it (every heartbeat, the dead nodes' tables; now and then, the store's
tables nobody holds); a stopping node hands its tables to the others
(``drain``).  It shares this node's figures and public tables with the
others (each heartbeat, and soon after a change), and sends every message
from another node (``node_messages``) to its handler: a ``match`` over
every kind, which mypy checks is whole (a kind left out fails it).

It is handed the cluster, the store, the directory, a clock and the guess
limiter (a guesser is never the cause of a takeover), and serves once it
``join``s its server (a ``NodeGateway``: the server holds its node, and the
node serves the server's rooms).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, assert_never

from ...base.clock import Clock
from ...store.tables_interface import RoomPhase, StoredRoom, StoreError, TableStore
from .. import protocol
from ..cluster.links import Gateway, Links
from ..cluster.membership import HEARTBEAT, Cluster
from ..cluster.node_messages import (
    Adopt,
    Alive,
    AnyNodeMessage,
    Close,
    FromClient,
    Gone,
    IsAlive,
    Open,
    ToClients,
)
from ..cluster.outages import CLUSTER_ERRORS
from ..protocol.codes import normal_code
from .directory import Directory, Listing
from .limits.server_limits import GuessLimiter
from .room.room import Room
from .rooms import Rooms

log = logging.getLogger("mantis.server")


class NodeGateway(Gateway, Protocol):
    """What this node's part in a cluster asks of its server (the node link's, and more)."""

    rooms: Rooms
    """The rooms this node runs, by code."""

    def restore(self, stored: StoredRoom) -> Room:
        """A room for a table kept in the store, going on from there."""

    def lost(self, room: Room) -> None:
        """Another node runs ``room``'s table now: stop running it here."""

    def local_status(self) -> dict[str, Any]:
        """This node's figures (``GET /status``, on its own)."""


#: Seconds between two looks in the store for tables no node holds (after Redis lost them).
STORE_SCAN = 10.0
#: Seconds a node gathers changes to its public list before telling the others.
SHARE_GAP = 0.25
#: Seconds after a node starts before its first look in the store.
HEARTBEAT_SCAN_DELAY = 2.0


class ClusterNode:
    """Where this node's tables run, and what it tells the other nodes."""

    def __init__(
        self,
        cluster: Cluster,
        store: TableStore,
        directory: Directory,
        clock: Clock,
        guesses: GuessLimiter,
        *,
        over_room: timedelta,
        liveness: float,
        took_over: Callable[[], None] = lambda: None,
    ) -> None:
        """``over_room``: how long a finished table is still held; ``liveness``: seconds a
        ping has to be answered; ``took_over``: told of every table taken over (a metric).
        It serves once it ``join``s its server."""
        self.cluster = cluster
        self.node = cluster.node
        self.store = store
        self.directory = directory
        self.clock = clock
        self.guesses = guesses
        self.over_room = over_room
        self.liveness = liveness
        self.took_over = took_over
        # The order this node tries a dead node's tables in: its own generator, seeded by
        # its name, so nodes differ (they share the tables out) and each is reproducible.
        self._adoption_order = random.Random(self.node)
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self._draining = False
        self._sharing = False
        self._shared: dict[str, Listing] = {}
        """The public tables this node last shared with the others (by code)."""
        self._touched: set[str] = set()
        """Tables changed since the last share (``share_soon``), by code."""
        self._share_whole = True
        """Whether the next share is of the whole list (the first, or one after a failure)."""
        self._share_lock = asyncio.Lock()

    def join(self, gateway: NodeGateway) -> Links:
        """Serve as ``gateway``'s node (its server, made once the node is: the server holds
        its node, and the node serves the server's rooms): from now on the messages from
        the other nodes are handled.  The link between nodes it runs (``Links``)."""
        self.gateway = gateway
        self.rooms = gateway.rooms
        links = self.links = Links(
            self.cluster, gateway, self.clock, whereabouts=self.owner_for, liveness=self.liveness
        )
        cluster = self.cluster
        cluster.on_message = self.on_message
        cluster.on_owner = self.on_owner
        cluster.on_heartbeat = self.on_heartbeat
        cluster.on_reconnect = self.on_reconnect
        return links

    def on_message(self, message: AnyNodeMessage) -> None:
        """A message from another node (or from this one, to itself), to its handler (every
        kind ``AnyNodeMessage`` has: one left out fails mypy)."""
        links = self.links
        match message:
            case ToClients():
                links.to_clients(message)
            case Open() | FromClient() | Gone():
                links.from_node(message)  # (a remote client's inbox, in order)
            case Close():
                links.close(message)
            case IsAlive():
                links.is_alive(message)
            case Alive():
                links.alive(message)
            case Adopt():
                self._adopt_handed(message)
            case _:
                assert_never(message)

    # ------------------------------------------------------------------ where tables run

    async def lease(self, code: str) -> None:
        await self.cluster.lease(code)

    async def release(self, code: str) -> None:
        await self.cluster.release(code)

    async def owner_for(self, data: str | bytes, group: str) -> tuple[str, str] | None:
        """(the node, the code) to relay a new connection to; None: it is handled here.

        A table whose owner is gone is taken over on the way (``adopt``).  An
        address group that guessed too often is refused here (by the opening),
        but for a reclaim with a token, which its table's owner judges.
        """
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
            if await self.adopt(code):
                return None
        return None

    async def running_elsewhere(self, code: str) -> str | None:
        """The live node (not this one) that runs table ``code``; None if none does — then
        it is taken over here if it is still to be played."""
        owner = await self.cluster.live_owner(code)
        if owner is not None and owner != self.node:
            return owner
        await self.adopt(code)
        return None

    async def moving(self, code: str) -> bool:
        """Whether table ``code`` is in play but runs on no node just now (between nodes)."""
        stored = await self.store.load(code)
        return stored is not None and self._live(stored)

    def _live(self, stored: StoredRoom) -> bool:
        """Whether a kept table is one a node holds (not over, or over only lately)."""
        if stored.state is not RoomPhase.OVER:
            return True
        finished = stored.game.finished_at if stored.game is not None else None
        now = datetime.fromtimestamp(self.clock.time(), UTC)
        return finished is not None and finished >= now - self.over_room

    async def adopt(self, code: str) -> bool:
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

    async def _take_over(self, code: str) -> bool:
        if code in self.rooms:
            return True
        if self._draining:
            return False
        stored = await self.store.load(code)
        if stored is None or not self._live(stored):
            return False
        if not await self.cluster.lease(code):
            return False
        stored = await self.store.load(code)  # as its last owner left it, now that it is ours
        if stored is None:
            await self.cluster.release(code)
            return False
        room = self.rooms[code] = self.gateway.restore(stored)
        await self.directory.reserve_code(code)
        await room.resume()  # (before the relays open here: they hear an offer going on)
        self.cluster.announce_owner(code)
        self.took_over()
        log.warning("node %s: took over table %s", self.node, code)
        return True

    def _adopt_handed(self, message: Adopt) -> None:
        async def adopt() -> None:
            with contextlib.suppress(StoreError, *CLUSTER_ERRORS):
                await self.adopt(message.code)

        self.gateway.spawn(adopt())

    async def watch_nodes(self) -> None:
        """Take over the tables of nodes that are gone; now and then, those nobody holds."""
        cluster = self.cluster
        next_scan = self.clock.now() + HEARTBEAT_SCAN_DELAY
        while True:
            await self.clock.sleep(HEARTBEAT)
            with contextlib.suppress(StoreError, *CLUSTER_ERRORS):
                orphans = await cluster.orphans()
                self._adoption_order.shuffle(orphans)
                for code in orphans:
                    await self.adopt(code)
                # Not just after Redis came back: its nodes take their own tables first.
                if self.clock.now() >= next_scan and cluster.settled(STORE_SCAN):
                    next_scan = self.clock.now() + STORE_SCAN
                    live = await self.store.live_codes(self.over_room)
                    codes = [c for c in live if c not in self.rooms]
                    for code, owner in (await cluster.owners(codes)).items():
                        if owner is None:
                            await self.adopt(code)

    def on_owner(self, code: str, node: str) -> None:
        """Table ``code`` runs on ``node`` now (no code: ``node`` may have missed messages,
        or this node if none is named)."""
        if code and node != self.node and code in self.rooms:
            self.gateway.spawn(self._check_owner(code))
        self.links.moved(code, node)

    async def _check_owner(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is not None and await self.cluster.owner(code) not in (None, self.node):
            self.gateway.lost(room)

    async def on_reconnect(self) -> None:
        """Redis is back (and forgot everything): take this node's tables again."""
        self._share_whole = True  # its list too
        for code, room in list(self.rooms.items()):
            if await self.cluster.lease(code):
                await self.directory.reserve_code(code)
                await room.share_again()
            else:
                self.gateway.lost(room)

    async def drain(self) -> None:
        """SIGTERM on a node: hand every table to the other nodes at once, then go."""
        self._draining = True
        rooms = list(self.rooms.items())
        for _, room in rooms:
            room.stop()
        with contextlib.suppress(StoreError):
            await self.store.flush()  # every move made here is kept before anyone takes over
        others: list[str] = []
        try:
            others = [n for n in await self.cluster.live_nodes() if n != self.node]
            for n, (code, _) in enumerate(rooms):
                del self.rooms[code]
                await self.cluster.release(code)
                if others:
                    self.cluster.send(others[n % len(others)], Adopt(code=code))
            await self.cluster.leave()
        except CLUSTER_ERRORS:
            log.warning("node %s: Redis is unreachable: its tables wait for their lease", self.node)
        log.warning(
            "node %s: stopping: %d tables handed to %d other nodes",
            self.node,
            len(rooms),
            len(others),
        )

    # ------------------------------------------------------------------ sharing

    def share_soon(self, room: Room) -> None:
        """``room`` changed how it is listed: tell the other nodes soon, not at the next beat.

        Changes within ``SHARE_GAP`` go out together, and only the tables that
        changed: on a busy node tables open and start many times a second, and
        going through every table held (most of them games that ended) each time
        took 5-7 ms of the loop at 1,100 tables.  The heartbeat goes through all
        of them once a second (moves, games started and ended).
        """
        self._touched.add(room.code)
        if self._sharing:
            return
        self._sharing = True

        async def share() -> None:
            try:
                await self.clock.sleep(SHARE_GAP)
                with contextlib.suppress(*CLUSTER_ERRORS):
                    await self._share(self._touched)
            finally:
                self._sharing = False

        self.gateway.spawn(share())

    async def on_heartbeat(self) -> None:
        """Every heartbeat: what this node shares (its figures, its public tables)."""
        await self._share(None)

    async def _share(self, codes: set[str] | None) -> None:
        """Share this node's figures and what changed in its list: of the tables ``codes``
        names (emptied as they are shared), or of every table (None)."""
        # One share at a time (the heartbeat's and a change's may meet): each is sent
        # against what the one before sent, and a late one would write older entries.
        async with self._share_lock:
            shared, whole = self._shared, self._share_whole
            if whole:  # nothing shared yet, or the last share failed: all of it
                shared, codes = {}, None
            # Both taken at once: a table opened while the status is being written
            # would otherwise be listed but not yet counted.
            status = self.gateway.local_status()
            if codes is None:
                self._touched.clear()
                listing = self._listing()
                gone = [code for code in shared if code not in listing]
            else:
                listing, gone = {}, []
                for code in codes:
                    room = self.rooms.get(code)
                    if room is not None and not room.rules.private:
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
        return {room.code: room.listing() for room in self.rooms.values() if not room.rules.private}

    async def statuses(self) -> list[dict[str, Any]]:
        """The other live nodes' figures (none if Redis is away)."""
        try:
            return [s for s in await self.cluster.statuses() if s.get("node") != self.node]
        except CLUSTER_ERRORS:
            return []
