"""A rating and the number people read.

A rating is a belief about a player's skill: a mean ``mu`` and an
uncertainty ``sigma``, on OpenSkill's Weng–Lin scale (a new player is
``mu = 25``, ``sigma = 25/3``).  People read one number on a familiar
1,500-centred scale:

- the **rating** is ``1500 + 30 * (mu - 25)``: a new player is 1,500, and so
  is the average built-in bot level (the level anchors are centred on 25).
  At two seats, between settled ratings, 400 points are about 10-to-1 odds,
  as in Elo (``30`` is ``400 / (ln 10 * beta * sqrt 2)`` rounded);
- the **±** is two sigmas on that scale (``60 * sigma``): the rating lies
  within it with about 95% belief.  A new player is 1,500 ± 500;
- a rating is **provisional** while its ± is wider than 240 (``sigma > 4``):
  one game of Mantis says little (luck weighs a lot), so that is about the
  first 20 games at two seats and more at bigger tables, where each game
  says less;
- the **low** end (rating − ±) is the cautious number, for ordering people
  by what they have shown for sure.
"""

from __future__ import annotations

import msgspec

# OpenSkill's defaults (Weng–Lin Plackett–Luce), kept so that our numbers mean theirs.
MU = 25.0
"""A new player's mean skill."""
SIGMA = 25.0 / 3.0
"""A new player's uncertainty."""
BETA = 25.0 / 6.0
"""How much a single game's performance varies around a player's skill."""
TAU = 25.0 / 300.0
"""Uncertainty added before every game, so a rating can follow a player who improves."""
KAPPA = 0.0001
"""The least fraction of its variance a game may leave a rating (keeps sigma above zero)."""

CENTRE = 1500
"""The shown rating of ``mu = MU``."""
POINTS_PER_MU = 30
"""Shown points per unit of ``mu``."""
SPREAD = 2.0
"""Sigmas in the shown ±."""
PROVISIONAL_SIGMA = 4.0
"""A rating is provisional while its sigma is above this (a ± wider than 240)."""


class Rating(msgspec.Struct, frozen=True):
    """A player's rating: OpenSkill's ``mu`` and ``sigma``, and the numbers people read."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        """The rating people read: 1,500-centred."""
        return round(CENTRE + POINTS_PER_MU * (self.mu - MU))

    @property
    def plus_minus(self) -> int:
        """The ± shown with the rating (two sigmas)."""
        return round(SPREAD * POINTS_PER_MU * self.sigma)

    @property
    def low(self) -> int:
        """The cautious end of the rating: ``shown - plus_minus``."""
        return self.shown - self.plus_minus

    @property
    def provisional(self) -> bool:
        """Whether too few games are known to trust the number yet."""
        return self.sigma > PROVISIONAL_SIGMA

    def text(self) -> str:
        """``"1,612 ± 84"``, with ``" provisional"`` after it while it is."""
        words = f"{self.shown:,} ± {self.plus_minus:,}"
        return f"{words} provisional" if self.provisional else words

    def to_json(self) -> dict[str, float | int | bool]:
        """The rating as plain JSON values: the shown numbers and the model's own."""
        return {
            "rating": self.shown,
            "plus_minus": self.plus_minus,
            "provisional": self.provisional,
            "mu": round(self.mu, 6),
            "sigma": round(self.sigma, 6),
        }


class Fitted(msgspec.Struct, frozen=True):
    """A rating fitted to many games (a bot level's anchor) and the number of games behind it."""

    rating: Rating
    games: int
