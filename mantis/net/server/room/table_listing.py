"""A table's entry in the list of public tables (``GET /tables``, and the lobby's).

A node goes through its whole list every second, most of its rooms are games
that have ended (kept a few minutes for a rematch), and a game's seats do not
change while it is played or once it ended: an entry is built again only in a
new phase, and after a move only its count of moves changes (its seats are the
same list).  (Another game at the table changes seats while over, and drops
the entry: ``drop``.)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..directory import Listing
from .phases import Phase, Waiting, moves_of, phase_name
from .seat_list import Seat


class TableListing:
    """One table's entry, kept while it holds."""

    def __init__(self, clock: int | None, quick: bool) -> None:
        """``clock``: the table's seconds per move (None: none); ``quick``: quick play."""
        self.clock = clock
        self.quick = quick
        self._listed: tuple[Phase, int, Listing] | None = None

    def entry(self, code: str, phase: Phase, seats: Sequence[Seat]) -> Listing:
        """The entry of table ``code``, in ``phase`` with ``seats``."""
        if isinstance(phase, Waiting):
            return self._now(code, phase, seats)
        moves = moves_of(phase)
        listed = self._listed
        if listed is None or listed[0] is not phase:
            listed = self._listed = (phase, moves, self._now(code, phase, seats))
        elif listed[1] != moves:
            listed = self._listed = (phase, moves, {**listed[2], "moves": moves})
        return listed[2]

    def drop(self) -> None:
        """The seats changed: build the entry again."""
        self._listed = None

    def _now(self, code: str, phase: Phase, seats: Sequence[Seat]) -> Listing:
        return {
            "code": code,
            "state": phase_name(phase).value,
            "moves": moves_of(phase),
            "seats": [
                {"name": seat.name, "kind": seat.kind, "taken": seat.taken} for seat in seats
            ],
            "clock": self.clock,
            "quick": self.quick,
        }
