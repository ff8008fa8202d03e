"""Exact odds for the seat to move, from public information only.

Given a ``View`` — the top card's back and the cards already seen — each
possible face of the top card is equally likely among the cards with that
back that have not been seen.  From that: the chance that trying to score
matches, and for each opponent the chance that a steal matches and the
expected number of cards it brings (the matching cards plus the drawn one;
zero when it misses).  Results are ``Fraction``s: exact, not estimates.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..engine import View


@dataclass(frozen=True, slots=True)
class StealOdds:
    """What stealing from ``target`` promises."""

    target: int
    p_match: Fraction
    expected_cards: Fraction


@dataclass(frozen=True, slots=True)
class Odds:
    """What each action of the seat to move promises."""

    seat: int
    faces: tuple[tuple[int, Fraction], ...]
    """The top card's possible faces with their probabilities."""
    p_score: Fraction
    expected_score_cards: Fraction
    """Expected cards added to the score pile by trying to score."""
    steals: tuple[StealOdds, ...]


def face_fractions(view: View) -> tuple[tuple[int, Fraction], ...]:
    """The top card's possible faces and their exact probabilities."""
    weights = view.face_weights()
    total = sum(w for _, w in weights)
    return tuple((colour, Fraction(w, total)) for colour, w in weights if w)


def odds_for(view: View) -> Odds | None:
    """The odds of every action for the seat to move; ``None`` once the game is over."""
    if view.over or view.top_back is None:
        return None
    faces = face_fractions(view)
    mover = view.to_move

    def outcome(seat: int) -> tuple[Fraction, Fraction]:
        counts = view.tank_counts(seat)
        hits = [(q, counts[colour] + 1) for colour, q in faces if counts[colour]]
        return sum((q for q, _ in hits), Fraction(0)), sum((q * n for q, n in hits), Fraction(0))

    p_score, score_cards = outcome(mover)
    steals = tuple(
        StealOdds(target, *outcome(target)) for target in range(view.players) if target != mover
    )
    return Odds(mover, faces, p_score, score_cards, steals)
