"""A game followed live at a person's pace: whose turn it is, a card being turned, the end.

Whatever shows it (the app's board, the line mode), a live game's stream is
fed in as it comes (from the local table driver, or a server) and let
through one message at a time by a ``PacingGate``: a bot's card after its
thinking time, each card lingering before its outcome, nothing while the
screen is covered.  The front end folds each message it is let through into
the position it shows (a ``PublicPosition``, handed to ``LiveGame``), then
asks ``shown`` what that message began, as a typed phase:

- ``TurnOf``: it is a seat's turn, the top card's back known; a seat played
  here is asked for its move;
- ``Turning``: the move is made and its card is being turned (from the
  moment a move is sent here, or a bot or a clock made it for the seat,
  until the next turn shows): nothing is asked, no odds or advice hold;
- ``Ended``: the game is over.

A move of a seat played here goes to the game's ``MoveSink`` through
``play``, which sends only a legal move of a seat played here whose turn it
is.  ``ready`` is what a local table driver awaits before it asks its next
seat, so the table never runs ahead of what the person has been shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import Action, CardRevealed, GameOver, TurnStarted
from ..table import Message, PublicPosition, TimedOut
from ..table.pacing import Pace, PacingGate
from .moves import MoveSink


@dataclass(frozen=True, slots=True)
class TurnOf:
    """It is ``seat``'s turn (``extra``: its extra turn) and the top card's back is known;
    ``here``: the seat is played here, and is asked for its move."""

    seat: int
    extra: bool
    here: bool


@dataclass(frozen=True, slots=True)
class Turning:
    """``seat``'s move is made and its card is being turned: nothing is asked until the next
    turn shows.  ``sent``: the move went from here, and its card has not been shown yet."""

    seat: int
    sent: bool


@dataclass(frozen=True, slots=True)
class Ended:
    """The game is over: ``winners`` share it."""

    winners: tuple[int, ...]


Phase = TurnOf | Turning | Ended
"""Where a live game stands, as a person following it needs to know."""


class Paced(Protocol):
    """Whatever says the pace in force (the settings of the run: ``Preferences``)."""

    @property
    def pace(self) -> Pace: ...


class LiveGame:
    """One live game: its stream let through at a person's pace, its phase, and the moves of
    the seats played here."""

    def __init__(
        self,
        position: PublicPosition,
        moves: MoveSink,
        controls: Iterable[int],
        paced: Paced,
        *,
        clock: Clock = SYSTEM_CLOCK,
        paused: bool = False,
        bots: bool | None = None,
        covered: bool = True,
        on_hold: Callable[[], None] = lambda: None,
    ) -> None:
        """``position`` is the position the front end shows (it folds each message let
        through); ``controls`` are the seats played here, whose moves go to ``moves``;
        ``paced`` gives the delays in force, read at each move; ``paused`` holds the bots
        until resumed or stepped (when ``moves`` can be held); ``bots``: whether any seat
        moves by itself (default: any seat that is no person's); ``covered``: nothing is
        let through until ``uncover`` (a screen not shown yet); ``on_hold`` is called as
        the pause holds the table."""
        if not position.started:
            raise ValueError("a live game starts from the table's opening")
        self.position = position
        self.moves = moves
        self.controls = frozenset(controls)
        self.has_bots = (
            bots if bots is not None else any(seat.kind != "human" for seat in position.seats)
        )
        self.gate: PacingGate[Message] = PacingGate(
            self.controls,
            pace=lambda: paced.pace,
            free=lambda: position.over or position.to_move in self.controls,
            clock=clock,
            can_hold=moves.can_hold,
            paused=paused and self.has_bots,
            on_hold=on_hold,
        )
        if not covered:
            self.gate.uncover()
        self._sent: int | None = None
        """The turn (moves played before it) whose move was made for a seat played here."""

    # ------------------------------------------------------------------ the stream

    def feed(self, message: Message) -> None:
        """Queue a message of the stream to be let through."""
        self.gate.feed(message)

    async def next(self) -> Message:
        """The next message fed, once it is due (the front end then folds and ``shown`` it)."""
        return await self.gate.next()

    async def ready(self) -> None:
        """Return once everything fed has been let through and the next seat may be asked."""
        await self.gate.ready()

    def shown(self, message: Message) -> Phase | None:
        """The phase ``message`` began, once the front end folded it into the position (a
        turn, a card being turned, the end); None if it began none."""
        if isinstance(message, TurnStarted):
            self.gate.turn_shown()
            return self.phase
        if isinstance(message, TimedOut) and message.seat in self.controls:
            # A bot answers the question for the seat: it is made, though not from here.
            self._sent = self.position.turn
            return self.phase
        if isinstance(message, CardRevealed | GameOver):
            return self.phase
        return None

    def cover(self) -> None:
        """The screen is covered (help, settings): nothing is let through, the table waits."""
        self.gate.cover()

    def uncover(self) -> None:
        self.gate.uncover()

    async def uncovered(self) -> None:
        """Return once the screen is uncovered."""
        await self.gate.uncovered()

    def toggle_pause(self) -> None:
        """Pause the bots before their next move, or let them play on."""
        self.gate.toggle_pause()

    def step(self) -> None:
        """While paused, let one move through."""
        self.gate.step()

    def begin(self) -> Phase:
        """The phase of the position folded so far (a game opened, resumed or joined):
        a turn shown now, for the bots' pace."""
        self.gate.turn_shown()
        return self.phase

    # ------------------------------------------------------------------ where it stands

    @property
    def phase(self) -> Phase:
        """Where the game stands as shown."""
        position = self.position
        if position.winners is not None:
            return Ended(position.winners)
        seat = position.to_move
        if position.top_back is None:
            return Turning(seat, sent=False)
        if self._sent == position.turn:
            return Turning(seat, sent=True)
        return TurnOf(seat, position.extra, seat in self.controls)

    @property
    def asking(self) -> int | None:
        """The seat played here that is asked for its move now, if any."""
        phase = self.phase
        return phase.seat if isinstance(phase, TurnOf) and phase.here else None

    # ------------------------------------------------------------------ moves

    def legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may play ``action`` now (its turn, as shown)."""
        position = self.position
        if position.over or position.top_back is None or position.to_move != seat:
            return False
        return action in position.view(seat).legal_actions()

    def play(self, seat: int, action: Action) -> bool:
        """Send ``action`` for ``seat``, a seat played here whose turn it is; False (and
        nothing sent) for a seat not played here, a turn not its, or an illegal move."""
        if seat not in self.controls or not self.legal(seat, action):
            return False
        self._sent = self.position.turn
        self.moves.play(seat, self.position.turn, action)
        return True

    def stop_playing(self) -> None:
        """No seat is played here any more (the person left it): the rest is watched."""
        self.controls = frozenset()
        self.gate.controls = self.controls

    # ------------------------------------------------------------------ the bots' pause

    @property
    def paused(self) -> bool:
        return self.gate.paused

    @property
    def held(self) -> bool:
        """The pause holds the table right now (before a bot's move)."""
        return self.gate.held

    @property
    def can_pause(self) -> bool:
        """Whether a pause means anything: bots here, and a table that waits for this screen."""
        return self.gate.can_hold and self.has_bots
