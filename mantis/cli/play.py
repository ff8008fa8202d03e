"""``mantis play`` (and plain ``mantis``): the seats its options ask for (``--seats``,
``--names``), read here, then the front end it plays in, the app or the line mode.

A bad value ends the command with one line on standard error and status 2
before either front end opens; what makes seats a table is the table's own
rule (``table.seating``), and only the options' names are this module's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..follow.launch import PlayOptions, usage_error
from ..players.seat_specs import split_specs
from ..table.seating import SeatingError, named, seats_of

if TYPE_CHECKING:
    from ..engine.seats import SeatInfo


def play_seats(args: PlayOptions) -> tuple[SeatInfo, ...] | None:
    """The seats ``mantis play`` asks for (None: none given); ``SeatingError``, naming the
    option at fault, for values that make no table or that do not go together."""
    seats = None
    if args.seats is not None:
        try:
            specs = split_specs(args.seats)
        except ValueError as exc:
            raise SeatingError(f"--seats has {exc}") from None
        try:
            seats = seats_of(specs)
        except SeatingError as exc:
            raise SeatingError(f"--seats: {exc}") from None
        if args.names is not None:
            names = [name.strip() for name in args.names.split(",")]
            if len(names) != len(seats):
                raise SeatingError(f"--names gives {len(names)} names for {len(seats)} seats")
            seats = named(seats, names)
    elif args.names is not None:
        raise SeatingError("--names needs --seats (one name per seat)")
    if args.resume and (args.seats is not None or args.seed is not None):
        raise SeatingError("--resume continues the saved game: it takes no --seats or --seed")
    return seats


def run_play(args: PlayOptions, *, lines: bool) -> int:
    """Play what ``args`` ask for, in lines or in the app; the exit status (2 with one line
    on standard error for values that make no table)."""
    try:
        seats = play_seats(args)
    except SeatingError as exc:
        return usage_error(exc)
    if lines:
        from ..lines.launch import run_play as play_in_lines

        return play_in_lines(args, seats)
    from ..tui.launch import run_play as play_in_app

    return play_in_app(args, seats)
