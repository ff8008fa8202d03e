"""One table on the server: its seats, who is connected, and the game once it starts.

A room waits until its host starts it, then runs its game with the table
driver: bots think on the server, people play through ``RemoteSeat``, every
move is kept in the store before it is broadcast, and each connection
hears the same public stream.  A person whose connection drops keeps their
seat; after ``away_after`` seconds the host's away bot plays for them until
they are back.

A room is handed everything it uses: its ``RoomConfig``, the ``TableStore``
that keeps its table, a ``Send`` that puts a frame on connections without
waiting, and the ``Clock`` its timers run on.  It never reaches back into
the server.  A connection is anything hashable the ``Send`` knows how to
reach (a WebSocket here; on a cluster, a connection held by another node).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Coroutine, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine import Action, GameRecord, SeatInfo, TurnStarted
from ..engine.seat_count import MAX_SEATS, MIN_SEATS, SEAT_RANGE, valid_seat_count
from ..players import BOTS, InputPlayer, Player, make_bot
from ..players.clock import Clock, Timer
from ..store.settings import DEFAULT_BOT_TIMEOUT
from ..store.table_store import RoomPhase, StoredSeat, TableStore
from ..table import Away, Back, Message, Notice, Table, dealt, decode
from ..table.names import look_alike, unique_name
from . import protocol
from .bot_share import BotShare
from .keeper import ServerKeeper
from .remote import RemoteSeat

Connection = Hashable
"""A client's connection, as a room knows it: something its ``Send`` can reach."""

Send = Callable[[Iterable[Connection], str], None]
"""Puts one encoded frame on each of some connections, at once, never waiting for them."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """How a server runs its tables."""

    away_after: float = 60.0
    """Seconds a disconnected person's table waits before the away bot plays for them."""
    bot_pace: float = 1.0
    """The least time between a bot's (or away bot's) turn starting and its move."""
    bot_timeout: float = DEFAULT_BOT_TIMEOUT
    """A bot's time budget for one move."""


log = logging.getLogger("mantis.server")

BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald")
"""Names for the server's bots, first unused first."""


