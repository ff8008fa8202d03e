"""``mantis key``: export, import and list this app's player keys; let one introduce itself
again to a server that lost its players (``reintroduce``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..base.printable import echo
from ..home.player_keys import KeyFileError, PlayerKeys, server_address

USAGE_ERROR = 2
FAILED = 1


def _export(args: argparse.Namespace, keys: PlayerKeys) -> None:
    server = args.server
    if server is not None:
        server_address(server)  # (a mistyped address: said as such)
    count = keys.export(args.file, server)
    echo(f"{count} player key{'s' * (count != 1)} written to {args.file}")
    echo("Keep it safe: whoever has it can play under your names.")


def _import(args: argparse.Namespace, keys: PlayerKeys) -> None:
    count = keys.import_from(args.file, replace=args.replace)
    echo(f"{count} new player key{'s' * (count != 1)} taken in from {args.file}")


def _reintroduce(args: argparse.Namespace, keys: PlayerKeys) -> None:
    server = server_address(args.server)
    if keys.reintroduce(server):
        echo(f"Your key's verifier goes to {server} once more, when you next sit there.")
        echo("Do it only if the server lost its players: anyone who reads it can play")
        echo("under your names there (over wss://, nobody between you can read it).")
    else:
        echo(f"{server} has not been given your key yet: it is sent when you first sit.")


def _list(args: argparse.Namespace, keys: PlayerKeys) -> None:
    for server in sorted(keys.keys()):
        echo(server, lines=False)


#: Each ``mantis key`` subcommand run here, by name (``rotate`` talks to a server: the
#: client's ``key_rotation`` runs it).  A subcommand the parser has and this table lacks
#: fails the CLI's tests, rather than running another's code.
KEY_COMMANDS: dict[str, Callable[[argparse.Namespace, PlayerKeys], None]] = {
    "export": _export,
    "import": _import,
    "reintroduce": _reintroduce,
    "list": _list,
}


def run_key(args: argparse.Namespace, keys: PlayerKeys | None = None) -> int:
    """Run ``mantis key export|import|list|reintroduce``; the exit status (one line on stderr
    if it fails)."""
    keys = keys if keys is not None else PlayerKeys()
    try:
        KEY_COMMANDS[args.key_command](args, keys)
    except ValueError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR
    except KeyFileError as exc:
        echo(f"mantis: {exc}", file=sys.stderr, lines=False)
        return FAILED
    return 0
