"""The ``mantis`` command: dispatch, nothing else; its options are read in ``parser``, and
the commands that belong to no layer below (``play``'s seats, ``key``, ``games``,
``stats``, ``migrate``) are modules of this package named for them.

Every user mistake ends with status 2 and one line on stderr, never a traceback.
Plain ``mantis`` opens the setup screen without loading argparse or building the
parser: every launch pays for what it loads before its first frame.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING

from ..base.printable import echo

if TYPE_CHECKING:
    import argparse


def _in_lines(args: object) -> bool:
    """Whether a command plays in lines: its ``--lines``/``--no-lines``, else the default
    (``MANTIS_LINES``, or the setting); commands without a line mode never do."""
    if not hasattr(args, "lines"):
        return False
    chosen = getattr(args, "lines", None)
    if chosen is not None:
        return bool(chosen)
    from ..home.settings import lines_by_default

    return lines_by_default()


class UsageError(Exception):
    """A bad command-line value: printed as one line, exit status 2."""


_TOP_LEVEL_FLAGS = ("-h", "--help", "--version")

PLAIN_PLAY = SimpleNamespace(
    command="play",
    seats=None,
    names=None,
    seed=None,
    speed=None,
    bot_timeout=None,
    resume=False,
    lines=None,
)
"""What ``mantis play`` alone parses to: what ``mantis`` runs."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mantis`` console script."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0].startswith("-") and args_list[0] not in _TOP_LEVEL_FLAGS:
        args_list.insert(0, "play")  # `mantis --seats ...` means `mantis play --seats ...`
    args: argparse.Namespace | SimpleNamespace
    try:
        if not args_list:
            # `mantis` alone opens the setup screen: no parser is built, since every
            # launch pays for that before its first frame and this one has nothing to parse.
            args, lines = PLAIN_PLAY, _in_lines(PLAIN_PLAY)
        else:
            from .parser import build_parser

            first = args_list[0]
            parser = build_parser(serving=first == "serve", play_only=first == "play")
            args = parser.parse_args(args_list)
            command = args.command or "play"
            if command == "simulate":
                from ..sim.simulate import run_simulate

                return run_simulate(args)
            if command == "tournament":
                from ..sim.tournament import run_tournament

                return run_tournament(args)
            lines = _in_lines(args)
            if lines:
                from ..lines import launch as in_lines

                if command in ("host", "join", "watch", "quick"):
                    return in_lines.run_online(args)
                if command == "replay":
                    return in_lines.run_replay(args)
                if command == "review":
                    return in_lines.run_review(args)
                if command == "stats" and not args.json:  # (JSON is JSON in either mode)
                    return in_lines.run_stats(args)
            if command in ("host", "join", "watch", "quick"):
                from ..tui.online_launch import run_online

                return run_online(args)
            if command == "serve":
                from ..net.server.serve_cli import run_serve

                return run_serve(args)
            if command == "migrate":
                from .migrate import run_migrate

                return run_migrate(args)
            if command == "web":
                from ..web.launch import run_web

                return run_web(args)
            if command == "key" and args.key_command == "rotate":
                from ..net.client.key_rotation import run_rotate

                return run_rotate(args)
            if command == "key":
                from .key import run_key

                return run_key(args)
            if command == "games":
                from .games import run_games

                return run_games(args)
            if command == "stats":
                from .stats import run_stats

                return run_stats(args)
            if command == "review":
                from ..review.command import run_review

                return run_review(args)
            if command == "replay":
                from ..tui.replay_launch import run_replay

                return run_replay(args)
            if args.command is None:
                args = parser.parse_args(["play", "--lines"] if lines else ["play"])
        # What is left plays a table here: its seats read from the options first (a bad
        # value is one line and status 2 before either front end opens).
        from .play import seats_asked

        seats = seats_asked(args.seats, args.names, seed=args.seed, resume=args.resume)
        if lines:
            from ..lines.launch import run_play as play_in_lines

            return play_in_lines(args, seats)
        from ..tui.launch import run_play

        return run_play(args, seats)
    except UsageError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 2
    except KeyboardInterrupt:
        echo("mantis: interrupted", file=sys.stderr, lines=False)
        return 130
    except BrokenPipeError:
        # Whoever read our output stopped early (`mantis simulate ... | head`): that is
        # their choice, not an error to report. Output still buffered would fail again
        # when the interpreter flushes it at exit, so stdout is pointed at nothing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # what a shell reports for a command ended by SIGPIPE
