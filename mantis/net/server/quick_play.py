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
from .placement import Placement
from .problems import BUSY, Problem
from .room import seat_list
from .room.audience import Connection
from .room.room import Room, RoomConfig
from .room.seat_list import Seat
from .rooms import Rooms
from .seating import Seating

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
        rooms: Rooms,
        seating: Seating,
        placement: Placement,
        directory: Directory,
        tables: TableCounts,
        config: RoomConfig,
    ) -> None:
        self.rooms = rooms
        self.seating = seating
        self.placement = placement
        self.directory = directory
        self.tables = tables
        self.config = config

    async def seat(
        self, connection: Connection, message: protocol.Quick, group: str, key_hash: str | None
    ) -> Room | Problem:
        """Seat a person at the oldest quick-play table of that size with room, or a new one
        (or why not).

        A new one counts as a table opened by ``group`` (its address): an
        address at its limit of tables is seated only where there is room.
        On a cluster the table found may run on another node: the connection
        is then relayed there (``QuickElsewhere``), and that node seats it at
        the table found (``RemoteClient.quick_at``) without asking again.
        """
        claim = await self.seating.names.check(message.name, key_hash, group)
        if isinstance(claim, Problem):
            return claim
        at = connection.quick_at if isinstance(connection, RemoteClient) else None
        for attempt in range(QUICK_TRIES):
            if attempt == 0 and at is not None:
                seat_at: tuple[str, Ticket | None] | None = (at, None)  # found by their node
            else:
                seat_at = await self._quick_seat(message.players, group)
            if seat_at is None:
                code = protocol.TOO_MANY_TABLES
                return Problem(code, self.tables.refusal(code))
            code, ticket = seat_at
            if ticket is not None:  # a new table, counted for the group
                room = self._quick_room(code, message.players, group)
                self.tables.opened(ticket, room)  # (keep_new puts it among the rooms at once)
                refused: Problem | None = BUSY
                try:
                    refused = await self.seating.keep_new(room, 0)
                finally:
                    if refused is not None:
                        await self.tables.give_back(ticket)
                if refused is not None:
                    await self.directory.quick_free(code, message.players, 0)
                    return refused
            else:
                found = self.rooms.get(code)
                if found is None:
                    owner = await self.placement.running_elsewhere(code)
                    if owner is not None and not isinstance(connection, RemoteClient):
                        raise QuickElsewhere(owner, code)
                    found = self.rooms.get(code)  # (taken over just now, if its node was gone)
                if found is None:
                    continue  # (offered by a node that is gone, or by another at a relay)
                room = found
                await room.kept.wait()
            if key_hash is not None and seat_list.holds_key(room.seats, key_hash):
                free = sum(1 for seat in room.seats if not seat.taken)
                await self.directory.quick_free(code, len(room.seats), free)  # (not taken)
                return self.seating.second_seat(room)
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                continue  # it started, or filled, meanwhile: look again
            seat, token = taken
            player = await self.seating.names.bind(claim)
            if isinstance(player, Problem):
                room.unsit(seat)
                return player
            room.seats[seat].player = player
            await self.seating.keep_seats(room)
            return await self.seating.seated(connection, room, seat, token, message.protocol, True)
        return Problem(protocol.TABLE_FULL, "no quick-play table could seat you: try again")

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
        return self.rooms.new(
            code,
            rules=TableRules(
                away_bot=self.config.quick_bot, clock=protocol.QUICK_CLOCK, quick=True, rated=True
            ),
            host=seats[0],
            seats=seats,
            owner=group,
        )
