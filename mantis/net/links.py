"""Connections that span two nodes of a cluster: each end's view of one.

A person reaches any node (a round-robin proxy sends them anywhere); their
table is run by its owner node.  On the node holding the WebSocket, a
``Relay`` passes what the client says to the owner and what the owner says
back to the client.  On the owner, a ``RemoteClient`` stands for that
WebSocket: the room sends to it like to any connection, and the cluster
carries the frames over.

A relay keeps what it needs to move to another owner without the client
noticing: how to open again (the seat's token, from the ``welcome`` it
passed on), the client's last move (sent again: a repeat is refused as
``stale``, never played twice), and how much of the stream the client has
(a frame that would leave a gap is held back, and the relay opens again to
get the whole stream; the client skips what it has).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import msgspec

from . import protocol, version1


@dataclass(eq=False)
class RemoteClient:
    """A client connection held by node ``node`` (its id there), at a room on this node."""

    node: str
    id: int
    address: str
    quick_at: str | None = None
    """A quick-play opening: the table its node found a seat at (this node's)."""
    inbox: asyncio.Queue[tuple[str, str]] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.node, self.id)

    async def recv(self) -> str:
        """The client's next message while it opens (``EOFError`` if the connection went)."""
        kind, data = await self.inbox.get()
        if kind != "msg":
            raise EOFError(kind)
        return data


@dataclass(eq=False)
class Relay:
    """A WebSocket on this node, at a table run by node ``owner``."""

    id: int
    websocket: Any
    code: str
    owner: str
    opening: str
    """The client's opening message (a ``join``, ``watch`` or ``quick``)."""
    address: str
    reopening: str | None = None
    """How to open again at another owner: ``join`` with the seat's token (in the client's
    protocol version), or its ``watch``."""
    last_act: str | None = None
    resent: bool = False
    """``last_act`` went again at an opening elsewhere: if the owner had it already, its
    ``stale`` answer is the relay's to drop, not the client's to hear (nobody pressed)."""
    quick_at: str | None = None
    """A quick-play opening: the table a seat was found at (its owner seats it there)."""
    have: int = 0
    """Stream messages the client has been sent."""
    resuming: bool = False
    """Opened again: the next ``welcome`` is passed on as the ``room`` it carries."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    follower: asyncio.Task[None] | None = None
    """Watches for the owner's first answer."""

    def opened(self) -> str:
        """What to open with now."""
        return self.reopening or self.opening

    def filter(self, data: str) -> tuple[str | None, bool]:
        """What to pass on of a frame from the owner (None: nothing), and whether a gap
        was found (then the relay must open again)."""
        if self.resent and data.startswith('{"type":"error","code":"stale"'):
            self.resent = False
            return None, False
        if data.startswith('{"type":"stream"'):
            head = _heads.decode(data)
            if head.start > self.have:
                return None, True
            self.have = max(self.have, head.start + len(head.messages))
        elif data.startswith('{"type":"welcome"'):
            welcome = protocol.decode_server(data)
            assert isinstance(welcome, protocol.Welcome)
            version = protocol.claimed_version(self.opening) or protocol.PROTOCOL_VERSION
            if welcome.token is not None:
                join = protocol.Join(version, welcome.code, token=welcome.token)
                self.reopening = protocol.encode(join).decode()
            else:
                self.reopening = self.opening  # (a ``watch``, with its name)
            if self.resuming:
                self.resuming = False
                if version == version1.VERSION:  # (said in the client's own version)
                    return protocol.encode(version1.room(welcome.room)).decode(), False
                return protocol.encode(welcome.room).decode(), False
        return data, False


class _Head(msgspec.Struct):
    """Just enough of a ``stream`` frame to count it: where it starts, how many it holds."""

    start: int
    messages: list[msgspec.Raw]


_heads = msgspec.json.Decoder(_Head)


class _Kind(msgspec.Struct):
    """Just a client message's ``type`` (its other fields, of any shape, ignored)."""

    type: str = ""


_kinds = msgspec.json.Decoder(_Kind)


def is_act(data: str | bytes) -> bool:
    """Whether a client's message is a move (kept by its relay, to be sent again).

    Read by its ``type``: a line of talk whose text is ``act`` is no move.
    """
    try:
        return _kinds.decode(data).type == protocol.Act.__struct_config__.tag
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False
