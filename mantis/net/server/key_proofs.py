"""The server's side of a player key's proof (protocol version 4): challenges, and their
answers checked against the store (``protocol.key_proof`` is what both sides compute).

An opening that sits down with a key names it by its id; the server sends a
``challenge`` (a fresh nonce) and checks the ``prove`` that answers it: a
proof of a key it holds, or the verifier of a key new here, checked against
the id.  Up to version 3 the key itself came in the opening (its digest is the
verifier).  ``rekey`` replaces a key by another once the old one is proved.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable

from ...store.tables_interface import TableStore
from .. import protocol
from ..protocol import key_proof
from .problems import Problem

#: Bytes of randomness in a challenge's nonce.
NONCE_BYTES = 32


Receive = Callable[[], Awaitable[str | bytes]]
"""The connection's next message (raising if it closes, or says nothing in time)."""


class KeyProofs:
    """Challenges the openings that name a key, and checks their answers against ``store``."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def key_of(
        self,
        send: Callable[[protocol.ServerMessage], None],
        message: protocol.Sitting,
        receive: Receive,
    ) -> str | None | Problem:
        """The verifier of the key an opening sits down with (None: without one): sent as
        the key itself up to version 3 (its digest is the verifier), proved from version
        4 on, where sending the key is refused."""
        if message.protocol < key_proof.PROVING:
            if message.player is not None:
                return Problem(protocol.BAD_MESSAGE, "player is a field of protocol 4")
            return key_proof.verifier_of(message.key) if message.key is not None else None
        if message.key is not None:
            return Problem(
                protocol.BAD_MESSAGE,
                "protocol 4 never sends the player key: name it (player) and prove it",
            )
        if message.player is None:
            return None
        return await self.prove(send, message.player, receive)

    async def prove(
        self, send: Callable[[protocol.ServerMessage], None], player: str, receive: Receive
    ) -> str | Problem:
        """Challenge the connection (``send``) to prove it holds the key ``player`` names;
        its verifier if it does (a key new here: the verifier it gave, checked against
        its id), else why not."""
        verifier = await self.store.verifier(player)
        nonce = secrets.token_hex(NONCE_BYTES)
        send(protocol.Challenge(nonce, verifier is not None))
        try:
            message = protocol.decode_client(await receive())
        except protocol.ProtocolError as exc:
            return Problem(protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
        except (TimeoutError, EOFError):
            return Problem(protocol.BAD_PROOF, "no answer to the challenge in time")
        if not isinstance(message, protocol.Prove):
            return Problem(protocol.BAD_MESSAGE, "answer the challenge with prove")
        if verifier is None:
            given = message.verifier
            if given is not None and hmac.compare_digest(key_proof.id_of(given), player):
                return given
        elif message.proof is not None and hmac.compare_digest(
            message.proof, key_proof.proof_of(verifier, nonce)
        ):
            return verifier
        return Problem(protocol.BAD_PROOF, "that proof is not of the player key named")

    async def rekey(
        self,
        send: Callable[[protocol.ServerMessage], None],
        message: protocol.Rekey,
        receive: Receive,
    ) -> int | Problem:
        """Replace the key ``message.player`` (proved first) by the one whose verifier it
        gives; how many names moved."""
        if await self.store.verifier(message.player) is None:
            return Problem(protocol.UNKNOWN_KEY, "this server holds no name for that key")
        old = await self.prove(send, message.player, receive)
        if isinstance(old, Problem):
            return old
        new = message.verifier
        if new != old and await self.store.verifier(key_proof.id_of(new)) is not None:
            return Problem(protocol.BAD_MESSAGE, "the new key holds names here already")
        return await self.store.rekey(old, new)
