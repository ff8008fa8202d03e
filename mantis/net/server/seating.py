"""Sitting down at a table: the name checked and held, a new table kept, everyone told.

What creating, joining and quick play share (``openings``, ``quick_play``):
the name a person sits under is checked, then bound to their key once the
seat is theirs (``names``: ``name_claims``); a new table's code is leased and the table kept before
anyone hears of it; a seated person is welcomed, and everyone else told.
Every refusal is a returned ``Problem``, for the opening to tell.

``Seating`` is handed the rooms this process runs, where tables run
(``placement``), the store, the directory and the name claims.
"""

from __future__ import annotations

import contextlib
import logging

from ...store.tables_interface import StoreError, TableStore
from .. import protocol
from ..cluster.outages import CLUSTER_ERRORS
from ..protocol.codes import shown_code
from .directory import Directory
from .name_claims import NameClaims
from .placement import Placement
from .problems import BUSY, Problem
from .room.audience import Connection
from .room.room import Room
from .rooms import Rooms

log = logging.getLogger("mantis.server")


class Seating:
    """What every way of sitting down shares."""

    def __init__(
        self,
        rooms: Rooms,
        placement: Placement,
        store: TableStore,
        directory: Directory,
        names: NameClaims,
    ) -> None:
        self.rooms = rooms
        self.placement = placement
        self.store = store
        self.directory = directory
        self.names = names

    def second_seat(self, room: Room) -> Problem:
        """Why a player key holding a seat at ``room`` may not take another there."""
        return Problem(
            protocol.SAME_PLAYER,
            f"your player key holds a seat at table {shown_code(room.code)} already: "
            "one seat a player",
        )

    async def keep_new(self, room: Room, host: int) -> Problem | None:
        """Keep a new room's table (or why it could not be kept)."""
        code = room.code
        # Among the rooms before anything is awaited: counted once, as a room (a table
        # counted as it is asked for becomes this room now), and its code taken before
        # the table is kept, so another table created meanwhile never draws it.  (Not
        # found by its code until it is kept: ``table_id`` is 0 until then.)
        self.rooms[code] = room
        try:
            await self.placement.lease(code)  # (a new code: nobody else holds it)
        except BaseException:
            del self.rooms[code]
            raise
        try:
            room.table_id = await self.store.create_table(
                code, room.rules, host=host, seats=[seat.stored() for seat in room.seats]
            )
        except Exception as exc:  # the store's trouble: this table only, said in one line
            del self.rooms[code]
            with contextlib.suppress(*CLUSTER_ERRORS):
                await self.directory.release_code(code)
                await self.placement.release(code)
            log.error("could not keep a new table: %s", exc)
            if isinstance(exc, StoreError):
                return BUSY
            return Problem(protocol.SERVER_FULL, "the server could not keep the table")
        room.kept.set()
        self.placement.share_soon(room)
        return None

    async def keep_seats(self, room: Room) -> None:
        """Keep who sits where at ``room``."""
        await self.store.set_seats(room.table_id, [seat.stored() for seat in room.seats])

    async def seated(
        self,
        connection: Connection,
        room: Room,
        seat: int,
        token: str,
        version: int,
        newcomer: bool,
    ) -> Room:
        """``connection`` sits at ``seat`` now: it is told, and so is everyone else; a
        newcomer may be the one a quick-play table was waiting for."""
        room.attach(seat, connection, version)
        room.audience.tell(connection, welcome(room, seat, token))
        room.send_room(but=connection)
        room.send_presence()
        room.send_backlog(connection)
        if newcomer:
            await room.seated()
        return room


def welcome(room: Room, seat: int | None, token: str | None) -> protocol.Welcome:
    """``welcome`` in the newest version's words (``Audience.tell`` says it in the
    connection's own: a version-1 connection hears ``protocol.version1``'s)."""
    code = room.code
    return protocol.Welcome(protocol.PROTOCOL_VERSION, code, seat, token, room.room_message(seat))
