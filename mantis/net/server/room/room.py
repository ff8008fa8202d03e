"""One table on the server: its seats, who is connected, and the games played at it.

A table's life is a typed ``phase`` (``phases``): ``Waiting``, ``Playing``,
``Over`` and, once everyone accepts another game, ``Playing`` again.  The
room holds the seats (``seat_list``) and the connections, and hands each
part of its work what it uses: who hears what (``audience.Audience``), the
games (``table_game``), people away (``away_seats``), quick play
(``quick_fill``), offers of another game (``rematch.Rematches``), talk
(``table_talk``), ratings (``table_ratings``), a game's pace
(``move_pace``) and its entry in the list of tables (``table_listing``).

A room is handed everything it uses: its ``RoomConfig``, the ``TableStore``
that keeps its table, a ``Send`` that puts a frame on connections without
waiting, the ``Clock`` its timers run on, the ``Directory`` and a source of
seeds.  It never reaches back into the server.  A connection is anything
hashable the ``Send`` reaches (a WebSocket, or one held by another node).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ....engine import Action, GameRecord
from ....players.clock import Clock
from ....players.decision import DEFAULT_BOT_TIMEOUT
from ....store.table_rules import TableRules
from ....store.tables_interface import RoomPhase, TableStore
from ....table import Notice, Table, Talk, record_notices
from ... import protocol
from ..directory import Directory, Listing, TableNotes
from ..limits.bot_share import BotShare
from . import seat_list
from .audience import Audience, Connection, Send
from .away_seats import AwaySeats
from .move_pace import MovePace
from .phases import Over, Phase, Playing, Waiting, moves_of, phase_name
from .quick_fill import QuickFill
from .rated_games import RatedGames
from .rematch import Rematches
from .seat_list import Seat
from .table_game import TableGames
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
    again: Callable[[Room], Awaitable[str | None]] = lambda room: _nothing()
    """Another game is about to start: count it as a table (the error code if refused)."""


async def _nothing() -> None:
    return None


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


log = logging.getLogger("mantis.server")


class Room:
    """A table on the server, from its waiting room through every game played at it."""

    def __init__(
        self,
        config: RoomConfig,
        store: TableStore,
        send: Send,
        clock: Clock,
        *,
        directory: Directory,
        seeds: Callable[[], int],
        hooks: RoomHooks | None = None,
        table_id: int,
        code: str,
        rules: TableRules,
        host: Seat,
        seats: list[Seat],
        owner: str = "",
        bots: BotShare | None = None,
        rated: RatedGames | None = None,
    ) -> None:
        """``owner``: the address group that created the table (its bots' share is that
        group's); ``bots``: the server's share of bot moves (None: bots move at their pace);
        ``rated``: the rules a rated table's games are judged by (None: rated as nothing)."""
        self.config = config
        self.store = store
        self.clock = clock
        self.hooks = hooks or RoomHooks()
        self.directory = directory
        self.seeds = seeds
        """Fresh seeds, one per game (the server's)."""
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
        self.bots = bots
        self.phase: Phase = Waiting()
        self.spectators: set[Connection] = set()
        self.audience = Audience(send, self.connections, lambda sent: self.pace.sent(sent))
        """Who hears what here: each connection in its protocol version."""
        self.talk = TableTalk(self.broadcast)
        """Who talks under which name here."""
        self.idle_since = clock.now()
        """When the last connection left (rooms nobody visits are dropped)."""
        self.pace = MovePace(seats, clock, config.bot_pace, self.hooks.moved, bots, owner)
        """Bots' pace, and how long a person's move takes to go out."""
        self._stopped = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.starting = False
        """A game is being started (its seed kept): no second start, no newcomer."""
        self.away = AwaySeats(
            seats,
            clock,
            config.away_after,
            rules.away_bot,
            lambda: self.phase if isinstance(self.phase, Playing) else None,
            self.send_presence,
            self._spawn,
        )
        """Who is away, and the waits for those who dropped."""
        self.notes = TableNotes(directory, code)
        """What it leaves in the directory for whichever node runs it next."""
        self.quick = QuickFill(
            self, code, config.quick_fill, clock, directory, self.notes, self._spawn
        )
        """A quick-play table's offer in the directory, and its wait for bots."""
        self.rematches = Rematches(clock, self.notes, self.broadcast, self._spawn)
        """Its offers of another game."""
        self.ratings = TableRatings(
            store, rated, rules.rated, lambda: [seat.facts() for seat in self.seats], self.broadcast
        )
        """Its seated players' ratings, and whether its game counts."""
        self.games = TableGames(
            self,
            code=code,
            away_bot=rules.away_bot,
            bot_timeout=config.bot_timeout,
            turn_clock=rules.clock,
            clock=clock,
            store=store,
            seeds=seeds,
            audience=self.audience,
            away=self.away,
            pace=self.pace,
            ratings=self.ratings,
            lost=lambda: self.hooks.lost(self),
            committed=self.hooks.committed,
            spawn=self._spawn,
        )
        """The games played here."""
        self.listed = TableListing(rules.clock, rules.quick)
        """Its entry in the list of public tables."""

    # ------------------------------------------------------------------ what it says

    @property
    def private(self) -> bool:
        return self.rules.private

    @property
    def away_bot(self) -> str:
        return self.rules.away_bot

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

    def seat_of(self, connection: Connection) -> int | None:
        """The seat ``connection`` sits at (None: it watches)."""
        return seat_list.seat_of(self.seats, connection)

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
            private=self.private,
            host=self.seats.index(self.host),
            away_bot=self.away_bot,
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

    def version(self, connection: Connection) -> int:
        return self.audience.version(connection)

    def tell(self, connection: Connection, message: protocol.ServerMessage) -> None:
        """Send one connection one message, in its own protocol version's words."""
        self.audience.tell(connection, message)

    def broadcast(
        self, message: protocol.ServerMessage, to: Iterable[Connection] | None = None
    ) -> None:
        """Send ``message`` to everyone (or ``to``), encoded once per protocol version."""
        self.audience.broadcast(message, to)

    def ping(self, connection: Connection, ping: protocol.Ping) -> str | None:
        """Answer ``connection``'s ``ping``; an error code if it asks too often."""
        answered = self.audience.pong(connection, ping, self.clock.now())
        return None if answered else protocol.SLOW_DOWN

    def send_room(self, but: Connection | None = None) -> None:
        """Everyone (``but`` one, told already) hears the seats and state, and their own seat.

        Each seated person's copy says which seat is theirs; the spectators' copy
        is one frame for all of them, however many they are.
        """
        for s, seat in enumerate(self.seats):
            if seat.connection is not None and seat.connection is not but:
                self.tell(seat.connection, self.room_message(s))
        watching = [c for c in self.spectators if c is not but]
        if watching:
            self.broadcast(self.room_message(None), watching)  # once per protocol version
        self.send_ratings()

    # ------------------------------------------------------------------ ratings

    def send_ratings(self) -> None:
        """Everyone (of version 3 on) hears whether the table is rated, whether its game
        counts, and each seat's rating (read from the store first, and judged again)."""
        phase = self.phase
        self._spawn(self.ratings.announce(phase.game_id if isinstance(phase, Playing) else None))

    def ratings_state(self) -> protocol.Ratings:
        """The table's ``ratings`` message now."""
        return self.ratings.message()

    def holds_key(self, key_hash: str) -> bool:
        """Whether a seat here is held by the player key with this digest already."""
        return seat_list.holds_key(self.seats, key_hash)

    def presence(self) -> protocol.Presence:
        return protocol.Presence(tuple(seat.presence() for seat in self.seats))

    def send_presence(self) -> None:
        """Everyone hears each seat's connection (it changed)."""
        self.broadcast(self.presence())

    def send_backlog(self, connection: Connection) -> None:
        """The whole stream so far (and what runs now), to one connection that just (re)joined."""
        phase = self.phase
        if isinstance(phase, Over):
            self.audience.send_finished(connection, phase.frames)
            if phase.offer is not None:
                self.tell(connection, phase.offer.state())
        elif isinstance(phase, Playing):
            self.audience.backlog(connection, phase.table.messages)
            clock = phase.timer.state() if phase.timer is not None else None
            if clock is not None:
                self.tell(connection, clock)

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
            self.away.back(seat)

    def detach(self, connection: Connection) -> None:
        """``connection`` closed: its seat waits for its person, then the away bot plays."""
        if self._stopped:
            return
        self.spectators.discard(connection)
        self.talk.gone(connection)
        self.audience.forget(connection)
        seat = self.seat_of(connection)
        if seat is not None:
            place = self.seats[seat]
            place.connection = None
            phase = self.phase
            if isinstance(phase, Playing):
                self.away.wait_for(seat)
            elif isinstance(phase, Waiting) and self.rules.quick:
                # Nobody waits at a quick-play table for someone who went: the seat is free.
                self._free(seat)
            elif isinstance(phase, Over) and phase.offer is not None:
                self.rematches.close(phase, "left", seat)
            self.send_presence()
        if not self.connections():
            self.idle_since = self.clock.now()

    def seat_with_token(self, token: str) -> int | None:
        """The seat whose token this is, if any."""
        return seat_list.seat_with_token(self.seats, token)

    def sit(
        self, name: str, key_hash: str | None = None, network: str | None = None
    ) -> tuple[int, str] | None:
        """Seat a newcomer in the first open seat: (seat, their new token), or None if full.

        ``key_hash``: the digest of their player key; ``network``: where they sit from.
        (The name they hold with it is the seat's ``player`` once bound.)
        """
        if self.starting or not isinstance(self.phase, Waiting):
            return None
        return seat_list.sit(self.seats, name, key_hash, network)

    def unsit(self, seat: int) -> None:
        """A newcomer's seat taken just now is open again (their name could not be held)."""
        self._free(seat)
        self.seats[seat].network = None

    def unique_name(self, name: str, seat: int) -> str:
        """``name``, or "Player N" for none, made to look like no other seat's name."""
        return seat_list.unique_name(self.seats, name, seat)

    # ------------------------------------------------------------------ the waiting room

    def add_bot(self, level: str) -> str | None:
        """A new seat for a bot of ``level``; what is wrong, if it cannot be."""
        return seat_list.add(self.seats, level)

    def add_open(self) -> str | None:
        """A new seat left open for a person; what is wrong, if it cannot be."""
        return seat_list.add(self.seats, None)

    def remove_seat(self, seat: int) -> str | None:
        """Take seat ``seat`` away (its person, if any, watches now); what is wrong, if it
        cannot be."""
        problem, gone = seat_list.remove(self.seats, seat, self.host)
        if gone is not None and gone.connection is not None:
            self.attach(None, gone.connection, self.version(gone.connection))
        return problem

    def _bot_name(self) -> str:
        return seat_list.bot_name(self.seats)

    def ready_to_start(self) -> str | None:
        """Why the game cannot start yet, or None."""
        return seat_list.ready_to_start(self.seats)

    async def seated(self, resumed: bool = False) -> None:
        """Someone sat down: a quick-play table starts once full, else has bots fill it in
        time (``resumed``: taken over, or the server restarted: when they were to come)."""
        if self.rules.quick:
            await self.quick.seated(resumed)

    async def keep_seats(self) -> None:
        """Keep the seats as they are now in the store."""
        await self.store.set_seats(self.table_id, [seat.stored() for seat in self.seats])

    def _free(self, seat: int) -> None:
        """A seat in the waiting room is open again (its person left it)."""
        self.seats[seat].open_again()
        if self.rules.quick:
            self.quick.freed()
        free = sum(1 for s in self.seats if not s.taken)
        self._spawn(self._keep_freed(free))

    async def _keep_freed(self, free: int) -> None:
        await self.keep_seats()
        if self.rules.quick:
            await self.directory.quick_free(self.code, len(self.seats), free)
        self.send_room()

    # ------------------------------------------------------------------ the game

    def begin(
        self,
        game_id: int,
        number: int,
        record: GameRecord,
        notices: Iterable[tuple[int, Notice | Talk]] = (),
        deadline: tuple[int, datetime] | None = None,
    ) -> None:
        """Run game ``game_id`` (the table's ``number``-th) of the store, dealt in ``record``
        (new, or resumed with the moves, notices and turn deadline kept so far)."""
        self.games.begin(game_id, number, record, notices, deadline)

    async def start_next(self) -> None:
        """Start the table's next game (its first, or another once everyone agreed)."""
        await self.games.start_next()

    def act(self, seat: int, turn: int, action: Action) -> str | None:
        """``seat``'s intent to play ``action`` on turn ``turn``; an error code if it may not."""
        return self.games.act(seat, turn, action)

    def back(self, seat: int) -> str | None:
        """``seat``'s person says they are here: they play their own turns again."""
        place = self.seats[seat]
        if not isinstance(self.phase, Playing) or not place.away or place.left:
            return protocol.NOT_NOW
        self.away.back(seat)
        self.send_presence()
        return None

    # ------------------------------------------------------------------ leaving

    async def leave(self, connection: Connection) -> str | None:
        """The person at ``connection`` leaves the table for good; an error code if they may not.

        Waiting: their seat is open again.  Playing: the away bot plays their seat
        to the end, and nobody takes it back.  Over: their seat is played for in
        any further game.  The connection stays, as a spectator's.
        """
        seat = self.seat_of(connection)
        if seat is None:
            return protocol.NOT_YOUR_TURN
        place = self.seats[seat]
        phase = self.phase
        if isinstance(phase, Waiting):
            if place is self.host and not self.rules.quick:
                return protocol.NOT_HOST
            self._free(seat)
        else:
            place.left, place.connection = True, None
            self.away.left(seat)
            if isinstance(phase, Over) and phase.offer is not None:
                self.rematches.close(phase, "left", seat)
            await self.keep_seats()
        self.attach(None, connection, self.version(connection))
        self.send_room()
        self.send_presence()
        return None

    # ------------------------------------------------------------------ another game

    async def again(self, seat: int) -> str | None:
        """``seat`` offers another game, or accepts the offer; an error code if it may not."""
        phase = self.phase
        if not isinstance(phase, Over) or not self.seats[seat].person or self.starting:
            return protocol.NOT_NOW
        people = [place.person for place in self.seats]
        counted = lambda: self.hooks.again(self)  # noqa: E731 (another game counts as a table)
        return await self.rematches.again(phase, seat, people, counted, self._play_again)

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

    def decline(self, seat: int) -> str | None:
        phase = self.phase
        if not isinstance(phase, Over) or phase.offer is None:
            return protocol.NOT_NOW
        self.rematches.close(phase, "declined", seat)
        return None

    async def _play_again(self) -> None:
        """Everyone agreed: the same seats play again (a seat whose person left, as a bot)."""
        self.listed.drop()
        host = self.seats.index(self.host)
        seat_list.bots_for(self.seats, self.away_bot, lambda seat: seat.left)
        self.host = self.seats[host]
        await self.keep_seats()
        await self.start_next()

    # ------------------------------------------------------------------ talk

    async def say(self, connection: Connection, text: str) -> None:
        """A line from ``connection``: to the seated people if it sits, else to the spectators."""
        seat = self.seat_of(connection)
        if seat is None:
            names = [place.name for place in self.seats if place.name]
            self.talk.watcher_says(connection, names, self.spectators, text)
            return
        seated = [place.connection for place in self.seats if place.connection is not None]
        name = self.seats[seat].name
        for failed in await self.talk.player_says(seat, name, seated, text, self.table):
            self.games.publish(failed)

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


def stored_notices(notices: Iterable[tuple[int, str]]) -> list[tuple[int, Notice | Talk]]:
    """Notices (and talk) as the store keeps them, read back (unreadable ones are skipped)."""
    return record_notices(notices)
