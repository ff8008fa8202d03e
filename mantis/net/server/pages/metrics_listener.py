"""``GET /metrics`` on a listener of its own, only where the operator says.

A server's figures name its node and its internal address and count what it
refuses: nothing for the players' port.  ``mantis serve --metrics
127.0.0.1:9100`` serves them on that address only (a loopback address, or
one the operator's network keeps to the scraper); without it there are none.
The listener answers one plain request per connection: ``GET`` (or
``HEAD``) ``/metrics``, anything else 404, a request that is too big or too
slow closed unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

#: The largest request head read (bytes), and how long one may take to arrive.
MAX_HEAD = 8192
HEAD_TIMEOUT = 5.0


class MetricsError(Exception):
    """The metrics cannot be served where asked; the message is one line."""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6) as a host and a port; ``ValueError`` if not."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT (say 127.0.0.1:9100)")
    return host, int(port)


class MetricsListener:
    """Serves ``figures()`` (a body and its content type) at ``/metrics`` on one address."""

    def __init__(self, figures: Callable[[], tuple[bytes, str]]) -> None:
        self.figures = figures
        self._server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port``; the port bound (``port`` 0: any free one)."""
        self._server = await asyncio.start_server(self._answer, host, port, limit=MAX_HEAD)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), HEAD_TIMEOUT)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError):
            writer.close()
            return
        method, _, rest = head.split(b"\r\n", 1)[0].decode("latin-1").partition(" ")
        path = rest.split(" ", 1)[0].split("?", 1)[0]
        if method not in ("GET", "HEAD"):
            status, body, kind = "405 Method Not Allowed", b"Use GET.\n", "text/plain"
        elif path != "/metrics":
            status, body, kind = "404 Not Found", b"Not found: try /metrics\n", "text/plain"
        else:
            body, kind = self.figures()
            status = "200 OK"
        lines = [
            f"HTTP/1.1 {status}",
            f"Content-Type: {kind}",
            f"Content-Length: {len(body)}",
            "Connection: close",
        ]
        writer.write(
            ("\r\n".join(lines) + "\r\n\r\n").encode() + (b"" if method == "HEAD" else body)
        )
        with contextlib.suppress(OSError):
            await writer.drain()
        writer.close()
