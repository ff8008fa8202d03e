"""One table on the server: its seats, who is connected, and the games played at it.

A table's life is a typed ``phase`` (``phases``): ``Waiting``, ``Playing``,
``Over`` and, once everyone accepts another game, ``Playing`` again.  A
``Room`` is that state: its seats (``seat_list``), its connections, its
phase, and the parts of its work, each a module handed what it uses, taking
the phase and seats it works on as arguments and returning what changed,
which the room keeps: who hears what (``audience``), the games
(``table_game``: ``begin`` returns the ``Playing`` phase, ``finish`` the
``Over`` one), people away (``away_seats``), quick play (``quick_fill``),
offers of another game (``rematch``), talk (``table_talk``), ratings
(``table_ratings``), a game's pace (``move_pace``) and its entry in the list
of tables (``table_listing``).  What a client asks at the table goes to those
parts directly (``net.server.requests``); the room's own methods are what
takes several of them at once (a connection coming and going, a seat freed,
a game started and ended, a person leaving).

A room is handed what its server gives every room (``RoomServices``: its
config, the ``TableStore``, a ``Send`` that puts a frame on connections
without waiting, the ``Clock`` its timers run on, the ``Directory``, a
source of seeds) and what it is (its code, rules, seats).  It never reaches
back into the server.  A connection is anything hashable the ``Send``
reaches (a WebSocket, or one held by another node).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from ....base.clock import Clock
from ....engine import GameRecord, SeatInfo
from ....players.decision import DEFAULT_BOT_TIMEOUT
from ....store.table_rules import TableRules
from ....store.tables_interface import RoomPhase, TableStore
from ....table import Notice, Table, Talk, dealt, record_notices
from ... import protocol
from ..directory import Directory, Listing, TableNotes
from ..limits.bot_share import BotShare
from . import seat_list
from .audience import Audience, Connection, Send
from .away_seats import AwaySeats
from .game_start import GameSettings, GameToPlay
from .move_pace import MovePace
from .phases import Over, Phase, Playing, Waiting, moves_of, phase_name
from .quick_fill import QuickFill
from .rated_games import RatedGames
from .rematch import Rematches
from .seat_list import Seat
from .table_game import GameEvents, GameParts, TableGames
from .table_listing import TableListing
from .table_ratings import TableRatings
from .table_talk import TableTalk


@dataclass(frozen=True, slots=True)
class RoomHooks:
    """What a room tells whoever runs it (metrics, and losing its table to another node)."""

    moved: Callable[[float | None], None] = lambda latency: None
    """A move was published: seconds since its intent arrived (None: a bot's move)."""
    committed: Callable[[float], None] = lambda seconds: None
    """A write to the store took this long."""
    lost: Callable[[Room], None] = lambda room: None
    """Another node turned out to hold this room's table: stop running it here."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """How a server runs its tables."""

    away_after: float = 60.0
    """Seconds a disconnected person's table waits before the away bot plays for them."""
    bot_pace: float = 1.0
    """The least time between a bot's (or away bot's) turn starting and its move."""
    bot_timeout: float = DEFAULT_BOT_TIMEOUT
    """A bot's time budget for one move."""
    quick_fill: float = 60.0
    """Seconds a quick-play table waits with someone seated before bots fill its seats."""
    quick_bot: str = "greedy"
    """The level of the bots that fill quick-play tables (and play for their people away)."""


@dataclass(frozen=True, slots=True)
class RoomServices:
    """What a server hands each of its rooms: how it runs them, and what they use."""

    config: RoomConfig
    store: TableStore
    send: Send
    """Puts one frame on some connections at once, never waiting for them."""
    clock: Clock
    directory: Directory
    seeds: Callable[[], int]
    """Fresh seeds, one per game (the server's)."""
    hooks: RoomHooks = field(default_factory=RoomHooks)
    bots: BotShare | None = None
    """The server's share of bot moves (None: bots move at their pace)."""
    rated: RatedGames | None = None
    """The rules a rated table's games are judged by (None: rated as nothing)."""


class Room:
    """A table on the server, from its waiting room through every game played at it."""

    def __init__(
        self,
        services: RoomServices,
        *,
        table_id: int,
        code: str,
        rules: TableRules,
        host: Seat,
        seats: list[Seat],
        owner: str = "",
    ) -> None:
        """``table_id``: the table's id in the store (0 until it is kept); ``owner``: the
        address group that created the table (its bots' share is that group's)."""
        config, clock, store = services.config, services.clock, services.store
        self.store = store
        self.clock = clock
        self.directory = services.directory
        self.table_id = table_id
        """The table's id in the store (0 until it is kept)."""
        self.kept = asyncio.Event()
        """Set once the table is in the store."""
        if table_id:
            self.kept.set()
        self.code = code
        self.rules = rules
        self.host = host
        self.seats = seats
        self.owner = owner
        self.phase: Phase = Waiting()
        self.spectators: set[Connection] = set()
        self.starting = False
        """A game is being started (its seed kept): no second start, no newcomer."""
        self.idle_since = clock.now()
        """When the last connection left, or the last game ended (rooms nobody visits are
        dropped)."""
        self._stopped = False
        self._tasks: set[asyncio.Task[None]] = set()
        hooks = services.hooks
        self.pace = MovePace(seats, clock, config.bot_pace, hooks.moved, services.bots, owner)
        """Bots' pace, and how long a person's move takes to go out."""
        self.audience = Audience(services.send, self.connections, self.pace.sent)
        """Who hears what here: each connection in its protocol version."""
        broadcast = self.audience.broadcast
        self.talk = TableTalk(broadcast)
        """Who talks under which name here."""
        self.away = AwaySeats(
            seats, clock, config.away_after, rules.away_bot, broadcast, self._spawn
        )
        """Who is away, and the waits for those who dropped."""
        self.notes = TableNotes(services.directory, code)
        """What it leaves in the directory for whichever node runs it next."""
        self.quick = QuickFill(
            code, config.quick_fill, clock, services.directory, self.notes, self._spawn
        )
        """A quick-play table's offer in the directory, and its wait for bots."""
        self.rematches = Rematches(clock, self.notes, broadcast, self._spawn)
        """Its offers of another game."""
        self.ratings = TableRatings(
            store,
            services.rated,
            rules.rated,
            lambda: [seat.facts() for seat in self.seats],
            broadcast,
        )
        """Its seated players' ratings, and whether its game counts."""
        self.games = TableGames(
            code,
            GameSettings(rules.away_bot, config.bot_timeout, rules.clock, clock, store),
            services.seeds,
            GameParts(self.audience, self.away, self.pace, self.ratings),
            GameEvents(lambda: hooks.lost(self), hooks.committed, self._spawn),
        )
        """The games played here."""
        self.listed = TableListing(rules.clock, rules.quick)
        """Its entry in the list of public tables."""

    # ------------------------------------------------------------------ what it says

    @property
    def phase_name(self) -> RoomPhase:
        """The phase as the store and the protocol name it (``waiting``, ``playing``, ``over``)."""
        return phase_name(self.phase)

    @property
    def table(self) -> Table | None:
        """The game while it is played."""
        return self.phase.table if isinstance(self.phase, Playing) else None

    @property
    def moves(self) -> int:
        return moves_of(self.phase)

    @property
    def game_number(self) -> int:
        return 0 if isinstance(self.phase, Waiting) else self.phase.number

    def room_message(self, you: int | None = None) -> protocol.RoomState:
        """The ``room`` message: the seats and the phase, as told to seat ``you`` (None:
        to the spectators)."""
        phase = self.phase
        bots_in = None
        if isinstance(phase, Waiting) and phase.fill_at is not None:
            bots_in = round(max(0.0, phase.fill_at - self.clock.now()), 3)
        return protocol.RoomState(
            code=self.code,
            state=self.phase_name.value,
            private=self.rules.private,
            host=self.seats.index(self.host),
            away_bot=self.rules.away_bot,
            seats=tuple(
                protocol.SeatState(seat.name, seat.kind, seat.bot, seat.taken, seat.left)  # type: ignore[arg-type]
                for seat in self.seats
            ),
            moves=self.moves,
            you=you,
            clock=self.rules.clock,
            talk=self.rules.talk,
            quick=self.rules.quick,
            bots_in=bots_in,
            game=self.game_number,
        )

    def connections(self) -> list[Connection]:
        seated = [seat.connection for seat in self.seats if seat.connection is not None]
        return seated + list(self.spectators)

    def send_room(self, but: Connection | None = None) -> None:
        """Everyone (``but`` one, told already) hears the seats and state, and their own seat.

        Each seated person's copy says which seat is theirs; the spectators' copy
        is one frame for all of them, however many they are.
        """
        for s, seat in enumerate(self.seats):
            if seat.connection is not None and seat.connection is not but:
                self.audience.tell(seat.connection, self.room_message(s))
        watching = [c for c in self.spectators if c is not but]
        if watching:
            self.audience.broadcast(self.room_message(None), watching)  # once per version
        self.send_ratings()

    def send_ratings(self) -> None:
        """Everyone (of version 3 on) hears whether the table is rated, whether its game
        counts, and each seat's rating (read from the store first, and judged again)."""
        phase = self.phase
        self._spawn(self.ratings.announce(phase.game_id if isinstance(phase, Playing) else None))

    def send_presence(self) -> None:
        """Everyone hears each seat's connection (it changed)."""
        self.audience.broadcast(seat_list.presence(self.seats))

    def send_backlog(self, connection: Connection) -> None:
        """The whole stream so far (and what runs now), to one connection that just (re)joined."""
        phase = self.phase
        if isinstance(phase, Over):
            self.audience.send_finished(connection, phase.frames)
            if phase.offer is not None:
                self.audience.tell(connection, phase.offer.state())
        elif isinstance(phase, Playing):
            self.audience.backlog(connection, phase.table.messages)
            clock = phase.timer.state() if phase.timer is not None else None
            if clock is not None:
                self.audience.tell(connection, clock)

    def listing(self) -> Listing:
        """This table as ``GET /tables`` lists it."""
        return self.listed.entry(self.code, self.phase, self.seats)

    # ------------------------------------------------------------------ connections

    def attach(
        self,
        seat: int | None,
        connection: Connection,
        version: int = protocol.PROTOCOL_VERSION,
        name: str = "",
    ) -> None:
        """``connection`` (speaking ``version``) is now seat ``seat`` (``None``: a spectator,
        who talks as ``name``)."""
        self.audience.versions[connection] = version
        if seat is None:
            self.spectators.add(connection)
            self.talk.watching(connection, name)
            return
        place = self.seats[seat]
        place.connection = connection
        place.stop_waiting()
        if place.away:
            self.away.back(seat, self._playing())

    def detach(self, connection: Connection) -> None:
        """``connection`` closed: its seat waits for its person, then the away bot plays."""
        if self._stopped:
            return
        self.spectators.discard(connection)
        self.talk.gone(connection)
        self.audience.forget(connection)
        seat = seat_list.seat_of(self.seats, connection)
        if seat is not None:
            self.seats[seat].connection = None
            phase = self.phase
            if isinstance(phase, Playing):
                self.away.wait_for(seat, phase)
            elif isinstance(phase, Waiting) and self.rules.quick:
                # Nobody waits at a quick-play table for someone who went: the seat is free.
                self.free(seat)
            elif isinstance(phase, Over) and phase.offer is not None:
                self.rematches.close(phase, "left", seat)
            self.send_presence()
        if not self.connections():
            self.idle_since = self.clock.now()

    def _playing(self) -> Playing | None:
        return self.phase if isinstance(self.phase, Playing) else None

    # ------------------------------------------------------------------ seats

    def sit(
        self, name: str, key_hash: str | None = None, network: str | None = None
    ) -> tuple[int, str] | None:
        """Seat a newcomer in the first open seat: (seat, their new token), or None if full
        (or a game is starting).

        ``key_hash``: the digest of their player key; ``network``: where they sit from.
        (The name they hold with it is the seat's ``player`` once bound.)
        """
        if self.starting or not isinstance(self.phase, Waiting):
            return None
        return seat_list.sit(self.seats, name, key_hash, network)

    def unsit(self, seat: int) -> None:
        """A newcomer's seat taken just now is open again (their name could not be held)."""
        self.free(seat)
        self.seats[seat].network = None

    def free(self, seat: int) -> None:
        """A seat in the waiting room is open again (its person left it)."""
        self.seats[seat].open_again()
        if self.rules.quick and isinstance(self.phase, Waiting):
            self.quick.freed(self.phase, self.seats)
        free = sum(1 for s in self.seats if not s.taken)
        self._spawn(self._keep_freed(free))

    async def _keep_freed(self, free: int) -> None:
        await self.keep_seats()
        if self.rules.quick:
            await self.directory.quick_free(self.code, len(self.seats), free)
        self.send_room()

    def remove_seat(self, seat: int) -> str | None:
        """Take seat ``seat`` away (its person, if any, watches now); what is wrong, if it
        cannot be."""
        problem, gone = seat_list.remove(self.seats, seat, self.host)
        if gone is not None and gone.connection is not None:
            self.attach(None, gone.connection, self.audience.version(gone.connection))
        return problem

    async def keep_seats(self) -> None:
        """Keep the seats as they are now in the store."""
        await self.store.set_seats(self.table_id, [seat.stored() for seat in self.seats])

    # ------------------------------------------------------------------ the games

    def begin(self, game: GameToPlay) -> None:
        """Run ``game`` (new, or resumed with what was kept of it) to its end: its
        ``Playing`` phase is the room's, then its ``Over`` phase."""
        phase = self.phase = self.games.begin(self.seats, game)
        if phase.table.over:
            self._finished(phase)
        else:
            phase.task = asyncio.get_running_loop().create_task(self._play(phase))

    async def _play(self, phase: Playing) -> GameRecord:
        record = await self.games.play(phase)
        self._finished(phase)
        self.send_room()
        return record

    def _finished(self, phase: Playing) -> None:
        self.phase = self.games.finish(phase)
        self.idle_since = self.clock.now()  # kept a while from the end, even with nobody here

    async def start_next(self) -> None:
        """Start the table's next game (its first, or another once everyone agreed)."""
        if self.starting or isinstance(self.phase, Playing):
            return
        players = len(self.seats)
        seed, number = self.games.next_deal(self.phase, players)
        self.starting = True
        try:
            game_id = await self.games.keep_start(self.table_id, seed)
        finally:
            self.starting = False
        seats = [SeatInfo(seat.name, seat.kind, seat.bot) for seat in self.seats]  # type: ignore[arg-type]
        self.begin(GameToPlay(game_id, number, dealt(seats, seed)))
        self.send_room()
        for connection in self.connections():
            self.send_backlog(connection)
        self.send_presence()

    async def play_again(self) -> None:
        """Everyone agreed: the same seats play again (a seat whose person left, as a bot)."""
        self.listed.drop()
        host = self.seats.index(self.host)
        seat_list.bots_for(self.seats, self.rules.away_bot, lambda seat: seat.left)
        self.host = self.seats[host]
        await self.keep_seats()
        await self.start_next()

    async def seated(self, resumed: bool = False) -> None:
        """Someone sat down: a quick-play table starts once full, else has bots fill it in
        time (``resumed``: taken over, or the server restarted: when they were to come)."""
        waiting = self.phase
        if not self.rules.quick or not isinstance(waiting, Waiting):
            return
        if not await self.quick.offer(self.seats):
            await self.start_next()
        elif waiting.fill is None and any(seat.person for seat in self.seats):
            await self.quick.wait_for_bots(waiting, resumed, lambda: self._spawn(self._fill()))
            self.send_room()  # everyone sees when the bots will come

    async def _fill(self) -> None:
        """A quick-play table waited long enough: bots take its open seats and it starts."""
        waiting = self.phase
        if not isinstance(waiting, Waiting):
            return
        if await self.quick.filled(waiting, self.seats, self.rules.away_bot):
            await self.keep_seats()
            await self.start_next()

    # ------------------------------------------------------------------ leaving

    async def leave(self, connection: Connection) -> str | None:
        """The person at ``connection`` leaves the table for good; an error code if they may not.

        Waiting: their seat is open again.  Playing: the away bot plays their seat
        to the end, and nobody takes it back.  Over: their seat is played for in
        any further game.  The connection stays, as a spectator's.
        """
        seat = seat_list.seat_of(self.seats, connection)
        if seat is None:
            return protocol.NOT_YOUR_TURN
        place = self.seats[seat]
        phase = self.phase
        if isinstance(phase, Waiting):
            if place is self.host and not self.rules.quick:
                return protocol.NOT_HOST
            self.free(seat)
        else:
            place.left, place.connection = True, None
            self.away.left(seat, self._playing())
            if isinstance(phase, Over) and phase.offer is not None:
                self.rematches.close(phase, "left", seat)
            await self.keep_seats()
        self.attach(None, connection, self.audience.version(connection))
        self.send_room()
        self.send_presence()
        return None

    # ------------------------------------------------------------------ another node

    async def resume(self) -> None:
        """The table was taken over (or the server restarted): what ran in its last owner's
        memory goes on — an open offer of another game, a quick-play table's wait for
        bots — as the directory kept it (a directory that lost it: the offer is gone,
        and the bots' wait starts anew)."""
        phase = self.phase
        if isinstance(phase, Waiting):
            await self.seated(resumed=True)
        elif isinstance(phase, Over) and phase.offer is None:
            await self.rematches.resume(phase)

    async def share_again(self) -> None:
        """The directory lost what it had (Redis restarted): put this table's part back."""
        phase = self.phase
        if isinstance(phase, Waiting) and self.rules.quick:
            await self.quick.share_again(phase, self.seats)
        elif isinstance(phase, Over):
            await self.rematches.note(phase)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        """The server is stopping: end the game's task (every move is already kept)."""
        self._stopped = True
        for seat in self.seats:
            seat.stop_waiting()
        phase = self.phase
        if isinstance(phase, Playing) and phase.task is not None:
            phase.task.cancel()
        elif isinstance(phase, Over) and phase.offer is not None:
            phase.offer.close()
        elif isinstance(phase, Waiting):
            phase.stop_fill()
        for task in list(self._tasks):
            task.cancel()


def stored_notices(notices: Iterable[tuple[int, str]]) -> tuple[tuple[int, Notice | Talk], ...]:
    """Notices (and talk) as the store keeps them, read back (unreadable ones are skipped)."""
    return tuple(record_notices(notices))
