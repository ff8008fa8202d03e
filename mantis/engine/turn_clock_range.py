"""How long a turn clock may be: 5 to 3600 seconds a move.

The one home of the range: the protocol's ``create``, the command line's
``--clock`` and the saved settings all ask here (the engine is the one layer
all three may import).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

MIN_CLOCK = 5
MAX_CLOCK = 3600
CLOCK_RANGE = f"{MIN_CLOCK} to {MAX_CLOCK}"
"""The range in words, for messages: "5 to 3600"."""
CLOCK_RULE = f"must be {CLOCK_RANGE}"
"""What a turn clock out of range is told, wherever it was typed or sent."""

Seconds = Annotated[int, msgspec.Meta(ge=MIN_CLOCK, le=MAX_CLOCK)]
"""A turn clock in a message: seconds a person has for each move (decoding checks the range)."""


def valid_clock(seconds: int) -> bool:
    """Whether a turn clock of ``seconds`` may be set."""
    return MIN_CLOCK <= seconds <= MAX_CLOCK
