"""How a connection comes to a table: ``create``, ``join``, ``watch``, ``quick``, ``rekey``,
and ``my_tables`` (where a key sits: ``held_tables``).

A connection's first message, its hello, says who it is; ``Openings.open``
checks it (its version, the player key it proves, the code it names, the
name it sits under) and seats it, or returns why not (a ``Problem``: whoever
holds the connection tells it).  Every table it opens or seat it takes is in
the store before the connection hears of it.  Where a table runs is the
``Placement``'s to say (``placement``); what every way of sitting down
shares is ``seating``'s, quick play ``quick_play``'s.

``Openings`` is handed the rooms this process runs, how to reach a
connection (``Sender``: a challenge sent, an old connection pinged and
closed) and the services it uses.
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
from .held_tables import tables_held
from .key_proofs import KeyProofs, Receive
from .limits.addresses import network_of
from .limits.server_limits import GuessLimiter, ServerLimits
from .limits.table_counts import TableCounts, Ticket
from .name_claims import Claim
from .placement import Placement
from .problems import BUSY, Problem
from .quick_play import QuickPlay
from .room import seat_list
from .room.audience import Connection
from .room.rated_games import table_clock
from .room.room import Room
from .room.seat_list import Seat, hash_token
from .rooms import Rooms
from .seating import Seating, welcome
from .sending import Sender


class Openings:
    """Acts on the first message of each connection."""

    def __init__(
        self,
        rooms: Rooms,
        sender: Sender,
        placement: Placement,
        directory: Directory,
        limits: ServerLimits,
        *,
        seating: Seating,
        quick: QuickPlay,
        guesses: GuessLimiter,
        proofs: KeyProofs,
        tables: TableCounts,
    ) -> None:
        self.rooms = rooms
        self.sender = sender
        self.placement = placement
        self.directory = directory
        self.limits = limits
        self.seating = seating
        self.quick = quick
        self.guesses = guesses
        self.proofs = proofs
        self.tables = tables

    async def open(
        self, connection: Connection, data: str | bytes, group: str, receive: Receive
    ) -> Room | Problem | None:
        """Act on a connection's first message: the room it is now in, why it is refused
        (to be told), or None (answered already: a key replaced, or where a key sits; the
        connection ends)."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            # Another version may open with what this one cannot read (a new field, a
            # new kind): it is told about the version, not about the message's shape.
            named = protocol.named_version(data)
            if named is not None and named not in protocol.SPOKEN:
                return _version_problem(named)
            return Problem(protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
        if not isinstance(message, protocol.Hello):
            return Problem(protocol.BAD_MESSAGE, "start with create, join or watch")
        if message.protocol not in protocol.SPOKEN:
            return _version_problem(message.protocol)
        if isinstance(message, protocol.Rekey):
            return await self._rekey(connection, message, receive)
        if isinstance(message, protocol.MyTables):
            return await self._my_tables(connection, message, receive)
        key_hash: str | None = None
        if isinstance(message, protocol.Sitting):
            said = await self.proofs.key_of(
                lambda m: self.sender.send(connection, m), message, receive
            )
            if isinstance(said, Problem):
                return said
            key_hash = said
        if isinstance(message, protocol.Quick):
            if message.protocol == version1.VERSION:
                return Problem(protocol.BAD_MESSAGE, "quick play needs protocol 2")
            return await self.quick.seat(connection, message, group, key_hash)
        if isinstance(message, protocol.Create):
            return await self._create(connection, message, group, key_hash)
        token = message.token if isinstance(message, protocol.Join) else None
        room = await self._find(message.code, group, token)
        if isinstance(room, Problem):
            return room
        if isinstance(message, protocol.Watch):
            if len(room.spectators) >= self.limits.spectators_per_table:
                return Problem(
                    protocol.TOO_MANY_SPECTATORS,
                    f"table {shown_code(room.code)} has as many spectators as it takes",
                )
            room.attach(None, connection, message.protocol, clean_name(message.name))
            room.audience.tell(connection, welcome(room, None, None))
            room.audience.tell(connection, seat_list.presence(room.seats))  # (nothing new)
            room.audience.tell(connection, room.ratings.message())
            room.send_backlog(connection)
            return room
        return await self._join(connection, room, message, group, key_hash)

    async def _rekey(
        self, connection: Connection, message: protocol.Rekey, receive: Receive
    ) -> Problem | None:
        """Replace a player key by another (``mantis key rotate``), then the connection ends."""
        moved = await self.proofs.rekey(lambda m: self.sender.send(connection, m), message, receive)
        if isinstance(moved, Problem):
            return moved
        self.sender.send(connection, protocol.Rekeyed(moved))
        return None

    async def _my_tables(
        self, connection: Connection, message: protocol.MyTables, receive: Receive
    ) -> Problem | None:
        """Tell the owner of a key (proved first) where it holds seats; the connection ends."""
        if message.protocol < protocol.MY_TABLES_VERSION:
            return Problem(
                protocol.BAD_MESSAGE, f"my_tables needs protocol {protocol.MY_TABLES_VERSION}"
            )
        key = await self.proofs.prove(
            lambda m: self.sender.send(connection, m), message.player, receive
        )
        if isinstance(key, Problem):
            return key
        self.sender.send(connection, await tables_held(self.proofs.store, key))
        return None

    async def _find(self, code: str, group: str, token: str | None = None) -> Room | Problem:
        """The room ``code`` names, unless ``group`` has guessed too often.

        A reclaim with a token that is right for the table is never held back:
        the wrong guesses may be anyone's behind the same address.
        """
        wait = await self.guesses.wait(group)
        room = self.rooms.get(normal_code(code))
        if room is not None and not room.table_id:  # (a table still being kept: not yet)
            room = None
        if wait > 0:
            if room is not None and token is not None and _holds(room, token):
                return room
            return _held_back(wait)
        if room is None and await self.placement.moving(code):
            # Handed from a draining node and not yet run by its next owner: the client
            # tries again in a moment (and lands where the table runs), no guess counted.
            return BUSY
        if room is None:
            wait = await self.guesses.miss(group)
            if wait > 0:  # (misses sent together: those past the limit)
                return _held_back(wait)
            return Problem(
                protocol.UNKNOWN_CODE, f"there is no table {shown_code(normal_code(code))!r} here"
            )
        return room

    async def _create(
        self, connection: Connection, message: protocol.Create, group: str, key_hash: str | None
    ) -> Room | Problem:
        specs = [spec.strip().lower() for spec in message.seats]
        away_bot = message.away_bot.strip().lower()
        problem = online_seats_problem(specs, away_bot)
        clock = table_clock(message.rated, message.clock)
        if problem is None and isinstance(clock, str):
            problem = clock
        if problem is not None:
            return Problem(protocol.BAD_SEATS, problem)
        claim = await self.seating.names.check(message.name, key_hash, group)
        if isinstance(claim, Problem):
            return claim
        ticket = await self.tables.take(group)
        if isinstance(ticket, str):
            return Problem(ticket, self.tables.refusal(ticket))
        rules = TableRules(
            message.private,
            away_bot,
            clock,  # type: ignore[arg-type]
            message.talk,
            rated=message.rated,
        )
        opened: Room | Problem = BUSY
        try:
            opened = await self._open_table(connection, message, specs, claim, rules, ticket)
        finally:
            if not isinstance(opened, Room):  # (refused, or failed): its count is given back
                await self.tables.give_back(ticket)
        return opened

    async def _open_table(
        self,
        connection: Connection,
        message: protocol.Create,
        specs: list[str],
        claim: Claim,
        rules: TableRules,
        ticket: Ticket,
    ) -> Room | Problem:
        """Open the table ``create`` asked for, counted already (``ticket``)."""
        player = await self.seating.names.bind(claim)
        if isinstance(player, Problem):
            return player
        seats: list[Seat] = []
        for spec in specs:
            seats.append(Seat("", "bot", spec) if spec in BOTS else Seat("", "human"))
        host_index = specs.index("human")
        host = seats[host_index]
        token = secrets.token_urlsafe(24)
        host.token_hash = hash_token(token)
        host.player, host.key_hash, host.network = player, claim.key_hash, network_of(claim.group)
        code = await new_code(self.directory.reserve_code, private=message.private)
        room = self.rooms.new(code, rules=rules, host=host, seats=seats, owner=ticket.group)
        host.name = seat_list.unique_name(seats, claim.name, host_index)
        for s, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = seat_list.unique_name(seats, seat_list.bot_name(seats), s)
        self.tables.opened(ticket, room)  # (keep_new puts it among the rooms at once)
        refused = await self.seating.keep_new(room, host_index)
        if refused is not None:
            return refused
        room.attach(host_index, connection, message.protocol)
        room.audience.tell(connection, welcome(room, host_index, token))
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
    ) -> Room | Problem:
        token = message.token
        if token is not None:
            taken_back = await self._take_back(connection, room, token, group, key_hash)
            if isinstance(taken_back, Problem):
                return taken_back
            seat = taken_back
        else:
            sat = await self._sit(connection, room, message.name, group, key_hash)
            if isinstance(sat, Problem):
                return sat
            seat, token = sat
        return await self.seating.seated(
            connection, room, seat, token, message.protocol, message.token is None
        )

    async def _take_back(
        self, connection: Connection, room: Room, token: str, group: str, key_hash: str | None
    ) -> int | Problem:
        """The seat ``token`` holds at ``room``, taken back by ``connection`` (its old
        connection, if it does not answer, replaced), or why not."""
        seat = seat_list.seat_with_token(room.seats, token)
        if seat is None:
            wait = await self.guesses.miss(group)
            if wait > 0:
                return _held_back(wait)
            return Problem(
                protocol.BAD_TOKEN, f"that seat token is not for table {shown_code(room.code)}"
            )
        held_by = room.seats[seat].key_hash
        if (
            held_by is not None
            and key_hash is not None
            and not hmac.compare_digest(held_by, key_hash)
        ):
            return Problem(protocol.NAME_TAKEN, "that seat is another player's: not yours")
        if room.seats[seat].left:
            return Problem(
                protocol.SEAT_LEFT,
                f"you left table {room.code}: its seat is played for, and not yours again",
            )
        old = room.seats[seat].connection
        if old is None or old is connection:
            return seat
        if await self.sender.alive(old):
            return Problem(protocol.SEAT_IN_USE, "this seat is connected from somewhere else")
        seat = seat_list.seat_with_token(room.seats, token)  # (seats may have moved meanwhile)
        if seat is None:
            return Problem(protocol.BAD_TOKEN, "that seat was removed")
        now = room.seats[seat].connection
        if now is not None and now is not old:
            # Another reclaim with the same token took the seat while the old
            # connection was being pinged: the first to come back has it.
            return Problem(
                protocol.SEAT_IN_USE, "this seat was just taken back by another connection"
            )
        if now is old:
            room.detach(old)
        self.sender.close(old, 1000, "replaced by a new connection")
        return seat

    async def _sit(
        self, connection: Connection, room: Room, name: str, group: str, key_hash: str | None
    ) -> tuple[int, str] | Problem:
        """A newcomer's open seat at ``room`` and its token, their name held, or why not."""
        if room.phase_name is not RoomPhase.WAITING:
            return Problem(
                protocol.TABLE_FULL, f"table {shown_code(room.code)} has started: watch it instead"
            )
        claim = await self.seating.names.check(name, key_hash, group)
        if isinstance(claim, Problem):
            return claim
        if key_hash is not None and seat_list.holds_key(room.seats, key_hash):
            return self.seating.second_seat(room)
        taken = room.sit(claim.name, key_hash, network_of(group))
        if taken is None:
            return Problem(protocol.TABLE_FULL, f"table {shown_code(room.code)} is full")
        seat, token = taken
        try:
            player = await self.seating.names.bind(claim)
            if isinstance(player, Problem):
                room.unsit(seat)
                return player
            room.seats[seat].player = player
            await self.seating.keep_seats(room)
        except StoreError:
            room.unsit(seat)
            raise
        return seat, token


def _holds(room: Room, token: str) -> bool:
    """Whether ``token`` is the token of a seat at ``room``."""
    return seat_list.seat_with_token(room.seats, token) is not None


def _version_problem(named: int) -> Problem:
    older = ", ".join(str(v) for v in protocol.SPOKEN if v != protocol.PROTOCOL_VERSION)
    return Problem(
        protocol.VERSION,
        f"this server speaks protocol {protocol.PROTOCOL_VERSION} (and {older}), your "
        f"Mantis speaks {named}: use the same version of Mantis as the server",
    )


def _held_back(wait: float) -> Problem:
    """Why a connection's address waits ``wait`` seconds: it guessed too often."""
    wait = math.ceil(wait * 10) / 10  # (never early: a client waits this long)
    return Problem(
        protocol.TOO_MANY_GUESSES,
        f"too many wrong codes from your address: try again in {wait:.0f} s",
        retry_after=wait,
    )
