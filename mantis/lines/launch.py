"""Where the command line comes into the line mode: ``play``, ``host``/``join``/``watch``/
``quick``, ``replay``, ``review`` and ``stats`` with ``--lines``.

Each checks its values as the app's launch does (the same functions), so a
bad value ends the command with one line and status 2, then plays in lines.
Nothing here loads Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..printable import echo
from .console import Console
from .preferences import LinePreferences

USAGE_ERROR = 2


def run_play(args: argparse.Namespace) -> int:
    """``mantis play --lines``: a new table, or a saved game; the exit status."""
    from ..table.seating import SeatingError, play_seats
    from .local import LocalGames, Start

    try:
        seats = play_seats(args)
    except SeatingError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR
    console = Console()
    prefs = LinePreferences.load(
        speed=getattr(args, "speed", None),
        bot_timeout=getattr(args, "bot_timeout", None),
        warn=console.say,
    )
    if seats is not None:
        prefs.change(last_seats=seats)
    start = Start(seats, args.seed, resume=bool(args.resume))
    return asyncio.run(LocalGames(console, prefs).run(start))


def run_online(args: argparse.Namespace) -> int:
    """``mantis host``, ``join``, ``watch`` or ``quick`` with ``--lines``; the exit status."""
    from ..net.client.launch_options import FAILED, LaunchError, reach_table, read_opening

    try:
        url, opening, tokens = read_opening(args)
    except (LaunchError, ValueError) as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR

    async def play() -> int:
        from .online import OnlineTable

        console = Console()
        console.say(f"Connecting to {url}.")
        connection = await reach_table(url, opening, tokens)
        if connection is None:
            return FAILED
        prefs = LinePreferences.load(warn=console.say)
        try:
            return await OnlineTable(console, prefs, connection).run()
        finally:
            await connection.close()

    return asyncio.run(play())


def run_replay(args: argparse.Namespace) -> int:
    """``mantis replay FILE --lines``: every move of the game said once, in order."""
    from ..store.record_file import RecordFileError, game_for_command
    from ..table.outside_records import clean_record
    from .replay import replay

    try:
        record = clean_record(game_for_command(args.file, args.game))
    except RecordFileError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR
    console = Console()
    prefs = LinePreferences.load(warn=console.say)
    return asyncio.run(replay(console, prefs, record))


def run_stats(args: argparse.Namespace) -> int:
    """``mantis stats --lines``: each person's figures in sentences."""
    from .stats import run_stats as say_stats

    return say_stats(args)


def run_review(args: argparse.Namespace) -> int:
    """``mantis review FILE --lines``: the review's summary, in sentences."""
    from ..review.command import run_review as review_command
    from .review import review_text

    return review_command(args, text=review_text, progress=False)
