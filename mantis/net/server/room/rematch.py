"""Another game at the same table: an offer made once a game is over, and its answers.

Any seated person may offer another game (``again``); the others accept
(``again``) or decline.  Bots accept at once, and so does a seat whose
person left (the away bot plays it).  Once every seat has accepted, the
table plays again with the same seats, the first seat moved on by one and a
fresh seed.  An offer lapses after ``LAPSES_AFTER`` seconds, or as soon as
anyone declines or leaves; a person may offer at most ``OFFERS_PER_MINUTE``
times a minute (one offer and two renewals).  The room keeps an open
offer in the directory too (``Offer.note``): on a cluster, a node that
takes the table over goes on with it (the seats that accepted, the time it
lapses); a server that is one process forgets it when it restarts, and
anyone may offer again.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any, Protocol

from ....base.clock import Clock, Timer
from ....engine.deal import deal
from ... import protocol
from ..directory import TableNotes

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
        lapses_in: float = LAPSES_AFTER,
    ) -> None:
        """``by``'s offer; ``accepted`` are the seats that accept without being asked (bots,
        seats played for); ``lapse`` is called if it is still open after ``lapses_in``
        seconds (``LAPSES_AFTER`` for a new offer)."""
        self.by = by
        self.accepted = {by, *accepted}
        self.clock = clock
        self.lapses_at = clock.now() + lapses_in
        self._timer: Timer = clock.call_later(lapses_in, lapse)

    def note(self, game: int) -> str:
        """The offer, for game ``game``'s table, as the directory keeps it (``from_note``)."""
        lapses_at = self.clock.time() + self.lapses_at - self.clock.now()
        data = {"game": game, "by": self.by, "accepted": sorted(self.accepted)}
        return json.dumps({**data, "lapses_at": lapses_at})

    @classmethod
    def from_note(
        cls, text: str, game: int, clock: Clock, lapse: Callable[[], None]
    ) -> Offer | None:
        """The offer a note keeps, going on where it was (None: not game ``game``'s, lapsed
        already, or unreadable)."""
        try:
            data = json.loads(text)
            lapses_in = float(data["lapses_at"]) - clock.time()
            if data["game"] != game or lapses_in <= 0:
                return None
            return cls(int(data["by"]), [int(s) for s in data["accepted"]], clock, lapse, lapses_in)
        except (ValueError, KeyError, TypeError):
            return None

    def lapses_in(self) -> float:
        """Seconds until it lapses."""
        return max(0.0, self.lapses_at - self.clock.now())

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


class OverGame(Protocol):
    """A game over at a table (the room's ``Over`` phase): the offer it holds, if any."""

    number: int
    offer: Offer | None


class Rematches:
    """A table's offers of another game, each held by the game it follows: made, accepted,
    declined, lapsed, and kept in the directory for a node that takes the table over.

    Handed the clock, the table's notes, a way to tell everyone and to run a task.
    """

    def __init__(
        self,
        clock: Clock,
        notes: TableNotes,
        broadcast: Callable[[protocol.ServerMessage], None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.clock = clock
        self.notes = notes
        self.broadcast = broadcast
        self.spawn = spawn

    async def again(
        self,
        over: OverGame,
        seat: int,
        people: Sequence[bool],
        counted: Callable[[], Awaitable[str | None]],
        play: Callable[[], Awaitable[None]],
    ) -> str | None:
        """``seat`` offers another game, or accepts the offer (``people``: which seats a
        person plays; the others accept at once).  Once all agree, another game is
        ``counted`` (an error code if it may not be) and played (``play``)."""
        offer = over.offer
        if offer is None:
            played_for = [s for s, person in enumerate(people) if not person]
            offer = over.offer = Offer(seat, played_for, self.clock, lambda: self._lapse(over))
        else:
            offer.accept(seat)
        if not offer.agreed(len(people)):
            self.broadcast(offer.state())
            await self.note(over)
            return None
        refused = await counted()
        if refused is not None:
            self.close(over, "lapsed", None)
            return refused
        offer.close()
        await self.notes.drop("offer")
        await play()
        return None

    async def note(self, over: OverGame) -> None:
        """Keep the open offer where a node taking the table over finds it."""
        if over.offer is not None:
            offer = over.offer
            await self.notes.put("offer", offer.note(over.number), offer.lapses_in())

    async def resume(self, over: OverGame) -> None:
        """The offer the directory kept goes on (if it kept one, for this game)."""
        noted = await self.notes.read("offer")
        if noted is not None:
            over.offer = Offer.from_note(noted, over.number, self.clock, lambda: self._lapse(over))

    def decline(self, over: OverGame, seat: int) -> str | None:
        """``seat`` declines the open offer; an error code if none is open."""
        if over.offer is None:
            return protocol.NOT_NOW
        self.close(over, "declined", seat)
        return None

    def close(self, over: OverGame, reason: str, seat: int | None) -> None:
        """The open offer is off: ``declined`` or ``left`` (by ``seat``), or ``lapsed``."""
        assert over.offer is not None
        over.offer.close()
        over.offer = None
        self.broadcast(protocol.OfferClosed(reason, seat))  # type: ignore[arg-type]
        self.spawn(self.notes.drop("offer"))

    def _lapse(self, over: OverGame) -> None:
        if over.offer is not None:
            self.close(over, "lapsed", None)


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
