"""Your games in progress: the tables on a server where this app's player key holds a seat.

The server says so to the key's owner alone (``my_tables``, proved as when
sitting down: ``held_tables`` on the server's side), so after a crash, a
closed terminal or on another computer with the same keys, a person finds
their tables without remembering a code.  Each seat is then taken back with
its token, kept on this computer when the seat was taken (``SeatTokens``):
``GameInProgress.token`` is None for a seat taken elsewhere.  An app that
never sat down at a server holds no key there, and asks nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ...base.clock import SYSTEM_CLOCK, Clock, within
from ...home.player_keys import KeyFileError, PlayerKeys, server_address
from ...home.seat_tokens import SeatTokens
from .. import protocol
from ..protocol import key_proof
from ..protocol.codes import shown_code
from . import OPEN_TIMEOUT, OnlineError, check_url, why


@dataclass(frozen=True, slots=True)
class GameInProgress:
    """A table where this app's key holds a seat, and the token that takes it back here."""

    table: protocol.HeldTable
    token: str | None
    """The seat's token kept on this computer (None: the seat was taken elsewhere)."""

    @property
    def code(self) -> str:
        """The table's code as people read it (a private one in groups of four)."""
        return shown_code(self.table.code)

    def others(self, you: str = "you") -> list[str]:
        """Every seat's name in order, ``you`` for this key's own (an open one "open")."""
        return [
            you if s == self.table.seat else (seat.name or "open")
            for s, seat in enumerate(self.table.seats)
        ]


async def games_in_progress(
    url: str,
    keys: PlayerKeys | None = None,
    tokens: SeatTokens | None = None,
    clock: Clock = SYSTEM_CLOCK,
) -> tuple[GameInProgress, ...]:
    """The tables on the server at ``url`` where this app's key holds a seat, newest first.

    None at all if this app holds no key for that server.  ``OnlineError``
    (one line) if the server cannot be reached or says no (an older server:
    ``version``).  Its time limits run on ``clock``.
    """
    url = check_url(url)
    keys = keys if keys is not None else PlayerKeys()
    try:
        key = keys.keys().get(server_address(url))
    except (KeyFileError, ValueError) as exc:
        raise OnlineError("key_file", str(exc)) from None
    if key is None:
        return ()
    tokens = tokens if tokens is not None else SeatTokens()
    held = await _ask(url, key, clock)
    return tuple(GameInProgress(table, tokens.token(url, table.code)) for table in held)


async def _ask(url: str, key: str, clock: Clock) -> tuple[protocol.HeldTable, ...]:
    """Ask the server for ``key``'s tables, proving the key when challenged."""
    try:
        connection = await within(
            clock,
            OPEN_TIMEOUT + 1,
            connect(url, open_timeout=OPEN_TIMEOUT, compression=None, max_size=2**20),
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
        raise OnlineError("unreachable", f"cannot reach {url}: {why(exc)}") from None
    player = key_proof.id_of(key_proof.verifier_of(key))
    try:
        await connection.send(
            protocol.encode(protocol.MyTables(protocol.PROTOCOL_VERSION, player)).decode()
        )
        while True:
            said = protocol.decode_server(await within(clock, OPEN_TIMEOUT, connection.recv()))
            match said:
                case protocol.Challenge(known=False):
                    # No verifier of this key here, so no seat taken with it: nothing to
                    # ask, and the verifier never travels for a question.  (Someone in
                    # between who says so hides the list; they learn nothing.)
                    return ()
                case protocol.Challenge():
                    verifier = key_proof.verifier_of(key)
                    proof = protocol.Prove(proof=key_proof.proof_of(verifier, said.nonce))
                    await connection.send(protocol.encode(proof).decode())
                case protocol.YourTables():
                    return said.tables
                case protocol.Error():
                    raise OnlineError(said.code, said.message)
                case _:
                    raise OnlineError("bad_reply", f"{url} answered {type(said).__name__}")
    except (ConnectionClosed, TimeoutError, protocol.ProtocolError) as exc:
        raise OnlineError("unreachable", f"{url} did not answer: {why(exc)}") from None
    finally:
        await connection.close()