def hash_token(token: str) -> str:
    """What the database keeps of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Seat:
    """A seat in a room: a bot, an open seat, or a person (who holds its token)."""

    name: str
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    connection: Connection | None = None
    away: bool = False
    away_timer: Timer | None = field(default=None, repr=False)

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def presence(self) -> protocol.SeatPresence:
        if self.kind == "bot":
            return "bot"
        if self.token_hash is None:
            return "open"
        if self.connection is not None:
            return "here"
        return "away" if self.away else "gone"

    def stored(self) -> StoredSeat:
        return StoredSeat(self.name, self.kind, self.bot, self.token_hash)


class Room:
    """A table on the server, from its waiting room to its end."""

    def __init__(
        self,
        config: RoomConfig,
        store: TableStore,
        send: Send,
        clock: Clock,
        *,
        table_id: int,
        code: str,
        private: bool,
        host: Seat,
        away_bot: str,
        seats: list[Seat],
        owner: str = "",
        bots: BotShare | None = None,
    ) -> None:
        """``owner``: the address group that created the table (its bots' share is that
        group's); ``bots``: the server's share of bot moves (None: bots move at their pace)."""
        self.config = config
        self.store = store
        self.send = send
        self.clock = clock
        self.table_id = table_id
        """The table's id in the store (0 until it is kept)."""
        self.code = code
        self.private = private
        self.host = host
        self.away_bot = away_bot
        self.seats = seats
        self.owner = owner
        self.bots = bots
        self.state = RoomPhase.WAITING
        self.game_id: int | None = None
        """The store's id of the game being played (or last played)."""
        self.spectators: set[Connection] = set()
        self.table: Table | None = None
        """The game while it is played (a finished game keeps only ``_final``)."""
        self.remotes: dict[int, RemoteSeat] = {}
        self._final: tuple[str, int] | None = None
        """A finished game: its whole stream as one ready ``stream`` frame, and its moves."""
        self.task: asyncio.Task[GameRecord] | None = None
        self.idle_since = clock.now()
        """When the last connection left (rooms nobody visits are dropped)."""
        self._outbox: list[Message] = []
        self._outbox_start = 0
        self._next_mover: int | None = None
        self._last_move = clock.now()
        self._tasks: set[asyncio.Task[None]] = set()
        self._backlog: tuple[int, str] | None = None
        """The stream so far as one frame, and how many messages it holds (sent to each
        newcomer: encoded once however many come)."""

    # ------------------------------------------------------------------ what it says

    @property
    def moves(self) -> int:
        if self._final is not None:
            return self._final[1]
        return self.table.turn if self.table is not None else 0

    def seat_of(self, connection: Connection) -> int | None:
        for s, seat in enumerate(self.seats):
            if seat.connection is connection:
                return s
        return None

    def room_state(self, you: int | None = None) -> protocol.RoomState:
        return protocol.RoomState(
            code=self.code,
            state=self.state.value,
            private=self.private,
            host=self.seats.index(self.host),
            away_bot=self.away_bot,
            seats=tuple(
                protocol.SeatState(seat.name, seat.kind, seat.bot, seat.taken)  # type: ignore[arg-type]
                for seat in self.seats
            ),
            moves=self.moves,
            you=you,
        )

    def connections(self) -> list[Connection]:
        seated = [seat.connection for seat in self.seats if seat.connection is not None]
        return seated + list(self.spectators)

    def tell(self, connection: Connection, message: protocol.ServerMessage) -> None:
        """Send one connection one message."""
        self.send((connection,), protocol.encode(message).decode())

    def send_room(self, but: Connection | None = None) -> None:
        """Everyone (``but`` one, told already) hears the seats and state, and their own seat.

        Each seated person's copy says which seat is theirs; the spectators' copy
        is one frame for all of them, however many they are.
        """
        for s, seat in enumerate(self.seats):
            if seat.connection is not None and seat.connection is not but:
                self.tell(seat.connection, self.room_state(s))
        watching = [c for c in self.spectators if c is not but]
        if watching:
            self.send(watching, protocol.encode(self.room_state(None)).decode())

    def presence(self) -> protocol.Presence:
        return protocol.Presence(tuple(seat.presence() for seat in self.seats))

    def send_presence(self) -> None:
        """Everyone hears each seat's connection (it changed)."""
        self.send(self.connections(), protocol.encode(self.presence()).decode())

    def send_backlog(self, connection: Connection) -> None:
        """The whole stream so far, to one connection that just (re)joined."""
        if self._final is not None:
            self.send((connection,), self._final[0])
        elif self.table is not None:
            messages = self.table.messages
            if self._backlog is None or self._backlog[0] != len(messages):
                frame = protocol.encode(protocol.Stream(0, tuple(messages))).decode()
                self._backlog = (len(messages), frame)
            self.send((connection,), self._backlog[1])

    def listing(self) -> dict[str, Any]:
        """This table as ``GET /tables`` lists it."""
        return {
            "code": self.code,
            "state": self.state.value,
            "moves": self.moves,
            "seats": [
                {"name": seat.name, "kind": seat.kind, "taken": seat.taken} for seat in self.seats
            ],
        }

    # ------------------------------------------------------------------ connections

    def attach(self, seat: int | None, connection: Connection) -> None:
        """``connection`` is now seat ``seat`` (``None``: a spectator)."""
        if seat is None:
            self.spectators.add(connection)
            return
        place = self.seats[seat]
        place.connection = connection
        if place.away_timer is not None:
            place.away_timer.cancel()
            place.away_timer = None
        if place.away:
            place.away = False
            remote = self.remotes.get(seat)
            if remote is not None:
                remote.away = False
            if self.table is not None and not self.table.over:
                self._spawn(self.table.announce(Back(seat)))

    def detach(self, connection: Connection) -> None:
        """``connection`` closed: its seat waits for its person, then the away bot plays."""
        self.spectators.discard(connection)
        seat = self.seat_of(connection)
        if seat is not None:
            self.seats[seat].connection = None
            if self.state is RoomPhase.PLAYING:
                self._start_away_timer(seat)
            self.send_presence()
        if not self.connections():
            self.idle_since = self.clock.now()

    def _start_away_timer(self, seat: int) -> None:
        place = self.seats[seat]
        if place.kind != "human" or place.away or place.away_timer is not None:
            return
        place.away_timer = self.clock.call_later(
            self.config.away_after, lambda: self._spawn(self._go_away(seat))
        )

    async def _go_away(self, seat: int) -> None:
        place = self.seats[seat]
        place.away_timer = None
        if place.connection is not None or place.away or self.table is None or self.table.over:
            return
        place.away = True
        await self.table.announce(Away(seat, self.away_bot))
        remote = self.remotes.get(seat)
        if remote is not None:
            remote.away = True
            remote.wake()
        self.send_presence()

    def claim(self, token: str) -> int | None:
        """The seat whose token this is, if any."""
        wanted = hash_token(token)
        for s, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
                return s
        return None

    def sit(self, name: str) -> tuple[int, str] | None:
        """Seat a newcomer in the first open seat: (seat, their new token), or None if full."""
        for s, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.token_hash is None:
                token = secrets.token_urlsafe(24)
                seat.name = self.unique_name(name, s)
                seat.token_hash = hash_token(token)
                return s, token
        return None

    def unique_name(self, name: str, seat: int) -> str:
        """``name``, or "Player N" for none, made to look like no other seat's name."""
        others = (s.name for i, s in enumerate(self.seats) if i != seat)
        return unique_name(name, others, f"Player {seat + 1}")

    # ------------------------------------------------------------------ the waiting room

    def add_bot(self, level: str) -> str | None:
        level = level.strip().lower()
        if level not in BOTS:
            return f"there is no bot {level!r} (bots: {', '.join(BOTS)})"
        if len(self.seats) >= MAX_SEATS:
            return f"a table has at most {MAX_SEATS} seats"
        seat = Seat("", "bot", level)
        self.seats.append(seat)
        seat.name = self.unique_name(self._bot_name(), len(self.seats) - 1)
        return None

    def add_open(self) -> str | None:
        if len(self.seats) >= MAX_SEATS:
            return f"a table has at most {MAX_SEATS} seats"
        self.seats.append(Seat("", "human"))
        return None

    def remove_seat(self, seat: int) -> str | None:
        if not 0 <= seat < len(self.seats):
            return f"there is no seat {seat + 1}"
        place = self.seats[seat]
        if place is self.host:
            return "the host's own seat cannot be removed"
        if place.kind == "human" and place.connection is not None:
            return "a seat a person is connected to cannot be removed"
        if len(self.seats) <= MIN_SEATS:
            return f"a table needs at least {MIN_SEATS} seats"
        del self.seats[seat]
        return None

    def _bot_name(self) -> str:
        used = [seat.name for seat in self.seats if seat.name]
        fresh = (n for n in BOT_NAMES if not any(look_alike(n, u) for u in used))
        return next(fresh, "Bot")

    def ready_to_start(self) -> str | None:
        """Why the game cannot start yet, or None."""
        if not valid_seat_count(len(self.seats)):
            return f"a table needs {SEAT_RANGE} seats"
        waiting = sum(1 for seat in self.seats if not seat.taken)
        if waiting:
            return f"{waiting} open seat{'s' if waiting > 1 else ''} still to fill"
        return None

    # ------------------------------------------------------------------ the game

    def begin(
        self,
        game_id: int,
        record: GameRecord,
        notices: Iterable[tuple[int, Notice]] = (),
    ) -> None:
        """Run game ``game_id`` of the store, dealt in ``record`` (new, or resumed after a
        restart, with the moves kept so far), to its end."""
        notices = tuple(notices)
        for s, seat in enumerate(self.seats):
            seat.away = _last_word_on(s, notices) == "away"
        players: list[Player | InputPlayer] = []
        self.remotes = {}
        for s, seat in enumerate(self.seats):
            if seat.kind == "bot":
                assert seat.bot is not None
                players.append(make_bot(seat.bot))
            else:
                remote = RemoteSeat(s, self.away_bot, self.config.bot_timeout)
                remote.away = seat.away
                self.remotes[s] = remote
                players.append(remote)
        self.game_id = game_id
        keeper = ServerKeeper(self.store, game_id, len(record.actions))
        table = Table(
            record,
            players,
            keeper=keeper,
            bot_timeout=self.config.bot_timeout,
            notices=notices,
        )
        self.table = table
        self._backlog = None
        self.state = RoomPhase.OVER if table.over else RoomPhase.PLAYING
        self._outbox_start = len(table.messages)
        self._next_mover = _last_mover(table.messages)
        table.subscribe(self._publish, self._paced, backlog=False)
        if table.over:
            self._finish()
            return
        self.task = asyncio.get_running_loop().create_task(self._play())
        for s, seat in enumerate(self.seats):
            # Whoever is not here (left the waiting room, or cut off by a server restart)
            # is waited for, then played for, like anyone who drops.
            if seat.kind == "human" and seat.connection is None:
                self._start_away_timer(s)

    async def start(self, seed: int) -> None:
        """The host started: keep the seed, deal, and run the game."""
        game_id = await self.store.start_game(self.table_id, seed)
        seats = [SeatInfo(seat.name, seat.kind, seat.bot) for seat in self.seats]  # type: ignore[arg-type]
        self.begin(game_id, dealt(seats, seed))
        self.send_room()
        for connection in self.connections():
            self.send_backlog(connection)
        self.send_presence()

    async def _play(self) -> GameRecord:
        assert self.table is not None
        try:
            record = await self.table.run()
        except asyncio.CancelledError:
            raise
        except Exception:  # a server bug must not take other tables down: log it
            log.exception("table %s stopped", self.code)
            raise
        self.state = RoomPhase.OVER
        self._flush()  # the last move before the room says it is over
        self._finish()
        self.send_room()
        return record

    def _finish(self) -> None:
        """Keep a finished game as one encoded frame: a server holds many finished rooms
        for a while, and a frame is one object to the garbage collector, a game thousands."""
        table = self.table
        assert table is not None and table.over
        frame = protocol.encode(protocol.Stream(0, tuple(table.messages))).decode()
        self._final = (frame, table.turn)
        self._backlog = None
        self.table = None
        self.remotes = {}
        self.idle_since = self.clock.now()  # kept a while from the end, even with nobody here
        for seat in self.seats:
            seat.away = False  # nobody plays for anyone any more

    def act(self, seat: int, turn: int, action: Action) -> str | None:
        """``seat``'s intent to play ``action`` on turn ``turn``; an error code if it may not."""
        table = self.table
        if self.state is not RoomPhase.PLAYING or table is None:
            return protocol.NOT_NOW
        remote = self.remotes.get(seat)
        if turn != table.turn:
            return protocol.STALE  # a turn already played (a resend), or not yet come
        view = table.view(seat)
        if remote is None or view.over or view.to_move != seat:
            return protocol.NOT_YOUR_TURN
        if action not in view.legal_actions():
            return protocol.ILLEGAL
        return remote.answer(turn, action)

    def _publish(self, message: Message) -> None:
        """The driver published ``message``: send it with the rest of its move, at once."""
        if isinstance(message, TurnStarted):
            self._next_mover = message.seat
            self._last_move = self.clock.now()
        if not self._outbox:
            asyncio.get_running_loop().call_soon(self._flush)
        self._outbox.append(message)

    def _flush(self) -> None:
        messages, self._outbox = tuple(self._outbox), []
        start, self._outbox_start = self._outbox_start, self._outbox_start + len(messages)
        if messages:
            data = protocol.encode(protocol.Stream(start, messages)).decode()
            self.send(self.connections(), data)

    async def _paced(self) -> None:
        """Bots (and away seats) move no faster than a person can follow."""
        mover = self._next_mover
        if mover is None or self.seats[mover].kind == "human" and not self.seats[mover].away:
            return
        rest = self._last_move + self.config.bot_pace - self.clock.now()
        if rest > 0:
            await self.clock.sleep(rest)
        if self.bots is not None:
            await self.bots.move(self.owner)  # a busy server shares its bot moves out

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        """The server is stopping: end the game's task (every move is already kept)."""
        for seat in self.seats:
            if seat.away_timer is not None:
                seat.away_timer.cancel()
        if self.task is not None:
            self.task.cancel()
        for task in list(self._tasks):
            task.cancel()


def _last_word_on(seat: int, notices: tuple[tuple[int, Notice], ...]) -> str | None:
    """Whether the last presence notice about ``seat`` said "away" or "back" (None: neither)."""
    for _, notice in reversed(notices):
        if isinstance(notice, Away | Back) and notice.seat == seat:
            return "away" if isinstance(notice, Away) else "back"
    return None


def _last_mover(messages: list[Message]) -> int | None:
    for message in reversed(messages):
        if isinstance(message, TurnStarted):
            return message.seat
    return None


def stored_notices(notices: Iterable[tuple[int, str]]) -> list[tuple[int, Notice]]:
    """Notices as the database keeps them, read back (unreadable ones are skipped)."""
    kept: list[tuple[int, Notice]] = []
    for turn, body in notices:
        with contextlib.suppress(ValueError):
            message = decode(body)
            if isinstance(message, Notice):  # nothing else is kept as one
                kept.append((turn, message))
    return kept
