"""``my_tables`` (protocol 6): the tables where a player key holds a seat, for its owner alone.

A person whose app was closed or crashed mid-game, or who plays from another
computer with their keys, finds their games in progress again: they open a
connection with ``my_tables`` naming their key, prove they hold it as when
sitting down (``key_proof``), and are answered ``your_tables``: every table,
waiting or playing, where a seat taken with that key was not left, the
newest first (``MOST_HELD`` at most), read from the store, so a cluster's
every node's tables are in it.  The connection then ends.  Nobody else
learns where a key sits: an id alone, without the proof, gets ``bad_proof``.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from ...store.tables_interface import RoomPhase, StoredRoom, TableStore
from .. import protocol


async def tables_held(store: TableStore, key_hash: str) -> protocol.YourTables:
    """The ``your_tables`` answer for the key whose verifier (digest) is ``key_hash``."""
    rooms = await store.tables_held(key_hash, protocol.MOST_HELD)
    return protocol.YourTables(tuple(_held(rooms, key_hash)))


def _held(rooms: Iterable[StoredRoom], key_hash: str) -> Iterable[protocol.HeldTable]:
    for room in rooms:
        if room.state is RoomPhase.OVER:
            continue
        seat = next(
            (
                s
                for s, kept in enumerate(room.seats)
                if kept.key_hash is not None
                and not kept.left
                and hmac.compare_digest(kept.key_hash, key_hash)
            ),
            None,
        )
        if seat is None:
            continue
        game = room.game if room.state is RoomPhase.PLAYING else None
        yield protocol.HeldTable(
            code=room.code,
            state=room.state.value,  # type: ignore[arg-type]
            seat=seat,
            seats=tuple(
                protocol.SeatState(
                    kept.name,
                    kept.kind,  # type: ignore[arg-type]
                    kept.bot,
                    kept.kind == "bot" or kept.token_hash is not None,
                    kept.left,
                )
                for kept in room.seats
            ),
            moves=len(game.moves) if game is not None else 0,
            game=game.number if game is not None else 0,
            clock=room.rules.clock,
            private=room.rules.private,
            quick=room.rules.quick,
            rated=room.rules.rated,
        )
