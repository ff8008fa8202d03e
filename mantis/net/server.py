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
``Directory`` (what spans tables: codes, the public list, guess counts), the
``RoomConfig`` its rooms run with and a ``Clock``.  ``mantis serve``
(``serve_cli``) builds them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import timedelta
from http import HTTPStatus
from typing import Any, cast

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from .. import __version__
from ..engine import SeatInfo, game_seed
from ..players import BOTS
from ..players.clock import Clock, SystemClock, within
from ..players.seat_specs import online_seats_problem
from ..store.table_store import RoomPhase, StoredRoom, TableStore
from ..table import dealt
from ..table.names import clean_line, clean_name
from . import protocol, version1
from .codes import new_code, normal_code
from .directory import Directory, Listing
from .limits import GuessLimiter, TokenBucket
from .plain_http import HttpConnection, respond
from .rematch import OFFERS_PER_MINUTE
from .room import Connection, Over, Room, RoomConfig, Rules, Seat, hash_token, stored_notices

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
#: A waiting room nobody is connected to is dropped after this long...
IDLE_ROOM = timedelta(hours=1)
#: ...and a finished one sooner: its record is kept, and every player has it already.
OVER_ROOM = timedelta(minutes=5)


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
        max_connections: int = 10_000,
        hello_timeout: float = HELLO_TIMEOUT,
        node: str = "",
    ) -> None:
        """A server keeping its tables in ``store``, sharing codes and counts in ``directory``.

        ``seed``: deal table *i* from ``game_seed(seed, i)`` instead of a
        secret seed (for the server's own tests only).  ``node``: this
        server's name among several sharing one directory.
        """
        self.store = store
        self.directory = directory
        self.config = config or RoomConfig()
        self.clock: Clock = clock or SystemClock()
        self.seed = seed
        self.max_connections = max_connections
        self.hello_timeout = hello_timeout
        self.node = node
        self.rooms: dict[str, Room] = {}
        self.connections: set[ServerConnection] = set()
        self.guesses = GuessLimiter(directory)
        self.background: set[asyncio.Task[None]] = set()
        self._started = 0
        self._talk: dict[ServerConnection, TokenBucket] = {}
        """Each connection's allowance of talk."""

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
        seats = [Seat(s.name, s.kind, s.bot, s.token_hash, left=s.left) for s in stored.seats]
        room = self._room(
            stored.id,
            stored.code,
            private=stored.private,
            host=seats[stored.host],
            away_bot=stored.away_bot,
            seats=seats,
            rules=Rules(stored.clock, stored.talk, stored.quick),
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
            _send,
            self.clock,
            directory=self.directory,
            seeds=self._next_seed,
            table_id=table_id,
            code=code,
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
                create_connection=HttpConnection,
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
            for room in self.rooms.values():
                room.stop()
            for task in list(self.background):
                task.cancel()

    async def _sweep(self) -> None:
        """Drop rooms nobody is at any more (their tables stay in the store)."""
        while True:
            await self.clock.sleep(30)
            now = self.clock.now()
            for code, room in list(self.rooms.items()):
                if room.state is RoomPhase.PLAYING or room.connections():
                    continue
                idle = IDLE_ROOM if room.state is RoomPhase.WAITING else OVER_ROOM
                if room.idle_since < now - idle.total_seconds():
                    del self.rooms[code]
                    room.stop()
                    if room.state is RoomPhase.WAITING:
                        if room.rules.quick:
                            await self.directory.quick_free(code, len(room.seats), 0)
                        await self.store.drop_waiting(room.table_id)
                    await self.directory.release_code(code)

    # ------------------------------------------------------------------ sending

    def send(self, connection: ServerConnection, message: protocol.ServerMessage) -> None:
        """Send without waiting (a slow client never holds up a table)."""
        _send((connection,), protocol.encode(message).decode())

    def _error(self, connection: ServerConnection, code: str, message: str) -> None:
        self.send(connection, protocol.Error(code, message))

    # ------------------------------------------------------------------ plain HTTP

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """``/status`` and ``/tables`` for browsers and scripts; WebSocket upgrades pass."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path = request.path.split("?", 1)[0]
        if path not in ("/status", "/tables"):
            text = b"Not found: try /status or /tables\n"
            return respond(request, HTTPStatus.NOT_FOUND, text, "text/plain; charset=utf-8")
        if path == "/status":
            playing = sum(1 for room in self.rooms.values() if room.state is RoomPhase.PLAYING)
            body: object = {
                "version": __version__,
                "protocol": protocol.PROTOCOL_VERSION,
                "tables": len(self.rooms),
                "playing": playing,
                "connections": len(self.connections),
            }
        else:
            body = self.listing() + await self.directory.listing(but=self.node)
        return respond(request, HTTPStatus.OK, json.dumps(body).encode(), "application/json")

    # ------------------------------------------------------------------ connections

    async def handler(self, connection: ServerConnection) -> None:
        """One connection, from its opening message to its close."""
        if len(self.connections) >= self.max_connections:
            self._error(connection, protocol.SERVER_FULL, "the server is full: try again later")
            await _hang_up(connection, 1013, "server full")
            return
        self.connections.add(connection)
        room: Room | None = None
        try:
            try:
                first = await within(self.clock, self.hello_timeout, connection.recv())
            except TimeoutError:
                await _hang_up(connection, 1008, "say create, join or watch")
                return
            room = await self._open(connection, first)
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

    def _peer(self, connection: ServerConnection) -> str:
        address = connection.remote_address
        return str(address[0]) if address else "?"

    async def _open(self, connection: ServerConnection, data: str | bytes) -> Room | None:
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
            return await self._quick(connection, message)
        if isinstance(message, protocol.Create):
            return await self._create(connection, message)
        room = await self._find(connection, message.code)
        if room is None:
            return None
        if isinstance(message, protocol.Watch):
            room.attach(None, connection, message.protocol, clean_name(message.name))
            room.tell(connection, _welcome(room, None, None))
            room.tell(connection, room.presence())  # nothing changed for the others
            room.send_backlog(connection)
            return room
        return await self._join(connection, room, message)

    def _version_error(self, connection: ServerConnection, claimed: int) -> None:
        older = ", ".join(str(v) for v in protocol.SPOKEN if v != protocol.PROTOCOL_VERSION)
        self._error(
            connection,
            protocol.VERSION,
            f"this server speaks protocol {protocol.PROTOCOL_VERSION} (and {older}), your "
            f"Mantis speaks {claimed}: use the same version of Mantis as the server",
        )

    async def _find(self, connection: ServerConnection, code: str) -> Room | None:
        peer = self._peer(connection)
        wait = await self.guesses.wait(peer)
        if wait > 0:
            self._error(
                connection,
                protocol.TOO_MANY_GUESSES,
                f"too many wrong codes: try again in {wait:.0f} s",
            )
            return None
        room = self.rooms.get(normal_code(code))
        if room is None or not room.table_id:  # (a table still being kept is not there yet)
            await self.guesses.missed(peer)
            self._error(
                connection, protocol.UNKNOWN_CODE, f"there is no table {normal_code(code)!r} here"
            )
            return None
        return room

    async def _create(self, connection: ServerConnection, message: protocol.Create) -> Room | None:
        specs = [spec.strip().lower() for spec in message.seats]
        away_bot = message.away_bot.strip().lower()
        problem = online_seats_problem(specs, away_bot)
        if problem is not None:
            self._error(connection, protocol.BAD_SEATS, problem)
            return None
        seats: list[Seat] = []
        for spec in specs:
            seats.append(Seat("", "bot", spec) if spec in BOTS else Seat("", "human"))
        host_index = specs.index("human")
        host = seats[host_index]
        token = secrets.token_urlsafe(24)
        host.token_hash = hash_token(token)
        code = await new_code(self.directory.claim_code)
        rules = Rules(message.clock, message.talk)
        room = self._room(
            0,
            code,
            private=message.private,
            host=host,
            away_bot=away_bot,
            seats=seats,
            rules=rules,
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
            )
        except Exception as exc:  # the store's trouble: this table only, said in one line
            del self.rooms[code]
            await self.directory.release_code(code)
            log.error("could not keep a new table: %s", exc)
            self._error(connection, protocol.SERVER_FULL, "the server could not keep the table")
            return False
        room.kept.set()
        return True

    async def _quick(self, connection: ServerConnection, message: protocol.Quick) -> Room | None:
        """Seat a person at the oldest quick-play table of that size with room, or a new one."""
        name = clean_name(message.name)
        for _ in range(QUICK_TRIES):
            fresh = await new_code(self.directory.claim_code)
            code, opened = await self.directory.quick_seat(message.players, fresh)
            if opened:
                seats = [Seat("", "human") for _ in range(message.players)]
                room = self._room(
                    0,
                    code,
                    private=False,
                    host=seats[0],
                    away_bot=self.config.quick_bot,
                    seats=seats,
                    rules=Rules(protocol.QUICK_CLOCK, True, True),
                )
                if not await self._keep_new(connection, room, 0):
                    await self.directory.quick_free(code, message.players, 0)
                    return None
            else:
                await self.directory.release_code(fresh)
                found = self.rooms.get(code)
                if found is None:
                    continue  # (offered by a node that is gone)
                room = found
                await room.kept.wait()
            taken = room.sit(name)
            if taken is None:
                continue  # it started, or filled, meanwhile: look again
            seat, token = taken
            await self._keep_seats(room)
            return await self._seated(connection, room, seat, token, message.protocol, True)
        self._error(
            connection, protocol.TABLE_FULL, "no quick-play table could seat you: try again"
        )
        return None

    async def _join(
        self, connection: ServerConnection, room: Room, message: protocol.Join
    ) -> Room | None:
        token = message.token
        if token is not None:
            seat = room.claim(token)
            if seat is None:
                await self.guesses.missed(self._peer(connection))
                self._error(
                    connection, protocol.BAD_TOKEN, f"that seat token is not for table {room.code}"
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
                room.detach(old)
                self._spawn(old.close(1000, "replaced by a new connection"))
        else:
            if room.state is not RoomPhase.WAITING:
                self._error(
                    connection,
                    protocol.TABLE_FULL,
                    f"table {room.code} has started: watch it instead",
                )
                return None
            taken = room.sit(clean_name(message.name))
            if taken is None:
                self._error(connection, protocol.TABLE_FULL, f"table {room.code} is full")
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
        """This server's public tables, as ``GET /tables`` shows them."""
        return [
            {
                "code": room.code,
                "state": room.state.value,
                "moves": room.moves,
                "seats": [
                    {"name": seat.name, "kind": seat.kind, "taken": seat.taken}
                    for seat in room.seats
                ],
                "clock": room.rules.clock,
                "quick": room.rules.quick,
            }
            for room in self.rooms.values()
            if not room.private
        ]


def _send(connections: Iterable[Connection], data: str) -> None:
    """Put ``data`` on each connection without waiting (a slow client holds up nobody)."""
    broadcast(connections, data)  # type: ignore[arg-type]


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
