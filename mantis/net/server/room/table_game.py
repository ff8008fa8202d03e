"""The games played at a table: each started, run to its end, and kept as a finished game.

A game starts once its seed is kept in the store (a quick-play table's wait
for bots ends; another game's first seat is the one after the last game's);
it runs with the table driver (``game_start.start_playing``), each move sent
to everyone as it is published; a person's intent is checked and passed to
their seat; at its end the table is ``Over``, its stream kept as one frame
per wording, and a rated game's moved ratings are told.

``TableGames`` is handed what it uses, and what it needs of the table it is
played at (``GameTable``: its phase, seats and ways to tell everyone).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from datetime import datetime
from typing import Any, Protocol

from ....engine import Action, GameRecord, SeatInfo
from ....players.clock import Clock
from ....store.player_ratings import GameRating
from ....store.tables_interface import TableStore
from ....table import Message, Notice, Talk, dealt
from ... import protocol
from .audience import Audience, Connection
from .away_seats import AwaySeats
from .game_start import GameHooks, start_playing
from .move_pace import MovePace
from .phases import Over, Phase, Playing, last_mover, last_word_on
from .rematch import seed_with_first
from .seat_list import Seat
from .table_ratings import TableRatings

log = logging.getLogger("mantis.server")


class GameTable(Protocol):
    """What a game needs of the table it is played at."""

    phase: Phase
    seats: list[Seat]
    table_id: int
    starting: bool
    """A game is being started (its seed kept): no second start, no newcomer."""
    idle_since: float

    def connections(self) -> list[Connection]: ...

    def send_room(self, but: Connection | None = None) -> None: ...

    def send_presence(self) -> None: ...

    def send_backlog(self, connection: Connection) -> None: ...


class TableGames:
    """The games at one table (``at``)."""

    def __init__(
        self,
        at: GameTable,
        *,
        code: str,
        away_bot: str,
        bot_timeout: float,
        turn_clock: int | None,
        clock: Clock,
        store: TableStore,
        seeds: Callable[[], int],
        audience: Audience,
        away: AwaySeats,
        pace: MovePace,
        ratings: TableRatings,
        lost: Callable[[], None],
        committed: Callable[[float], None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        """``turn_clock``: seconds per move (None: none); ``seeds``: a fresh seed per game;
        ``lost``: another node holds the table; ``committed``: a store write's seconds."""
        self.at = at
        self.code = code
        self.away_bot = away_bot
        self.bot_timeout = bot_timeout
        self.turn_clock = turn_clock
        self.clock = clock
        self.store = store
        self.seeds = seeds
        self.audience = audience
        self.away = away
        self.pace = pace
        self.ratings = ratings
        self.lost = lost
        self.committed = committed
        self.spawn = spawn

    def begin(
        self,
        game_id: int,
        number: int,
        record: GameRecord,
        notices: Iterable[tuple[int, Notice | Talk]] = (),
        deadline: tuple[int, datetime] | None = None,
    ) -> None:
        """Run game ``game_id`` (the table's ``number``-th) of the store, dealt in ``record``
        (new, or resumed after a restart, with the moves, notices and turn deadline kept so
        far), to its end."""
        notices = tuple(notices)
        for s, seat in enumerate(self.at.seats):
            seat.away = seat.left or last_word_on(s, notices) == "away"
        hooks = GameHooks(
            self._game_rating,
            self._busy,
            self.lost,
            self.committed,
            self.audience.broadcast,
        )
        phase = start_playing(
            game_id,
            number,
            record,
            notices,
            deadline,
            seats=self.at.seats,
            away_bot=self.away_bot,
            bot_timeout=self.bot_timeout,
            turn_clock=self.turn_clock,
            clock=self.clock,
            store=self.store,
            hooks=hooks,
        )
        table = phase.table
        self.at.phase = phase
        self.audience.game_began(table.messages)
        self.pace.mover = last_mover(table.messages)
        table.subscribe(self.publish, self.pace.paced, backlog=False)
        if table.over:
            self._finish()
            return
        phase.task = asyncio.get_running_loop().create_task(self._play())
        for s, seat in enumerate(self.at.seats):
            # Whoever is not here (left the waiting room, or cut off by a server restart)
            # is waited for, then played for, like anyone who drops.
            if seat.kind == "human" and seat.connection is None:
                self.away.wait_for(s)
            if phase.timeouts.away(s) and not seat.away:
                self.spawn(self.away.away(s))  # its third timeout was kept, its away was not

    async def start_next(self) -> None:
        """Start the table's next game (its first, or another once everyone agreed)."""
        phase = self.at.phase
        if self.at.starting or isinstance(phase, Playing):
            return
        players = len(self.at.seats)
        if isinstance(phase, Over):
            first = (phase.first + 1) % players
            seed = seed_with_first(self.seeds, players, first)
            number = phase.number + 1
        else:
            phase.stop_fill()
            seed, number = self.seeds(), 1
        self.at.starting = True
        try:
            game_id = await self.store.start_game(self.at.table_id, seed)
            await self.ratings.judge(game_id)  # (rated as it starts, and counted, or not)
        finally:
            self.at.starting = False
        seats = [SeatInfo(seat.name, seat.kind, seat.bot) for seat in self.at.seats]  # type: ignore[arg-type]
        self.begin(game_id, number, dealt(seats, seed))
        self.at.send_room()
        for connection in self.at.connections():
            self.at.send_backlog(connection)
        self.at.send_presence()

    async def _play(self) -> GameRecord:
        phase = self.at.phase
        assert isinstance(phase, Playing)
        try:
            record = await phase.table.run()
        except asyncio.CancelledError:
            raise
        except Exception:  # a server bug must not take other tables down: log it
            log.exception("table %s stopped", self.code)
            raise
        self.audience.flush()  # the last move before the room says it is over
        self._finish()
        before, self.ratings.before = self.ratings.before, ()
        if before:  # rated: everyone hears the ratings it moved
            self.spawn(self.ratings.announce(None, before))
        self.at.send_room()
        return record

    def _finish(self) -> None:
        """Keep a finished game as one encoded frame per protocol version: a server holds
        many finished rooms for a while, and a frame is one object to the garbage collector,
        a game thousands."""
        phase = self.at.phase
        assert isinstance(phase, Playing) and phase.table.over
        table = phase.table
        frames = self.audience.finished(table.messages)
        self.at.phase = Over(phase.game_id, phase.number, table.record.first, table.turn, frames)
        self.at.idle_since = self.clock.now()  # kept a while from the end, even with nobody here
        self.away.game_over()

    def act(self, seat: int, turn: int, action: Action) -> str | None:
        """``seat``'s intent to play ``action`` on turn ``turn``; an error code if it may not."""
        phase = self.at.phase
        if not isinstance(phase, Playing):
            return protocol.NOT_NOW
        if self.at.seats[seat].away and not self.at.seats[seat].left:
            self.away.back(seat)  # acting again brings a seat back from away
        problem = phase.refusal(seat, turn, action)
        if problem is None:
            self.pace.intent()
        return problem

    def _busy(self, busy: bool) -> None:
        """The store cannot be reached (or is back): the table waits, and says why."""
        if busy:
            error = protocol.Error(
                protocol.BUSY,
                "the server is busy (its database is unreachable): play resumes"
                " by itself once it is back",
            )
            self.audience.broadcast(error)

    def _game_rating(self, record: GameRecord) -> GameRating | None:
        """How the game that just ended moves ratings (None: it does not)."""
        phase = self.at.phase
        if not isinstance(phase, Playing):
            return None
        away = [s for s, seat in enumerate(self.at.seats) if seat.away and seat.person]
        return self.ratings.game_rating(record, phase.forfeits_at_end(away))

    def publish(self, message: Message) -> None:
        """The driver published ``message``: send it with the rest of its move, at once."""
        self.pace.saw(message)
        phase = self.at.phase
        if isinstance(phase, Playing):
            tired = phase.saw(message)
            if tired is not None:
                self.spawn(self.away.away(tired))
        self.audience.publish(message)
