"""What one node of a cluster tells another: a ``msgspec`` struct for each kind.

Nodes send these over Redis (``cluster``), a JSON object each, tagged by
``t``; a node decodes what it hears once, against ``NodeMessage``, and
hands each to the handler its type names (``cluster_node``).  Every message
carries ``ts``, when it was sent, for the lag between nodes (a metric).

A connection held on one node at a table another node runs is a relay
there and a remote client at the owner (``links``): ``Open``, ``FromClient``
and ``Gone`` go from the relay's node to the owner, ``ToClients`` and
``Close`` come back.  ``IsAlive`` asks whether a relayed connection still
answers, ``Alive`` says.  ``Adopt`` hands a table to a node (from one that
is stopping).  ``OwnerChanged`` goes to every node at once, on a channel of
its own.
"""

from __future__ import annotations

import msgspec


class NodeMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="t"):
    """Every message between nodes: a frozen struct tagged by ``t``, stamped when sent."""

    ts: float = 0.0
    """When it was sent (its sender's wall clock: ``Clock.time``)."""


class ToClients(NodeMessage, frozen=True, tag="out"):
    """A frame for connections held on the receiving node (relays, by their ids there)."""

    ids: tuple[int, ...]
    data: str


class Open(NodeMessage, frozen=True, tag="open"):
    """A connection held on node ``sender`` (its id there) opens at a table here."""

    sender: str = msgspec.field(name="from")
    id: int
    addr: str
    """The address group the connection counts in (its node found it)."""
    data: str
    """Its opening message (or, opening again, a ``join`` with its seat's token)."""
    at: str | None = None
    """A quick-play opening: the table its node found a seat at."""


class FromClient(NodeMessage, frozen=True, tag="msg"):
    """A message from a relayed connection, for the table it is at."""

    sender: str = msgspec.field(name="from")
    id: int
    data: str


class Gone(NodeMessage, frozen=True, tag="gone"):
    """A relayed connection closed."""

    sender: str = msgspec.field(name="from")
    id: int


class Close(NodeMessage, frozen=True, tag="close"):
    """Close relayed connection ``id`` (on the receiving node) with this code and reason."""

    id: int
    code: int
    reason: str


class IsAlive(NodeMessage, frozen=True, tag="alive?"):
    """Does relayed connection ``id`` still answer?  (Question ``q`` of node ``sender``.)"""

    sender: str = msgspec.field(name="from")
    id: int
    q: int


class Alive(NodeMessage, frozen=True, tag="alive!"):
    """The answer to question ``q``."""

    q: int
    ok: bool


class Adopt(NodeMessage, frozen=True, tag="adopt"):
    """Take table ``code`` over (its node is stopping, and let it go)."""

    code: str


AnyNodeMessage = ToClients | Open | FromClient | Gone | Close | IsAlive | Alive | Adopt
"""Every kind of message a node is sent."""
ToOwner = Open | FromClient | Gone
"""What a remote client's node sends about it, in order (its inbox at the owner)."""


class OwnerChanged(msgspec.Struct, frozen=True):
    """Table ``code`` runs on ``node`` now (no code: ``node`` may have missed messages)."""

    code: str
    node: str


def _batch_decoder(kind: object) -> msgspec.json.Decoder:  # type: ignore[type-arg]
    # A channel carries a list of messages (all those published together), or one on
    # its own (as nodes from before lists published them).
    return msgspec.json.Decoder(list[kind] | kind)  # type: ignore[valid-type]


decode_messages = _batch_decoder(AnyNodeMessage).decode
decode_owners = _batch_decoder(OwnerChanged).decode
encode = msgspec.json.Encoder().encode
