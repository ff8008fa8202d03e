"""How many seats a table has: Mantis is played by 2 to 6.

The one home of the rule: the deal, records, the simulator, the command
line, the setup screen, the lobby and the server all ask here.
"""

from __future__ import annotations

MIN_SEATS = 2
MAX_SEATS = 6
SEAT_COUNTS = range(MIN_SEATS, MAX_SEATS + 1)
"""Every table size, smallest first."""
SEAT_RANGE = f"{MIN_SEATS} to {MAX_SEATS}"
"""The rule in words, for messages: "2 to 6"."""


def valid_seat_count(count: int) -> bool:
    """Whether a table of ``count`` seats can be played."""
    return MIN_SEATS <= count <= MAX_SEATS
