"""``mantis host``, ``join``, ``watch`` and ``quick``: their values checked, and the table reached.

Every front end (the full-screen app, the line mode) reaches the table
before it starts, so a server that cannot be reached, an unknown code or a
full table end the command with one line and status 1 (``reach_table``);
bad values end it with status 2 (``read_opening`` raises ``LaunchError``).
"""

from __future__ import annotations

import argparse
import getpass
import sys

from ...base.printable import echo
from ...home.seat_tokens import SeatTokens
from ...players.seat_specs import online_seats_problem, split_specs
from ...table.names import NameRefused, clean_name, looks_like_you, name_to_sit_with
from .. import protocol
from ..protocol.codes import read_code
from . import OnlineError, TableConnection, check_url, take_seat

USAGE_ERROR = 2
FAILED = 1


class LaunchError(ValueError):
    """A bad command-line value (one line)."""


IN_PROGRESS = protocol.Join(protocol.PROTOCOL_VERSION, "?")
"""``join`` without a code: the newest game in progress on the server (``reach_table``)."""


async def _newest_in_progress(url: str, tokens: SeatTokens) -> protocol.Join:
    """The ``join`` that takes back this computer's newest game in progress at ``url``."""
    from .games_in_progress import games_in_progress

    found = await games_in_progress(url, tokens=tokens)
    here = [game for game in found if game.token is not None]
    if not here:
        elsewhere = f" ({len(found)} taken on another computer)" if found else ""
        raise OnlineError(
            "no_game", f"you have no game in progress on {url}{elsewhere}: give a table's code"
        )
    game = here[0]
    name = tokens.name(url, game.table.code) or ""
    return protocol.Join(protocol.PROTOCOL_VERSION, game.table.code, name, game.token)


def default_name() -> str:
    """A name for a person who gives none: their login name, tidied ("Player" if none)."""
    try:
        login = getpass.getuser()
    except Exception:  # no login name in this environment
        login = ""
    name = clean_name(login).capitalize()
    return name if name and not looks_like_you(name) else "Player"


def online_name(text: str | None) -> str:
    """The name to sit down with; ``LaunchError`` if none is left once tidied."""
    if text is None:
        return default_name()
    try:
        return name_to_sit_with(text)
    except NameRefused as exc:
        raise LaunchError(f"--name: {exc}") from None


def host_seats(text: str) -> tuple[str, ...]:
    """``--seats`` for ``mantis host``; ``LaunchError`` unless it makes a table."""
    try:
        specs = tuple(spec.lower() for spec in split_specs(text))
    except ValueError as exc:
        raise LaunchError(f"--seats has {exc}") from None
    problem = online_seats_problem(specs)
    if problem is not None:
        raise LaunchError(f"--seats: {problem}")
    return specs


def table_code(text: str) -> str:
    code = read_code(text)
    if code is None:
        raise LaunchError(
            f"{text!r} is not a table code (four letters like KXQD; twelve for a private table)"
        )
    return code


def read_opening(args: argparse.Namespace) -> tuple[str, protocol.Hello, SeatTokens]:
    """The server's address, what to ask it for, and this computer's seat tokens, from
    ``host``'s, ``join``'s, ``watch``'s or ``quick``'s values; ``LaunchError`` (or
    ``ValueError``) with one line if they make none."""
    url = check_url(args.url)
    tokens = SeatTokens()
    opening: protocol.Hello
    if args.command == "host":
        if args.rated and (args.clock is None or args.clock > protocol.RATED_CLOCK_MOST):
            raise LaunchError(
                "a rated table needs a turn clock of at most "
                f"{protocol.RATED_CLOCK_MOST} s: add --clock SECONDS"
            )
        opening = protocol.Create(
            protocol.PROTOCOL_VERSION,
            online_name(args.name),
            host_seats(args.seats),
            private=args.private,
            away_bot=args.away_bot,
            clock=args.clock,
            talk=not args.no_talk,
            rated=args.rated,
        )
    elif args.command == "quick":
        opening = protocol.Quick(protocol.PROTOCOL_VERSION, online_name(args.name), args.players)
    elif args.command == "join" and args.code is None:
        opening = IN_PROGRESS  # (found at the server: ``reach_table``)
    elif args.command == "join":
        code = table_code(args.code)
        name = online_name(args.name) if args.name is not None else None
        token = tokens.token(url, code)
        if name is None:
            name = tokens.name(url, code) or default_name()
        opening = protocol.Join(protocol.PROTOCOL_VERSION, code, name, token)
    else:
        name = online_name(args.name)  # (the one spectators talk under)
        opening = protocol.Watch(protocol.PROTOCOL_VERSION, table_code(args.code), name)
    return url, opening, tokens


async def reach_table(
    url: str, opening: protocol.Hello, tokens: SeatTokens
) -> TableConnection | None:
    """The seat (or place) taken at the table; None, with one line on stderr, if the server
    cannot be reached or says no.  ``IN_PROGRESS`` takes back the newest game in
    progress on the server whose seat this computer took (``games_in_progress``)."""
    try:
        if opening is IN_PROGRESS:
            opening = await _newest_in_progress(url, tokens)
        return await take_seat(url, opening, tokens)
    except OnlineError as exc:
        # The server's words: no escape sequence reaches the terminal.
        echo(f"mantis: {exc}", file=sys.stderr, lines=False)
        return None
