"""How many seats a table has: Mantis is played by 2 to 6.

The one home of the rule: the deal, records, the simulator, the command
line, the setup screen, the lobby, the messages of the stream and of the
protocol, and the server all ask here.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

MIN_SEATS = 2
MAX_SEATS = 6
SEAT_COUNTS = range(MIN_SEATS, MAX_SEATS + 1)
"""Every table size, smallest first."""
SEAT_RANGE = f"{MIN_SEATS} to {MAX_SEATS}"
"""The rule in words, for messages: "2 to 6"."""

SeatCount = Annotated[int, msgspec.Meta(ge=MIN_SEATS, le=MAX_SEATS)]
"""A table size in a message: decoding checks the rule."""
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS - 1)]
"""A seat in a message, counted from 0 (whether it is at *this* table is for the rules)."""
ONE_PER_SEAT = msgspec.Meta(min_length=MIN_SEATS, max_length=MAX_SEATS)
"""A message's tuple of one entry per seat: ``Annotated[tuple[X, ...], ONE_PER_SEAT]``."""


def valid_seat_count(count: int) -> bool:
    """Whether a table of ``count`` seats can be played."""
    return MIN_SEATS <= count <= MAX_SEATS
