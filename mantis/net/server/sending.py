"""How a server reaches its connections: sending without waiting, once for many, dropping
who stopped reading; refusing, asking whether one still answers, and closing one.

A room hands a frame to every connection at once (``frame``: encoded once);
a connection held by another node of a cluster gets it through that node
(``remote``: the node link, once the server is a node of a cluster).  A
WebSocket with more than ``max_buffered`` bytes still waiting to be written
is not reading what it is sent: it is dropped at once rather than left to
hold memory.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from typing import Any, cast

from websockets.asyncio.server import ServerConnection, broadcast
from websockets.exceptions import ConnectionClosed

from ...base.clock import Clock, within
from .. import protocol
from ..cluster.links import Links, RemoteClient
from .problems import BUSY, Problem
from .room.audience import Connection

#: Seconds a seat's old connection has to answer a ping before a reconnect replaces it.
LIVENESS_TIMEOUT = 2.0


class Sender:
    """Puts frames on this server's connections, refuses them, pings and closes them."""

    def __init__(
        self,
        max_buffered: int,
        refused: Callable[[str], None],
        clock: Clock,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        """``refused``: told each error's code (a metric); ``spawn``: runs a close in the
        background."""
        self.max_buffered = max_buffered
        self.refused = refused
        self.clock = clock
        self.spawn = spawn
        self.remote: Links | None = None
        """How connections another node holds are reached (None: the server is one process)."""
        self.dropped_slow = 0
        """Connections dropped for not reading what they were sent."""

    def send(self, connection: Connection, message: protocol.ServerMessage) -> None:
        """Send without waiting (a slow client never holds up a table)."""
        self.frame((connection,), protocol.encode(message).decode())

    def frame(self, connections: Iterable[Connection], data: str) -> None:
        """Put ``data`` on each connection without waiting; drop any that stopped reading.

        One frame for all of them (encoded once).  Connections held by other
        nodes get it through the cluster (their node puts it on them).
        """
        if self.remote is None:
            self.put(cast(Iterable[ServerConnection], connections), data)
            return
        here: list[ServerConnection] = []
        away: dict[str, list[int]] = {}
        for connection in connections:
            if isinstance(connection, RemoteClient):
                away.setdefault(connection.node, []).append(connection.id)
            else:
                here.append(cast(ServerConnection, connection))
        if here:
            self.put(here, data)
        for node, ids in away.items():
            self.remote.send_out(node, ids, data)

    def put(self, websockets: Iterable[ServerConnection], data: str) -> None:
        """Put ``data`` on WebSockets of this node, dropping those that stopped reading."""
        reading = []
        for websocket in websockets:
            transport = websocket.transport
            if transport.get_write_buffer_size() > self.max_buffered:
                if not transport.is_closing():
                    self.dropped_slow += 1
                    transport.abort()
                continue
            reading.append(websocket)
        broadcast(reading, data)

    def refuse(self, connection: Connection, problem: Problem) -> None:
        """Refuse what ``connection`` asked: an ``error`` (counted, by its code)."""
        self.refused(problem.code)
        self.send(connection, problem.error())

    def error(self, connection: Connection, code: str, message: str) -> None:
        """Refuse what ``connection`` asked, with this code and line."""
        self.refuse(connection, Problem(code, message))

    def busy(self, connection: Connection) -> None:
        """The store or Redis is out of reach: ``connection`` is told to try again."""
        self.refuse(connection, BUSY)

    async def alive(self, connection: Connection) -> bool:
        """Whether a connection still answers (a ping, within ``LIVENESS_TIMEOUT``)."""
        if isinstance(connection, RemoteClient):
            assert self.remote is not None
            return await self.remote.ask_alive(connection)
        try:
            pong = await cast(ServerConnection, connection).ping()
            await within(self.clock, LIVENESS_TIMEOUT, pong)
        except (TimeoutError, ConnectionClosed):
            return False
        return True

    def close(self, connection: Connection, code: int, reason: str) -> None:
        """Close a connection (here, or through the node that holds it)."""
        if isinstance(connection, RemoteClient):
            assert self.remote is not None
            self.remote.close_remote(connection, code, reason)
        else:
            self.spawn(cast(ServerConnection, connection).close(code, reason))
