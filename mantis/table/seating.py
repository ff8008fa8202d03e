"""Who sits at the table: seat specs, default names and the players behind them.

A seat is described by the engine's ``SeatInfo`` (name, ``"human"`` or
``"bot"``, bot spec), the same shape game records use, so a table's setup can
be remembered and recorded as it is.  Seats written as text (``human, greedy``)
are read here by the table's rules; the options that carry them (``--seats``,
``--names``) are the command line's (``cli/play.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.seats import SeatInfo, SeatKind
from ..players import HumanPlayer, Player, PlayerSpecError, bot_factory
from ..players.seat_specs import HUMAN, local_seats_problem, split_specs
from .names import MAX_NAME_LENGTH, YOU, clean_name, look_alike, looks_like_you

DEFAULT_NAMES = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")


class SeatingError(ValueError):
    """Seats that cannot make a table; the message is one line for the user.

    ``seat`` (from 0) is the seat at fault, when one is.
    """

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(" ".join(message.split()))  # one line, whatever the cause said
        self.seat = seat


def default_names(kinds: Sequence[str]) -> list[str]:
    """Distinct names for seats of ``kinds``: "You" for a lone human, then Ann, Bea…

    With several humans (hot-seat) nobody is "You": each gets a name, so the
    banner never says "your turn" to the wrong person.
    """
    names: list[str] = []
    spare = iter(DEFAULT_NAMES)
    lone_human = list(kinds).count(HUMAN) == 1
    for kind in kinds:
        if kind == HUMAN and lone_human:
            names.append(YOU)
        else:
            names.append(next(spare))
    return names


def seats_of(specs: Sequence[str]) -> tuple[SeatInfo, ...]:
    """Seats for ``specs`` (``human``, or a bot: built-in or a plug-in), under the default
    names; ``SeatingError`` (one line) if they make no table here."""
    problem = local_seats_problem(specs)
    if problem is not None:
        raise SeatingError(problem)
    kinds: list[SeatKind] = [HUMAN if spec == HUMAN else "bot" for spec in specs]
    # Distinct and plain by construction: checking them would read the look-alike data
    # before the table's first frame, for nothing.
    names = default_names(kinds)
    return tuple(
        SeatInfo(name, kind, None if kind == HUMAN else spec)
        for name, kind, spec in zip(names, kinds, specs, strict=True)
    )


def seats_from_text(text: str) -> tuple[SeatInfo, ...]:
    """Seats written as text with a comma between them (``human, greedy, expert``), under
    the default names; ``SeatingError`` (one line) when they make no table."""
    try:
        specs = split_specs(text)
    except ValueError as exc:
        raise SeatingError(str(exc)) from None
    return seats_of(specs)


def named(seats: Sequence[SeatInfo], names: Sequence[str]) -> tuple[SeatInfo, ...]:
    """``seats`` under ``names``, one a seat; ``SeatingError`` unless there is one name a
    seat and the names keep the rules (``check_names``)."""
    if len(names) != len(seats):
        raise SeatingError(f"{len(names)} names for {len(seats)} seats")
    check_names(names)
    return tuple(
        SeatInfo(name, seat.kind, seat.bot) for seat, name in zip(seats, names, strict=True)
    )


def check_names(names: Sequence[str]) -> None:
    """``SeatingError`` unless every name is non-empty, short and looks like no other."""
    for name in names:
        if not name:
            raise SeatingError("every seat needs a name")
        if len(name) > MAX_NAME_LENGTH:
            raise SeatingError(f"name {name!r} is longer than {MAX_NAME_LENGTH} characters")
        if clean_name(name) != name:
            raise SeatingError(f"name {name!r} may hold only letters, digits, spaces and - _ . '")
        if name != YOU and looks_like_you(name):
            raise SeatingError(f"name {name!r} looks like 'You', how the table says your seat")
    for i, name in enumerate(names):
        for other in names[i + 1 :]:
            if name.casefold() == other.casefold():
                raise SeatingError(f"two seats are called {name!r}: names must differ")
            if look_alike(name, other):
                raise SeatingError(f"{name!r} and {other!r} look alike: names must look different")


def make_player(seat: SeatInfo) -> Player:
    """A fresh player for a seat: a ``HumanPlayer`` or the seat's bot."""
    if seat.kind == HUMAN:
        return HumanPlayer()
    if seat.bot is None:
        raise SeatingError(f"{seat.name} is a bot seat without a bot")
    try:
        return bot_factory(seat.bot)()
    except PlayerSpecError as exc:
        raise SeatingError(str(exc)) from None


def make_players(seats: Sequence[SeatInfo]) -> list[Player]:
    """A fresh player per seat; ``SeatingError`` names the seat whose bot cannot be made."""
    players = []
    for index, seat in enumerate(seats):
        try:
            players.append(make_player(seat))
        except SeatingError as exc:
            raise SeatingError(f"Seat {index + 1} ({seat.name}): {exc}", seat=index) from None
    return players


def describe(seat: SeatInfo) -> str:
    """What sits in a seat, in a word: "human" or the bot's name."""
    return HUMAN if seat.kind == HUMAN else str(seat.bot)
