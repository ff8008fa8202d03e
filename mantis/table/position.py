"""What anyone can know of a table: the public stream folded into a position.

``PublicPosition`` reads the stream one message at a time and keeps the public
position: tanks, score piles, the pile's size and top back, the cards seen,
whose turn it is, the result.  ``view(seat)`` gives exactly the ``View`` the
engine gives that seat, so boards, odds and the coach work from the stream
alone, with no game behind them.

Each message is checked against the position before it is taken in: a
message that does not fit (a card seen twice, a seat not at the table, a
score that does not add up) raises ``StreamError`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..engine import (
    BACK,
    FACE,
    NUM_CARDS,
    CardRevealed,
    ExtraTurn,
    GameOver,
    Score,
    Scored,
    ScoreMissed,
    SeatInfo,
    Steal,
    StealMissed,
    Stolen,
    TurnStarted,
    View,
    target_for,
)
from ..engine.cards import BIT
from ..engine.deal import HAND_SIZE
from ..engine.events import Tank
from .messages import STREAM_VERSION, STREAM_VERSIONS, Message, Opening, Recorded, StreamError


class PublicPosition:
    """The public position of one table, kept current by its stream."""

    def __init__(self) -> None:
        self.opening: Opening | None = None
        self.seats: tuple[SeatInfo, ...] = ()
        self.players = 0
        self.target = 0
        self.tanks: list[Tank] = []
        self.scores: list[int] = []
        self.pile_size = 0
        self.top_back: int | None = None
        self.seen = 0
        self.to_move = 0
        self.extra = False
        self.turn = 0
        """Actions played so far (a card turned over counts at once)."""
        self.winners: tuple[int, ...] | None = None
        self.reason: str | None = None
        self.drawn: tuple[int, int] | None = None
        """The card the last action turned over and the seat whose tank it went to."""
        self.landed: tuple[int, int, bool] | None = None
        """Where that card lies now: (card, seat, in its score pile) — the tank it went to
        until its outcome moves it (a score takes it to the score pile, a steal to the
        stealer's tank)."""
        self.record: str | None = None
        """The finished game's record line, once ``Recorded`` arrived."""
        self._pending: int | None = None
        """The card turned over whose outcome has not arrived yet."""

    @classmethod
    def of(cls, messages: Iterable[Message]) -> PublicPosition:
        """The position after ``messages``."""
        table = cls()
        for message in messages:
            table.apply(message)
        return table

    @property
    def started(self) -> bool:
        return self.opening is not None

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def view(self, seat: int | None = None) -> View:
        """The public view of ``seat`` (default: the seat to move), as the engine gives it."""
        if self.opening is None:
            raise StreamError("the table has not opened yet")
        if seat is not None and not 0 <= seat < self.players:
            raise StreamError(f"there is no seat {seat} at a table of {self.players}")
        return View(
            self.to_move if seat is None else seat,
            self.players,
            self.target,
            self.to_move,
            tuple(self.tanks),
            tuple(self.scores),
            self.pile_size,
            None if self.winners is not None else self.top_back,
            self.seen,
            self.extra,
            self.turn,
            self.winners,
            self.reason,
        )

    # ------------------------------------------------------------------ folding

    def apply(self, message: Message) -> None:
        """Take in one message; ``StreamError`` (and no change) if it does not fit."""
        if isinstance(message, Opening):
            self._open(message)
            return
        if self.opening is None:
            raise StreamError(f"a {type(message).__name__} message came before the opening")
        handler = _HANDLERS.get(type(message))
        if handler is not None:
            handler(self, message)
        # Notices change no position; Recorded only keeps the record.
        elif isinstance(message, Recorded):
            if self.winners is None:
                raise StreamError("the record came before the game was over")
            self.record = message.record

    def _open(self, opening: Opening) -> None:
        if self.opening is not None:
            raise StreamError("the table opened twice")
        if opening.version not in STREAM_VERSIONS:
            raise StreamError(
                f"stream version {opening.version} "
                f"(this Mantis reads versions up to {STREAM_VERSION})"
            )
        players = len(opening.seats)
        if len(opening.tanks) != players:
            raise StreamError(f"{len(opening.tanks)} tanks for {players} seats")
        if opening.target != target_for(players):
            raise StreamError(f"the target is {target_for(players)}, not {opening.target}")
        if not opening.first < players:
            raise StreamError(f"seat {opening.first} is not at a table of {players}")
        if opening.pile_size != NUM_CARDS - HAND_SIZE * players:
            raise StreamError(f"the pile holds {NUM_CARDS - HAND_SIZE * players} cards at the deal")
        seen = 0
        for tank in opening.tanks:
            cards = [card for colour, held in enumerate(tank) for card in _checked(held, colour)]
            if len(cards) != HAND_SIZE:
                raise StreamError(f"every seat is dealt {HAND_SIZE} cards")
            for card in cards:
                if seen & BIT[card]:
                    raise StreamError("the deal repeats a card")
                seen |= BIT[card]
        self.opening = opening
        self.seats = opening.seats
        self.players = players
        self.target = opening.target
        self.tanks = list(opening.tanks)
        self.scores = [0] * players
        self.pile_size = opening.pile_size
        self.seen = seen
        self.to_move = opening.first

    def _seat(self, seat: int) -> int:
        if not seat < self.players:
            raise StreamError(f"there is no seat {seat} at a table of {self.players}")
        return seat

    def _playing(self, message: Message) -> None:
        if self.winners is not None:
            raise StreamError(f"a {type(message).__name__} message after the game was over")

    def _turn_started(self, event: TurnStarted) -> None:
        self._playing(event)
        self._seat(event.seat)
        if self._pending is not None:
            raise StreamError("a turn started before the last card's outcome")
        if event.pile_size != self.pile_size or event.turn != self.turn:
            raise StreamError(
                f"turn {event.turn} with {event.pile_size} cards left does not follow "
                f"turn {self.turn} with {self.pile_size}"
            )
        if not self.pile_size:
            raise StreamError("a turn started with no card left to draw")
        self.to_move = event.seat
        self.top_back = event.top_back
        self.extra = event.extra

    def _card_revealed(self, event: CardRevealed) -> None:
        self._playing(event)
        if event.seat != self.to_move:
            raise StreamError(f"seat {event.seat} drew on seat {self.to_move}'s turn")
        self._seat(event.into)
        action = event.action
        aimed = event.seat if isinstance(action, Score) else action.target
        if aimed != event.into or (isinstance(action, Steal) and action.target == event.seat):
            raise StreamError("the card went somewhere its action does not send it")
        if self._pending is not None or not self.pile_size:
            raise StreamError("a card was drawn out of turn")
        if self.seen & BIT[event.card]:
            raise StreamError(f"card {event.card} was turned over twice")
        if self.top_back is not None and BACK[event.card] != self.top_back:
            raise StreamError("the card drawn does not have the top card's back")
        self.seen |= BIT[event.card]
        self.pile_size -= 1
        self.top_back = None
        self.turn += 1
        self.drawn = (event.card, event.into)
        self.landed = (event.card, event.into, False)
        self._pending = event.card

    def _check_outcome(self, seat: int, into: int, card: int, colour: int) -> None:
        """``StreamError`` unless an outcome event belongs to the card just drawn."""
        if self._pending is None or card != self._pending:
            raise StreamError("an outcome for a card that was not just drawn")
        if self.drawn is None or self.drawn[1] != into or seat != self.to_move:
            raise StreamError("the outcome does not match the draw")
        if FACE[card] != colour:
            raise StreamError(f"card {card} is not of colour {colour}")

    def _scored(self, event: Scored) -> None:
        seat = self._seat(event.seat)
        if not event.cards:
            raise StreamError("a score of no cards")
        self._check_outcome(seat, seat, event.cards[-1], event.colour)
        tank = self.tanks[seat]
        held = tank[event.colour]
        if not held or event.cards[:-1] != held:
            raise StreamError("scored cards that were not in the tank")
        if event.score != self.scores[seat] + len(event.cards):
            raise StreamError("the score does not add up")
        self.tanks[seat] = _with(tank, event.colour, ())
        self.scores[seat] = event.score
        self.landed = (event.cards[-1], seat, True)
        self._pending = None

    def _score_missed(self, event: ScoreMissed) -> None:
        seat = self._seat(event.seat)
        self._check_outcome(seat, seat, event.card, event.colour)
        tank = self.tanks[seat]
        if tank[event.colour]:
            raise StreamError("a missed score on a colour the tank holds")
        self.tanks[seat] = _with(tank, event.colour, (event.card,))
        self._pending = None

    def _stolen(self, event: Stolen) -> None:
        seat, victim = self._seat(event.seat), self._seat(event.target)
        if not event.cards or victim == seat:
            raise StreamError("a steal of no cards, or from oneself")
        self._check_outcome(seat, victim, event.cards[-1], event.colour)
        theirs = self.tanks[victim]
        held = theirs[event.colour]
        if not held or event.cards[:-1] != held:
            raise StreamError("stolen cards that were not in the tank")
        self.tanks[victim] = _with(theirs, event.colour, ())
        mine = self.tanks[seat]
        self.tanks[seat] = _with(mine, event.colour, mine[event.colour] + event.cards)
        self.landed = (event.cards[-1], seat, False)
        self._pending = None

    def _steal_missed(self, event: StealMissed) -> None:
        seat, victim = self._seat(event.seat), self._seat(event.target)
        self._check_outcome(seat, victim, event.card, event.colour)
        theirs = self.tanks[victim]
        if theirs[event.colour]:
            raise StreamError("a missed steal on a colour the tank holds")
        self.tanks[victim] = _with(theirs, event.colour, (event.card,))
        self._pending = None

    def _extra_turn(self, event: ExtraTurn) -> None:
        self._playing(event)
        if self.players != 2 or event.seat != self.to_move or self._pending is not None:
            raise StreamError("an extra turn out of place")

    def _game_over(self, event: GameOver) -> None:
        self._playing(event)
        if self._pending is not None:
            raise StreamError("the game ended before the last card's outcome")
        if len(event.scores) != self.players or tuple(self.scores) != event.scores:
            raise StreamError("the final scores do not match the table")
        if any(not w < self.players for w in event.winners):
            raise StreamError("a winner who is not at the table")
        if event.turns != self.turn:
            raise StreamError("the number of moves does not match the table")
        self.winners = event.winners
        self.reason = event.reason
        self.extra = False
        self.top_back = None


def _checked(cards: tuple[int, ...], colour: int) -> tuple[int, ...]:
    if any(FACE[card] != colour for card in cards):
        raise StreamError(f"a card in a tank's {colour} row is of another colour")
    return cards


def _with(tank: Tank, colour: int, cards: tuple[int, ...]) -> Tank:
    return tank[:colour] + (cards,) + tank[colour + 1 :]


# Each handler takes the message type it is filed under: Any is what says so here.
_HANDLERS: dict[type, Callable[[PublicPosition, Any], None]] = {
    TurnStarted: PublicPosition._turn_started,
    CardRevealed: PublicPosition._card_revealed,
    Scored: PublicPosition._scored,
    ScoreMissed: PublicPosition._score_missed,
    Stolen: PublicPosition._stolen,
    StealMissed: PublicPosition._steal_missed,
    ExtraTurn: PublicPosition._extra_turn,
    GameOver: PublicPosition._game_over,
}
