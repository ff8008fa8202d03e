"""A table's phases: ``Waiting`` (seats being filled), ``Playing`` (a game runs),
``Over`` (its record kept; another game may be offered), each holding what belongs to
it, so nothing is "a game id, unless the table is waiting"; and what a game's stream
says of the seats when it is resumed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

from ....base.clock import Timer
from ....engine import Action, CardRevealed, GameRecord, TurnStarted
from ....store.tables_interface import RoomPhase
from ....table import Away, Back, Left, Message, Notice, Recorded, Table, Talk
from ... import protocol
from .rematch import Offer
from .remote import RemoteSeat
from .turn_timer import Timeouts, TurnTimer


@dataclass
class Waiting:
    """Seats are being filled."""

    fill: Timer | None = None
    """A quick-play table with someone seated: when bots fill its open seats."""
    fill_at: float | None = None

    def stop_fill(self) -> None:
        """No bots to come (the table filled, or nobody is seated)."""
        if self.fill is not None:
            self.fill.cancel()
        self.fill, self.fill_at = None, None


@dataclass
class Playing:
    """A game is being played."""

    game_id: int
    number: int
    table: Table
    remotes: dict[int, RemoteSeat]
    timer: TurnTimer | None
    timeouts: Timeouts
    task: asyncio.Task[GameRecord] | None = None
    forfeits: set[int] = field(default_factory=set)
    """Seats whose person left, or went away for running out of time too often: in a rated
    game they take the loss (so do those out of time three times in the game, and those
    away at its end)."""

    def set_away(self, seat: int, away: bool) -> None:
        """Whether the away bot plays seat ``seat`` (a person's) from now on."""
        remote = self.remotes.get(seat)
        if remote is not None:
            remote.away = away
            if away:
                remote.wake()

    def refusal(self, seat: int, turn: int, action: Action) -> str | None:
        """Why ``seat`` may not play ``action`` on turn ``turn`` (an error code), or None."""
        table = self.table
        if turn != table.turn:
            return protocol.STALE  # a turn already played (a resend), or not yet come
        view = table.view(seat)
        if seat not in self.remotes or view.over or view.to_move != seat:
            return protocol.NOT_YOUR_TURN
        if action not in view.legal_actions():
            return protocol.ILLEGAL
        if self.timer is not None and self.timer.ran_out(seat, turn):
            return protocol.OUT_OF_TIME
        return self.remotes[seat].answer(turn, action)

    def saw(self, message: Message) -> int | None:
        """The game published ``message``: the seat it sends away for running out of time
        too often, if any."""
        tired = self.timeouts.see(message)
        if tired is not None:
            self.forfeits.add(tired)
        elif isinstance(message, Left):
            self.forfeits.add(message.seat)
        if isinstance(message, CardRevealed | Recorded) and self.timer is not None:
            self.timer.running = None
        return tired

    def forfeits_at_end(self, away: Iterable[int]) -> set[int]:
        """The seats that take the loss in a rated game ending now: those whose person left
        or ran out of time three times in it, and those ``away`` (gone, and played for)."""
        return self.forfeits | self.timeouts.forfeits() | set(away)


@dataclass
class Over:
    """The latest game is over; another may be offered."""

    game_id: int
    number: int
    first: int
    """The seat that moved first in it (the next game's first is the one after)."""
    moves: int
    frames: dict[int, str]
    """Its whole stream as one ready ``stream`` frame per protocol version: a server holds
    many finished rooms for a while, and a frame is one object to the garbage collector."""
    offer: Offer | None = None


Phase = Waiting | Playing | Over


def moves_of(phase: Phase) -> int:
    """The moves played in the game being (or last) played: 0 while waiting."""
    if isinstance(phase, Over):
        return phase.moves
    return phase.table.turn if isinstance(phase, Playing) else 0


def phase_name(phase: Phase) -> RoomPhase:
    """``phase`` as the store and the protocol name it."""
    if isinstance(phase, Waiting):
        return RoomPhase.WAITING
    return RoomPhase.PLAYING if isinstance(phase, Playing) else RoomPhase.OVER


def last_word_on(seat: int, notices: tuple[tuple[int, Notice | Talk], ...]) -> str | None:
    """Whether the last presence notice about ``seat`` said "away" or "back" (None: neither)."""
    for _, notice in reversed(notices):
        if isinstance(notice, Away | Back | Left) and notice.seat == seat:
            return "back" if isinstance(notice, Back) else "away"
    return None


def last_mover(messages: list[Message]) -> int | None:
    for message in reversed(messages):
        if isinstance(message, TurnStarted):
            return message.seat
    return None
