"""How a connection comes to a table: ``create``, ``join``, ``watch``, ``quick``, ``rekey``.

A connection's first message says who it is; ``Openings.open`` checks it
(its version, the player key it proves, the code it names, the name it sits
under) and seats it, or refuses it with an ``error`` and None.  Every table
it opens or seat it takes is in the store before the connection hears of
it.  Where a table runs is the ``Placement``'s to say (``placement``);
what every way of sitting down shares is ``seating``'s, quick play
``quick_play``'s.

``Openings`` is handed the services it uses and a small ``Server``: the
rooms this process runs, how to make one, how to answer a connection, ping
it and close it.
"""

from __future__ import annotations

import hmac
import math
import secrets

from ...players import BOTS
from ...players.seat_specs import online_seats_problem
from ...store.table_rules import TableRules
from ...store.tables_interface import RoomPhase, StoreError
from ...table.names import clean_name
from .. import protocol
from ..protocol import version1
from ..protocol.codes import new_code, normal_code, shown_code
from .directory import Directory
from .key_proofs import KeyProofs, Receive, Refused
from .limits.addresses import network_of
from .limits.server_limits import GuessLimiter, ServerLimits
from .limits.table_counts import TableCounts, Ticket
from .name_claims import Claim, Refusal
from .placement import Placement
from .quick_play import QuickPlay
from .room.audience import Connection
from .room.rated_games import table_clock
from .room.room import Room, RoomConfig
from .room.seat_list import Seat, hash_token
from .seating import Seating, Server, welcome


