"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random

from ...engine import Action, View


class RandomBot:
    """Picks any legal action with equal probability, from its own RNG."""

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def new_game(self, seat: int, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: View) -> Action:
        actions = view.legal_actions()
        return actions[self._rng.randrange(len(actions))]
