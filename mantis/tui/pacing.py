"""How long the table lingers so a person can follow the play."""

from __future__ import annotations

from dataclasses import dataclass

from ..store import SPEEDS


@dataclass(frozen=True, slots=True)
class Pace:
    """Delays in seconds: a bot's minimum thinking time and a drawn card's reveal."""

    think: float
    reveal: float


PACES = {
    "slow": Pace(think=1.4, reveal=1.4),
    "normal": Pace(think=0.5, reveal=0.6),
    "fast": Pace(think=0.25, reveal=0.3),
    "instant": Pace(think=0.0, reveal=0.0),
}
NO_DELAY = PACES["instant"]


def pace_for(speed: str, *, animations: bool = True) -> Pace:
    """The delays for ``speed``; none at all when animations are off."""
    if not animations:
        return NO_DELAY
    return PACES.get(speed, PACES["normal"])


def next_speed(speed: str) -> str:
    """The speed after ``speed`` when cycling slow → normal → fast → instant → slow."""
    index = SPEEDS.index(speed) if speed in SPEEDS else 0
    return SPEEDS[(index + 1) % len(SPEEDS)]
