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

import math

import numpy as np
import numpy.typing as npt

from ..engine import BACKS
from ..players.bots.expert import NUM_FEATURES, Network, networks_by_players
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


# ----------------------------------------------------------------- expert

_EXP = np.frompyfunc(math.exp, 1, 1)


def _exp(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``math.exp`` element by element: the bot's own exponential, to the last bit
    (numpy's may differ from it in the last place)."""
    out: npt.NDArray[np.float64] = np.asarray(_EXP(x), dtype=np.float64)
    return out


def _strengths(net: Network, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``net(x)`` over the last axis of ``x``, the bot's generated function's
    arithmetic in its order: ``h = b + w0 * x0 + w1 * x1 + ...`` (every unit at
    once, each in that order), then ``t += out * h`` unit by unit for those with
    ``h > 0``."""
    w1 = np.array(net.w1)  # (units, features)
    h = np.array(net.b1) + w1[:, 0] * x[..., 0, None]
    for j in range(1, NUM_FEATURES):
        h = h + w1[:, j] * x[..., j, None]
    positive = h > 0.0
    t = np.zeros(x.shape[:-1])
    for unit, out in enumerate(net.w2):
        t = t + np.where(positive[..., unit], out * h[..., unit], 0.0)
    return t


def expert_features(
    counts: Ints,
    scores: Ints,
    dist: Ints,
    q: npt.NDArray[np.float64],
    target: int,
    players: int,
    phase: npt.NDArray[np.float64],
    best_other: Ints,
) -> npt.NDArray[np.float64]:
    """``seat_features`` over arrays (the last axis of ``counts`` the colours, of
    ``q`` too): the same sums in the same order, so the same numbers."""
    need = target - scores
    size = counts.sum(axis=-1)
    held = counts > 0
    distinct = held.sum(axis=-1)
    top = counts.max(axis=-1)
    p_match = np.zeros(scores.shape)
    e_gain = np.zeros(scores.shape)
    p_win = np.zeros(scores.shape)
    for colour in range(7):
        k = counts[..., colour]
        qc = q[..., colour]
        has = k > 0
        p_match = p_match + np.where(has, qc, 0.0)
        e_gain = e_gain + np.where(has, qc * (k + 1), 0.0)
        p_win = p_win + np.where(has & (k + 1 >= need), qc, 0.0)
    e_gain = e_gain * 0.2
    nxt = np.where(dist == 0, 1.0, 0.0)
    return np.stack(
        [
            scores / target,
            np.where(need > 0, 1.0 / np.where(need > 0, need, 1), 1.0),
            size * 0.1,
            distinct / 7,
            top * 0.2,
            p_match,
            e_gain,
            p_win,
            nxt,
            dist / players,
            nxt * p_win,
            nxt * e_gain,
            np.broadcast_to(phase, scores.shape),
            (scores - best_other) / target,
        ],
        axis=-1,
    )


def expert_values(batch: MantisBatch, net: Network | None = None) -> npt.NDArray[np.float64]:
    """``(games, players)``: ``ExpertBot.action_values`` in every game, in the bot's
    order of legal actions (score, then a steal from each other seat in seat
    order); ``net`` defaults to the shipped network for the table size."""
    n = batch.num_players
    if net is None:
        net = networks_by_players()[n]
    b = batch.num_games
    rows = np.arange(b)
    target = batch.target
    colours, p, possible = top_faces(batch)
    me = batch.to_move
    left = batch.pile_size - 1
    phase = left / batch.pile_at_deal
    # per legal option i (the bot's order), the seat the card goes to
    seat_order = np.arange(n)[None, :]
    others = np.sort(np.where(seat_order == me[:, None], n, seat_order), axis=1)[:, : n - 1]
    victims = np.concatenate((me[:, None], others), axis=1)  # (b, n)
    values = np.zeros((b, n))
    seats = np.arange(n)
    for k in range(3):
        colour = colours[:, k]
        unseen = batch.unseen_faces.copy()
        unseen[rows, colour] -= 1
        inv = 1.0 / np.maximum(left, 1)
        q = unseen * inv[:, None]  # (b, 7)
        counts = np.repeat(batch.tanks[:, None], n, axis=1)  # (b, options, seats, 7)
        scores = np.repeat(batch.scores[:, None], n, axis=1)  # (b, options, seats)
        opt = np.arange(n)[None, :]
        g = rows[:, None]
        c = colour[:, None]
        v = victims
        held = counts[g, opt, v, c]  # (b, options)
        mover = me[:, None]
        scoring = opt == 0
        hit = held > 0
        counts[g, opt, v, c] = np.where(hit, 0, held + 1)
        stolen = hit & ~scoring
        counts[g, opt, mover, c] += np.where(stolen, held + 1, 0)
        new_score = scores[g, opt, mover] + np.where(hit & scoring, held + 1, 0)
        scores[g, opt, mover] = new_score
        wins = hit & scoring & (new_score >= target)
        nxt = np.where(stolen & (n == 2), mover, (mover + 1) % n)  # (b, options)
        dist = (seats[None, None, :] - nxt[:, :, None]) % n
        masked = np.where(np.eye(n, dtype=bool)[None, None], -1, scores[:, :, None, :])
        best_other = masked.max(axis=-1)
        x = expert_features(
            counts,
            scores,
            dist,
            q[:, None, None, :],
            target,
            n,
            phase[:, None, None],
            best_other,
        )
        us = _strengths(net, x)  # (b, options, seats)
        um = us[g, opt, mover]
        total = _exp(us[:, :, 0] - um)
        for s in range(1, n):
            total = total + _exp(us[:, :, s] - um)
        term = p[:, None] / total
        # the pile's last card: the deck-out's winners, exactly
        deck_out = ~wins & (left == 0)[:, None]
        sizes = counts.sum(axis=-1)
        leaders = scores == scores.max(axis=-1, keepdims=True)
        biggest = np.where(leaders, sizes, -1).max(axis=-1, keepdims=True)
        mover_wins = (leaders & (sizes == biggest))[g, opt, mover]
        term = np.where(deck_out, p[:, None] * mover_wins, term)
        term = np.where(wins, p[:, None] * True, term)
        values = values + np.where(possible[:, k : k + 1], term, 0.0)
    return values


def expert_actions(batch: MantisBatch, net: Network | None = None) -> Ints:
    """``expert`` (``mantis.players.bots.expert``) in every game, as action numbers."""
    return expert_choices(batch, expert_values(batch, net))


def expert_choices(batch: MantisBatch, values: npt.NDArray[np.float64]) -> Ints:
    """The action the expert plays given its ``values`` (``expert_values``): the
    option of highest value, an earlier one (the bot's order) unless beaten by
    more than 1e-12."""
    n = batch.num_players
    best = np.zeros(batch.num_games, dtype=np.int64)
    rows = np.arange(batch.num_games)
    for i in range(1, n):
        better = values[:, i] > values[rows, best] + 1e-12
        best = np.where(better, i, best)
    me = batch.to_move
    # option i >= 1 steals from the i-th other seat in seat order
    victim = np.where(best <= me, best - 1, best)
    victim = np.where(best == 0, me, victim)
    actions: Ints = np.where(best == 0, 0, (victim - me) % n)
    return actions


__all__ = [
    "expert_actions",
    "expert_choices",
    "expert_features",
    "expert_values",
    "greedy_actions",
    "random_actions",
    "score_actions",
    "top_faces",
]
