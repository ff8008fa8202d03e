"""How a decision's loss is judged: its label, whether it was a real choice, its accuracy.

Losses are in win-% points: the mover's chance with the best option minus
its chance with the option chosen, times 100.

Labels
------
The thresholds come from measured errors, not from chess:
``benchmarks/review_quality.py losses`` reviews 2,000 games of each of the
``random``, ``casual`` and ``greedy`` bots (400 at each table size, 2 to 6,
every seat the same bot) and prints the distribution of their losses over
real decisions (in points: mean 7.30, 2.19 and 0.35; medians 3.2, 0 and 0;
95th percentiles 31.7, 9.3 and 2.2; 99th 80.0, 34.5 and 6.5; 99.9th 98.3,
87.6 and 16.8).  Each threshold is a round number placed between two of
those quantiles, so that a label means the same at every level of play:

* **inaccuracy, 3 points**: just above greedy's 95th percentile (2.2) and at
  random's median (3.2): the strong hand-made bot, which counts cards
  exactly, loses that much once in 28 real decisions, a newcomer
  (``casual``) once in 6, a random choice every other time;
* **mistake, 8 points**: above greedy's 99th percentile (6.5), between
  casual's 90th and 95th (5.3, 9.3): greedy once in 160, casual once in 16,
  random once in 4;
* **blunder, 20 points**: above greedy's 99.9th percentile (16.8), near
  random's 90th (17.0): greedy once in 1,700 real decisions, casual once in
  50, random once in 12.

A decision where every option is within ``NO_REAL_CHOICE`` (1 point) of the
best is "no real choice": it gets no label and counts in no average.

Accuracy
--------
lichess's per-move accuracy curve, applied to the win-% loss:
``103.1668 * exp(-0.04354 * loss) - 3.1669``, kept within 0..100, and 100
for no loss at all.  Published at https://lichess.org/page/accuracy (the
code: ``modules/analyse/src/main/AccuracyPercent.scala`` in lichess-org/lila,
``fromWinPercents``; lila adds a one-point "uncertainty bonus" there, which
is left out here as the page gives the curve without it).  A seat's accuracy
in a game is the plain mean over its real decisions (lila's game-level blend
of a volatility-weighted and a harmonic mean is not used: it weighs moves by
how much the evaluation swings between chess moves, which has no counterpart
in a game whose swings are mostly the cards).
"""

from __future__ import annotations

import math
from typing import Final, Literal

Label = Literal["inaccuracy", "mistake", "blunder"]

LABELS: Final[tuple[Label, ...]] = ("inaccuracy", "mistake", "blunder")
"""Mildest first."""

THRESHOLDS: Final[dict[Label, float]] = {"inaccuracy": 3.0, "mistake": 8.0, "blunder": 20.0}
"""The least loss, in win-% points, that earns each label."""

NO_REAL_CHOICE: Final = 1.0
"""Points: a decision whose options all lie within this of the best is no real choice."""


def label_for(loss: float) -> Label | None:
    """The label a loss (in points) earns, or ``None``."""
    label: Label | None = None
    for name in LABELS:
        if loss >= THRESHOLDS[name]:
            label = name
    return label


def accuracy_for(loss: float) -> float:
    """lichess's per-move accuracy (0..100) for a loss in win-% points."""
    if loss <= 0:
        return 100.0
    raw = 103.1668 * math.exp(-0.04354 * loss) - 3.1669
    return min(100.0, max(0.0, raw))


__all__ = ["LABELS", "NO_REAL_CHOICE", "THRESHOLDS", "Label", "accuracy_for", "label_for"]
