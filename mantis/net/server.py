"""The table server: rooms by code, connections in, the public stream out.

``TableServer`` listens for WebSocket connections (and answers two plain
HTTP requests on the same port: ``GET /status`` and ``GET /tables``).  It is
the only authority: a client says who it is (``create``, ``join`` with a
code, ``watch``, or ``quick`` for any quick-play table), then sends intents,
and every one is checked — its shape, its size, its rate, that it comes
from the seat it is for, on that seat's turn, and that the rules allow it —
before anything happens.  It speaks protocol versions 1 and 2: a version-1
client hears what version 1 has (``net.version1``).

Everything a table needs to go on is in the server's store before anyone
hears of it, so ``load`` brings every table back after a restart.

A server is handed what it uses: a ``TableStore`` (what lasts), a
``Directory`` (what spans tables: codes, the public list, counts per
address), the ``RoomConfig`` its rooms run with, the ``ServerLimits`` it
enforces and a ``Clock``.  ``mantis serve`` (``serve_cli``) builds them.

What one party may cost is bounded (``ServerLimits``; docs/protocol.md):
its sockets and connections, its tables, its spectators at a table, its
share of bot moves when the server is busy, its wrong guesses.  Counts per
address group go through the directory, so they hold across a cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import math
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import timedelta
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import parse_qs

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from .. import __version__
from ..engine import SeatInfo, game_seed
from ..players import BOTS
from ..players.clock import Clock, SystemClock, within
from ..players.seat_specs import online_seats_problem
from ..store.table_store import RoomPhase, StoredRoom, StoreError, TableStore
from ..table import dealt
from ..table.names import clean_line, clean_name, name_key
from . import protocol, version1
from .addresses import ClientAddresses, Network
from .bot_share import BotShare
from .codes import new_code, normal_code, shown_code
from .directory import Directory, Listing
from .limits import GuessLimiter, ServerLimits, SharedCounts, TokenBucket
from .open_files import OVERFLOW
from .plain_http import respond
from .rematch import OFFERS_PER_MINUTE
from .room import Connection, Over, Room, RoomConfig, Rules, Seat, hash_token, stored_notices
from .sockets import SocketGate, gated

log = logging.getLogger("mantis.server")

#: Seconds a new connection has to say who it is.
HELLO_TIMEOUT = 10.0
#: Messages a second a connection may send, on average and in a burst.
RATE, BURST = 10.0, 30.0
#: Messages dropped for flooding before the connection is closed.
MAX_DROPPED = 100
#: Lines of talk a connection may say: one every two seconds on average, five at once.
TALK_RATE, TALK_BURST = 0.5, 5.0
#: Tries to seat a quick-play newcomer (a seat found may be gone when it is taken).
QUICK_TRIES = 5
#: Seconds a seat's old connection has to answer a ping before a reconnect replaces it.
LIVENESS_TIMEOUT = 2.0
#: A finished room nobody is connected to is dropped after this long (its record is
#: kept, and every player has it already); a waiting one after ``ServerLimits.idle_waiting``.
OVER_ROOM = timedelta(minutes=5)
#: Seconds between two looks for rooms to drop (and counts to keep alive).
SWEEP_EVERY = 30.0
#: Public tables in one page of ``GET /tables``.
PAGE_SIZE = 50
#: Seconds the order of the public tables is reused for ``GET /tables`` pages.
LISTING_AGE = 1.0
#: Players in one page of ``GET /leaderboard``.
LEADERBOARD_PAGE = 50
#: Seconds a page of ``GET /leaderboard`` is reused (a request costs a read at most this often).
LEADERBOARD_AGE = 5.0
#: Leaderboard pages kept for reuse at most.
LEADERBOARD_PAGES_KEPT = 100

Holder = tuple[str | None, str | None]
"""Who sits down: the name they hold with a player key (``name_key``) and the key's digest."""


