"""Connections that span two nodes of a cluster: each end's view of one, and what runs them.

A person reaches any node (a round-robin proxy sends them anywhere); their
table is run by its owner node.  On the node holding the WebSocket, a
``Relay`` passes what the client says to the owner and what the owner says
back to the client.  On the owner, a ``RemoteClient`` stands for that
WebSocket: the room sends to it like to any connection, and the cluster
carries the frames over (``node_messages``).

A relay keeps what it needs to move to another owner without the client
noticing: how to open again (the seat's token, from the ``welcome`` it
passed on), the client's last move (sent again: a repeat is refused as
``stale``, never played twice), and how much of the stream the client has
(a frame that would leave a gap is held back, and the relay opens again to
get the whole stream; the client skips what it has).

``Links`` runs both ends on a node.  It is handed the cluster, a clock, how
to find where a table runs now, and a ``Gateway``: what it asks of the
server (the WebSockets it holds, admitting a remote client).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Container, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec
from websockets.exceptions import ConnectionClosed

from ...base.clock import Clock, within
from .. import protocol
from ..protocol import version1
from .membership import Cluster
from .node_messages import Alive, Close, FromClient, Gone, IsAlive, Open, ToClients, ToOwner
from .outages import BUSY_ERRORS

#: Seconds a relayed connection waits for its table's owner to answer before looking again.
OWNER_ANSWER = 3.0


@dataclass(eq=False)
class RemoteClient:
    """A client connection held by node ``node`` (its id there), at a room on this node."""

    node: str
    id: int
    address: str
    quick_at: str | None = None
    """A quick-play opening: the table its node found a seat at (this node's)."""
    inbox: asyncio.Queue[ToOwner] = field(default_factory=asyncio.Queue)
    """What its node sent about it, in order: ``Open`` (again, after a table moved), its
    messages, ``Gone``."""
    task: asyncio.Task[None] | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.node, self.id)

    async def recv(self) -> str:
        """The client's next message while it opens (``EOFError`` if the connection went)."""
        said = await self.inbox.get()
        if not isinstance(said, FromClient):
            raise EOFError(type(said).__name__)
        return said.data


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
            version = protocol.named_version(self.opening) or protocol.PROTOCOL_VERSION
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


