"""The ratings that many games between fixed players imply: how the level anchors are found.

Bots do not learn, so their ratings are fitted to all their games at once
rather than game by game (which would depend on the games' order): the
most likely skills under the model ``update`` rates by — each game's
winners finished first, with Plackett–Luce chances at ``c = beta *
sqrt(seats)`` (a bot's own sigma is negligible next to beta) — with
OpenSkill's prior for a new player (``mu`` 25, ``sigma`` 25/3) so that a
player who never won still gets a finite number.  Newton's method finds it
(the log-likelihood is concave).  The uncertainty is the curvature's: the
posterior covariance, taken for ratings measured from a reference point
(by default the mean of every player fitted, which is set to ``MU``), so a
player's ``sigma`` says how well its place relative to the others is known.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

from .scale import BETA, MU, SIGMA, Fitted, Rating

#: Newton steps at most, and the step size (in ``mu``) that counts as converged.
MAX_STEPS = 100
TOLERANCE = 1e-10


def fit(
    results: Iterable[tuple[Sequence[str], Collection[int]]],
    *,
    reference: Mapping[str, float] | None = None,
) -> dict[str, Fitted]:
    """Each player's rating from ``results``: ``(player per seat, winning seats)`` per game.

    A player may sit in several seats of one game (copies of one bot).  The
    ratings are placed so that the mean ``mu`` of the players named in
    ``reference`` (those that played) equals the mean of their given ``mu``;
    without a reference (or if none of them played), the mean of every player is ``MU``.
    ``ValueError`` if there are no results.
    """
    games = Counter((tuple(seats), frozenset(winners)) for seats, winners in results)
    if not games:
        raise ValueError("no games to fit ratings to")
    players = sorted({p for seats, _ in games for p in seats})
    index = {p: i for i, p in enumerate(players)}
    mus, covariance = _newton(games, index)
    anchored = {p: mu for p, mu in (reference or {}).items() if p in index}
    weights = [0.0] * len(players)
    if anchored:
        for p in anchored:
            weights[index[p]] = 1.0 / len(anchored)
        target = sum(anchored.values()) / len(anchored)
    else:
        weights = [1.0 / len(players)] * len(players)
        target = MU
    shift = target - sum(w * m for w, m in zip(weights, mus, strict=True))
    spread = _relative_variances(covariance, weights)
    counts: Counter[str] = Counter()
    for (seats, _), n in games.items():
        for p in set(seats):
            counts[p] += n
    return {
        p: Fitted(Rating(mus[i] + shift, math.sqrt(max(spread[i], 0.0))), counts[p])
        for p, i in index.items()
    }


def _newton(
    games: Mapping[tuple[tuple[str, ...], frozenset[int]], int], index: Mapping[str, int]
) -> tuple[list[float], list[list[float]]]:
    """The most likely ``mu`` of each player and their posterior covariance."""
    k = len(index)
    mus = [MU] * k
    for _ in range(MAX_STEPS):
        gradient, hessian = _derivatives(games, index, mus)
        # Newton's step solves (-H) step = g; -H is positive definite thanks to the prior.
        step = _solve([[-h for h in row] for row in hessian], gradient)
        largest = max(abs(s) for s in step)
        scale = min(1.0, 10.0 / largest) if largest > 0 else 1.0  # far steps are shortened
        mus = [m + scale * s for m, s in zip(mus, step, strict=True)]
        if largest < TOLERANCE:
            break
    _, hessian = _derivatives(games, index, mus)
    return mus, _inverse([[-h for h in row] for row in hessian])


def _derivatives(
    games: Mapping[tuple[tuple[str, ...], frozenset[int]], int],
    index: Mapping[str, int],
    mus: Sequence[float],
) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian of the log-posterior at ``mus``."""
    k = len(mus)
    gradient = [-(m - MU) / SIGMA**2 for m in mus]
    hessian = [[-1.0 / SIGMA**2 if a == b else 0.0 for b in range(k)] for a in range(k)]
    for (seats, winners), n in games.items():
        c = BETA * math.sqrt(len(seats))
        top = max(mus[index[p]] for p in seats)
        weights = [math.exp((mus[index[p]] - top) / c) for p in seats]
        total = sum(weights)
        share: dict[int, float] = {}  # per player: its chance to win, summed over its seats
        for p, w in zip(seats, weights, strict=True):
            share[index[p]] = share.get(index[p], 0.0) + w / total
        for seat in winners:
            gradient[index[seats[seat]]] += n / (len(winners) * c)
        for a, pa in share.items():
            gradient[a] -= n * pa / c
            hessian[a][a] -= n * pa / c**2
            for b, pb in share.items():
                hessian[a][b] += n * pa * pb / c**2
    return gradient, hessian


def _relative_variances(
    covariance: Sequence[Sequence[float]], weights: Sequence[float]
) -> list[float]:
    """Var(mu_i - sum_j w_j mu_j) for every i: how well each is placed against the reference."""
    k = len(weights)
    cw = [sum(covariance[i][j] * weights[j] for j in range(k)) for i in range(k)]
    wcw = sum(weights[i] * cw[i] for i in range(k))
    return [covariance[i][i] - 2 * cw[i] + wcw for i in range(k)]


def _solve(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    inverse = _inverse(matrix)
    return [sum(row[j] * vector[j] for j in range(len(vector))) for row in inverse]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """Gauss–Jordan with partial pivoting: the matrices here are a few rows square."""
    n = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0.0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]
