"""The ``random``, ``score`` and ``greedy`` bots over a whole batch at once.

Each takes a ``MantisBatch`` and returns one action number per game (for the
seat to move), from public state only: the tanks, the scores, the top card's
back and the unseen cards.  ``greedy_actions`` is ``GreedyBot.choose``
written over arrays, with the same arithmetic in the same order, so it
chooses what the bot chooses in every game (a test compares them); the
batched games can therefore be played by the project's own baseline, and a
learner trained against it at batch speed.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine import BACKS
from ..players.bots.greedy import WEIGHTS
from .batched import Ints, MantisBatch

_BACK_COLOURS = np.array(BACKS, dtype=np.int64)


def random_actions(batch: MantisBatch, rng: np.random.Generator) -> Ints:
    """A uniformly random legal action in every game."""
    actions: Ints = rng.integers(0, batch.num_players, size=batch.num_games)
    return actions


def score_actions(batch: MantisBatch) -> Ints:
    """``score``: always try to score."""
    return np.zeros(batch.num_games, dtype=np.int64)


def top_faces(batch: MantisBatch) -> tuple[Ints, npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The top card's three back colours ``(games, 3)``, each face's probability
    ``(games,)`` and which faces are still possible ``(games, 3)``: card counting
    as ``top_face_odds`` does it (a game that is over gets its first back's)."""
    back = np.maximum(batch.top_back, 0)
    first = back * 3
    rows = np.arange(batch.num_games)
    possible = batch.unseen[rows[:, None], first[:, None] + np.arange(3)] == 1
    count = possible.sum(axis=1)
    p = 1.0 / np.maximum(count, 1)
    return _BACK_COLOURS[back], p, possible


def greedy_actions(batch: MantisBatch, **weights: float) -> Ints:
    """``greedy`` (``mantis.players.bots.greedy``) in every game, with its fitted
    weights or the ``weights`` given (the same names)."""
    w = {**WEIGHTS, **weights}
    n = batch.num_players
    b = batch.num_games
    rows = np.arange(b)
    colours, p, possible = top_faces(batch)
    me = batch.to_move
    tanks = batch.tanks
    mine = tanks[rows, me]  # (b, 7)
    t = w["tank2"] if n == 2 else w["tank"]
    need = batch.target - batch.scores[rows, me]
    win = w["win"]

    best_value = np.zeros(b)
    for k in range(3):
        held = mine[rows, colours[:, k]]
        gain = held + 1
        term = np.where(held > 0, p * np.where(gain >= need, win, gain - t * held), p * t)
        best_value = best_value + np.where(possible[:, k], term, 0.0)
    best = np.zeros(b, dtype=np.int64)

    if n == 2:
        theirs = tanks[rows, 1 - me]
        value = np.zeros(b)
        for k in range(3):
            m = theirs[rows, colours[:, k]]
            value = np.where(
                possible[:, k],
                np.where(m > 0, value + p * (t * (2 * m + 1) + w["extra"]), value - p * t),
                value,
            )
        return np.where(value > best_value, 1, best)

    # the leading opponent: most scored cards, then the biggest tank; the first in
    # seat order among equals (the bot's strict comparison)
    key = batch.scores * 1000 + tanks.sum(axis=2)
    key[rows, me] = -1
    lead_seat = key.argmax(axis=1)
    for s in range(n):
        weight = np.where(lead_seat == s, w["lead"], w["other"])
        theirs = tanks[:, s]
        value = np.zeros(b)
        for k in range(3):
            m = theirs[rows, colours[:, k]]
            value = np.where(
                possible[:, k],
                np.where(m > 0, value + p * t * (m + 1 + weight * m), value - p * weight * t),
                value,
            )
        better = (value > best_value) & (me != s)
        best_value = np.where(better, value, best_value)
        best = np.where(better, (s - me) % n, best)
    return best


__all__ = ["greedy_actions", "random_actions", "score_actions", "top_faces"]