class Openings:
    """Acts on the first message of each connection."""

    def __init__(
        self,
        server: Server,
        placement: Placement,
        directory: Directory,
        config: RoomConfig,
        limits: ServerLimits,
        *,
        seating: Seating,
        guesses: GuessLimiter,
        proofs: KeyProofs,
        tables: TableCounts,
    ) -> None:
        self.server = server
        self.placement = placement
        self.directory = directory
        self.limits = limits
        self.seating = seating
        self.guesses = guesses
        self.proofs = proofs
        self.tables = tables
        self.quick = QuickPlay(server, seating, placement, directory, tables, config)

    async def open(
        self, connection: Connection, data: str | bytes, group: str, receive: Receive
    ) -> Room | None:
        """Act on a connection's first message; the room it is now in, or None (refused)."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            # Another version may open with what this one cannot read (a new field, a
            # new kind): it is told about the version, not about the message's shape.
            named = protocol.named_version(data)
            if named is not None and named not in protocol.SPOKEN:
                self._version_error(connection, named)
            else:
                self.server.error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return None
        if not isinstance(message, protocol.Hello):
            self.server.error(connection, protocol.BAD_MESSAGE, "start with create, join or watch")
            return None
        if message.protocol not in protocol.SPOKEN:
            self._version_error(connection, message.protocol)
            return None
        if isinstance(message, protocol.Rekey):
            await self._rekey(connection, message, receive)
            return None
        key_hash: str | None = None
        if isinstance(message, protocol.Sitting):
            said = await self.proofs.key_of(
                lambda m: self.server.send(connection, m), message, receive
            )
            if isinstance(said, Refused):
                self.server.error(connection, said.code, said.message)
                return None
            key_hash = said
        if isinstance(message, protocol.Quick):
            if message.protocol == version1.VERSION:
                self.server.error(connection, protocol.BAD_MESSAGE, "quick play needs protocol 2")
                return None
            return await self.quick.seat(connection, message, group, key_hash)
        if isinstance(message, protocol.Create):
            return await self._create(connection, message, group, key_hash)
        token = message.token if isinstance(message, protocol.Join) else None
        room = await self._find(connection, message.code, group, token)
        if room is None:
            return None
        if isinstance(message, protocol.Watch):
            if len(room.spectators) >= self.limits.spectators_per_table:
                self.server.error(
                    connection,
                    protocol.TOO_MANY_SPECTATORS,
                    f"table {shown_code(room.code)} has as many spectators as it takes",
                )
                return None
            room.attach(None, connection, message.protocol, clean_name(message.name))
            room.tell(connection, welcome(room, None, None))
            room.tell(connection, room.presence())  # nothing changed for the others
            room.tell(connection, room.ratings_state())
            room.send_backlog(connection)
            return room
        return await self._join(connection, room, message, group, key_hash)

    async def _rekey(
        self, connection: Connection, message: protocol.Rekey, receive: Receive
    ) -> None:
        """Replace a player key by another (``mantis key rotate``), then the connection ends."""
        moved = await self.proofs.rekey(lambda m: self.server.send(connection, m), message, receive)
        if isinstance(moved, Refused):
            self.server.error(connection, moved.code, moved.message)
        else:
            self.server.send(connection, protocol.Rekeyed(moved))

    def _version_error(self, connection: Connection, named: int) -> None:
        older = ", ".join(str(v) for v in protocol.SPOKEN if v != protocol.PROTOCOL_VERSION)
        self.server.error(
            connection,
            protocol.VERSION,
            f"this server speaks protocol {protocol.PROTOCOL_VERSION} (and {older}), your "
            f"Mantis speaks {named}: use the same version of Mantis as the server",
        )

    async def _find(
        self, connection: Connection, code: str, group: str, token: str | None = None
    ) -> Room | None:
        """The room ``code`` names, unless ``group`` has guessed too often (then None, told).

        A reclaim with a token that is right for the table is never held back:
        the wrong guesses may be anyone's behind the same address.
        """
        wait = await self.guesses.wait(group)
        room = self.server.rooms.get(normal_code(code))
        if room is not None and not room.table_id:  # (a table still being kept: not yet)
            room = None
        if wait > 0:
            if token is not None and room is not None and room.seat_with_token(token) is not None:
                return room
            self._held_back(connection, wait)
            return None
        if room is None and await self.placement.moving(code):
            # Handed from a draining node and not yet run by its next owner: the client
            # tries again in a moment (and lands where the table runs), no guess counted.
            self.server.busy(connection)
            return None
        if room is None:
            wait = await self.guesses.miss(group)
            if wait > 0:  # (misses sent together: those past the limit)
                self._held_back(connection, wait)
                return None
            self.server.error(
                connection,
                protocol.UNKNOWN_CODE,
                f"there is no table {shown_code(normal_code(code))!r} here",
            )
            return None
        return room

    def _held_back(self, connection: Connection, wait: float) -> None:
        """Tell ``connection`` its address guessed too often: it waits ``wait`` seconds."""
        wait = math.ceil(wait * 10) / 10  # (never early: a client waits this long)
        self.server.error(
            connection,
            protocol.TOO_MANY_GUESSES,
            f"too many wrong codes from your address: try again in {wait:.0f} s",
            retry_after=wait,
        )

    async def _create(
        self, connection: Connection, message: protocol.Create, group: str, key_hash: str | None
    ) -> Room | None:
        specs = [spec.strip().lower() for spec in message.seats]
        away_bot = message.away_bot.strip().lower()
        problem = online_seats_problem(specs, away_bot)
        clock = table_clock(message.rated, message.clock)
        if problem is None and isinstance(clock, str):
            problem = clock
        if problem is not None:
            self.server.error(connection, protocol.BAD_SEATS, problem)
            return None
        claim = await self.seating.claim_name(connection, message.name, key_hash, group)
        if claim is None:
            return None
        ticket = await self.tables.take(group)
        if isinstance(ticket, str):
            self.server.error(connection, ticket, self.tables.refusal(ticket))
            return None
        rules = TableRules(
            message.private,
            away_bot,
            clock,  # type: ignore[arg-type]
            message.talk,
            rated=message.rated,
        )
        room = None
        try:
            room = await self._open_table(connection, message, specs, claim, rules, ticket)
        finally:
            if room is None:  # (refused, or failed): the count it took is given back
                await self.tables.give_back(ticket)
        return room

    async def _open_table(
        self,
        connection: Connection,
        message: protocol.Create,
        specs: list[str],
        claim: Claim,
        rules: TableRules,
        ticket: Ticket,
    ) -> Room | None:
        """Open the table ``create`` asked for, counted already (``ticket``)."""
        player = await self.seating.bind(connection, claim)
        if isinstance(player, Refusal):
            return None
        seats: list[Seat] = []
        for spec in specs:
            seats.append(Seat("", "bot", spec) if spec in BOTS else Seat("", "human"))
        host_index = specs.index("human")
        host = seats[host_index]
        token = secrets.token_urlsafe(24)
        host.token_hash = hash_token(token)
        host.player, host.key_hash, host.network = player, claim.key_hash, network_of(claim.group)
        code = await new_code(self.directory.reserve_code, private=message.private)
        room = self.server.room(
            0,
            code,
            rules=rules,
            host=host,
            seats=seats,
            owner=ticket.group,
        )
        host.name = room.unique_name(claim.name, host_index)
        for s, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = room.unique_name(room._bot_name(), s)
        self.tables.opened(ticket, room)  # (keep_new puts it among the rooms at once)
        if not await self.seating.keep_new(connection, room, host_index):
            return None
        room.attach(host_index, connection, message.protocol)
        room.tell(connection, welcome(room, host_index, token))
        room.send_presence()
        room.send_ratings()
        return room

    async def _join(
        self,
        connection: Connection,
        room: Room,
        message: protocol.Join,
        group: str,
        key_hash: str | None,
    ) -> Room | None:
        token = message.token
        if token is not None:
            seat = room.seat_with_token(token)
            if seat is None:
                wait = await self.guesses.miss(group)
                if wait > 0:
                    self._held_back(connection, wait)
                    return None
                self.server.error(
                    connection,
                    protocol.BAD_TOKEN,
                    f"that seat token is not for table {shown_code(room.code)}",
                )
                return None
            held_by = room.seats[seat].key_hash
            if (
                held_by is not None
                and key_hash is not None
                and not hmac.compare_digest(held_by, key_hash)
            ):
                self.server.error(
                    connection, protocol.NAME_TAKEN, "that seat is another player's: not yours"
                )
                return None
            if room.seats[seat].left:
                self.server.error(
                    connection,
                    protocol.SEAT_LEFT,
                    f"you left table {room.code}: its seat is played for, and not yours again",
                )
                return None
            old = room.seats[seat].connection
            if old is not None and old is not connection:
                if await self.server.alive(old):
                    self.server.error(
                        connection,
                        protocol.SEAT_IN_USE,
                        "this seat is connected from somewhere else",
                    )
                    return None
                seat = room.seat_with_token(token)  # (seats before it may have moved meanwhile)
                if seat is None:
                    self.server.error(connection, protocol.BAD_TOKEN, "that seat was removed")
                    return None
                now = room.seats[seat].connection
                if now is not None and now is not old:
                    # Another reclaim with the same token took the seat while the old
                    # connection was being pinged: the first to come back has it.
                    self.server.error(
                        connection,
                        protocol.SEAT_IN_USE,
                        "this seat was just taken back by another connection",
                    )
                    return None
                if now is old:
                    room.detach(old)
                self.server.close(old, 1000, "replaced by a new connection")
        else:
            if room.phase_name is not RoomPhase.WAITING:
                self.server.error(
                    connection,
                    protocol.TABLE_FULL,
                    f"table {shown_code(room.code)} has started: watch it instead",
                )
                return None
            claim = await self.seating.claim_name(connection, message.name, key_hash, group)
            if claim is None:
                return None
            if key_hash is not None and room.holds_key(key_hash):
                self.seating.refuse_second_seat(connection, room)
                return None
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                self.server.error(
                    connection, protocol.TABLE_FULL, f"table {shown_code(room.code)} is full"
                )
                return None
            seat, token = taken
            try:
                player = await self.seating.bind(connection, claim)
                if isinstance(player, Refusal):
                    room.unsit(seat)
                    return None
                room.seats[seat].player = player
                await self.seating.keep_seats(room)
            except StoreError:
                room.unsit(seat)
                raise
        return await self.seating.seated(
            connection, room, seat, token, message.protocol, message.token is None
        )
