"""The table driver: one game and its seats, run to the end, told as a public stream.

A ``Table`` holds a game, one ``Player`` per seat (bots, people at this
keyboard, people over the network) and the table's rules: the bot time
budget and faults, the players' ``new_game`` hooks, a ``Keeper`` that keeps
the game after every move and records it once finished.  ``run()`` plays the
game to its end and publishes everything that happens to its listeners as
the public stream (``messages``).  The same driver runs a table in the app,
headless in tests and on a server.

The order of one move: every listener is ready (a paused board holds the
table, a board still showing the last move holds it until shown); the seat
to move is asked (``players.decision.decide``); the action is applied; the
keeper keeps the game; only then are the move's messages published.  So a
listener that hears of a move can count on it being kept, and nothing runs
ahead of what a person has seen.

A table may hold people to a time per move (``TurnClock``, an online
table's turn clock): when a person's time runs out, the clock's stand-in bot
plays that one move and the stream says so first (``TimedOut``).

The record a table keeps carries what the table said beside the moves (its
notices, the players' ``Talk``, who ``Left``), so a replay reads as the game
did.

Nobody but the driver reaches the game: listeners get the stream, seats get
their ``View``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Protocol

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import GameRecord, SeatInfo, View, bot_rng, record_of
from ..engine.game import Game
from ..players import InputPlayer, Player
from ..players.decision import DEFAULT_BOT_TIMEOUT, Decision, decide
from .history import opening_of, record_notices, seats_of
from .keeper import Keeper
from .messages import (
    MAX_REASON,
    Fault,
    KeepFailed,
    Left,
    Message,
    Notice,
    Recorded,
    StartFailed,
    Talk,
    TimedOut,
    encode,
)

Publish = Callable[[Message], None]
Ready = Callable[[], Awaitable[None]]


class TurnClock(Protocol):
    """A person's time for each move, as the driver asks it (an online table's turn clock)."""

    async def start(self, view: View) -> float | None:
        """The person to move in ``view`` is asked now: their seconds for it (None: no limit),
        on the table's clock."""
        ...

    def stand_in(self, seat: int) -> tuple[Player, str]:
        """Who plays a move whose time ran out: a bot, and its level (as the stream names it)."""
        ...


