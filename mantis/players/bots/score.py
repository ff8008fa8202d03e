"""``score``: scores, nearly always.

The simplest plan there is, kept a step above ``random`` and a step below
``casual``:

* at two seats it also steals when the steal cannot miss (every colour on the
  top card's back sits in the other tank: it does not count cards), but
  notices such a steal only ``SURE2`` of the time (0.45).  Always scoring
  would be no better than ``random`` there: at two seats a steal that hits
  earns another turn.
* at three seats or more, ``WHIM`` of its moves (0.35) are a steal from a
  seat at random.  Always scoring is nearly as good as ``casual``'s play at
  four seats.

That is ``ScoreLevel``, the level; ``ScoreBot`` with neither always scores
(the plain baseline).  Its generator is its own (``new_game``).  Both
numbers come from
``training/tune_ladder.py`` (the strongest that leave ``casual`` 62% of
paired two-seat games against it, and 35.7% alone against three).  Measured
on other deals (``python -m training.ladder --players 2 --deals 4000 --seed
43``, ``--players 4 --deals 2000``): 62.7% [61.6%, 63.7%] of 8,000 paired
two-seat games against ``random`` and 66.5% [65.4%, 67.5%] of 8,000
four-seat games alone against three; ``casual`` beats it 61.4% [60.3%,
62.5%] and 39.9% [38.8%, 41.0%].
"""

from __future__ import annotations

import random

from ...engine import BACKS, SCORE, Action, View, steal

#: At two seats, the chance it notices a steal that cannot miss (and takes it).
SURE2 = 0.45
#: At three seats or more, the chance a move is a whim: a steal from a seat at random.
WHIM = 0.35


class ScoreBot:
    """Scores; at two seats takes a steal that cannot miss when it notices one (``sure2``
    of the time), at three or more steals on a whim (``whim`` of its moves): by default
    neither, it always scores."""

    def __init__(self, sure2: float = 0.0, whim: float = 0.0) -> None:
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


class ScoreLevel(ScoreBot):
    """The ``score`` level: ``ScoreBot`` noticing sure steals ``SURE2`` of the time at two
    seats and stealing on a whim ``WHIM`` of its moves at more."""

    def __init__(self) -> None:
        super().__init__(sure2=SURE2, whim=WHIM)
