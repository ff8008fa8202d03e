"""``casual``: plays like a reasonable newcomer.

It looks at what anyone can see without effort — the three colours on the back
of the top card and which of those colours sit in its own tank and in each
opponent's — but it does not count cards: each colour on the back is taken as
equally likely (1/3).  It then compares, roughly:

* scoring: for each back colour it holds, the stack it would bank; for a
  colour it lacks, a card added to its tank;
* stealing from an opponent: for each back colour the opponent holds, the
  stack it would take (plus the card), and a card given away otherwise.

A tank card counts ``TANK2`` of a scored card at two seats (0.7) and
``TANK`` at more (0.5); a card given away by a failed steal costs as much.
Noise (from its own generator, given by ``new_game``; a fixed-seed one
otherwise) is added to each move's value: a Gaussian error of spread
``NOISE2`` scored cards at two seats (0.95) and ``NOISE`` at more (0.55), so
that it varies its play, and close calls, and now and then a plainly worse
move, go either way, as a person's would.  It does not track who is leading
or how close anyone is to the target: like a newcomer it simply likes big
stacks.

Those four numbers place it a step below ``greedy`` and a step above
``score`` (``training/tune_ladder.py``: the least noise at which ``greedy``
still wins 62% of paired two-seat games against it and 35.7% alone against
three of it; the tank weight at two seats chosen, of 0.5 and 0.7, for the
room it leaves below).  Measured on other deals (``python -m training.ladder
--players 2 --deals 4000 --seed 43``, ``--players 4 --deals 2000``): 61.4%
[60.3%, 62.5%] of 8,000 paired two-seat games against ``score``, 39.9%
[38.8%, 41.0%] of 8,000 four-seat games alone against three ``score``;
``greedy`` beats it 64.2% [63.2%, 65.3%] and 35.5% [34.5%, 36.6%].
"""

from __future__ import annotations

import random

from ...engine import SCORE, Action, View, steal
from ..counting import naive_face_odds

TANK2 = 0.7
TANK = 0.5
MISS = 1.0
NOISE2 = 0.95
NOISE = 0.55


class CasualBot:
    """No card counting, no leader tracking, a person's errors."""

    def __init__(
        self,
        tank: float = TANK,
        miss: float = MISS,
        noise: float = NOISE,
        *,
        tank2: float = TANK2,
        noise2: float = NOISE2,
    ) -> None:
        self._rng = random.Random(0)
        self.tank = tank
        self.tank2 = tank2
        self.miss = miss
        self.noise = noise
        self.noise2 = noise2

    def new_game(self, seat: int, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: View) -> Action:
        odds = naive_face_odds(view)
        me = view.to_move
        tanks = view.tanks
        gauss = self._rng.gauss
        two = view.players == 2
        noise = self.noise2 if two else self.noise
        tank = self.tank2 if two else self.tank
        mine = tanks[me]
        value = 0.0
        for colour, p in odds:
            k = len(mine[colour])
            value += p * (k + 1 - tank * k if k else tank)
        best: Action = SCORE
        best_value = value + gauss(0.0, noise)
        for s in range(view.players):
            if s == me:
                continue
            theirs = tanks[s]
            value = 0.0
            for colour, p in odds:
                m = len(theirs[colour])
                value += p * (tank * (m + 1) if m else -tank * self.miss)
            value += gauss(0.0, noise)
            if value > best_value:
                best_value = value
                best = steal(s)
        return best
