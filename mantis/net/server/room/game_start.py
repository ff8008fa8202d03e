"""Starting a game at a table: everything its ``Playing`` phase holds, built in one step.

Bots are made here and think on the server; each person plays through a
``RemoteSeat`` (the away bot playing for them while they are away); a
``ServerKeeper`` keeps every move in the store before it is published; a
table with a turn clock gets its ``TurnTimer``; and a game resumed after a
restart or a takeover reads its stream so far for the timeouts and leavers
that count against a seat in a rated game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ....base.clock import Clock
from ....engine import GameRecord
from ....players import InputPlayer, Player, make_bot
from ....store.player_ratings import GameRating
from ....store.tables_interface import TableStore
from ....table import Left, Notice, Table, Talk
from ... import protocol
from .keeper import ServerKeeper
from .phases import Playing
from .remote import RemoteSeat
from .seat_list import Seat
from .turn_timer import Timeouts, TurnTimer


@dataclass(frozen=True, slots=True)
class GameToPlay:
    """A game of the store, dealt and ready to play: new, or resumed after a restart or a
    takeover with the notices and the turn deadline kept so far."""

    game_id: int
    number: int
    """The table's ``number``-th game: 1, 2…"""
    record: GameRecord
    """Its deal (and, resumed, the moves kept so far)."""
    notices: tuple[tuple[int, Notice | Talk], ...] = ()
    deadline: tuple[int, datetime] | None = None
    """The turn deadline kept for it (turn, when), if any."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """How a table's games are played, and what they are kept in and timed by."""

    away_bot: str
    """The level that plays for a person away."""
    bot_timeout: float
    """A bot's time budget for one move."""
    turn_clock: int | None
    """The table's seconds per move (None: no clock)."""
    clock: Clock
    store: TableStore


@dataclass(frozen=True, slots=True)
class GameHooks:
    """What a game tells its table."""

    rating: Callable[[GameRecord], GameRating | None]
    """How the game that just ended moves ratings (None: it does not)."""
    busy: Callable[[bool], None]
    """The store cannot be reached (True), or is back."""
    lost: Callable[[], None]
    """Another node holds the table: stop here."""
    timed: Callable[[float], None]
    """A write to the store took this long."""
    broadcast: Callable[[protocol.ServerMessage], None]
    """Tell everyone at the table (the turn clock's word)."""


def start_playing(
    game: GameToPlay, seats: Sequence[Seat], settings: GameSettings, hooks: GameHooks
) -> Playing:
    """``game`` with ``seats``, ready to run as ``settings`` say (``hooks``: what it tells its
    table)."""
    clock = settings.clock
    players: list[Player | InputPlayer] = []
    remotes: dict[int, RemoteSeat] = {}
    for s, seat in enumerate(seats):
        if seat.kind == "bot":
            assert seat.bot is not None
            players.append(make_bot(seat.bot))
        else:
            remote = RemoteSeat(s, settings.away_bot, settings.bot_timeout, clock)
            remote.away = seat.away
            remotes[s] = remote
            players.append(remote)
    keeper = ServerKeeper(
        settings.store,
        game.game_id,
        len(game.record.actions),
        hooks.rating,
        clock=clock,
        busy=hooks.busy,
        lost=hooks.lost,
        timed=hooks.timed,
    )
    timer = None
    if settings.turn_clock is not None:
        timer = TurnTimer(
            settings.turn_clock,
            clock,
            settings.store,
            game.game_id,
            remotes,
            hooks.broadcast,
            game.deadline,
        )
    table = Table(
        game.record,
        players,
        keeper=keeper,
        bot_timeout=settings.bot_timeout,
        notices=game.notices,
        turn_clock=timer,
        clock=clock,
    )
    timeouts = Timeouts()
    forfeits = {s for s, seat in enumerate(seats) if seat.left}
    for message in table.messages:
        tired = timeouts.see(message)
        if tired is not None:
            forfeits.add(tired)
        elif isinstance(message, Left):
            forfeits.add(message.seat)
    return Playing(game.game_id, game.number, table, remotes, timer, timeouts, forfeits=forfeits)
