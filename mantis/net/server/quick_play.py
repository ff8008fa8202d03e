"""Quick play: a seat at the oldest public quick-play table of a size with room, or a new one.

The directory finds the seat (``Directory.quick_seat``), across a cluster:
a table another node runs is that node's to seat the person at
(``QuickElsewhere``: their connection is relayed there, and that node seats
them at the table found without asking again).  A new table counts as one
opened by the person's address.
"""

from __future__ import annotations

from ...store.table_rules import TableRules
from .. import protocol
from ..cluster.links import RemoteClient
from ..protocol.codes import new_code
from .directory import Directory
from .limits.addresses import network_of
from .limits.table_counts import TableCounts, Ticket
from .name_claims import Refusal
from .placement import Placement
from .room.audience import Connection
from .room.room import Room, RoomConfig
from .room.seat_list import Seat
from .seating import Seating, Server

#: Tries to seat a quick-play newcomer (a seat found may be gone when it is taken).
QUICK_TRIES = 5


class QuickElsewhere(Exception):
    """Quick play found a seat at a table another node runs: relay the connection there."""

    def __init__(self, owner: str, code: str) -> None:
        super().__init__(code)
        self.owner = owner
        self.code = code


class QuickPlay:
    """Seats people at quick-play tables."""

    def __init__(
        self,
        server: Server,
        seating: Seating,
        placement: Placement,
        directory: Directory,
        tables: TableCounts,
        config: RoomConfig,
    ) -> None:
        self.server = server
        self.seating = seating
        self.placement = placement
        self.directory = directory
        self.tables = tables
        self.config = config

    async def seat(
        self, connection: Connection, message: protocol.Quick, group: str, key_hash: str | None
    ) -> Room | None:
        """Seat a person at the oldest quick-play table of that size with room, or a new one.

        A new one counts as a table opened by ``group`` (its address): an
        address at its limit of tables is seated only where there is room.
        On a cluster the table found may run on another node: the connection
        is then relayed there (``QuickElsewhere``), and that node seats it at
        the table found (``RemoteClient.quick_at``) without asking again.
        """
        claim = await self.seating.claim_name(connection, message.name, key_hash, group)
        if claim is None:
            return None
        at = connection.quick_at if isinstance(connection, RemoteClient) else None
        for attempt in range(QUICK_TRIES):
            if attempt == 0 and at is not None:
                seat_at: tuple[str, Ticket | None] | None = (at, None)  # found by their node
            else:
                seat_at = await self._quick_seat(message.players, group)
            if seat_at is None:
                self.server.error(
                    connection,
                    protocol.TOO_MANY_TABLES,
                    self.tables.refusal(protocol.TOO_MANY_TABLES),
                )
                return None
            code, ticket = seat_at
            if ticket is not None:  # a new table, counted for the group
                room = self._quick_room(code, message.players, group)
                self.tables.opened(ticket, room)  # (keep_new puts it among the rooms at once)
                kept = False
                try:
                    kept = await self.seating.keep_new(connection, room, 0)
                finally:
                    if not kept:
                        await self.tables.give_back(ticket)
                if not kept:
                    await self.directory.quick_free(code, message.players, 0)
                    return None
            else:
                found = self.server.rooms.get(code)
                if found is None:
                    owner = await self.placement.running_elsewhere(code)
                    if owner is not None and not isinstance(connection, RemoteClient):
                        raise QuickElsewhere(owner, code)
                    found = self.server.rooms.get(
                        code
                    )  # (taken over just now, if its node was gone)
                if found is None:
                    continue  # (offered by a node that is gone, or by another at a relay)
                room = found
                await room.kept.wait()
            if key_hash is not None and room.holds_key(key_hash):
                free = sum(1 for seat in room.seats if not seat.taken)
                await self.directory.quick_free(code, len(room.seats), free)  # (not taken)
                self.seating.refuse_second_seat(connection, room)
                return None
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                continue  # it started, or filled, meanwhile: look again
            seat, token = taken
            player = await self.seating.bind(connection, claim)
            if isinstance(player, Refusal):
                room.unsit(seat)
                return None
            room.seats[seat].player = player
            await self.seating.keep_seats(room)
            return await self.seating.seated(connection, room, seat, token, message.protocol, True)
        self.server.error(
            connection, protocol.TABLE_FULL, "no quick-play table could seat you: try again"
        )
        return None

    async def _quick_seat(self, players: int, group: str) -> tuple[str, Ticket | None] | None:
        """A seat from the directory (``Directory.quick_seat``): its table's code, and the
        count taken for a new table if it is one (taken before asking, if ``group`` may
        open one; given back if the seat is at a table already there)."""
        ticket = await self.tables.take(group)
        counted = ticket if not isinstance(ticket, str) else None
        try:
            fresh = await new_code(self.directory.reserve_code) if counted else None
            seat_at = await self.directory.quick_seat(players, fresh)
        except BaseException:
            if counted is not None:
                await self.tables.give_back(counted)
            raise
        if seat_at is None or not seat_at[1]:
            if counted is not None:
                await self.tables.give_back(counted)
            if fresh is not None:
                await self.directory.release_code(fresh)
            return None if seat_at is None else (seat_at[0], None)
        return seat_at[0], counted

    def _quick_room(self, code: str, players: int, group: str) -> Room:
        """A new quick-play table of ``players`` open seats (the first to sit is its host)."""
        seats = [Seat("", "human") for _ in range(players)]
        return self.server.room(
            0,
            code,
            rules=TableRules(
                away_bot=self.config.quick_bot, clock=protocol.QUICK_CLOCK, quick=True, rated=True
            ),
            host=seats[0],
            seats=seats,
            owner=group,
        )
