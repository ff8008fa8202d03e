"""``mantis host``, ``join``, ``watch`` and ``quick``: reach the table, then open the app.

The table is reached before the app starts, so a server that cannot be
reached, an unknown code or a full table end the command with one line and
status 1; bad values end it with status 2.  The connection then goes on in
the app (the same event loop), which reconnects by itself if it drops.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys

from ..net import protocol
from ..net.client import OnlineError, check_url, take_seat
from ..net.codes import read_code
from ..players.seat_specs import online_seats_problem, split_specs
from ..store.printable import printable
from ..store.seat_tokens import SeatTokens
from ..table.names import NameRefused, clean_name, looks_like_you, name_to_sit_with

USAGE_ERROR = 2
FAILED = 1


class LaunchError(ValueError):
    """A bad command-line value (one line)."""


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


def run_online(args: argparse.Namespace) -> int:
    """Run ``host``, ``join``, ``watch`` or ``quick``; the exit status."""
    try:
        url = check_url(args.url)
        tokens = SeatTokens()
        opening: protocol.Opening
        if args.command == "host":
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
            opening = protocol.Quick(
                protocol.PROTOCOL_VERSION, online_name(args.name), args.players
            )
        elif args.command == "join":
            code = table_code(args.code)
            name = online_name(args.name) if args.name is not None else None
            token = tokens.token(url, code)
            if name is None:
                name = tokens.name(url, code) or default_name()
            opening = protocol.Join(protocol.PROTOCOL_VERSION, code, name, token)
        else:
            opening = protocol.Watch(protocol.PROTOCOL_VERSION, table_code(args.code))
    except (LaunchError, ValueError) as exc:
        print(f"mantis: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    return asyncio.run(_play(url, opening, tokens))


async def _play(url: str, opening: protocol.Opening, tokens: SeatTokens) -> int:
    try:
        online = await take_seat(url, opening, tokens)
    except OnlineError as exc:
        # The server's words: no escape sequence reaches the terminal.
        print(f"mantis: {printable(exc)}", file=sys.stderr)
        return FAILED
    # Textual loads only once the table is reached
    from . import first_screens
    from .app import MantisApp

    app = MantisApp(first_screens.Online(online))
    try:
        await app.run_async()
    finally:
        await online.close()
    return app.return_code or 0
