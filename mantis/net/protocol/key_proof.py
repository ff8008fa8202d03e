"""Proving a player key without sending it (protocol version 4).

A player key ``K`` (43 URL-safe characters, 256 random bits) never leaves
the person's computer.  What goes over the wire, all in lower-case hex:

- the **verifier** ``V = SHA-256(K)``: what the server keeps (its store holds
  nothing else of a key; a server of version 3 kept the same digest, so names
  held then are proved the same way now).  Sent once per key and server: the
  first time the key sits down there (its introduction), or when a key is
  replaced (``rekey`` carries the new key's).  The client keeps which servers
  know its key (``home.player_keys``) and never sends the verifier to one
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

Here is what both sides compute; the server's challenges and their checks are
``server.key_proofs``.
"""

from __future__ import annotations

import hashlib
import hmac

from ...store.tables_schema import key_id
from .. import protocol

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
