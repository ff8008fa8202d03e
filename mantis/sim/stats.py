"""Small statistics for win rates and timings."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    Better than ``p ± z·sqrt(p(1-p)/n)`` near 0 and 1 and for few games.
    """
    if games <= 0:
        return (0.0, 0.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of already sorted values, by linear interpolation."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q
    low = math.floor(pos)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)


def timing_ms(seconds: Sequence[float]) -> dict[str, float]:
    """Median and p95 of decision times given in seconds, in milliseconds."""
    values = sorted(seconds)
    return {
        "median": round(percentile(values, 0.5) * 1000, 5),
        "p95": round(percentile(values, 0.95) * 1000, 5),
    }
