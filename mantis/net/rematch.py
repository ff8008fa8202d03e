"""Another game at the same table: an offer made once a game is over, and its answers.

Any seated person may offer another game (``again``); the others accept
(``again``) or decline.  Bots accept at once, and so does a seat whose
person left (the away bot plays it).  Once every seat has accepted, the
table plays again with the same seats, the first seat moved on by one and a
fresh seed.  An offer lapses after ``LAPSES_AFTER`` seconds, or as soon as
anyone declines or leaves; a person may offer at most ``OFFERS_PER_MINUTE``
times a minute (one offer and two renewals).  An offer lives in the
owner's memory only: a restart forgets it, and anyone may offer again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..engine.deal import deal
from ..players.clock import Clock, Timer
from . import protocol

#: Seconds an offer waits for its answers.
LAPSES_AFTER = 60.0
#: Offers one person may make within a minute: an offer and two renewals.
OFFERS_PER_MINUTE = 3


class Offer:
    """An open offer of another game: who made it, who has accepted, when it lapses."""

    def __init__(
        self,
        by: int,
        accepted: Iterable[int],
        clock: Clock,
        lapse: Callable[[], None],
    ) -> None:
        """``by``'s offer; ``accepted`` are the seats that accept without being asked (bots,
        seats played for); ``lapse`` is called if it is still open after ``LAPSES_AFTER``."""
        self.by = by
        self.accepted = {by, *accepted}
        self.clock = clock
        self.lapses_at = clock.now() + LAPSES_AFTER
        self._timer: Timer = clock.call_later(LAPSES_AFTER, lapse)

    def accept(self, seat: int) -> None:
        self.accepted.add(seat)

    def agreed(self, seats: int) -> bool:
        """Whether all ``seats`` seats have accepted."""
        return len(self.accepted) >= seats

    def state(self) -> protocol.Offer:
        lapses_in = round(max(0.0, self.lapses_at - self.clock.now()), 3)
        return protocol.Offer(self.by, tuple(sorted(self.accepted)), lapses_in)

    def close(self) -> None:
        """No lapse any more (answered, or the table is going away)."""
        self._timer.cancel()


def seed_with_first(seeds: Callable[[], int], players: int, first: int) -> int:
    """A fresh seed from ``seeds`` whose deal has ``first`` move first.

    A seed fixes its deal and its first seat (so ``mantis play --seed`` deals
    the very game again); to rotate the first seat, seeds are drawn until
    one deals it — ``players`` draws on average.
    """
    while True:
        seed = seeds()
        if deal(players, seed)[2] == first:
            return seed
