"""The public view: everything one seat may know, and nothing more.

A ``View`` is an immutable snapshot built from plain ints and tuples (a frozen
``msgspec`` struct: one is built for every decision, and this is the cheapest
immutable record to build, about a third cheaper than a named tuple).  It holds
no reference to the game, so the order of the draw pile (and any RNG) cannot
be reached from it.  Card counting is public knowledge (every card is face up
once played), so the view carries the set of seen cards and answers exact
questions about the top card's face.
"""

from __future__ import annotations

import msgspec

from .actions import Action, legal_actions_for
from .cards import ALL_CARDS_MASK, BACKS, cards_in
from .events import Tank


class View(msgspec.Struct, frozen=True, gc=False):
    """What ``seat`` sees of a game.

    ``gc=False``: a view holds only ints, strings and tuples of them, so it
    can never be part of a reference cycle.
    """

    seat: int
    """The seat this view belongs to."""
    players: int
    target: int
    to_move: int
    tanks: tuple[Tank, ...]
    """Per seat, per colour, the cards of that face colour in its tank."""
    scores: tuple[int, ...]
    """Per seat, the number of cards in its score pile."""
    pile_size: int
    top_back: int | None
    """Back number of the draw pile's top card; ``None`` once nobody draws again
    (the pile is empty or the game is over)."""
    seen: int
    """Bitmask of every card that has been face up (dealt or played)."""
    extra_turn: bool
    """Two players: this turn is a bonus turn after a successful steal."""
    turn: int
    """Actions played so far."""
    winners: tuple[int, ...] | None
    reason: str | None

    def for_seat(self, seat: int) -> View:
        """The same position as ``seat`` sees it (every field but ``seat`` is public)."""
        return msgspec.structs.replace(self, seat=seat)

    @property
    def over(self) -> bool:
        return self.winners is not None

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to move may take (none once the game is over)."""
        if self.winners is not None:
            return ()
        return legal_actions_for(self.players, self.to_move)

    def tank_counts(self, seat: int) -> tuple[int, ...]:
        """How many cards of each colour ``seat`` has in its tank."""
        return tuple(len(cards) for cards in self.tanks[seat])

    def tank_size(self, seat: int) -> int:
        return sum(len(cards) for cards in self.tanks[seat])

    @property
    def unseen(self) -> tuple[int, ...]:
        """Cards never face up so far: exactly the draw pile, in card order."""
        return cards_in(ALL_CARDS_MASK ^ self.seen)

    def face_weights(self, back: int | None = None) -> tuple[tuple[int, int], ...]:
        """For a back (default: the top card's), each possible face with its weight.

        The weight is 1 when the card (back, face) is unseen and 0 when it was
        seen; the probability of a face is its weight over the sum of weights.
        """
        if back is None:
            back = self.top_back
            if back is None:
                return ()
        bits = (self.seen >> (3 * back)) & 7
        return tuple((colour, 0 if bits >> k & 1 else 1) for k, colour in enumerate(BACKS[back]))

    def face_probabilities(self, back: int | None = None) -> dict[int, float]:
        """P(face = colour) for the top card (or ``back``), by exact card counting."""
        weights = self.face_weights(back)
        total = sum(w for _, w in weights)
        if not total:
            return {}
        return {colour: w / total for colour, w in weights}
