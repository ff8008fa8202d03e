"""``score``: scores, nearly always."""

from __future__ import annotations

import random

from ...engine import BACKS, SCORE, Action, View, steal

#: At two seats, the chance it notices a steal that cannot miss (and takes it).
SURE2 = 0.45
#: At three seats or more, the chance a move is a whim: a steal from a seat at random.
WHIM = 0.35


class ScoreBot:
    """Scores; at two seats takes a steal that cannot miss when it sees one; at three
    or more now and then steals on a whim."""

    def __init__(self, sure2: float = SURE2, whim: float = WHIM) -> None:
        self._rng = random.Random(0)
        self.sure2 = sure2
        self.whim = whim

    def new_game(self, seat: int, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: View) -> Action:
        back = view.top_back
        if back is None:
            return SCORE
        me = view.to_move
        if view.players == 2:
            if self.sure2:
                theirs = view.tank_counts(1 - me)
                if all(theirs[c] for c in BACKS[back]) and self._rng.random() < self.sure2:
                    return steal(1 - me)
            return SCORE
        if self.whim and self._rng.random() < self.whim:
            victim = self._rng.randrange(view.players - 1)
            return steal(victim + (victim >= me))
        return SCORE