class TableServer:
    """Every room on this server, and the connections to them."""

    def __init__(
        self,
        store: TableStore,
        directory: Directory,
        *,
        config: RoomConfig | None = None,
        clock: Clock | None = None,
        seed: int | None = None,
        limits: ServerLimits | None = None,
        trusted_proxies: Sequence[Network] = (),
        hello_timeout: float = HELLO_TIMEOUT,
        node: str = "",
    ) -> None:
        """A server keeping its tables in ``store``, sharing codes and counts in ``directory``.

        ``seed``: deal table *i* from ``game_seed(seed, i)`` instead of a
        secret seed (for the server's own tests only).  ``trusted_proxies``:
        the reverse proxies whose ``X-Forwarded-For`` is believed.  ``node``:
        this server's name among several sharing one directory.
        """
        self.store = store
        self.directory = directory
        self.config = config or RoomConfig()
        self.clock: Clock = clock or SystemClock()
        self.seed = seed
        self.limits = limits or ServerLimits()
        self.addresses = ClientAddresses(trusted_proxies)
        self.hello_timeout = hello_timeout
        self.node = node
        self.rooms: dict[str, Room] = {}
        self.connections: set[ServerConnection] = set()
        limits = self.limits
        self.sockets = SocketGate(
            limits.max_connections + OVERFLOW,
            limits.connections_per_address + OVERFLOW,
            self.addresses,
            limits.send_buffer,
        )
        self.guesses = GuessLimiter(directory, limits.guesses, limits.guess_window)
        self.tables_held = SharedCounts(directory, "tables:")
        """Tables waiting or playing, by the address group that created them."""
        self.connections_held = SharedCounts(directory, "connections:")
        self.counted: dict[str, set[Room]] = {}
        """The rooms this node counts in ``tables_held``, by group."""
        self.bots = BotShare(self.clock, limits.bot_moves)
        self.dropped_slow = 0
        """Connections dropped for not reading what they were sent."""
        self.background: set[asyncio.Task[None]] = set()
        self._started = 0
        self._talk: dict[ServerConnection, TokenBucket] = {}
        """Each connection's allowance of talk."""
        self._order: list[Room | Listing] = []
        self._order_at: float | None = None
        self._leaders: dict[int, tuple[float, bytes, int]] = {}
        """Leaderboard pages read lately: (when, body, players in all) by page number."""

    @property
    def max_connections(self) -> int:
        """Connections this server takes at once."""
        return self.limits.max_connections

    # ------------------------------------------------------------------ lifecycle

    async def load(self) -> None:
        """Bring back every table kept in the store (call on the running loop)."""
        for stored in await self.store.load_live(OVER_ROOM):
            await self.directory.claim_code(stored.code)
            room = self.rooms[stored.code] = self._restore(stored)
            if room.rules.quick and room.state is RoomPhase.WAITING:
                await room.seated()  # offered again; bots fill it in time

    def _restore(self, stored: StoredRoom) -> Room:
        """A room for a kept table, its game (if any) going on from where it was kept."""
        seats = [Seat.restored(s) for s in stored.seats]
        room = self._room(
            stored.id,
            stored.code,
            private=stored.private,
            host=seats[stored.host],
            away_bot=stored.away_bot,
            seats=seats,
            rules=Rules(stored.clock, stored.talk, stored.quick, stored.rated),
        )
        game = stored.game
        if stored.state is RoomPhase.WAITING or game is None:
            return room
        infos = [SeatInfo(seat.name, seat.kind, seat.bot) for seat in seats]  # type: ignore[arg-type]
        record = replace(dealt(infos, game.seed), actions=game.moves)
        # Everyone was cut off by the restart: begin() has each seat wait for its person.
        room.begin(game.id, game.number, record, stored_notices(game.notices), game.deadline)
        return room

    def _room(self, table_id: int, code: str, **table: Any) -> Room:
        return Room(
            self.config,
            self.store,
            self._send,
            self.clock,
            directory=self.directory,
            seeds=self._next_seed,
            table_id=table_id,
            code=code,
            bots=self.bots,
            **table,
        )

    async def run(
        self,
        host: str,
        port: int,
        stop: asyncio.Event,
        ready: Callable[[str, int], None] | None = None,
    ) -> None:
        """Serve on ``host``:``port`` until ``stop`` is set; calls ``ready(host, port)`` once up.

        However it ends (``stop``, a cancelled task, an error), the games are
        stopped before it returns (every move they made is kept already).
        The store and the directory are the caller's to close.
        """
        await self.load()
        sweeper: asyncio.Task[None] | None = None
        try:
            async with serve(
                self.handler,
                host,
                port,
                process_request=self.process_request,
                create_connection=gated(self.sockets),
                max_size=protocol.MAX_CLIENT_MESSAGE,
                compression=None,
                open_timeout=10,
                ping_interval=20,
                ping_timeout=20,
            ) as server:
                bound = next(iter(server.sockets)).getsockname()
                if ready is not None:
                    ready(host, bound[1])
                sweeper = asyncio.get_running_loop().create_task(self._sweep())
                await stop.wait()
                server.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(server.wait_closed(), 5)
        finally:
            if sweeper is not None:
                sweeper.cancel()
            self.bots.stop()
            for room in self.rooms.values():
                room.stop()
            for task in list(self.background):
                task.cancel()

    async def _sweep(self) -> None:
        """Every ``SWEEP_EVERY`` seconds: drop rooms nobody is at any more (their tables
        stay in the store; a waiting one is closed), and keep this node's counts alive."""
        while True:
            await self.clock.sleep(SWEEP_EVERY)
            try:
                await self._drop_idle_rooms()
                await self._settle()
                await self.tables_held.refresh()
                await self.connections_held.refresh()
            except Exception as exc:  # the store or the directory away: next time, then
                log.error("could not tidy the rooms up: %s", exc)

    async def _drop_idle_rooms(self) -> None:
        now = self.clock.now()
        for code, room in list(self.rooms.items()):
            if room.state is RoomPhase.PLAYING or room.connections():
                continue
            if room.state is RoomPhase.WAITING:
                idle = self.limits.idle_waiting
            else:
                idle = OVER_ROOM.total_seconds()
            if room.idle_since <= now - idle:
                del self.rooms[code]
                room.stop()
                if room.state is RoomPhase.WAITING:
                    if room.rules.quick:
                        await self.directory.quick_free(code, len(room.seats), 0)
                    await self.store.drop_waiting(room.table_id)
                await self.directory.release_code(code)

    async def _settle(self, group: str | None = None) -> None:
        """Give back the count of every table this node counted (``group``'s, or every
        group's) that is no longer waiting or playing: its game ended, or its waiting
        room was closed."""
        groups = list(self.counted) if group is None else [group]
        for name in groups:
            rooms = self.counted.get(name, set())
            for room in list(rooms):
                if room.state is RoomPhase.OVER or self.rooms.get(room.code) is not room:
                    rooms.discard(room)
                    await self.tables_held.give_back(name)
            if not rooms:
                self.counted.pop(name, None)

    def live_tables(self) -> int:
        """Tables waiting or playing on this node."""
        return sum(1 for room in self.rooms.values() if room.state is not RoomPhase.OVER)

    # ------------------------------------------------------------------ sending

    def send(self, connection: ServerConnection, message: protocol.ServerMessage) -> None:
        """Send without waiting (a slow client never holds up a table)."""
        self._send((connection,), protocol.encode(message).decode())

    def _send(self, connections: Iterable[Connection], data: str) -> None:
        """Put ``data`` on each connection without waiting; drop any that stopped reading.

        One frame for all of them (encoded once).  A connection with more than
        ``max_buffered`` bytes still waiting to be written is not reading what
        it is sent: it is dropped at once rather than left to hold memory.
        """
        limit = self.limits.max_buffered
        reading = []
        for connection in cast(Iterable[ServerConnection], connections):
            transport = connection.transport
            if transport.get_write_buffer_size() > limit:
                if not transport.is_closing():
                    self.dropped_slow += 1
                    transport.abort()
                continue
            reading.append(connection)
        broadcast(reading, data)

    def _error(
        self,
        connection: ServerConnection,
        code: str,
        message: str,
        retry_after: float | None = None,
    ) -> None:
        self.send(connection, protocol.Error(code, message, retry_after))

    # ------------------------------------------------------------------ plain HTTP

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """``/status`` and ``/tables`` for browsers and scripts; WebSocket upgrades pass."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path, _, query = request.path.partition("?")
        if path not in ("/status", "/tables", "/leaderboard"):
            text = b"Not found: try /status, /tables or /leaderboard\n"
            return respond(request, HTTPStatus.NOT_FOUND, text, "text/plain; charset=utf-8")
        if path == "/tables":
            return await self._tables_page(request, query)
        if path == "/leaderboard":
            return await self._leaderboard_page(request, query)
        playing = sum(1 for room in self.rooms.values() if room.state is RoomPhase.PLAYING)
        body: object = {
            "version": __version__,
            "protocol": protocol.PROTOCOL_VERSION,
            "tables": len(self.rooms),
            "playing": playing,
            "connections": len(self.connections),
        }
        return respond(request, HTTPStatus.OK, json.dumps(body).encode(), "application/json")

    async def _tables_page(self, request: Request, query: str) -> Response:
        """One page of the public tables (``?page=N``, from 1): ``PAGE_SIZE`` at most.

        The order of the tables is taken at most once a ``LISTING_AGE``, and a
        page is built from its own tables only: a request costs the same with
        ten tables or ten thousand, and play never waits for a whole list.
        """
        number = _page_number(query)
        if number < 1:
            text = b"Bad request: page is a whole number from 1\n"
            return respond(request, HTTPStatus.BAD_REQUEST, text, "text/plain; charset=utf-8")
        order = await self._listing_order()
        start = (number - 1) * PAGE_SIZE
        page = [
            entry.listing() if isinstance(entry, Room) else entry
            for entry in order[start : start + PAGE_SIZE]
        ]
        count = max(1, -(-len(order) // PAGE_SIZE))
        links = [f'</tables?page={number + 1}>; rel="next"'] if number < count else []
        if number > 1:
            links.append(f'</tables?page={min(number - 1, count)}>; rel="prev"')
        headers = [("X-Total-Count", str(len(order))), ("X-Page-Size", str(PAGE_SIZE))]
        if links:
            headers.append(("Link", ", ".join(links)))
        body = json.dumps(page).encode()
        return respond(request, HTTPStatus.OK, body, "application/json", headers)

    async def _leaderboard_page(self, request: Request, query: str) -> Response:
        """One page of the players rated here (``?page=N``, from 1): ``LEADERBOARD_PAGE`` at
        most, best first (the highest low end of the rating, ``rating - plus_minus``; then
        more games; then the name in lower case).  A page is read from the store at most
        once a ``LEADERBOARD_AGE``."""
        number = _page_number(query)
        if number < 1:
            text = b"Bad request: page is a whole number from 1\n"
            return respond(request, HTTPStatus.BAD_REQUEST, text, "text/plain; charset=utf-8")
        now = self.clock.now()
        kept = self._leaders.get(number)
        if kept is None or now - kept[0] >= LEADERBOARD_AGE:
            start = (number - 1) * LEADERBOARD_PAGE
            try:
                players, total = await self.store.leaderboard(start, LEADERBOARD_PAGE)
            except StoreError as exc:
                text = f"The server's store cannot answer now: {exc}\n".encode()
                return respond(
                    request, HTTPStatus.SERVICE_UNAVAILABLE, text, "text/plain; charset=utf-8"
                )
            rows = [
                {
                    "rank": start + i + 1,
                    "name": player.name,
                    "games": player.games,
                    "wins": player.wins,
                    "low": player.rating.low,
                    **player.rating.to_json(),
                }
                for i, player in enumerate(players)
            ]
            if len(self._leaders) >= LEADERBOARD_PAGES_KEPT:
                self._leaders.clear()
            kept = self._leaders[number] = (now, json.dumps(rows).encode(), total)
        _, body, total = kept
        count = max(1, -(-total // LEADERBOARD_PAGE))
        links = [f'</leaderboard?page={number + 1}>; rel="next"'] if number < count else []
        if number > 1:
            links.append(f'</leaderboard?page={min(number - 1, count)}>; rel="prev"')
        headers = [("X-Total-Count", str(total)), ("X-Page-Size", str(LEADERBOARD_PAGE))]
        if links:
            headers.append(("Link", ", ".join(links)))
        return respond(request, HTTPStatus.OK, body, "application/json", headers)

    async def _listing_order(self) -> list[Room | Listing]:
        """Every public table in the order pages show them (taken anew once it is stale)."""
        now = self.clock.now()
        if self._order_at is None or now - self._order_at >= LISTING_AGE:
            here = sorted(
                (room for room in self.rooms.values() if not room.private and room.table_id),
                key=_listing_rank,
            )
            elsewhere = await self.directory.listing(but=self.node)
            self._order, self._order_at = [*here, *elsewhere], now
        return self._order

    # ------------------------------------------------------------------ connections

    def group_of(self, connection: ServerConnection) -> str:
        """The address group ``connection`` counts in (through a trusted proxy: its client's)."""
        address = connection.remote_address
        peer = str(address[0]) if address else ""
        request = connection.request
        forwarded = request.headers.get_all("X-Forwarded-For") if request is not None else []
        return self.addresses.group(peer, forwarded)

    async def handler(self, connection: ServerConnection) -> None:
        """One connection, from its opening message to its close."""
        if len(self.connections) >= self.max_connections:
            self._error(connection, protocol.SERVER_FULL, "the server is full: try again later")
            await _hang_up(connection, 1013, "server full")
            return
        group = self.group_of(connection)
        limit = self.limits.connections_per_address
        if not await self.connections_held.take(group, limit):
            self._error(
                connection,
                protocol.TOO_MANY_CONNECTIONS,
                f"your address holds {limit} connections to this server already: close one first",
            )
            await _hang_up(connection, 1008, "refused")
            return
        self.connections.add(connection)
        room: Room | None = None
        try:
            try:
                first = await within(self.clock, self.hello_timeout, connection.recv())
            except TimeoutError:
                await _hang_up(connection, 1008, "say create, join or watch")
                return
            room = await self._open(connection, first, group)
            if room is None:
                await _hang_up(connection, 1008, "refused")
                return
            bucket = TokenBucket(RATE, BURST, self.clock.now())
            self._talk[connection] = TokenBucket(TALK_RATE, TALK_BURST, self.clock.now())
            dropped = 0
            async for data in connection:
                if bucket.allow(self.clock.now()):
                    dropped = 0  # only a flood that goes on is cut off
                else:
                    dropped += 1
                    if dropped == 1 or dropped % 20 == 0:
                        self._error(connection, protocol.SLOW_DOWN, "too many messages: slow down")
                    if dropped > MAX_DROPPED:
                        await _hang_up(connection, 1008, "flooding")
                        return
                    continue
                await self._handle(connection, room, data)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(connection)
            self._talk.pop(connection, None)
            if room is not None:
                room.detach(connection)
            try:
                await self.connections_held.give_back(group)
            except Exception as exc:  # the directory away: its count expires by itself
                log.error("could not count a connection out: %s", exc)

    async def _open(
        self, connection: ServerConnection, data: str | bytes, group: str
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
                self._error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return None
        if not isinstance(message, protocol.Opening):
            self._error(connection, protocol.BAD_MESSAGE, "start with create, join or watch")
            return None
        if message.protocol not in protocol.SPOKEN:
            self._version_error(connection, message.protocol)
            return None
        if isinstance(message, protocol.Quick):
            if message.protocol == version1.VERSION:
                self._error(connection, protocol.BAD_MESSAGE, "quick play needs protocol 2")
                return None
            return await self._quick(connection, message, group)
        if isinstance(message, protocol.Create):
            return await self._create(connection, message, group)
        token = message.token if isinstance(message, protocol.Join) else None
        room = await self._find(connection, message.code, group, token)
        if room is None:
            return None
        if isinstance(message, protocol.Watch):
            if len(room.spectators) >= self.limits.spectators_per_table:
                self._error(
                    connection,
                    protocol.TOO_MANY_SPECTATORS,
                    f"table {shown_code(room.code)} has as many spectators as it takes",
                )
                return None
            room.attach(None, connection, message.protocol, clean_name(message.name))
            room.tell(connection, _welcome(room, None, None))
            room.tell(connection, room.presence())  # nothing changed for the others
            room.tell(connection, room.ratings_state())
            room.send_backlog(connection)
            return room
        return await self._join(connection, room, message, group)

    def _version_error(self, connection: ServerConnection, claimed: int) -> None:
        older = ", ".join(str(v) for v in protocol.SPOKEN if v != protocol.PROTOCOL_VERSION)
        self._error(
            connection,
            protocol.VERSION,
            f"this server speaks protocol {protocol.PROTOCOL_VERSION} (and {older}), your "
            f"Mantis speaks {claimed}: use the same version of Mantis as the server",
        )

    async def _find(
        self, connection: ServerConnection, code: str, group: str, token: str | None = None
    ) -> Room | None:
        """The room ``code`` names, unless ``group`` has guessed too often (then None, told).

        A reclaim with a token that is right for the table is never held back:
        the wrong guesses may be anyone's behind the same address.
        """
        wait = await self.guesses.wait(group)
        room = self.rooms.get(normal_code(code))
        if room is not None and not room.table_id:  # (a table still being kept: not yet)
            room = None
        if wait > 0:
            if token is not None and room is not None and room.claim(token) is not None:
                return room
            wait = math.ceil(wait * 10) / 10  # (never early: a client waits this long)
            self._error(
                connection,
                protocol.TOO_MANY_GUESSES,
                f"too many wrong codes from your address: try again in {wait:.0f} s",
                retry_after=wait,
            )
            return None
        if room is None:
            await self.guesses.missed(group)
            self._error(
                connection,
                protocol.UNKNOWN_CODE,
                f"there is no table {shown_code(normal_code(code))!r} here",
            )
            return None
        return room

    async def _holder(
        self, connection: ServerConnection, name: str, key: str | None
    ) -> Holder | None:
        """Who sits down under ``name`` with player key ``key`` (None: refused, and told).

        With a key, a name nobody holds becomes this key's on this server (for
        good); a name another key holds is refused, and so is one held by any
        key to someone without one.  An empty name (a "Player N") holds nothing.
        """
        cleaned = clean_name(name)
        key_hash = hash_token(key) if key is not None else None
        if not cleaned:
            return None, key_hash
        player = name_key(cleaned)
        try:
            if key_hash is None:
                holder = await self.store.name_holder(player)
            else:
                holder = await self.store.bind_name(player, cleaned, key_hash)
        except StoreError as exc:
            log.error("could not look a name up: %s", exc)
            self._error(connection, protocol.SERVER_FULL, "the server could not look your name up")
            return None
        if holder is None:
            return None, None
        if key_hash is None or not hmac.compare_digest(holder, key_hash):
            self._error(
                connection,
                protocol.NAME_TAKEN,
                f"the name {cleaned!r} belongs to another player on this server: pick another",
            )
            return None
        return player, key_hash

    def _refuse_second_seat(self, connection: ServerConnection, room: Room) -> None:
        self._error(
            connection,
            protocol.SAME_PLAYER,
            f"your player key holds a seat at table {shown_code(room.code)} already: "
            "one seat a player",
        )

    async def _create(
        self, connection: ServerConnection, message: protocol.Create, group: str
    ) -> Room | None:
        specs = [spec.strip().lower() for spec in message.seats]
        away_bot = message.away_bot.strip().lower()
        problem = online_seats_problem(specs, away_bot)
        if problem is not None:
            self._error(connection, protocol.BAD_SEATS, problem)
            return None
        holder = await self._holder(connection, message.name, message.key)
        if holder is None:
            return None
        if not await self._count_table(connection, group):
            return None
        room = await self._open_table(connection, message, specs, away_bot, group, holder)
        if room is None:
            await self.tables_held.give_back(group)
        else:
            self.counted.setdefault(group, set()).add(room)
        return room

    async def _count_table(
        self, connection: ServerConnection, group: str, *, quietly: bool = False
    ) -> bool:
        """Count a new table for ``group``, or say why it may not have one (False;
        ``quietly``: say nothing, the caller decides).

        Cheap while within the limits: the rooms are counted one by one only
        when a limit seems reached (finished tables are given back lazily).
        """
        most = self.limits.max_tables
        if len(self.rooms) >= most and self.live_tables() >= most:
            if not quietly:
                self._error(
                    connection,
                    protocol.SERVER_FULL,
                    "this server has as many tables as it can hold: try again later",
                )
            return False
        limit = self.limits.tables_per_address
        if not await self.tables_held.take(group, limit):
            await self._settle(group)  # its finished tables no longer count
            if not await self.tables_held.take(group, limit):
                if not quietly:
                    self._refuse_table(connection)
                return False
        return True

    def _refuse_table(self, connection: ServerConnection) -> None:
        limit = self.limits.tables_per_address
        self._error(
            connection,
            protocol.TOO_MANY_TABLES,
            f"your address has {limit} tables waiting or playing on this server: "
            "finish or leave one first",
        )

    async def _open_table(
        self,
        connection: ServerConnection,
        message: protocol.Create,
        specs: list[str],
        away_bot: str,
        group: str,
        holder: Holder,
    ) -> Room | None:
        """Open the table ``create`` asked for, counted already for ``group``."""
        seats: list[Seat] = []
        for spec in specs:
            seats.append(Seat("", "bot", spec) if spec in BOTS else Seat("", "human"))
        host_index = specs.index("human")
        host = seats[host_index]
        token = secrets.token_urlsafe(24)
        host.token_hash = hash_token(token)
        host.player, host.key_hash = holder
        code = await new_code(self.directory.claim_code, private=message.private)
        rules = Rules(message.clock, message.talk, rated=message.rated)
        room = self._room(
            0,
            code,
            private=message.private,
            host=host,
            away_bot=away_bot,
            seats=seats,
            rules=rules,
            owner=group,
        )
        host.name = room.unique_name(clean_name(message.name), host_index)
        for s, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = room.unique_name(room._bot_name(), s)
        if not await self._keep_new(connection, room, host_index):
            return None
        room.attach(host_index, connection, message.protocol)
        room.tell(connection, _welcome(room, host_index, token))
        room.send_presence()
        room.send_ratings()
        return room

    async def _keep_new(self, connection: ServerConnection, room: Room, host: int) -> bool:
        """Keep a new room's table (whether it could be kept: if not, the caller is told)."""
        code, rules = room.code, room.rules
        # The code is taken before the table is kept: another table created while this
        # one is being written must not draw the same code.
        self.rooms[code] = room
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
            del self.rooms[code]
            await self.directory.release_code(code)
            log.error("could not keep a new table: %s", exc)
            self._error(connection, protocol.SERVER_FULL, "the server could not keep the table")
            return False
        room.kept.set()
        return True

    async def _quick(
        self, connection: ServerConnection, message: protocol.Quick, group: str
    ) -> Room | None:
        """Seat a person at the oldest quick-play table of that size with room, or a new one.

        A new one counts as a table opened by ``group`` (its address): an
        address at its limit of tables is seated only where there is room.
        """
        name = clean_name(message.name)
        holder = await self._holder(connection, name, message.key)
        if holder is None:
            return None
        for _ in range(QUICK_TRIES):
            may_open = await self._count_table(connection, group, quietly=True)
            fresh = await new_code(self.directory.claim_code) if may_open else None
            seat_at = await self.directory.quick_seat(message.players, fresh)
            if seat_at is None or not seat_at[1]:
                if may_open:
                    await self.tables_held.give_back(group)
                if fresh is not None:
                    await self.directory.release_code(fresh)
            if seat_at is None:
                self._refuse_table(connection)
                return None
            code, opened = seat_at
            if opened:
                room = self._quick_room(code, message.players, group)
                if not await self._keep_new(connection, room, 0):
                    await self.directory.quick_free(code, message.players, 0)
                    await self.tables_held.give_back(group)
                    return None
                self.counted.setdefault(group, set()).add(room)
            else:
                found = self.rooms.get(code)
                if found is None:
                    continue  # (offered by a node that is gone)
                room = found
                await room.kept.wait()
            if holder[1] is not None and room.holds_key(holder[1]):
                free = sum(1 for seat in room.seats if not seat.taken)
                await self.directory.quick_free(code, len(room.seats), free)  # (not taken)
                self._refuse_second_seat(connection, room)
                return None
            taken = room.sit(name, *holder)
            if taken is None:
                continue  # it started, or filled, meanwhile: look again
            seat, token = taken
            await self._keep_seats(room)
            return await self._seated(connection, room, seat, token, message.protocol, True)
        self._error(
            connection, protocol.TABLE_FULL, "no quick-play table could seat you: try again"
        )
        return None

    def _quick_room(self, code: str, players: int, group: str) -> Room:
        """A new quick-play table of ``players`` open seats (the first to sit is its host)."""
        seats = [Seat("", "human") for _ in range(players)]
        return self._room(
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
        self, connection: ServerConnection, room: Room, message: protocol.Join, group: str
    ) -> Room | None:
        token = message.token
        if token is not None:
            seat = room.claim(token)
            if seat is None:
                await self.guesses.missed(group)
                self._error(
                    connection,
                    protocol.BAD_TOKEN,
                    f"that seat token is not for table {shown_code(room.code)}",
                )
                return None
            held_by = room.seats[seat].key_hash
            if (
                held_by is not None
                and message.key is not None
                and not hmac.compare_digest(held_by, hash_token(message.key))
            ):
                self._error(
                    connection, protocol.NAME_TAKEN, "that seat is another player's: not yours"
                )
                return None
            if room.seats[seat].left:
                self._error(
                    connection,
                    protocol.SEAT_LEFT,
                    f"you left table {room.code}: its seat is played for, and not yours again",
                )
                return None
            old = cast(ServerConnection | None, room.seats[seat].connection)
            if old is not None and old is not connection:
                if await self._alive(old):
                    self._error(
                        connection,
                        protocol.SEAT_IN_USE,
                        "this seat is connected from somewhere else",
                    )
                    return None
                seat = room.claim(token)  # (seats before it may have moved meanwhile)
                if seat is None:
                    self._error(connection, protocol.BAD_TOKEN, "that seat was removed")
                    return None
                now = room.seats[seat].connection
                if now is not None and now is not old:
                    # Another reclaim with the same token took the seat while the old
                    # connection was being pinged: the first to come back has it.
                    self._error(
                        connection,
                        protocol.SEAT_IN_USE,
                        "this seat was just taken back by another connection",
                    )
                    return None
                if now is old:
                    room.detach(old)
                self._spawn(old.close(1000, "replaced by a new connection"))
        else:
            if room.state is not RoomPhase.WAITING:
                self._error(
                    connection,
                    protocol.TABLE_FULL,
                    f"table {shown_code(room.code)} has started: watch it instead",
                )
                return None
            holder = await self._holder(connection, message.name, message.key)
            if holder is None:
                return None
            if holder[1] is not None and room.holds_key(holder[1]):
                self._refuse_second_seat(connection, room)
                return None
            taken = room.sit(clean_name(message.name), *holder)
            if taken is None:
                self._error(
                    connection, protocol.TABLE_FULL, f"table {shown_code(room.code)} is full"
                )
                return None
            seat, token = taken
            await self._keep_seats(room)
        return await self._seated(
            connection, room, seat, token, message.protocol, message.token is None
        )

    async def _seated(
        self,
        connection: ServerConnection,
        room: Room,
        seat: int,
        token: str,
        version: int,
        newcomer: bool,
    ) -> Room:
        """``connection`` sits at ``seat`` now: it is told, and so is everyone else; a
        newcomer may be the one a quick-play table was waiting for."""
        room.attach(seat, connection, version)
        room.tell(connection, _welcome(room, seat, token))
        room.send_room(but=connection)
        room.send_presence()
        room.send_backlog(connection)
        if newcomer:
            await room.seated()
        return room

    async def _seat_request(
        self, connection: ServerConnection, room: Room, seat: int, message: protocol.SeatRequest
    ) -> None:
        """A seated person's move, or their word on the game: played, offered, left…"""
        problem: str | None
        if isinstance(message, protocol.Act):
            problem = room.act(seat, message.turn, message.action)
        elif isinstance(message, protocol.Again):
            if isinstance(room.phase, Over) and room.phase.offer is None:
                key = f"offer:{room.code}:{seat}"
                made = await self.directory.hits(key, 60.0)
                if made.count >= OFFERS_PER_MINUTE:
                    self._error(
                        connection,
                        protocol.OFFER_LIMIT,
                        f"you offered {made.count} times this minute: try again in "
                        f"{made.clears_in:.0f} s",
                    )
                    return
                await self.directory.hit(key, 60.0)
            problem = await room.again(seat)
        elif isinstance(message, protocol.Decline):
            problem = room.decline(seat)
        elif isinstance(message, protocol.Leave):
            problem = await room.leave(connection)
        else:
            problem = room.back(seat)
        if problem is not None:
            self._error(connection, problem, _PROBLEMS[type(message)].get(problem, problem))

    async def _say(self, connection: ServerConnection, room: Room, text: str) -> None:
        if not room.rules.talk:
            self._error(connection, protocol.TALK_OFF, "the host turned talk off at this table")
            return
        line = clean_line(text)
        if not line:
            self._error(connection, protocol.BAD_MESSAGE, "nothing is left of that line to say")
            return
        talk = self._talk.get(connection)
        if talk is not None and not talk.allow(self.clock.now()):
            self._error(connection, protocol.SLOW_DOWN, "you are talking too fast: wait a little")
            return
        await room.say(connection, line)

    async def _keep_seats(self, room: Room) -> None:
        await self.store.set_seats(room.table_id, [seat.stored() for seat in room.seats])

    async def _handle(self, connection: ServerConnection, room: Room, data: str | bytes) -> None:
        """One message from a connection already at a table."""
        try:
            message = protocol.decode_client(data)
        except protocol.ProtocolError as exc:
            self._error(connection, protocol.BAD_MESSAGE, f"not a Mantis message: {exc}")
            return
        seat = room.seat_of(connection)
        if isinstance(message, protocol.Opening):
            self._error(connection, protocol.BAD_MESSAGE, "this connection is already at a table")
            return
        if (
            isinstance(message, protocol.VERSION_2_REQUESTS)
            and room.version(connection) == version1.VERSION
        ):
            self._error(connection, protocol.BAD_MESSAGE, "not a message of protocol 1")
            return
        if isinstance(message, protocol.Say):
            await self._say(connection, room, message.text)
            return
        if isinstance(message, (protocol.Act, *protocol.VERSION_2_REQUESTS)):
            if seat is None:
                self._error(
                    connection, protocol.NOT_YOUR_TURN, "spectators watch: they do not play"
                )
                return
            await self._seat_request(connection, room, seat, message)
            return
        if seat is None or room.seats[seat] is not room.host:
            self._error(connection, protocol.NOT_HOST, "only the host sets up and starts the table")
            return
        if room.state is not RoomPhase.WAITING:
            self._error(connection, protocol.NOT_NOW, "the game has started")
            return
        if room.rules.quick:
            self._error(connection, protocol.NOT_NOW, "a quick-play table starts by itself")
            return
        if isinstance(message, protocol.Start):
            problem = room.ready_to_start()
            if problem is not None:
                self._error(connection, protocol.BAD_SEATS, f"cannot start: {problem}")
                return
            # This connection's messages are handled one at a time, and only the host
            # may start, so nothing else changes the room while the seed is kept.
            await room.start_next()
            return
        if isinstance(message, protocol.AddBot):
            problem = room.add_bot(message.level)
        elif isinstance(message, protocol.AddOpen):
            problem = room.add_open()
        else:
            problem = room.remove_seat(message.seat)
        if problem is not None:
            self._error(connection, protocol.BAD_SEATS, problem)
            return
        await self._keep_seats(room)
        room.send_room()
        room.send_presence()

    def _next_seed(self) -> int:
        index, self._started = self._started, self._started + 1
        if self.seed is not None:
            return game_seed(self.seed, index)
        return secrets.randbits(63)

    def _spawn(self, coroutine) -> None:  # type: ignore[no-untyped-def]
        task = asyncio.get_running_loop().create_task(coroutine)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _alive(self, connection: ServerConnection) -> bool:
        """Whether a connection still answers (a ping, within a short time)."""
        try:
            pong = await connection.ping()
            await within(self.clock, LIVENESS_TIMEOUT, pong)
        except (TimeoutError, ConnectionClosed):
            return False
        return True

    def listing(self) -> list[Listing]:
        """This server's public tables, as ``GET /tables`` shows them (every page at once)."""
        return [room.listing() for room in self.rooms.values() if not room.private]


def _page_number(query: str) -> int:
    """The ``page`` a query asks for (1 if none; 0 if it is not a whole number from 1)."""
    pages = parse_qs(query).get("page", ["1"])
    return int(pages[-1]) if pages[-1].isdigit() and len(pages[-1]) < 9 else 0


def _listing_rank(room: Room) -> int:
    """Where a table comes in the list: seats to take first, then games on, then over."""
    if room.state is RoomPhase.WAITING:
        return 0 if any(not seat.taken for seat in room.seats) else 1
    return 2 if room.state is RoomPhase.PLAYING else 3


_PROBLEMS: dict[type, dict[str, str]] = {
    protocol.Act: {
        protocol.NOT_NOW: "the game is not being played",
        protocol.NOT_YOUR_TURN: "it is not your turn",
        protocol.STALE: "that move does not answer the turn being played: ignored",
        protocol.ILLEGAL: "the rules do not allow that move",
        protocol.OUT_OF_TIME: "your time for that move ran out: the away bot played it",
    },
    protocol.Again: {protocol.NOT_NOW: "another game can be offered once this one is over"},
    protocol.Decline: {protocol.NOT_NOW: "no other game is on offer"},
    protocol.Leave: {
        protocol.NOT_HOST: "the host's seat cannot be left open: close the table instead",
    },
    protocol.ImBack: {protocol.NOT_NOW: "your seat is not away"},
}


def _welcome(room: Room, seat: int | None, token: str | None) -> protocol.Welcome:
    """``welcome`` in version 2's words (``Room.tell`` says it in the connection's own)."""
    code = room.code
    return protocol.Welcome(protocol.PROTOCOL_VERSION, code, seat, token, room.room_state(seat))


async def _hang_up(connection: ServerConnection, code: int, reason: str) -> None:
    """Close ``connection``, reading (and dropping) whatever it still sends meanwhile.

    The closing handshake ends with the client's close frame, which comes after
    everything it sent before (a flood, say): left unread, those stop the
    connection reading at all, and the close stalls until websockets' close
    timeout gives up on it.
    """
    closing = asyncio.ensure_future(connection.close(code, reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in connection:
            pass
    await closing
