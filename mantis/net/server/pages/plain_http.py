"""Plain HTTP beside the WebSocket upgrade: one request per connection, answered cleanly.

The table server answers a few plain ``GET`` requests (``/status``,
``/tables``) on its WebSocket port.  The websockets library reads whatever
follows a request's header block as WebSocket frames: a second request
pipelined in the same packet (or a request body) then fails the connection
before the first is answered, and the library logs a traceback for each.
``HttpConnection`` hands the library one request's head at a time: what
follows waits until the upgrade is done (a WebSocket client sends nothing
before it, RFC 6455 §4.1) and is dropped if the request was plain HTTP,
which is answered with ``Connection: close``.  ``respond`` answers ``HEAD``
with the headers ``GET`` would have, and no body.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response
from websockets.protocol import CONNECTING, OPEN

#: The end of an HTTP request's header block.
_HEAD_END = b"\r\n\r\n"
#: Methods the plain pages answer; anything else gets 405.
METHODS = ("GET", "HEAD")


class HttpConnection(ServerConnection):
    """A server connection that gives the WebSocket library one request head, no more."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tail = b""
        """The last bytes of the head so far (a header end may straddle two packets)."""
        self._head_done = False
        self._held = bytearray()

    def data_received(self, data: bytes) -> None:
        if self._head_done:
            if self.protocol.state is CONNECTING:
                # Past the head, before the answer: held (a WebSocket client sends
                # nothing yet; a plain request's body or a pipelined one is dropped).
                if len(self._held) < 65536:
                    self._held += data
                return
            super().data_received(data)
            return
        seen = self._tail + data
        end = seen.find(_HEAD_END)
        if end < 0:
            self._tail = seen[-(len(_HEAD_END) - 1) :]
            super().data_received(data)
            return
        cut = end + len(_HEAD_END) - len(self._tail)
        self._head_done = True
        self._held += data[cut:]
        super().data_received(data[:cut])

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        await super().handshake(*args, **kwargs)
        held, self._held = bytes(self._held), bytearray()
        if held and self.protocol.state is OPEN:
            super().data_received(held)


def respond(
    request: Request,
    status: HTTPStatus,
    body: bytes,
    content_type: str,
    extra: list[tuple[str, str]] | None = None,
) -> Response:
    """``body`` for ``GET``; the same headers, no body, for ``HEAD``; then the connection closes.

    ``extra``: more headers to send with it.
    """
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            *(extra or []),
        ]
    )
    if request.method not in METHODS:
        allowed = b"Use GET or HEAD.\n"
        headers = Headers(
            [
                ("Allow", ", ".join(METHODS)),
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(allowed))),
                ("Connection", "close"),
            ]
        )
        status, body = HTTPStatus.METHOD_NOT_ALLOWED, allowed
    return Response(status.value, status.phrase, headers, b"" if request.method == "HEAD" else body)
