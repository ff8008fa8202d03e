"""The rooms this process runs, by code: each made (or brought back from the store) with
what the server gives every room, and dropped once another node runs its table."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...engine import SeatInfo
from ...store.tables_interface import RoomPhase, StoredRoom
from ...table import dealt
from ..cluster.links import RemoteClient
from .directory import Listing
from .room.audience import Connection
from .room.game_start import GameToPlay
from .room.room import Room, RoomServices, stored_notices
from .room.seat_list import Seat

log = logging.getLogger("mantis.server")


class Rooms(dict[str, Room]):
    """Every room on this process, by its table's code."""

    def __init__(
        self,
        services: RoomServices,
        close: Callable[[Connection, int, str], None],
        node: str = "",
    ) -> None:
        """``services``: what every room is handed (told of a room ``lost`` here); ``close``:
        closes a connection; ``node``: this process's name in logs."""
        super().__init__()
        self.services = replace(services, hooks=replace(services.hooks, lost=self.lost))
        self.close = close
        self.node = node

    def new(self, code: str, **table: Any) -> Room:
        """A new room for table ``code`` (not yet kept: its id is 0), as ``table`` says
        (``rules``, ``host``, ``seats``, ``owner``)."""
        return Room(self.services, table_id=0, code=code, **table)

    def restore(self, stored: StoredRoom) -> Room:
        """A room for a kept table, its game (if any) going on from where it was kept."""
        seats = [Seat.restored(s) for s in stored.seats]
        room = Room(
            self.services,
            table_id=stored.id,
            code=stored.code,
            rules=stored.rules,
            host=seats[stored.host],
            seats=seats,
        )
        game = stored.game
        if stored.state is RoomPhase.WAITING or game is None:
            return room
        infos = [SeatInfo(seat.name, seat.kind, seat.bot) for seat in seats]  # type: ignore[arg-type]
        record = replace(dealt(infos, game.seed), actions=game.moves)
        # Everyone was cut off by the restart: begin() has each seat wait for its person.
        notices = stored_notices(game.notices)
        room.begin(GameToPlay(game.id, game.number, record, notices, game.deadline))
        room.send_ratings()  # (read now: a rated game's end shows what it moved from)
        return room

    def lost(self, room: Room) -> None:
        """Another node holds this room's table now: stop running it here; the connections
        here are closed, and their clients reconnect (to the table where it runs now)."""
        if self.get(room.code) is room:
            del self[room.code]
            here = [c for c in room.connections() if not isinstance(c, RemoteClient)]
            room.stop()
            for connection in here:
                self.close(connection, 1012, "the table moved: connect again")
            log.warning("node %s: table %s is run by another node now", self.node, room.code)

    def listing(self) -> list[Listing]:
        """The public tables here, as ``GET /tables`` shows them (every page at once)."""
        return [room.listing() for room in self.values() if not room.rules.private]
