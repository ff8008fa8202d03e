"""The games played at a table: each started, run to its end, and kept as a finished game.

A game starts once its seed is kept in the store (a quick-play table's wait
for bots ends; another game's first seat is the one after the last game's);
it runs with the table driver (``game_start.start_playing``), each move sent
to everyone as it is published; a person's intent is checked and passed to
their seat; at its end the table is ``Over``, its stream kept as one frame
per wording, and a rated game's moved ratings are told.

``TableGames`` is handed how games are played (``GameSettings``) and the
parts of the table a game works with (``GameParts``); each call is handed
the table's phase and seats, and returns what changed (``begin``: the
``Playing`` phase, ``finish``: the ``Over`` one) for the room to keep.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from ....engine import Action, GameRecord
from ....store.player_ratings import GameRating
from ....table import Message
from ... import protocol
from .audience import Audience
from .away_seats import AwaySeats
from .game_start import GameHooks, GameSettings, GameToPlay, start_playing
from .move_pace import MovePace
from .phases import Over, Phase, Playing, last_mover, last_word_on
from .rematch import seed_with_first
from .seat_list import Seat
from .table_ratings import TableRatings

log = logging.getLogger("mantis.server")


@dataclass(frozen=True, slots=True)
class GameParts:
    """The parts of a table its games work with: its listeners, its people away, its pace
    and its ratings."""

    audience: Audience
    away: AwaySeats
    pace: MovePace
    ratings: TableRatings


@dataclass(frozen=True, slots=True)
class GameEvents:
    """What a table's games tell whoever runs it, and how they run a task."""

    lost: Callable[[], None]
    """Another node holds the table: stop running it here."""
    committed: Callable[[float], None]
    """A write to the store took this long."""
    spawn: Callable[[Coroutine[Any, Any, None]], None]


class TableGames:
    """The games at one table (``code``)."""

    def __init__(
        self,
        code: str,
        settings: GameSettings,
        seeds: Callable[[], int],
        parts: GameParts,
        events: GameEvents,
    ) -> None:
        """``seeds``: a fresh seed per game."""
        self.code = code
        self.settings = settings
        self.seeds = seeds
        self.parts = parts
        self.events = events

    def begin(self, seats: Sequence[Seat], game: GameToPlay) -> Playing:
        """``game`` (new, or resumed after a restart with the moves, notices and turn
        deadline kept so far) ready to run with ``seats``: its ``Playing`` phase, told its
        stream's numbering, its pace and its people away.  (Resumed over already, it is
        ``finish``ed at once; else the table runs it with ``play``.)"""
        for s, seat in enumerate(seats):
            seat.away = seat.left or last_word_on(s, game.notices) == "away"
        parts = self.parts
        playing: list[Playing] = []  # (the phase, once made: the rating is asked at its end)
        hooks = GameHooks(
            lambda record: self._game_rating(playing[0], seats, record),
            self._busy,
            self.events.lost,
            self.events.committed,
            parts.audience.broadcast,
        )
        phase = start_playing(game, seats, self.settings, hooks)
        playing.append(phase)
        table = phase.table
        parts.audience.game_began(table.messages)
        parts.pace.mover = last_mover(table.messages)
        table.subscribe(
            lambda message: self.publish(phase, message), parts.pace.paced, backlog=False
        )
        if table.over:
            return phase
        for s, seat in enumerate(seats):
            # Whoever is not here (left the waiting room, or cut off by a server restart)
            # is waited for, then played for, like anyone who drops.
            if seat.kind == "human" and seat.connection is None:
                parts.away.wait_for(s, phase)
            if phase.timeouts.away(s) and not seat.away:  # its third timeout kept, not its away
                self.events.spawn(parts.away.away(s, phase))
        return phase

    def next_deal(self, phase: Phase, players: int) -> tuple[int, int]:
        """The seed of the table's next game and its number: its first, or another once
        everyone agreed (its first seat the one after the last game's)."""
        if isinstance(phase, Over):
            first = (phase.first + 1) % players
            return seed_with_first(self.seeds, players, first), phase.number + 1
        if not isinstance(phase, Playing):
            phase.stop_fill()
        return self.seeds(), 1

    async def keep_start(self, table_id: int, seed: int) -> int:
        """Keep a new game of table ``table_id`` dealt from ``seed``, rated as it starts (and
        counted, or not); its id."""
        game_id = await self.settings.store.start_game(table_id, seed)
        await self.parts.ratings.judge(game_id)
        return game_id

    async def play(self, phase: Playing) -> GameRecord:
        """Run ``phase``'s game to its end (its last move sent before it returns)."""
        try:
            record = await phase.table.run()
        except asyncio.CancelledError:
            raise
        except Exception:  # a server bug must not take other tables down: log it
            log.exception("table %s stopped", self.code)
            raise
        self.parts.audience.flush()  # the last move before the room says it is over
        return record

    def finish(self, phase: Playing) -> Over:
        """The game is over: its ``Over`` phase, its stream kept as one encoded frame per
        protocol version (a server holds many finished rooms for a while, and a frame is
        one object to the garbage collector, a game thousands); nobody is waited for or
        played for any more, and a rated game's moved ratings are told."""
        assert phase.table.over
        table = phase.table
        frames = self.parts.audience.finished(table.messages)
        self.parts.away.game_over()
        ratings = self.parts.ratings
        before, ratings.before = ratings.before, ()
        if before:  # rated: everyone hears the ratings it moved
            self.events.spawn(ratings.announce(None, before))
        return Over(phase.game_id, phase.number, table.record.first, table.turn, frames)

    def act(
        self, phase: Phase, seats: Sequence[Seat], seat: int, turn: int, action: Action
    ) -> str | None:
        """``seat``'s intent to play ``action`` on turn ``turn``; an error code if it may not."""
        if not isinstance(phase, Playing):
            return protocol.NOT_NOW
        if seats[seat].away and not seats[seat].left:
            self.parts.away.back(seat, phase)  # acting again brings a seat back from away
        problem = phase.refusal(seat, turn, action)
        if problem is None:
            self.parts.pace.intent()
        return problem

    def _busy(self, busy: bool) -> None:
        """The store cannot be reached (or is back): the table waits, and says why."""
        if busy:
            error = protocol.Error(
                protocol.BUSY,
                "the server is busy (its database is unreachable): play resumes"
                " by itself once it is back",
            )
            self.parts.audience.broadcast(error)

    def _game_rating(
        self, phase: Playing, seats: Sequence[Seat], record: GameRecord
    ) -> GameRating | None:
        """How the game that just ended moves ratings (None: it does not)."""
        away = [s for s, seat in enumerate(seats) if seat.away and seat.person]
        return self.parts.ratings.game_rating(record, phase.forfeits_at_end(away))

    def publish(self, phase: Playing, message: Message) -> None:
        """``phase``'s game published ``message``: send it with the rest of its move, at once."""
        self.parts.pace.saw(message)
        tired = phase.saw(message)
        if tired is not None:
            self.events.spawn(self.parts.away.away(tired, phase))
        self.parts.audience.publish(message)
