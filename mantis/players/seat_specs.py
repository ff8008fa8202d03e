"""What may sit in a seat, written as text: ``--seats``, the lobby's choices, a ``create`` message.

A table played here (``mantis play --seats``) takes ``human`` seats and any
bot: built-in or a plug-in (``package.module:Class``).  An online table
(``mantis host``, the lobby, the server) takes exactly one ``human`` (the
host), ``open`` seats for people who join, and built-in bots only: a server
never loads code a client names.  The one home of these rules: the command
line, the setup screen, the lobby and the server all ask here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..engine.seat_count import SEAT_RANGE, valid_seat_count
from .registry import BOTS, PlayerSpecError, bot_factory

HUMAN: Final = "human"
"""A person's seat (at this keyboard, or the host's own online)."""
OPEN: Final = "open"
"""An online seat for a person who joins."""


def split_specs(text: str) -> tuple[str, ...]:
    """The specs of a comma list, each trimmed; ``ValueError`` (one line) for an empty one."""
    specs = tuple(spec.strip() for spec in text.split(","))
    if any(not spec for spec in specs):
        raise ValueError(f"an empty entry in {text!r}")
    return specs


def local_seats_problem(specs: Sequence[str]) -> str | None:
    """Why these seats cannot make a table here, or None (every bot is made once to check)."""
    if not valid_seat_count(len(specs)):
        return f"a table has {SEAT_RANGE} seats, not {len(specs)}"
    for spec in specs:
        if spec != HUMAN:
            try:
                bot_factory(spec)
            except PlayerSpecError as exc:
                return str(exc)
    return None


def online_seats_problem(specs: Sequence[str], away_bot: str | None = None) -> str | None:
    """Why these seats (and this away bot) cannot make an online table, or None."""
    if not valid_seat_count(len(specs)):
        return f"a table has {SEAT_RANGE} seats, not {len(specs)}"
    if list(specs).count(HUMAN) != 1:
        return f"exactly one seat is {HUMAN!r}: yours (use {OPEN!r} for the others' seats)"
    for spec in specs:
        if spec not in (HUMAN, OPEN) and spec not in BOTS:
            return f"unknown seat {spec!r}: {HUMAN}, {OPEN} or a built-in bot ({', '.join(BOTS)})"
    if away_bot is not None and away_bot not in BOTS:
        return f"unknown away bot {away_bot!r} (bots: {', '.join(BOTS)})"
    return None
