"""``score``: always tries to score."""

from __future__ import annotations

from ...engine import SCORE, Action, View


class ScoreBot:
    """Never steals; the baseline every other bot must beat."""

    def choose(self, view: View) -> Action:
        return SCORE
