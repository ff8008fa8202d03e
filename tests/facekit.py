"""The one independent oracle for the top card's face odds in the tests: brute force."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from mantis.engine.cards import BACK, FACE


def brute_force_face_odds(pile: Iterable[int], back: int) -> dict[int, Fraction]:
    """P(face) of a card with ``back`` drawn from ``pile``, counted card by card.

    Only faces that some card of the pile has are listed; empty if none has ``back``.
    """
    same_back = [card for card in pile if BACK[card] == back]
    counts = Counter(FACE[card] for card in same_back)
    return {colour: Fraction(n, len(same_back)) for colour, n in counts.items()}
