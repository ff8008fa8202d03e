"""What the commands that play read before either front end opens: an online table's
address and opening; what ``mantis play`` is given (its seats are read by the command
line, ``cli/play.py``).

Both front ends check their command line with these (the same rules, the
same one-line errors), so a bad value ends the command with one line on
standard error and status 2 before anything is shown.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..base.printable import echo

# Online play (websockets, the protocol) is imported when an online command runs:
# ``mantis play`` reads its seats here before its first frame.
if TYPE_CHECKING:
    import argparse

    from ..home.seat_tokens import SeatTokens
    from ..net import protocol
    from ..net.client import TableConnection

USAGE_ERROR = 2
"""The exit status of a command given values it cannot use."""


class PlayOptions(Protocol):
    """What ``mantis play`` is given (parsed, or plain ``mantis``'s)."""

    seats: str | None
    names: str | None
    seed: int | None
    speed: str | None
    bot_timeout: float | None
    resume: bool


def usage_error(problem: object) -> int:
    """Say a bad command-line value in one line on standard error (through the printable
    filter: its outside parts may hold line breaks and escapes); the exit status."""
    echo(f"mantis: error: {problem}", file=sys.stderr, lines=False)
    return USAGE_ERROR


@dataclass(frozen=True, slots=True)
class OnlineStart:
    """An online command's table, as its values name it: the server, what to ask it for,
    and this computer's seat tokens."""

    url: str
    opening: protocol.Hello
    tokens: SeatTokens

    async def reach(self) -> TableConnection | None:
        """The seat (or place) taken at the table; None, with one line on standard error,
        if the server cannot be reached or says no."""
        from ..net.client.launch_options import reach_table

        return await reach_table(self.url, self.opening, self.tokens)


def online_start(args: argparse.Namespace) -> OnlineStart:
    """The table ``host``, ``join``, ``watch`` or ``quick`` names; ``LaunchError`` (or
    ``ValueError``) with one line if its values make none."""
    from ..net.client.launch_options import read_opening

    url, opening, tokens = read_opening(args)
    return OnlineStart(url, opening, tokens)


__all__ = [
    "OnlineStart",
    "PlayOptions",
    "online_start",
    "usage_error",
]
