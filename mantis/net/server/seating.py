"""Sitting down at a table: the name checked and held, a new table kept, everyone told.

What creating, joining and quick play share (``openings``, ``quick_play``):
the name a person sits under is checked, then bound to their key once the
seat is theirs; a new table's code is leased and the table kept before
anyone hears of it; a seated person is welcomed, and everyone else told.

``Seating`` is handed a small ``Server`` (the rooms, how to answer a
connection), where tables run (``placement``), the store, the directory and
the name claims.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol

from ...store.tables_interface import StoreError, TableStore
from .. import protocol
from ..cluster.outages import CLUSTER_ERRORS
from ..protocol.codes import shown_code
from .directory import Directory
from .name_claims import Claim, NameClaims, Refusal
from .placement import Placement
from .room.audience import Connection
from .room.room import Room

log = logging.getLogger("mantis.server")


class Server(Protocol):
    """What openings ask of the server they open connections for."""

    rooms: dict[str, Room]

    def room(self, table_id: int, code: str, **table: Any) -> Room:
        """A new room, run with the server's config, store and hooks."""

    def send(self, connection: Connection, message: protocol.ServerMessage) -> None: ...

    def error(
        self, connection: Connection, code: str, message: str, retry_after: float | None = None
    ) -> None: ...

    def busy(self, connection: Connection) -> None:
        """Tell ``connection`` the store or Redis is out of reach: try again."""

    async def alive(self, connection: Connection) -> bool:
        """Whether a connection still answers (a ping)."""

    def close(self, connection: Connection, code: int, reason: str) -> None: ...


class Seating:
    """What every way of sitting down shares."""

    def __init__(
        self,
        server: Server,
        placement: Placement,
        store: TableStore,
        directory: Directory,
        names: NameClaims,
    ) -> None:
        self.server = server
        self.placement = placement
        self.store = store
        self.directory = directory
        self.names = names

    async def claim_name(
        self, connection: Connection, name: str, key_hash: str | None, group: str
    ) -> Claim | None:
        """The name someone is about to sit under, checked (None: refused, and told)."""
        said = await self.names.check(name, key_hash, group)
        if isinstance(said, Refusal):
            self.server.error(connection, said.code, said.message)
            return None
        return said

    async def bind(self, connection: Connection, claim: Claim) -> str | None | Refusal:
        """The seat is taken: the name ``claim`` holds now (its ``name_key``; None: no key);
        a refusal (told) if another key took it meanwhile."""
        bound = await self.names.bind(claim)
        if isinstance(bound, Refusal):
            self.server.error(connection, bound.code, bound.message)
        return bound

    def refuse_second_seat(self, connection: Connection, room: Room) -> None:
        self.server.error(
            connection,
            protocol.SAME_PLAYER,
            f"your player key holds a seat at table {shown_code(room.code)} already: "
            "one seat a player",
        )

    async def keep_new(self, connection: Connection, room: Room, host: int) -> bool:
        """Keep a new room's table (whether it could be kept: if not, the caller is told)."""
        code = room.code
        # Among the rooms before anything is awaited: counted once, as a room (a table
        # counted as it is asked for becomes this room now), and its code taken before
        # the table is kept, so another table created meanwhile never draws it.  (Not
        # found by its code until it is kept: ``table_id`` is 0 until then.)
        self.server.rooms[code] = room
        try:
            await self.placement.lease(code)  # (a new code: nobody else holds it)
        except BaseException:
            del self.server.rooms[code]
            raise
        try:
            room.table_id = await self.store.create_table(
                code, room.rules, host=host, seats=[seat.stored() for seat in room.seats]
            )
        except Exception as exc:  # the store's trouble: this table only, said in one line
            del self.server.rooms[code]
            with contextlib.suppress(*CLUSTER_ERRORS):
                await self.directory.release_code(code)
                await self.placement.release(code)
            log.error("could not keep a new table: %s", exc)
            if isinstance(exc, StoreError):
                self.server.busy(connection)
            else:
                self.server.error(
                    connection, protocol.SERVER_FULL, "the server could not keep the table"
                )
            return False
        room.kept.set()
        self.placement.share_soon(room)
        return True

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
        room.tell(connection, welcome(room, seat, token))
        room.send_room(but=connection)
        room.send_presence()
        room.send_backlog(connection)
        if newcomer:
            await room.seated()
        return room


def welcome(room: Room, seat: int | None, token: str | None) -> protocol.Welcome:
    """``welcome`` in the newest version's words (``Room.tell`` says it in the connection's
    own: a version-1 connection hears ``net.version1``'s)."""
    code = room.code
    return protocol.Welcome(protocol.PROTOCOL_VERSION, code, seat, token, room.room_message(seat))
