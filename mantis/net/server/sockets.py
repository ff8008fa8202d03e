"""Sockets this process holds: at most so many in all, and so many from one address.

A socket is held from the moment it is accepted: before its WebSocket
handshake, while a plain HTTP request is answered, and as a connection.
``SocketGate`` counts them as they come and go, and a socket over the
limit is closed at once, before it costs anything more.  The total keeps
the process within its open-file limit (so ``accept`` never fails); the
count per address group keeps one party from holding every socket with
handshakes it never finishes.  Sockets from a trusted proxy are counted in
the total only: whom they are for is known once their request is read,
and the limit per address is applied then, to connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import Counter
from typing import Any

from websockets.exceptions import ConnectionClosed

from .limits.addresses import ClientAddresses, address_group, parse_address
from .pages.plain_http import HttpConnection


class SocketGate:
    """Counts the sockets open on this process, in all and by the peer's address group."""

    def __init__(
        self,
        limit: int,
        per_address: int,
        addresses: ClientAddresses,
        send_buffer: int = 0,
    ) -> None:
        self.limit = limit
        self.per_address = per_address
        self.addresses = addresses
        self.send_buffer = send_buffer
        self.open = 0
        self.by_group: Counter[str] = Counter()
        self.refused = 0
        """Sockets closed at once for being over a limit (for ``/status`` and benchmarks)."""

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """Count a new socket; the group it counts in ("" for a proxy), or None: close it."""
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if peer else ""
        if self.addresses.is_trusted(parse_address(host)):
            group = ""
        else:
            group = address_group(host)
            if self.by_group[group] >= self.per_address:
                self.refused += 1
                return None
        if self.open >= self.limit:
            self.refused += 1
            return None
        self.open += 1
        if group:
            self.by_group[group] += 1
        if self.send_buffer:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
        return group

    def release(self, group: str) -> None:
        """A socket ``admit`` counted in ``group`` is closed."""
        self.open -= 1
        if group:
            self.by_group[group] -= 1
            if self.by_group[group] <= 0:
                del self.by_group[group]


class GatedConnection(HttpConnection):
    """A server connection that passes its ``gate`` first (closed at once if over a limit)."""

    gate: SocketGate | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._counted_in: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if self.gate is None:
            return
        self._counted_in = self.gate.admit(transport)
        if self._counted_in is None:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.gate is not None and self._counted_in is not None:
            self.gate.release(self._counted_in)
            self._counted_in = None
        super().connection_lost(exc)


def gated(gate: SocketGate) -> type[GatedConnection]:
    """The connection class a server hands websockets: each of its sockets passes ``gate``."""
    return type("ServerSocket", (GatedConnection,), {"gate": gate})


async def hang_up(connection: Any, code: int, reason: str) -> None:
    """Close a WebSocket, reading (and dropping) whatever it still sends meanwhile.

    The closing handshake ends with the client's close frame, which comes after
    everything it sent before (a flood, say): left unread, those stop the
    connection reading at all, and the close stalls until websockets' close
    timeout gives up on it.  Only for a connection no other task is reading (a
    relayed one is read by its relay to the end: it is closed with ``close``).
    """
    closing = asyncio.ensure_future(connection.close(code, reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in connection:
            pass
    await closing
