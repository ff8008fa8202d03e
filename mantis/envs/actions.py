"""Action numbers: 0 scores, ``k`` (1 to 5) steals from the seat ``k`` places after the mover.

Every environment uses this one numbering, ``Discrete(6)`` at every table
size by default: at a table of ``n`` the actions ``0`` to ``n - 1`` are legal
(Mantis never forbids a steal, not even from an empty tank) and ``n`` to ``5``
are not.  Asked for ``table_actions``, an environment's space is
``Discrete(n)``: the same numbers, without the ones there never are at its
table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..engine import SCORE, Action, IllegalActionError, Score, steal
from ..engine.seat_count import MAX_SEATS, SEAT_COUNTS

NUM_ACTIONS = MAX_SEATS
"""Score, and a steal from each of up to five other seats."""

#: _ENGINE[n][seat][k]: the engine's action for action number k.
_ENGINE: dict[int, tuple[tuple[Action, ...], ...]] = {
    n: tuple(tuple(SCORE if k == 0 else steal((s + k) % n) for k in range(n)) for s in range(n))
    for n in SEAT_COUNTS
}


def mask_of(legal: int, size: int = NUM_ACTIONS) -> np.ndarray:
    """A read-only mask of ``size`` actions whose first ``legal`` are legal."""
    mask = np.zeros(size, dtype=np.int8)
    mask[:legal] = 1
    mask.flags.writeable = False  # shared by every observation: nobody may change it
    return mask


MASKS: dict[int, np.ndarray] = {n: mask_of(n) for n in SEAT_COUNTS}
"""The action mask of the seat to move at a table of ``n`` (read-only, shared)."""
NO_ACTIONS = mask_of(0)
"""The action mask of a seat that is not to move, or of anyone once the game is over."""


class ActionSpace(spaces.Discrete):
    """``Discrete(n)`` (default 6), telling whether it holds a plain ``int`` without numpy.

    Gymnasium's ``Discrete.contains`` converts every value through numpy (about
    4 µs), and PettingZoo's ``AssertOutOfBoundsWrapper`` asks it at every step;
    for an ``int`` its answer is this range test.  Anything else (numpy integers,
    ``bool``, floats, arrays) it answers as ``Discrete`` does.
    """

    def __init__(self, n: int = NUM_ACTIONS, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(n, seed=seed)
        self._size = n

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return 0 <= x < self._size
        return bool(super().contains(x))


def to_engine(players: int, seat: int, action: int) -> Action:
    """The engine's action for action number ``action`` of ``seat``.

    ``IllegalActionError`` for a number that is not an action at this table.
    """
    try:
        if action >= 0:
            return _ENGINE[players][seat][action]
    except (IndexError, TypeError):
        pass
    raise IllegalActionError(
        f"action {action!r} is not legal at a table of {players}: "
        f"0 scores, 1 to {players - 1} steal from the seat that many places on"
    )


def from_engine(players: int, seat: int, action: Action) -> int:
    """The action number of the engine's ``action`` played by ``seat``."""
    if isinstance(action, Score):
        return 0
    return (action.target - seat) % players


def name(action: int) -> str:
    """``"score"`` or ``"steal +k"`` (from the seat k places on)."""
    return "score" if action == 0 else f"steal +{action}"
