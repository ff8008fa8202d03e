"""``mantis key rotate SERVER``: replace this app's player key for a server, there and here.

The new key is kept in the key file first, as pending; then the server is
asked to replace the old key by it (proving the old one: ``rekey``); only
once it has is the new key the one this app uses there (known to be the
server's: its verifier is never sent there again, ``key_proof``).  A rotation cut
short (the server unreachable, the app killed) keeps its pending key, and
the next ``rotate`` finishes it: if the server took the new key already, it
is simply made current; the old key is never dropped before the server
holds the new one, so no name is lost on the way.  After a rotation the old
key holds nothing on that server (a copy of it, exported or stolen, is
worth nothing there).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ...base.clock import SYSTEM_CLOCK, Clock, within
from ...base.printable import echo
from ...home.player_keys import KeyFileError, PlayerKeys, server_address
from .. import protocol
from ..protocol import key_proof
from . import OPEN_TIMEOUT, VERIFIER_ASKED, OnlineError, check_url, verifier_asked, why

USAGE_ERROR = 2
FAILED = 1


def run_rotate(args: argparse.Namespace, keys: PlayerKeys | None = None) -> int:
    """Rotate the key for ``args.server``; the exit status (one line on stderr if it fails)."""
    keys = keys if keys is not None else PlayerKeys()
    try:
        url = check_url(args.server)
        server_address(url)
    except ValueError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR
    try:
        old, new, earlier = keys.rotating(url)
    except KeyFileError as exc:
        echo(f"mantis: {exc}", file=sys.stderr, lines=False)
        return FAILED
    return asyncio.run(_rotate(url, keys, old, new, earlier))


async def _rotate(url: str, keys: PlayerKeys, old: str, new: str, earlier: bool) -> int:
    server = server_address(url)
    try:
        if earlier:  # a rotation cut short: the server may hold the new key already
            try:
                names = await rotate_key(url, new, new)
            except OnlineError as exc:
                if exc.code != protocol.UNKNOWN_KEY:
                    raise
            else:
                keys.rotated(url)
                echo(f"Your key for {server} is new: it holds {_names(names)} there.")
                return 0
        names = await rotate_key(url, old, new)
    except OnlineError as exc:
        if exc.code == protocol.UNKNOWN_KEY and keys.knows(url, old):
            # It held the old key: its "unknown" is somebody else's word (or it lost its
            # players), and taking the new key here would leave the names with the old.
            keys.not_rotated(url)
            echo(f"mantis: {forgot_key(server)}", file=sys.stderr, lines=False)
            return FAILED
        if exc.code == protocol.UNKNOWN_KEY:  # the old key held nothing there: nothing to move
            keys.rotated(url, known=False)
            echo(f"Your key for {server} is new ({server} held no name for the old one).")
            return 0
        if exc.code != "unreachable":
            keys.not_rotated(url)  # refused: the old key stays, as it was
        else:
            echo("(Run it again once the server answers: it finishes the rotation.)")
        echo(f"mantis: {exc}", file=sys.stderr, lines=False)
        return FAILED
    except KeyFileError as exc:
        echo(f"mantis: {exc}", file=sys.stderr, lines=False)
        return FAILED
    keys.rotated(url)
    echo(f"Your key for {server} is new: it holds {_names(names)} there; the old one none.")
    echo("Export your keys again (mantis key export FILE): a copy made before is out of date.")
    return 0


def forgot_key(server: str) -> str:
    """Why a rotation stopped at a server that says it does not know a key it was given."""
    return (
        f"{server} says it holds nothing for your key, which it had: your key stays as it was "
        "(it may not be the server answering: mantis key reintroduce --help)"
    )


def _names(count: int) -> str:
    return f"{count} name{'s' * (count != 1)}"


async def rotate_key(url: str, old: str, new: str, clock: Clock = SYSTEM_CLOCK) -> int:
    """Replace the player key ``old`` by ``new`` at the server at ``url`` (proving ``old``);
    how many names moved to ``new``.  ``OnlineError`` (one line) if the server says no
    (``unknown_key``: it holds no name for ``old``); its time limits run on ``clock``."""
    url = check_url(url)
    try:
        connection = await within(
            clock, OPEN_TIMEOUT + 1, connect(url, open_timeout=OPEN_TIMEOUT, compression=None)
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
        raise OnlineError("unreachable", f"cannot reach {url}: {why(exc)}") from None
    old_verifier = key_proof.verifier_of(old)
    rekey = protocol.Rekey(
        protocol.PROTOCOL_VERSION, key_proof.id_of(old_verifier), key_proof.verifier_of(new)
    )
    try:
        await connection.send(protocol.encode(rekey).decode())
        while True:
            reply = await within(clock, OPEN_TIMEOUT, connection.recv())
            message = protocol.decode_server(reply)
            if not isinstance(message, protocol.Challenge):
                break
            # (A server challenges a rotation only for a key it holds: it never asks for
            # the old key's verifier.)
            prove = key_proof.answer(old, message, introduced=True)
            await connection.send(protocol.encode(prove).decode())
    except (ConnectionClosed, TimeoutError, protocol.ProtocolError) as exc:
        raise OnlineError("unreachable", f"{url} did not answer: {why(exc)}") from None
    except key_proof.VerifierAsked:
        raise OnlineError(VERIFIER_ASKED, verifier_asked(url)) from None
    finally:
        await connection.close()
    if isinstance(message, protocol.Error):
        raise OnlineError(message.code, message.message)
    if not isinstance(message, protocol.Rekeyed):
        raise OnlineError("bad_reply", f"{url} answered {type(message).__name__}")
    return message.names
