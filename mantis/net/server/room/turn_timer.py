"""An online table's turn clock: the seconds a person has for each move, held by the server.

When a person's turn starts, the server sets its deadline, keeps it in the
store, and tells every (version-2) client how many seconds are left; the
clients only count down what they were told, so a slow or lying client
changes nothing.  When the time runs out, the seat's away bot plays that one
move (the driver says so on the stream: ``TimedOut``); after three in a row
the seat is away, as if its person had gone, and after three in the game,
in a row or not, its person has forfeited a rated game (``Timeouts``).

A table that comes back after a restart, or on another node, keeps the
deadline it had kept — but gives the person to move never less than
``RESUME_GRACE`` seconds, since they were cut off too and need a moment to
reconnect.  The time the server was down is not held against them beyond
that.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from ....base.clock import Clock
from ....engine import CardRevealed, View
from ....players import Player
from ....store.tables_interface import StoreError, TableStore
from ....table import Back, Message, TimedOut
from ... import protocol
from .remote import RemoteSeat

log = logging.getLogger("mantis.server")

#: The least a person to move has once a table comes back (a restart, a takeover).
RESUME_GRACE = 10.0
#: Moves timed out in a row after which a seat is away.
TIMEOUTS_AWAY = 3
#: Moves timed out in a game (in a row or not) after which a rated game is lost.
TIMEOUTS_FORFEIT = 3


class TurnTimer:
    """One game's turn clock on the server (the driver's ``TurnClock``)."""

    def __init__(
        self,
        seconds: int,
        clock: Clock,
        store: TableStore,
        game_id: int,
        remotes: Mapping[int, RemoteSeat],
        tell: Callable[[protocol.Clock], None],
        kept: tuple[int, datetime] | None = None,
    ) -> None:
        """A clock of ``seconds`` per move for game ``game_id``; ``tell`` sends its news.

        ``kept`` is the deadline the store had for the game (a table resumed).
        """
        self.seconds = seconds
        self.clock = clock
        self.store = store
        self.game_id = game_id
        self.remotes = remotes
        self.tell = tell
        self.kept = kept
        self.running: tuple[int, int, float] | None = None
        """(turn, seat, deadline on ``clock``) of the person being timed now."""
        self._failed = False

    async def start(self, view: View) -> float | None:
        seat = view.to_move
        remote = self.remotes.get(seat)
        if remote is None or remote.away:
            return None  # the away bot plays at once: nobody to time
        deadline = self._deadline(view.turn)
        try:
            await self.store.set_deadline(
                self.game_id, view.turn, datetime.fromtimestamp(deadline, UTC)
            )
        except StoreError as exc:  # the clock runs all the same; said once
            if not self._failed:
                self._failed = True
                log.error("could not keep a turn's deadline: %s", exc)
        now = self.clock.now()
        self.running = (view.turn, seat, now + deadline - self.clock.time())
        state = self.state()
        assert state is not None
        self.tell(state)
        return state.remaining

    def _deadline(self, turn: int) -> float:
        """When ``turn``'s time runs out, on the wall clock."""
        now = self.clock.time()
        kept, self.kept = self.kept, None
        if kept is not None and kept[0] == turn:
            return max(kept[1].timestamp(), now + min(RESUME_GRACE, self.seconds))
        return now + self.seconds

    def stand_in(self, seat: int) -> tuple[Player, str]:
        remote = self.remotes[seat]
        return remote.bot, remote.bot_name

    def state(self) -> protocol.Clock | None:
        """The clock running now, as a client is told it (None: nobody is timed)."""
        if self.running is None:
            return None
        turn, seat, deadline = self.running
        remaining = round(max(0.0, deadline - self.clock.now()), 3)
        return protocol.Clock(turn, seat, remaining, self.seconds)

    def ran_out(self, seat: int, turn: int) -> bool:
        """Whether ``seat``'s time for ``turn`` has run out (a move now comes too late)."""
        running = self.running
        if running is None or running[:2] != (turn, seat):
            return False
        return self.clock.now() >= running[2]


class Timeouts:
    """Each seat's moves timed out, in a row and in the game, read off the stream as it goes."""

    def __init__(self) -> None:
        self.in_a_row: dict[int, int] = {}
        self.in_the_game: dict[int, int] = {}
        self._stood_in: int | None = None

    def see(self, message: Message) -> int | None:
        """Take in one stream message; the seat whose third timeout in a row this is, if any."""
        if isinstance(message, TimedOut):
            count = self.in_a_row.get(message.seat, 0) + 1
            self.in_a_row[message.seat] = count
            self.in_the_game[message.seat] = self.in_the_game.get(message.seat, 0) + 1
            self._stood_in = message.seat
            return message.seat if count == TIMEOUTS_AWAY else None
        if isinstance(message, CardRevealed):
            if message.seat == self._stood_in:
                self._stood_in = None  # the stand-in's move
            else:
                self.in_a_row.pop(message.seat, None)  # played in time (or by the away bot)
        elif isinstance(message, Back):
            self.in_a_row.pop(message.seat, None)
        return None

    def away(self, seat: int) -> bool:
        """Whether ``seat`` ran out of time often enough in a row to be away."""
        return self.in_a_row.get(seat, 0) >= TIMEOUTS_AWAY

    def forfeits(self) -> set[int]:
        """The seats that ran out of time often enough in the game to lose it, if rated."""
        return {seat for seat, count in self.in_the_game.items() if count >= TIMEOUTS_FORFEIT}
