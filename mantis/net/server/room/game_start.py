"""Starting a game at a table: everything its ``Playing`` phase holds, built in one step.

Bots are made here and think on the server; each person plays through a
``RemoteSeat`` (the away bot playing for them while they are away); a
``ServerKeeper`` keeps every move in the store before it is published; a
table with a turn clock gets its ``TurnTimer``; and a game resumed after a
restart or a takeover reads its stream so far for the timeouts and leavers
that count against a seat in a rated game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ....engine import GameRecord
from ....players import InputPlayer, Player, make_bot
from ....players.clock import Clock
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
    game_id: int,
    number: int,
    record: GameRecord,
    notices: Iterable[tuple[int, Notice | Talk]],
    deadline: tuple[int, datetime] | None,
    *,
    seats: Sequence[Seat],
    away_bot: str,
    bot_timeout: float,
    turn_clock: int | None,
    clock: Clock,
    store: TableStore,
    hooks: GameHooks,
) -> Playing:
    """Game ``game_id`` (the table's ``number``-th) of the store, dealt in ``record`` (new,
    or resumed with the moves, notices and turn deadline kept so far), ready to run:
    ``turn_clock``: the table's seconds per move (None: no clock)."""
    players: list[Player | InputPlayer] = []
    remotes: dict[int, RemoteSeat] = {}
    for s, seat in enumerate(seats):
        if seat.kind == "bot":
            assert seat.bot is not None
            players.append(make_bot(seat.bot))
        else:
            remote = RemoteSeat(s, away_bot, bot_timeout, clock)
            remote.away = seat.away
            remotes[s] = remote
            players.append(remote)
    keeper = ServerKeeper(
        store,
        game_id,
        len(record.actions),
        hooks.rating,
        clock=clock,
        busy=hooks.busy,
        lost=hooks.lost,
        timed=hooks.timed,
    )
    timer = None
    if turn_clock is not None:
        timer = TurnTimer(turn_clock, clock, store, game_id, remotes, hooks.broadcast, deadline)
    table = Table(
        record,
        players,
        keeper=keeper,
        bot_timeout=bot_timeout,
        notices=tuple(notices),
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
    return Playing(game_id, number, table, remotes, timer, timeouts, forfeits=forfeits)
