"""What the game says happened.

Every event is a small immutable value that carries all a log line, a widget
or a recorder needs — names of seats aside — without looking at the game.
Cards are card numbers (see ``cards``); colours are colour numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action

Tank = tuple[tuple[int, ...], ...]
"""A seat's tank: for each of the 7 colours, the cards of that face colour."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The deal: every seat's tank, the pile size and the first seat."""

    players: int
    target: int
    first: int
    tanks: tuple[Tank, ...]
    pile_size: int
    seed: int | None


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat`` is to move and sees ``top_back`` on the draw pile."""

    seat: int
    top_back: int
    pile_size: int
    turn: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """``seat`` took the top card with ``action`` and turned it into ``into``'s tank."""

    seat: int
    action: Action
    card: int
    into: int


@dataclass(frozen=True, slots=True)
class Scored:
    """``seat`` scored ``cards`` (the revealed card last) of ``colour``."""

    seat: int
    colour: int
    cards: tuple[int, ...]
    score: int

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class ScoreMissed:
    """``seat`` tried to score; ``card`` matched nothing and stays in its tank."""

    seat: int
    card: int
    colour: int


@dataclass(frozen=True, slots=True)
class Stolen:
    """``seat`` took ``cards`` of ``colour`` (the revealed card last) from ``target``."""

    seat: int
    target: int
    colour: int
    cards: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class StealMissed:
    """``seat`` tried to steal from ``target``; ``card`` stays in ``target``'s tank."""

    seat: int
    target: int
    card: int
    colour: int


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """Two players: ``seat`` stole successfully and moves again."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: ``reason`` is ``"target"`` or ``"deck_out"``."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    tank_sizes: tuple[int, ...]
    turns: int


Event = (
    GameStarted
    | TurnStarted
    | CardRevealed
    | Scored
    | ScoreMissed
    | Stolen
    | StealMissed
    | ExtraTurn
    | GameOver
)
