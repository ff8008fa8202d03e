"""What the game says happened.

Every event is a small immutable value that carries all a log line, a widget
or a recorder needs — names of seats aside — without looking at the game.
Cards are card numbers (see ``cards``); colours are colour numbers.

Events are ``msgspec`` structs tagged by kind (``{"type": "scored", ...}``),
so the table's public stream can send them as JSON and read them back with
every field's type and range checked.  The ranges below are what any game
can hold; whether a value fits *this* game (a seat at a 3-seat table, a card
still in the pile) is for whoever folds the stream to check.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .actions import Action
from .seat_count import MAX_SEATS, ONE_PER_SEAT, SeatCount, SeatNumber

Card = Annotated[int, msgspec.Meta(ge=0, le=104)]
Colour = Annotated[int, msgspec.Meta(ge=0, le=6)]
BackNumber = Annotated[int, msgspec.Meta(ge=0, le=34)]
Count = Annotated[int, msgspec.Meta(ge=0, le=105)]
Cards = Annotated[tuple[Card, ...], msgspec.Meta(max_length=105)]

Tank = Annotated[tuple[Cards, ...], msgspec.Meta(min_length=7, max_length=7)]
"""A seat's tank: for each of the 7 colours, the cards of that face colour."""

PerSeat = Annotated[tuple[Count, ...], ONE_PER_SEAT]


class GameStarted(msgspec.Struct, frozen=True, tag="game_started"):
    """The deal: every seat's tank, the pile size and the first seat."""

    players: SeatCount
    target: Count
    first: SeatNumber
    tanks: Annotated[tuple[Tank, ...], ONE_PER_SEAT]
    pile_size: Count
    seed: int | None


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    """``seat`` is to move and sees ``top_back`` on the draw pile."""

    seat: SeatNumber
    top_back: BackNumber
    pile_size: Count
    turn: Annotated[int, msgspec.Meta(ge=0, le=105)]
    extra: bool = False


class CardRevealed(msgspec.Struct, frozen=True, tag="card_revealed"):
    """``seat`` took the top card with ``action`` and turned it into ``into``'s tank."""

    seat: SeatNumber
    action: Action
    card: Card
    into: SeatNumber


class Scored(msgspec.Struct, frozen=True, tag="scored"):
    """``seat`` scored ``cards`` (the revealed card last) of ``colour``."""

    seat: SeatNumber
    colour: Colour
    cards: Cards
    score: Count

    @property
    def count(self) -> int:
        return len(self.cards)


class ScoreMissed(msgspec.Struct, frozen=True, tag="score_missed"):
    """``seat`` tried to score; ``card`` matched nothing and stays in its tank."""

    seat: SeatNumber
    card: Card
    colour: Colour


class Stolen(msgspec.Struct, frozen=True, tag="stolen"):
    """``seat`` took ``cards`` of ``colour`` (the revealed card last) from ``target``."""

    seat: SeatNumber
    target: SeatNumber
    colour: Colour
    cards: Cards

    @property
    def count(self) -> int:
        return len(self.cards)


class StealMissed(msgspec.Struct, frozen=True, tag="steal_missed"):
    """``seat`` tried to steal from ``target``; ``card`` stays in ``target``'s tank."""

    seat: SeatNumber
    target: SeatNumber
    card: Card
    colour: Colour


class ExtraTurn(msgspec.Struct, frozen=True, tag="extra_turn"):
    """Two players: ``seat`` stole successfully and moves again."""

    seat: SeatNumber


EndReason = Literal["target", "deck_out"]
"""Why a game ended: a seat reached the target, or the pile ran out."""


class GameOver(msgspec.Struct, frozen=True, tag="game_over"):
    """The game ended: ``reason`` is ``"target"`` or ``"deck_out"``."""

    winners: Annotated[tuple[SeatNumber, ...], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]
    reason: EndReason
    scores: PerSeat
    tank_sizes: PerSeat
    turns: Annotated[int, msgspec.Meta(ge=0, le=105)]


MoveEvent = (
    TurnStarted | CardRevealed | Scored | ScoreMissed | Stolen | StealMissed | ExtraTurn | GameOver
)
"""What one move can cause (``Game.apply``): every event but the opening's."""

Event = GameStarted | MoveEvent
