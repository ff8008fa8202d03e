"""Proving a player key without sending it (protocol version 4).

A player key ``K`` (43 URL-safe characters, 256 random bits) never leaves
the person's computer.  What goes over the wire, all in lower-case hex:

- the **verifier** ``V = SHA-256(K)``: what the server keeps (its store holds
  nothing else of a key; a server of version 3 kept the same digest, so names
  held then are proved the same way now).  Sent once per key and server: the
  first time the key sits down there (its introduction), or when a key is
  replaced (``rekey`` carries the new key's).  The client keeps which servers
  know its key (``store.player_keys``) and never sends the verifier to one
  of them again, whatever a challenge says;
- the key's **id** ``I = SHA-256(V)``: names the key in every opening;
- a **proof** ``HMAC-SHA256(V, "mantis-proof:" + nonce)``, answering the
  server's ``challenge`` (a fresh 32-byte nonce for every opening), so a
  proof overheard is worth nothing on another connection.

The threat model is in docs/protocol.md: an eavesdropper on ``ws://`` learns
ids and proofs (neither lets them sit as anyone), except at a key's first
sitting or a rotation, when the verifier passes once (a man in the middle
cannot make it pass again: ``answer``); whoever reads the
server's store learns every verifier, and with it could prove any key there
(so the store is a secret to keep, and a key can be replaced).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ...store.tables_interface import TableStore
from ...store.tables_schema import key_id
from .. import protocol

#: Bytes of randomness in a challenge's nonce.
NONCE_BYTES = 32
#: The first protocol version that proves a key rather than sending it.
PROVING = 4
_PROOF = b"mantis-proof:"


def verifier_of(key: str) -> str:
    """The verifier of player key ``key``: what a server keeps of it (SHA-256, hex)."""
    return hashlib.sha256(key.encode()).hexdigest()


def id_of(verifier: str) -> str:
    """The id an opening names a key by: the SHA-256 of its verifier, hex."""
    return key_id(verifier)


def proof_of(verifier: str, nonce: str) -> str:
    """The answer to a challenge of ``nonce``, for the key with ``verifier``."""
    return hmac.new(verifier.encode(), _PROOF + nonce.encode(), hashlib.sha256).hexdigest()


class VerifierAsked(Exception):
    """A challenge asks for the verifier of a key its server has been given already."""


def answer(key: str, challenge: protocol.Challenge, *, introduced: bool) -> protocol.Prove:
    """A client's ``prove`` for its key ``key``: a proof, or the first time (the server does
    not know the key yet) its verifier.

    ``introduced``: this server holds the key's verifier already (the client sat down
    there with it, or rotated it to this key).  Nothing authenticates ``known``: a
    man in the middle may say ``false`` to have the verifier sent, and with it prove the
    key to that server as its owner.  So from a server that knows the key, that is
    ``VerifierAsked``, and nothing is sent.
    """
    verifier = verifier_of(key)
    if challenge.known:
        return protocol.Prove(proof=proof_of(verifier, challenge.nonce))
    if introduced:
        raise VerifierAsked
    return protocol.Prove(verifier=verifier)


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a key was not proved (or replaced): an error code and one line."""

    code: str
    message: str


Receive = Callable[[], Awaitable[str | bytes]]
"""The connection's next message (raising if it closes, or says nothing in time)."""


class KeyProofs:
    """Challenges the openings that name a key, and checks their answers against ``store``."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def key_of(
        self,
        send: Callable[[protocol.ServerMessage], None],
        message: protocol.Seating,
        receive: Receive,
    ) -> str | None | Refused:
        """The verifier of the key an opening sits down with (None: without one): sent as
        the key itself up to version 3 (its digest is the verifier), proved from version
        4 on, where sending the key is refused."""
        if message.protocol < PROVING:
            if message.player is not None:
                return Refused(protocol.BAD_MESSAGE, "player is a field of protocol 4")
            return verifier_of(message.key) if message.key is not None else None
        if message.key is not None:
            return Refused(
                protocol.BAD_MESSAGE,
                "protocol 4 never sends the player key: name it (player) and prove it",
            )
        if message.player is None:
            return None
        return await self.prove(send, message.player, receive)

    async def prove(
        self, send: Callable[[protocol.ServerMessage], None], player: str, receive: Receive
    ) -> str | Refused:
        """Challenge the connection (``send``) to prove it holds the key ``player`` names;
        its verifier if it does (a key new here: the verifier it gave, checked against
        its id), else why not."""
        verifier = await self.store.verifier(player)
        nonce = secrets.token_hex(NONCE_BYTES)
        send(protocol.Challenge(nonce, verifier is not None))
        try:
            message = protocol.decode_client(await receive())
        except protocol.ProtocolError as exc:
            return Refused(protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
        except (TimeoutError, EOFError):
            return Refused(protocol.BAD_PROOF, "no answer to the challenge in time")
        if not isinstance(message, protocol.Prove):
            return Refused(protocol.BAD_MESSAGE, "answer the challenge with prove")
        if verifier is None:
            given = message.verifier
            if given is not None and hmac.compare_digest(id_of(given), player):
                return given
        elif message.proof is not None and hmac.compare_digest(
            message.proof, proof_of(verifier, nonce)
        ):
            return verifier
        return Refused(protocol.BAD_PROOF, "that proof is not of the player key named")

    async def rekey(
        self,
        send: Callable[[protocol.ServerMessage], None],
        message: protocol.Rekey,
        receive: Receive,
    ) -> int | Refused:
        """Replace the key ``message.player`` (proved first) by the one whose verifier it
        gives; how many names moved."""
        if await self.store.verifier(message.player) is None:
            return Refused(protocol.UNKNOWN_KEY, "this server holds no name for that key")
        old = await self.prove(send, message.player, receive)
        if isinstance(old, Refused):
            return old
        new = message.verifier
        if new != old and await self.store.verifier(id_of(new)) is not None:
            return Refused(protocol.BAD_MESSAGE, "the new key holds names here already")
        return await self.store.rekey(old, new)
