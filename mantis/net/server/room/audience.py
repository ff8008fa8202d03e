"""A table's listeners: each connection's protocol version, and what each is sent.

An ``Audience`` keeps each connection's version and tells one connection or
several, each in its version's words (``protocol.versions.frame``: encoded
once per wording, however many hear it); it sends the table's stream as
moves are published (version 1 has its own, numbered without what it does
not know) and the whole stream so far to a connection that (re)joins.  It is
handed a way to send and the connections at the table; it knows nothing else
of the room.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterable, Sequence

from ....table import Message
from ... import protocol
from ...protocol import version1
from ...protocol.versions import frame, wording

Connection = Hashable
"""A client's connection, as a table knows it: something its ``Send`` can reach."""

Send = Callable[[Iterable[Connection], str], None]
"""Puts one encoded frame on each of some connections, at once, never waiting for them."""

RECENT = 2
"""The key of a finished game's frame for every version but 1 (``Audience.finished``)."""


class Audience:
    """The listeners at one table, each in its protocol version."""

    def __init__(
        self,
        send: Send,
        connections: Callable[[], list[Connection]],
        flushed: Callable[[tuple[Message, ...]], None] = lambda messages: None,
    ) -> None:
        """``connections``: everyone at the table now; ``flushed``: told each batch of the
        stream once it is sent."""
        self.send = send
        self.connections = connections
        self.flushed = flushed
        self.versions: dict[Connection, int] = {}
        """Each connection's protocol version (a version-1 one hears version 1 only)."""
        self._outbox: list[Message] = []
        self._outbox_start = 0
        self._v1_sent = 0
        """Messages of the game's version-1 stream sent so far."""
        self._backlog: tuple[int, str] | None = None
        """The stream so far as one frame for the current version, and how many messages it
        holds (sent to each newcomer: encoded once however many come)."""

    def version(self, connection: Connection) -> int:
        return self.versions.get(connection, protocol.PROTOCOL_VERSION)

    def forget(self, connection: Connection) -> None:
        """``connection`` closed."""
        self.versions.pop(connection, None)

    def tell(self, connection: Connection, message: protocol.ServerMessage) -> None:
        """Send one connection one message, in its own protocol version's words."""
        text = frame(message, self.version(connection))
        if text is not None:
            self.send((connection,), text)

    def broadcast(
        self, message: protocol.ServerMessage, to: Iterable[Connection] | None = None
    ) -> None:
        """Send ``message`` to everyone (or ``to``), encoded once per wording."""
        groups: dict[int, list[Connection]] = {}
        for connection in self.connections() if to is None else to:
            said = wording(message, self.version(connection))
            if said is not None:
                groups.setdefault(said, []).append(connection)
        for said, group in groups.items():
            text = frame(message, said)
            if text is not None:
                self.send(group, text)

    # ------------------------------------------------------------------ the stream

    def game_began(self, messages: Sequence[Message]) -> None:
        """A game's stream is ``messages`` so far (new, or resumed): number what follows."""
        self._backlog = None
        self._outbox = []
        self._outbox_start = len(messages)
        self._v1_sent = version1.count(messages)

    def publish(self, message: Message) -> None:
        """``message`` joins the stream: sent with the rest of its move, at once."""
        if not self._outbox:
            asyncio.get_running_loop().call_soon(self.flush)
        self._outbox.append(message)

    def flush(self) -> None:
        """Send what was published since the last flush (each version its own stream)."""
        messages, self._outbox = tuple(self._outbox), []
        start, self._outbox_start = self._outbox_start, self._outbox_start + len(messages)
        if not messages:
            return
        everyone = self.connections()
        old = [c for c in everyone if self.version(c) == version1.VERSION]
        recent = [c for c in everyone if self.version(c) != version1.VERSION]
        if recent:
            self.send(recent, protocol.encode(protocol.Stream(start, messages)).decode())
        shown = version1.stream(messages)
        if shown:
            v1_start, self._v1_sent = self._v1_sent, self._v1_sent + len(shown)
            if old:
                self.send(old, protocol.encode(protocol.Stream(v1_start, tuple(shown))).decode())
        self.flushed(messages)

    def backlog(self, connection: Connection, messages: Sequence[Message]) -> None:
        """The game's whole stream so far (``messages``), to one connection that (re)joined."""
        if self.version(connection) == version1.VERSION:
            self.tell(connection, protocol.Stream(0, tuple(version1.stream(messages))))
            return
        if self._backlog is None or self._backlog[0] != len(messages):
            frame = protocol.encode(protocol.Stream(0, tuple(messages))).decode()
            self._backlog = (len(messages), frame)
        self.send((connection,), self._backlog[1])

    @staticmethod
    def finished(messages: Sequence[Message]) -> dict[int, str]:
        """A finished game's whole stream as one ready ``stream`` frame per wording: a
        server holds many finished rooms for a while, and a frame is one object to the
        garbage collector, a game thousands."""
        return {
            RECENT: protocol.encode(protocol.Stream(0, tuple(messages))).decode(),
            version1.VERSION: protocol.encode(
                protocol.Stream(0, tuple(version1.stream(messages)))
            ).decode(),
        }

    def send_finished(self, connection: Connection, frames: dict[int, str]) -> None:
        """A finished game's stream (``finished``), to one connection that (re)joined."""
        old = self.version(connection) == version1.VERSION
        self.send((connection,), frames[version1.VERSION if old else RECENT])
