"""What every environment can be asked for: its table, its render mode, its spaces.

* ``num_players``: 2 to 6 (anything else is a one-line ``ValueError``);
* ``render_mode``: ``"ansi"`` (the table as text), ``"human"`` (printed),
  ``"rgb_array"`` (a picture, ``picture.py``) or ``None``; any other mode is
  warned about (as Gymnasium's own environments do) and draws nothing, so
  that a library asking every environment for a mode it may lack still runs;
* ``table_actions``: ``Discrete(num_players)`` instead of ``Discrete(6)``,
  the same numbers without those there never are at the table;
* ``scaled``: the observation as ``float32`` in [0, 1], each field divided by
  its largest value (``observation.HIGH``), instead of ``uint8`` counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import logger, spaces

from ..engine import View
from ..engine.seat_count import SEAT_RANGE, valid_seat_count
from .actions import NUM_ACTIONS, ActionSpace, mask_of
from .observation import HIGH, LOW, Encoder, scale
from .picture import picture
from .render import paints, show, table_text

RENDER_MODES = ("ansi", "human", "rgb_array")
"""The render modes every environment draws."""


def check_players(num_players: int) -> None:
    """``ValueError`` in one line for a table size there is not."""
    if type(num_players) is not int or not valid_seat_count(num_players):
        raise ValueError(f"Mantis is played by {SEAT_RANGE} players, not {num_players!r}")


def check_render_mode(render_mode: str | None) -> None:
    """Warn about a render mode the environments do not draw (then they draw nothing)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        logger.warn(
            f"Mantis draws render_mode {', '.join(map(repr, RENDER_MODES))} or None, "
            f"not {render_mode!r}: render() will return None"
        )


class Spaces:
    """One table's action space, masks and observations, as the options ask."""

    __slots__ = ("actions", "legal", "none", "observation", "_encode", "_scaled")

    def __init__(self, num_players: int, *, table_actions: bool, scaled: bool) -> None:
        size = num_players if table_actions else NUM_ACTIONS
        self.actions = size
        self.legal = mask_of(num_players, size)
        """The mask of the seat to move (read-only, shared)."""
        self.none = mask_of(0, size)
        """The mask of a seat not to move, or of every seat once the game is over."""
        self._scaled = scaled
        self.observation: spaces.Box
        if scaled:
            self.observation = spaces.Box(0.0, 1.0, shape=HIGH.shape, dtype=np.float32)
        else:
            self.observation = spaces.Box(LOW, HIGH, dtype=np.uint8)
        self._encode: Callable[[View, int], np.ndarray] = Encoder().encode

    def action_space(self) -> ActionSpace:
        return ActionSpace(self.actions)

    def mask_space(self, dtype: Any = np.int8) -> spaces.Box:
        """The masks' space (``int8`` as PettingZoo's; RLlib's module wants ``float32``)."""
        return spaces.Box(0, 1, shape=(self.actions,), dtype=dtype)

    def observe(self, view: View, seat: int) -> np.ndarray:
        """The observation of ``view`` from ``seat``, counts or scaled."""
        observation = self._encode(view, seat)
        return scale(observation) if self._scaled else observation


def drawn(
    render_mode: str | None, view: View, names: Sequence[str], last: str | None
) -> str | np.ndarray | None:
    """What ``render()`` gives in ``render_mode`` (``human`` prints the table)."""
    if render_mode == "rgb_array":
        return picture(view)
    if render_mode == "ansi":
        return table_text(view, names, last=last)
    if render_mode == "human":
        show(table_text(view, names, painted=paints(), last=last))
    return None


__all__ = ["RENDER_MODES", "Spaces", "check_players", "check_render_mode", "drawn"]
