"""What a seat can do on its turn: try to score, or try to steal from a seat.

Actions carry no seat: the game knows whose turn it is.  They are small
immutable values, equal by content; ``SCORE`` and ``steal(t)`` hand out shared
instances so hot loops allocate nothing.  They are ``msgspec`` structs tagged
by kind, so they go to JSON and back (``{"type": "steal", "target": 2}``) with
their types checked: an intent sent over the network is one of these.
"""

from __future__ import annotations

from typing import final

import msgspec

from .seat_count import MAX_SEATS, SEAT_COUNTS, SeatNumber


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current position."""


@final  # no subclasses: the rules tell the two kinds apart by their exact type
class Score(msgspec.Struct, frozen=True, tag="score"):
    """Try to score: the top card goes into your own tank."""

    def __str__(self) -> str:
        return "score"


@final
class Steal(msgspec.Struct, frozen=True, tag="steal"):
    """Try to steal from seat ``target``: the top card goes into its tank."""

    target: SeatNumber

    def __str__(self) -> str:
        return f"steal from seat {self.target}"


Action = Score | Steal

SCORE = Score()
_STEALS = tuple(Steal(t) for t in range(MAX_SEATS))
_SHARED_STEALS = len(_STEALS)


def steal(target: int) -> Steal:
    """The (shared) action that steals from ``target``."""
    return _STEALS[target] if 0 <= target < _SHARED_STEALS else Steal(target)


def legal_actions_for(players: int, seat: int) -> tuple[Action, ...]:
    """Every legal action of ``seat`` at a table of ``players``: score first."""
    return _LEGAL[players][seat]


_LEGAL: dict[int, tuple[tuple[Action, ...], ...]] = {
    n: tuple((SCORE, *(_STEALS[t] for t in range(n) if t != s)) for s in range(n))
    for n in SEAT_COUNTS
}
