"""``mantis play`` (and plain ``mantis``): the seats its options ask for (``--seats``,
``--names``), read before either front end opens.

A bad value is a ``UsageError`` naming the option at fault: one line on
standard error and status 2, before anything is shown.  What makes seats a
table is the table's own rule (``table.seating``, which the line mode's new
table reads too); only the options' names and how they go together are
this module's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..players.seat_specs import split_specs
from ..table.seating import SeatingError, named, seats_of
from . import UsageError

if TYPE_CHECKING:
    from ..engine.seats import SeatInfo


def seats_asked(
    seats: str | None, names: str | None, *, seed: int | None = None, resume: bool = False
) -> tuple[SeatInfo, ...] | None:
    """The seats ``--seats`` and ``--names`` ask for (None: none given); ``UsageError``,
    naming the option at fault, for values that make no table or that do not go together
    (``--resume`` with ``--seats`` or ``--seed``)."""
    chosen = None
    if seats is not None:
        try:
            specs = split_specs(seats)
        except ValueError as exc:
            raise UsageError(f"--seats has {exc}") from None
        try:
            chosen = seats_of(specs)
        except SeatingError as exc:
            raise UsageError(f"--seats: {exc}") from None
        if names is not None:
            given = [name.strip() for name in names.split(",")]
            if len(given) != len(chosen):
                raise UsageError(f"--names gives {len(given)} names for {len(chosen)} seats")
            try:
                chosen = named(chosen, given)
            except SeatingError as exc:
                raise UsageError(str(exc)) from None
    elif names is not None:
        raise UsageError("--names needs --seats (one name per seat)")
    if resume and (seats is not None or seed is not None):
        raise UsageError("--resume continues the saved game: it takes no --seats or --seed")
    return chosen
