"""A rating after a game: Weng–Lin's Plackett–Luce update, for a game that has winners.

OpenSkill's ``PlackettLuce.rate`` (Weng and Lin 2011, Algorithm 4) takes a
ranking.  A Mantis game ranks nobody but its winners: everyone else simply
did not win.  Given as ranks, the losers would be *tied*, and the
library's ties add a term that pulls tied players towards each other, so a
weak player who loses to three strong bots gains rating (the tests show
it).  This update is the library's with that term left out: the likelihood
is the Plackett–Luce chance of the winners finishing first,

    L = prod over winners w of (e^(mu_w / c) / sum over all seats s of e^(mu_s / c)) ^ (1 / W)

(``W`` winners share a win; ``c = sqrt(sum of (sigma^2 + beta^2))``), and
the step is the library's: the same parameters, the same ``gamma``, ``tau``
and ``kappa``.  Every winner's new rating, and every rating at two seats,
equals the library's exactly.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from .scale import BETA, KAPPA, TAU, Rating


def _chances(mus: Sequence[float], c: float) -> list[float]:
    top = max(mus)  # shifted, so the exponentials never overflow
    weights = [math.exp((mu - top) / c) for mu in mus]
    total = sum(weights)
    return [w / total for w in weights]


def _check(seats: int, winners: Collection[int]) -> None:
    if seats < 2:
        raise ValueError(f"a game has at least two seats, not {seats}")
    if not winners or any(not 0 <= w < seats for w in winners):
        raise ValueError(f"winners must be seats 0 to {seats - 1}: {sorted(winners)}")


def rate(ratings: Sequence[Rating], winners: Collection[int], *, tau: float = TAU) -> list[Rating]:
    """Every seat's rating after a game that the seats in ``winners`` won (shared if several).

    ``ratings`` are the seats' ratings before it, in seat order.  A caller
    whose seat must not move (a bot level's anchor) keeps its old rating
    and drops the new one: the others' updates do not depend on that.
    ``ValueError`` for fewer than two seats or winners that are not seats.
    """
    _check(len(ratings), winners)
    variances = [r.sigma**2 + tau**2 for r in ratings]
    c = math.sqrt(sum(v + BETA**2 for v in variances))
    chances = _chances([r.mu for r in ratings], c)
    share = 1.0 / len(set(winners))
    out = []
    for seat, (rating, variance, p) in enumerate(zip(ratings, variances, chances, strict=True)):
        won = share if seat in winners else 0.0
        omega = variance / c * (won - p)
        gamma = math.sqrt(variance) / c
        delta = gamma * variance / c**2 * p * (1.0 - p)
        sigma = math.sqrt(variance) * math.sqrt(max(1.0 - delta, KAPPA))
        out.append(Rating(rating.mu + omega, sigma))
    return out


def win_chances(ratings: Sequence[Rating]) -> list[float]:
    """Each seat's chance to win a game between these ratings (the model's own)."""
    if len(ratings) < 2:
        raise ValueError(f"a game has at least two seats, not {len(ratings)}")
    c = math.sqrt(sum(r.sigma**2 + BETA**2 for r in ratings))
    return _chances([r.mu for r in ratings], c)