class Table:
    """One game at one table, from any position to the end."""

    def __init__(
        self,
        record: GameRecord,
        players: Sequence[Player | InputPlayer],
        *,
        upto: int | None = None,
        keeper: Keeper | None = None,
        bot_timeout: float = DEFAULT_BOT_TIMEOUT,
        notices: Sequence[tuple[int, Notice | Talk]] = (),
        turn_clock: TurnClock | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """A table for ``record``'s deal, at the position after ``upto`` of its actions.

        ``players`` has one player per seat; ``record.seats`` says which are
        people (asked without a time budget, unless ``turn_clock`` gives
        them one).  ``notices`` are table notices published earlier, and
        talk said earlier, each after that many actions (a server resuming
        its tables), so the stream and the record read as they did.
        ``clock`` times the bots' budget and the people's turn clock.
        """
        self.seats: tuple[SeatInfo, ...] = seats_of(record)
        if len(players) != record.players:
            raise ValueError(f"{len(players)} players for a {record.players}-seat game")
        self.players = tuple(players)
        self.keeper = keeper
        self.bot_timeout = bot_timeout
        self.turn_clock = turn_clock
        self.clock = clock
        self.seed = record.seed
        self._game = game = Game(record.tanks, record.pile, record.first, seed=record.seed)
        self.messages: list[Message] = list(opening_of(game, self.seats))
        """Everything published so far, oldest first: what a newcomer is sent."""
        self.notes: list[tuple[int, str]] = []
        """What the record keeps beside the moves: (actions before it, notice or talk JSON)."""
        self.left: set[int] = set()
        """Seats whose person left the game for good."""
        self.talked = 0
        """Lines of talk the record holds."""
        if not notices:
            notices = record_notices(record.notices)  # a game resumed from its save
        for turn, said in notices:
            if isinstance(said, Talk):
                self._note(said, turn)
        pending = sorted(
            ((turn, notice) for turn, notice in notices if not isinstance(notice, Talk)),
            key=lambda n: n[0],
        )
        for seat, action in record.actions[:upto]:
            self._past_notices(pending, game.turn)
            self.messages.extend(game.apply(action, seat))
        self._past_notices(pending, game.turn)
        if game.over:
            self.messages.append(Recorded(self.record.to_json()))
        self.asking: int | None = None
        """The seat being asked for its move right now."""
        self._listeners: list[tuple[Publish, Ready | None]] = []
        self._failed: set[str] = set()
        self._running = False

    def _past_notices(self, pending: list[tuple[int, Notice]], turn: int) -> None:
        while pending and pending[0][0] <= turn:
            notice = pending.pop(0)[1]
            self.messages.append(notice)
            self._note(notice, turn)

    def _note(self, said: Notice | Talk, turn: int) -> None:
        """Carry ``said`` into the record (a failed save is the server's, not the game's)."""
        if isinstance(said, KeepFailed):
            return
        if isinstance(said, Left):
            self.left.add(said.seat)
        if isinstance(said, Talk):
            self.talked += 1
        self.notes.append((turn, encode(said).decode()))

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def turn(self) -> int:
        """Actions played so far."""
        return self._game.turn

    def view(self, seat: int | None = None) -> View:
        """The public view of ``seat`` (default: the seat to move), as that seat is shown it."""
        return self._game.view(seat)

    @property
    def record(self) -> GameRecord:
        """The game so far as a record, with the seats and what was said beside the moves.
        Only the table's owner may read it before the end: it holds the whole pile."""
        record = record_of(self._game, self.seats)
        if not self.notes:
            return record
        return replace(record, notices=tuple(self.notes), left=tuple(sorted(self.left)))

    # ------------------------------------------------------------------ listening

    def subscribe(
        self, publish: Publish, ready: Ready | None = None, *, backlog: bool = True
    ) -> Callable[[], None]:
        """Send ``publish`` every message from now on (and, with ``backlog``, all before).

        ``ready``, if given, is awaited before each seat is asked: a listener
        holds the table until it has caught up.  Returns an unsubscribe.
        """
        if backlog:
            for message in tuple(self.messages):
                publish(message)
        entry = (publish, ready)
        self._listeners.append(entry)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(entry)

        return unsubscribe

    def _publish(self, message: Message) -> None:
        self.messages.append(message)
        if isinstance(message, Notice):
            self._note(message, self._game.turn)
        for publish, _ in tuple(self._listeners):
            publish(message)

    async def _ready(self) -> None:
        for _, ready in tuple(self._listeners):
            if ready is not None:
                await ready()

    async def announce(self, notice: Notice) -> None:
        """Keep, then publish, a table notice (a seat away or back, say)."""
        failed = await self._keep("note", notice)
        for message in (notice, *failed):
            self._publish(message)

    async def remark(self, talk: Talk) -> list[KeepFailed]:
        """Keep a line of the players' talk for the record (it is not published: the
        caller hands it to the players).  What failed to be kept, to publish."""
        failed = await self._keep("note", talk)
        self._note(talk, self._game.turn)
        return [message for message in failed if isinstance(message, KeepFailed)]

    # ------------------------------------------------------------------ playing

    async def run(self) -> GameRecord:
        """Play from the position the table opened at to the end; the finished record.

        On a game already over it returns at once (nothing is kept again).
        """
        if self._running:
            raise RuntimeError("this table is already running")
        self._running = True
        game = self._game
        if game.over:
            return self.record
        for notice in self._start_players():
            for message in (notice, *await self._keep("note", notice)):
                self._publish(message)
        await self._catch_up()
        if game.turn == 0:
            # A new table is kept at once, so it replaces an older save straight away.
            for message in await self._keep("save"):
                self._publish(message)
        while not game.over:
            await self._ready()
            view = game.view()
            seat = view.to_move
            self.asking = seat
            try:
                decision = await self._ask(view)
            finally:
                self.asking = None
            messages: list[Message] = []
            if decision.timed_out and self.turn_clock is not None:
                decision, timed_out = await self._stand_in(view)
                messages += [timed_out, *await self._keep("note", timed_out)]
            if decision.fault is not None:
                fault = Fault(seat, decision.fault[:MAX_REASON])
                messages += [fault, *await self._keep("note", fault)]
            messages += game.apply(decision.action, seat)
            messages += await self._keep("record" if game.over else "save")
            for message in messages:
                self._publish(message)
        self._publish(Recorded(self.record.to_json()))
        return self.record

    async def _ask(self, view: View) -> Decision:
        """The decision of the seat to move: a bot within its budget, a person within
        the turn clock's (if any)."""
        seat = view.to_move
        player = self.players[seat]
        if self.seats[seat].kind != "human":
            return await decide(player, view, self.bot_timeout, self.clock)
        turn_clock = self.turn_clock
        budget = None if turn_clock is None else await turn_clock.start(view)
        return await decide(player, view, budget, self.clock)

    async def _stand_in(self, view: View) -> tuple[Decision, TimedOut]:
        """A person's time ran out: their clock's stand-in decides this one move."""
        assert self.turn_clock is not None
        seat = view.to_move
        bot, level = self.turn_clock.stand_in(seat)
        decision = await decide(bot, view, self.bot_timeout, self.clock)
        return decision, TimedOut(seat, level[:20], decision.action)

    async def _catch_up(self) -> None:
        """Bring each bot to where the unbroken game left it, for a table opened mid-game.

        Every bot is asked again, in order, about each position it moved in
        before this table opened (the answers are dropped: the record has the
        moves). Its RNG and anything it remembers then match a game that was
        never stopped, so a resumed game plays on as the original would have.
        """
        game = self._game
        if game.turn == 0:
            return
        past = Game(game.initial_tanks, game.initial_pile, game.first, seed=self.seed)
        for seat, action in game.history:
            if self.seats[seat].kind != "human":
                await decide(self.players[seat], past.view(), self.bot_timeout, self.clock)
            past.play(action, seat)

    def _start_players(self) -> list[StartFailed]:
        """Tell every player a game begins; the notices for those that failed to start."""
        failed = []
        for seat, player in enumerate(self.players):
            hook = getattr(player, "new_game", None)
            if callable(hook):
                try:
                    hook(seat, bot_rng(self.seed, seat))
                except Exception as exc:  # a plug-in's fault: say so and play on
                    failed.append(StartFailed(seat, f"{type(exc).__name__}: {exc}"[:MAX_REASON]))
        return failed

    async def _keep(self, what: str, notice: Notice | Talk | None = None) -> list[Message]:
        """Have the keeper keep the game ("save", "record") or a ``notice`` ("note").

        Returns the ``KeepFailed`` to publish if that failed: once per kind,
        so a full disk is said once and the game plays on.  A notice is kept
        with the number of actions played before it.
        """
        keeper = self.keeper
        if keeper is None:
            return []
        try:
            if what == "note":
                assert notice is not None
                await keeper.note(notice, self._game.turn)
            elif what == "save":
                await keeper.save(self.record)
            else:
                await keeper.finish(self.record)
        except Exception as exc:  # the keeper's trouble must never stop the game
            kind = "record" if what == "record" else "save"
            if kind in self._failed:
                return []
            self._failed.add(kind)
            return [KeepFailed(kind, (str(exc) or type(exc).__name__)[:MAX_REASON])]
        return []
