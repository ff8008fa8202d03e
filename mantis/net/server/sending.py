"""How a server sends: without waiting, once for many, dropping who stopped reading.

A room hands a frame to every connection at once (``frame``: encoded once);
a connection held by another node of a cluster gets it through that node
(``away``, set by the node link).  A WebSocket with more than
``max_buffered`` bytes still waiting to be written is not reading what it
is sent: it is dropped at once rather than left to hold memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from websockets.asyncio.server import ServerConnection, broadcast

from .. import protocol
from ..cluster.links import RemoteClient
from .room.audience import Connection


class Sender:
    """Puts frames on this server's connections, and refuses with ``error``."""

    def __init__(self, max_buffered: int, refused: Callable[[str], None]) -> None:
        """``refused``: told each error's code (a metric)."""
        self.max_buffered = max_buffered
        self.refused = refused
        self.away: Callable[[str, list[int], str], None] | None = None
        """How a frame reaches connections another node holds: (node, their ids, frame)."""
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
        if self.away is None:
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
            self.away(node, ids, data)

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

    def error(
        self,
        connection: Connection,
        code: str,
        message: str,
        retry_after: float | None = None,
    ) -> None:
        """Refuse what ``connection`` asked: an ``error`` (counted, by its code)."""
        self.refused(code)
        self.send(connection, protocol.Error(code, message, retry_after))

    def busy(self, connection: Connection) -> None:
        """The store or Redis is out of reach: ``connection`` is told to try again."""
        self.error(connection, protocol.BUSY, "the server is busy: try again in a moment")
