"""How a connection comes to a table: ``create``, ``join``, ``watch``, ``quick``, ``rekey``.

A connection's first message says who it is; ``Openings.open`` checks it
(its version, the player key it proves, the code it names, the name it sits
under) and seats it, or refuses it with an ``error`` and None.  Every table
it opens or seat it takes is in the store before the connection hears of
it.  Where a table runs is the ``Placement``'s to say (``placement``).

``Openings`` is handed the services it uses and a small ``Server``: the
rooms this process runs, how to make one, how to answer a connection, ping
it and close it.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import math
import secrets
from typing import Any, Protocol

from ..players import BOTS
from ..players.seat_specs import online_seats_problem
from ..store.table_store import RoomPhase, StoreError, TableStore
from ..table.names import clean_name
from . import protocol, version1
from .addresses import network_of
from .codes import new_code, normal_code, shown_code
from .directory import Directory
from .key_proof import KeyProofs, Receive, Refused
from .limits import GuessLimiter, ServerLimits
from .links import RemoteClient
from .name_claims import Claim, NameClaims, Refusal
from .outages import CLUSTER_ERRORS
from .placement import Placement
from .rated_games import table_clock
from .room import Connection, Room, RoomConfig, Rules, Seat, hash_token
from .table_counts import TableCounts

log = logging.getLogger("mantis.server")

#: Tries to seat a quick-play newcomer (a seat found may be gone when it is taken).
QUICK_TRIES = 5


class QuickElsewhere(Exception):
    """Quick play found a seat at a table another node runs: relay the connection there."""

    def __init__(self, owner: str, code: str) -> None:
        super().__init__(code)
        self.owner = owner
        self.code = code


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


class Openings:
    """Acts on the first message of each connection."""

    def __init__(
        self,
        server: Server,
        placement: Placement,
        store: TableStore,
        directory: Directory,
        config: RoomConfig,
        limits: ServerLimits,
        *,
        guesses: GuessLimiter,
        names: NameClaims,
        proofs: KeyProofs,
        tables: TableCounts,
    ) -> None:
        self.server = server
        self.placement = placement
        self.store = store
        self.directory = directory
        self.config = config
        self.limits = limits
        self.guesses = guesses
        self.names = names
        self.proofs = proofs
        self.tables = tables

    async def open(
        self, connection: Connection, data: str | bytes, group: str, receive: Receive
    ) -> Room | None:
        """Act on a connection's first message; the room it is now in, or None (refused)."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            # Another version may open with what this one cannot read (a new field, a
            # new kind): it is told about the version, not about the message's shape.
            claimed = protocol.claimed_version(data)
            if claimed is not None and claimed not in protocol.SPOKEN:
                self._version_error(connection, claimed)
            else:
                self.server.error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return None
        if not isinstance(message, protocol.Opening):
            self.server.error(connection, protocol.BAD_MESSAGE, "start with create, join or watch")
            return None
        if message.protocol not in protocol.SPOKEN:
            self._version_error(connection, message.protocol)
            return None
        if isinstance(message, protocol.Rekey):
            await self._rekey(connection, message, receive)
            return None
        key_hash: str | None = None
        if isinstance(message, protocol.Seating):
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
            return await self._quick(connection, message, group, key_hash)
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

    def _version_error(self, connection: Connection, claimed: int) -> None:
        older = ", ".join(str(v) for v in protocol.SPOKEN if v != protocol.PROTOCOL_VERSION)
        self.server.error(
            connection,
            protocol.VERSION,
            f"this server speaks protocol {protocol.PROTOCOL_VERSION} (and {older}), your "
            f"Mantis speaks {claimed}: use the same version of Mantis as the server",
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
            if token is not None and room is not None and room.claim(token) is not None:
                return room
            wait = math.ceil(wait * 10) / 10  # (never early: a client waits this long)
            self.server.error(
                connection,
                protocol.TOO_MANY_GUESSES,
                f"too many wrong codes from your address: try again in {wait:.0f} s",
                retry_after=wait,
            )
            return None
        if room is None and await self.placement.moving(code):
            # Handed from a draining node and not yet run by its next owner: the client
            # tries again in a moment (and lands where the table runs), no guess counted.
            self.server.busy(connection)
            return None
        if room is None:
            await self.guesses.missed(group)
            self.server.error(
                connection,
                protocol.UNKNOWN_CODE,
                f"there is no table {shown_code(normal_code(code))!r} here",
            )
            return None
        return room

    async def _claim(
        self, connection: Connection, name: str, key_hash: str | None, group: str
    ) -> Claim | None:
        """The name someone is about to sit under, checked (None: refused, and told)."""
        said = await self.names.check(name, key_hash, group)
        if isinstance(said, Refusal):
            self.server.error(connection, said.code, said.message)
            return None
        return said

    async def _bind(self, connection: Connection, claim: Claim) -> str | None | Refusal:
        """The seat is taken: the name ``claim`` holds now (its ``name_key``; None: no key);
        a refusal (told) if another key took it meanwhile."""
        bound = await self.names.bind(claim)
        if isinstance(bound, Refusal):
            self.server.error(connection, bound.code, bound.message)
        return bound

    def _refuse_second_seat(self, connection: Connection, room: Room) -> None:
        self.server.error(
            connection,
            protocol.SAME_PLAYER,
            f"your player key holds a seat at table {shown_code(room.code)} already: "
            "one seat a player",
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
        claim = await self._claim(connection, message.name, key_hash, group)
        if claim is None:
            return None
        refused = await self.tables.take(group)
        if refused is not None:
            self.server.error(connection, refused, self.tables.refusal(refused))
            return None
        rules = Rules(clock, message.talk, rated=message.rated)  # type: ignore[arg-type]
        room = await self._open_table(connection, message, specs, away_bot, group, claim, rules)
        if room is None:
            await self.tables.give_back(group)
        else:
            self.tables.opened(group, room)
        return room

    async def _open_table(
        self,
        connection: Connection,
        message: protocol.Create,
        specs: list[str],
        away_bot: str,
        group: str,
        claim: Claim,
        rules: Rules,
    ) -> Room | None:
        """Open the table ``create`` asked for, counted already for ``group``."""
        player = await self._bind(connection, claim)
        if isinstance(player, Refusal):
            return None
        seats: list[Seat] = []
        for spec in specs:
            seats.append(Seat("", "bot", spec) if spec in BOTS else Seat("", "human"))
        host_index = specs.index("human")
        host = seats[host_index]
        token = secrets.token_urlsafe(24)
        host.token_hash = hash_token(token)
        host.player, host.key_hash, host.network = player, claim.key_hash, network_of(group)
        code = await new_code(self.directory.claim_code, private=message.private)
        room = self.server.room(
            0,
            code,
            private=message.private,
            host=host,
            away_bot=away_bot,
            seats=seats,
            rules=rules,
            owner=group,
        )
        host.name = room.unique_name(claim.name, host_index)
        for s, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = room.unique_name(room._bot_name(), s)
        if not await self._keep_new(connection, room, host_index):
            return None
        room.attach(host_index, connection, message.protocol)
        room.tell(connection, welcome(room, host_index, token))
        room.send_presence()
        room.send_ratings()
        return room

    async def _keep_new(self, connection: Connection, room: Room, host: int) -> bool:
        """Keep a new room's table (whether it could be kept: if not, the caller is told)."""
        code, rules = room.code, room.rules
        await self.placement.claim(code)  # (a new code: nobody else holds it)
        # The code is taken before the table is kept: another table created while this
        # one is being written must not draw the same code.
        self.server.rooms[code] = room
        try:
            room.table_id = await self.store.create_table(
                code,
                private=room.private,
                host=host,
                away_bot=room.away_bot,
                seats=[seat.stored() for seat in room.seats],
                clock=rules.clock,
                talk=rules.talk,
                quick=rules.quick,
                rated=rules.rated,
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

    async def _quick(
        self, connection: Connection, message: protocol.Quick, group: str, key_hash: str | None
    ) -> Room | None:
        """Seat a person at the oldest quick-play table of that size with room, or a new one.

        A new one counts as a table opened by ``group`` (its address): an
        address at its limit of tables is seated only where there is room.
        On a cluster the table found may run on another node: the connection
        is then relayed there (``QuickElsewhere``), and that node seats it at
        the table found (``RemoteClient.quick_at``) without asking again.
        """
        claim = await self._claim(connection, message.name, key_hash, group)
        if claim is None:
            return None
        at = connection.quick_at if isinstance(connection, RemoteClient) else None
        for attempt in range(QUICK_TRIES):
            if attempt == 0 and at is not None:
                seat_at: tuple[str, bool] | None = (at, False)  # found by the person's node
            else:
                seat_at = await self._quick_seat(message.players, group)
            if seat_at is None:
                self.server.error(
                    connection,
                    protocol.TOO_MANY_TABLES,
                    self.tables.refusal(protocol.TOO_MANY_TABLES),
                )
                return None
            code, opened = seat_at
            if opened:
                room = self._quick_room(code, message.players, group)
                if not await self._keep_new(connection, room, 0):
                    await self.directory.quick_free(code, message.players, 0)
                    await self.tables.give_back(group)
                    return None
                self.tables.opened(group, room)
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
                self._refuse_second_seat(connection, room)
                return None
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                continue  # it started, or filled, meanwhile: look again
            seat, token = taken
            player = await self._bind(connection, claim)
            if isinstance(player, Refusal):
                room.unsit(seat)
                return None
            room.seats[seat].player = player
            await self.store.set_seats(room.table_id, [seat.stored() for seat in room.seats])
            return await self._seated(connection, room, seat, token, message.protocol, True)
        self.server.error(
            connection, protocol.TABLE_FULL, "no quick-play table could seat you: try again"
        )
        return None

    async def _quick_seat(self, players: int, group: str) -> tuple[str, bool] | None:
        """A seat from the directory (``Directory.quick_seat``), with a fresh code to open a
        table with if ``group`` may open one (counted; given back if not opened)."""
        may_open = await self.tables.take(group) is None
        fresh = await new_code(self.directory.claim_code) if may_open else None
        seat_at = await self.directory.quick_seat(players, fresh)
        if seat_at is None or not seat_at[1]:
            if may_open:
                await self.tables.give_back(group)
            if fresh is not None:
                await self.directory.release_code(fresh)
        return seat_at

    def _quick_room(self, code: str, players: int, group: str) -> Room:
        """A new quick-play table of ``players`` open seats (the first to sit is its host)."""
        seats = [Seat("", "human") for _ in range(players)]
        return self.server.room(
            0,
            code,
            private=False,
            host=seats[0],
            away_bot=self.config.quick_bot,
            seats=seats,
            rules=Rules(protocol.QUICK_CLOCK, True, True, rated=True),
            owner=group,
        )

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
            seat = room.claim(token)
            if seat is None:
                await self.guesses.missed(group)
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
                seat = room.claim(token)  # (seats before it may have moved meanwhile)
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
            if room.state is not RoomPhase.WAITING:
                self.server.error(
                    connection,
                    protocol.TABLE_FULL,
                    f"table {shown_code(room.code)} has started: watch it instead",
                )
                return None
            claim = await self._claim(connection, message.name, key_hash, group)
            if claim is None:
                return None
            if key_hash is not None and room.holds_key(key_hash):
                self._refuse_second_seat(connection, room)
                return None
            taken = room.sit(claim.name, key_hash, network_of(group))
            if taken is None:
                self.server.error(
                    connection, protocol.TABLE_FULL, f"table {shown_code(room.code)} is full"
                )
                return None
            seat, token = taken
            try:
                player = await self._bind(connection, claim)
                if isinstance(player, Refusal):
                    room.unsit(seat)
                    return None
                room.seats[seat].player = player
                await self.store.set_seats(room.table_id, [seat.stored() for seat in room.seats])
            except StoreError:
                room.unsit(seat)
                raise
        return await self._seated(
            connection, room, seat, token, message.protocol, message.token is None
        )

    async def _seated(
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
    return protocol.Welcome(protocol.PROTOCOL_VERSION, code, seat, token, room.room_state(seat))