class Gateway(Protocol):
    """What the node link asks of its server."""

    rooms: Container[str]
    """The codes of the tables this node runs."""

    def put(self, websockets: Iterable[Any], data: str) -> None:
        """Put a frame on WebSockets of this node (dropping those that stopped reading)."""

    def messages(self, websocket: Any) -> AsyncIterator[str | bytes]:
        """What a WebSocket of this node sends, within its rate."""

    async def alive(self, connection: Any) -> bool:
        """Whether a connection still answers (a ping)."""

    async def serve_remote(self, client: RemoteClient) -> None:
        """Admit a connection another node holds, and serve it until its node says it went."""

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` in the background (stopped with the server)."""


Whereabouts = Callable[[str, str], Awaitable[tuple[str, str] | None]]
"""Where a connection opening with this message, from this address group, goes: (the node,
the code) to relay it to, or None (it is handled here)."""


class Links:
    """Both ends of every connection that spans this node and another."""

    def __init__(
        self,
        cluster: Cluster,
        gateway: Gateway,
        clock: Clock,
        *,
        whereabouts: Whereabouts,
        liveness: float,
    ) -> None:
        """``whereabouts``: where a table runs now (a takeover on the way, if it is
        orphaned); ``liveness``: seconds a ping has to be answered."""
        self.cluster = cluster
        self.node = cluster.node
        self.gateway = gateway
        self.clock = clock
        self.whereabouts = whereabouts
        self.liveness = liveness
        self.relays: dict[int, Relay] = {}
        """Connections here to tables another node runs, by id."""
        self.remote_clients: dict[tuple[str, int], RemoteClient] = {}
        """Connections on other nodes to tables here, by (node, id)."""
        self._asked_alive: dict[int, asyncio.Future[bool]] = {}
        self._ids = 0

    # ------------------------------------------------------------------ the relay's end

    async def relay(
        self,
        connection: Any,
        owner: str,
        code: str,
        first: str | bytes,
        group: str,
        quick_at: str | None = None,
    ) -> None:
        """A connection here to a table ``owner`` runs: pass everything on, both ways
        (``quick_at``: the quick-play table a seat was found at for it)."""
        self._ids += 1
        opening = first if isinstance(first, str) else first.decode(errors="replace")
        relay = Relay(self._ids, connection, code, owner, opening, group, quick_at=quick_at)
        self.relays[relay.id] = relay
        self._open_at(relay)
        try:
            async for data in self.gateway.messages(connection):
                text = data if isinstance(data, str) else data.decode(errors="replace")
                if is_act(text):
                    relay.last_act, relay.resent = text, False
                self.cluster.send(relay.owner, FromClient(sender=self.node, id=relay.id, data=text))
        except ConnectionClosed:
            pass
        finally:
            del self.relays[relay.id]
            if relay.follower is not None:
                relay.follower.cancel()
            self.cluster.send(relay.owner, Gone(sender=self.node, id=relay.id))

    def moved(self, code: str, node: str) -> None:
        """Table ``code`` runs on ``node`` now (no code: ``node`` may have missed what was
        sent to it, or this node if none is named): the relays there open again."""
        for relay in list(self.relays.values()):
            if code:
                if relay.code == code and relay.owner != node:
                    relay.owner = node
                    self._open_at(relay, resume=True)
            elif node in ("", relay.owner):
                self._open_at(relay, resume=True)

    def _open_at(self, relay: Relay, resume: bool = False) -> None:
        """(Re)open a relayed connection at its table's owner; its last move goes again."""
        relay.answered.clear()
        relay.resuming = resume
        opening = Open(
            sender=self.node,
            id=relay.id,
            addr=relay.address,
            data=relay.opened(),
            at=relay.quick_at,
        )
        self.cluster.send(relay.owner, opening)
        if resume and relay.last_act is not None:
            relay.resent = True
            self.cluster.send(
                relay.owner, FromClient(sender=self.node, id=relay.id, data=relay.last_act)
            )
        if relay.follower is not None:
            relay.follower.cancel()
        relay.follower = asyncio.get_running_loop().create_task(self._follow(relay))

    async def _follow(self, relay: Relay) -> None:
        """If the owner does not answer, look for the table again: if it moved (its node
        died), open at its new owner; a live owner that is only slow is waited for."""
        for _ in range(10):
            try:
                await within(self.clock, OWNER_ANSWER, relay.answered.wait())
                return
            except TimeoutError:
                pass
            try:
                if await self.cluster.alive(relay.owner) and relay.code not in self.gateway.rooms:
                    continue  # busy, not gone: an open sent twice would take a second seat
                found = await self.whereabouts(relay.opened(), relay.address)
            except BUSY_ERRORS:
                continue
            relay.owner = self.node if found is None else found[0]
            relay.follower = None
            self._open_at(relay, resume=relay.reopening is not None)
            return
        # (Closed, not hung up: ``relay`` reads the connection to its end, and a second
        # reader would be refused.)
        await relay.websocket.close(1013, "the table cannot be reached: try again")

    def to_clients(self, message: ToClients) -> None:
        """A frame from an owner for relayed connections here."""
        for relay_id in message.ids:
            relay = self.relays.get(relay_id)
            if relay is None:
                continue
            relay.answered.set()
            out, gap = relay.filter(message.data)
            if gap:
                self._open_at(relay, resume=True)  # the whole stream again, then on from there
            elif out is not None:
                self.gateway.put([relay.websocket], out)

    def close(self, message: Close) -> None:
        """The owner closes a relayed connection here (``relay``, reading it, drains what the
        client still sends until its close frame)."""
        relay = self.relays.get(message.id)
        if relay is not None:
            self.gateway.spawn(relay.websocket.close(message.code, message.reason))

    def is_alive(self, message: IsAlive) -> None:
        """Does a relayed connection here still answer?  The owner is told."""

        async def answer() -> None:
            relay = self.relays.get(message.id)
            alive = relay is not None and await self.gateway.alive(relay.websocket)
            self.cluster.send(message.sender, Alive(q=message.q, ok=alive))

        self.gateway.spawn(answer())

    # ------------------------------------------------------------------ the owner's end

    def from_node(self, message: ToOwner) -> None:
        """What a relay's node says about its connection, in order: to its remote client
        (a new one for an ``Open``)."""
        key = (message.sender, message.id)
        client = self.remote_clients.get(key)
        if client is None:
            if not isinstance(message, Open):
                return
            client = RemoteClient(message.sender, message.id, message.addr, message.at)
            self.remote_clients[key] = client
            client.task = asyncio.get_running_loop().create_task(self._serve(client))
        client.inbox.put_nowait(message)

    async def _serve(self, client: RemoteClient) -> None:
        try:
            await self.gateway.serve_remote(client)
        finally:
            if self.remote_clients.get(client.key) is client:
                del self.remote_clients[client.key]

    def send_out(self, node: str, ids: list[int], data: str) -> None:
        """A frame for connections node ``node`` holds (by their ids there)."""
        self.cluster.send(node, ToClients(ids=tuple(ids), data=data))

    def close_remote(self, client: RemoteClient, code: int, reason: str) -> None:
        """Close a connection another node holds (through that node)."""
        self.cluster.send(client.node, Close(id=client.id, code=code, reason=reason))

    async def ask_alive(self, client: RemoteClient) -> bool:
        """Whether a connection another node holds still answers (its node pings it)."""
        self._ids += 1
        question = self._ids
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._asked_alive[question] = answer
        self.cluster.send(client.node, IsAlive(sender=self.node, id=client.id, q=question))
        try:
            return await within(self.clock, 2 * self.liveness, answer)
        except TimeoutError:
            return False
        finally:
            self._asked_alive.pop(question, None)

    def alive(self, message: Alive) -> None:
        """The answer to a question ``ask_alive`` asked."""
        answer = self._asked_alive.pop(message.q, None)
        if answer is not None and not answer.done():
            answer.set_result(message.ok)
