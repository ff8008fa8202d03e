"""Which protocol version has each kind of message: the first that hears each kind the
server says, the first that may send each request, and a message as each version is sent it.

Both rules are ``match`` statements over the protocol's unions, closed by
``assert_never``: a new kind left out of either is a type error (mypy), not
a row found missing at run time.  ``frame`` words a message for one version
(version 1 in its own shapes, ``version1``), or says that version does not
hear it; everything a table sends goes through it.
"""

from __future__ import annotations

from typing import assert_never

import msgspec

from .. import protocol
from . import key_proof, version1


def first_heard(message: protocol.ServerMessage) -> int:
    """The first protocol version that hears ``message``'s kind."""
    match message:
        case (
            protocol.Welcome()
            | protocol.RoomState()
            | protocol.Presence()
            | protocol.Stream()
            | protocol.Error()
        ):
            return version1.VERSION
        case protocol.Clock() | protocol.Offer() | protocol.OfferClosed() | protocol.Said():
            return 2
        case protocol.Ratings():
            return protocol.RATINGS_VERSION
        case protocol.Challenge() | protocol.Rekeyed():
            return key_proof.PROVING
        case protocol.Pong():
            return protocol.PING_VERSION
        case protocol.People():
            return protocol.WHO_VERSION
        case protocol.YourTables():
            return protocol.MY_TABLES_VERSION
        case _:
            assert_never(message)


def first_sent(request: protocol.TableRequest) -> int:
    """The first protocol version that may send ``request``'s kind at a table (an older
    connection is refused it: ``bad_message``)."""
    match request:
        case (
            protocol.AddBot()
            | protocol.AddOpen()
            | protocol.RemoveSeat()
            | protocol.Start()
            | protocol.Act()
        ):
            return version1.VERSION
        case (
            protocol.Again()
            | protocol.Decline()
            | protocol.Say()
            | protocol.Leave()
            | protocol.ImBack()
        ):
            return 2
        case protocol.Ping():
            return protocol.PING_VERSION
        case protocol.Who():
            return protocol.WHO_VERSION
        case _:
            assert_never(request)


def hears(message: protocol.ServerMessage, version: int) -> bool:
    """Whether a client of ``version`` hears ``message`` at all."""
    return version >= first_heard(message)


def wording(message: protocol.ServerMessage, version: int) -> int | None:
    """Which wording of ``message`` a client of ``version`` hears (None: none): version 1's,
    its own version's for a ``welcome`` (it names the version), else the current one."""
    if not hears(message, version):
        return None
    if version == version1.VERSION:
        return version1.VERSION
    return version if isinstance(message, protocol.Welcome) else protocol.PROTOCOL_VERSION


def frame(message: protocol.ServerMessage, version: int) -> str | None:
    """``message`` as a client of ``version`` is sent it (one JSON text); None: not heard."""
    said = wording(message, version)
    if said is None:
        return None
    if said == version1.VERSION:
        return version1.encode(message)
    if isinstance(message, protocol.Welcome) and message.protocol != said:
        message = msgspec.structs.replace(message, protocol=said)
    return protocol.encode(message).decode()
