"""A refusal: the error code a client reads, the line its person is shown, and (when the
server knows it) after how long asking again may be answered otherwise.

Every part of the server that refuses returns one (an opening refused, a
name not held, a key not proved, a request at a table not allowed); whoever
holds the connection tells it (``Sender.refuse``).  A part of a room returns
the error code alone, and the request that asked says the line for each.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import protocol


@dataclass(frozen=True, slots=True)
class Problem:
    """Why something asked is refused."""

    code: str
    text: str
    retry_after: float | None = None

    def error(self) -> protocol.Error:
        """The ``error`` that tells it."""
        return protocol.Error(self.code, self.text, self.retry_after)


BUSY = Problem(protocol.BUSY, "the server is busy: try again in a moment")
"""The store or Redis is out of reach: ask again in a moment."""
