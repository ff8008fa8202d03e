"""Where the command line comes into the line mode: ``play``, ``host``/``join``/``watch``/
``quick``, ``replay``, ``review`` and ``stats`` with ``--lines``.

Each checks its values as the app's launch does (the same functions,
``follow.launch``; ``play``'s seats are read by the command line,
``cli/play.py``), so a bad value ends the command with one line and
status 2, then plays in lines.  Ctrl+C ends a game as ``q`` does, saying
so.  Nothing here loads Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from ..follow.launch import online_start, usage_error
from ..follow.preferences import Preferences
from .console import Console

if TYPE_CHECKING:
    from ..engine.seats import SeatInfo
    from ..follow.launch import PlayOptions

#: The exit status of a program stopped by Ctrl+C (as a shell reports SIGINT).
INTERRUPTED = 130

_T = TypeVar("_T")


def run_until_interrupted(main: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(main)``, ending with ``KeyboardInterrupt`` on Ctrl+C whichever thread
    the signal reaches.

    ``asyncio.run`` hears Ctrl+C only once the main thread runs Python again.  The
    kernel may hand the signal to another thread (the one reading typed lines), and
    then a main thread asleep in its event loop, with nothing due, slept on: the
    program hung with ``^C`` on the screen.  The loop's own handler wakes it from
    whichever thread the signal reached.
    """

    async def guarded() -> _T:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        interrupted = False

        def interrupt() -> None:
            nonlocal interrupted
            interrupted = True
            task.cancel()

        loop.add_signal_handler(signal.SIGINT, interrupt)
        try:
            return await main
        except asyncio.CancelledError:
            if interrupted:
                raise KeyboardInterrupt from None
            raise
        finally:
            loop.remove_signal_handler(signal.SIGINT)

    return asyncio.run(guarded())


def _console(
    *, speed: str | None = None, bot_timeout: float | None = None
) -> tuple[Console, Preferences]:
    """This run's terminal, and its settings (``--speed``, ``--bot-timeout``); the bell
    rings as they say."""
    console = Console(bell=lambda: prefs.settings.bell)
    prefs = Preferences.load(speed=speed, bot_timeout=bot_timeout, warn=console.say)
    return console, prefs


def run_play(args: PlayOptions, seats: tuple[SeatInfo, ...] | None) -> int:
    """``mantis play --lines``: a new table of ``seats`` (read by the command line:
    ``cli/play.py``), or a saved game; the exit status."""
    from .local import LocalGames, Start

    console, prefs = _console(
        speed=getattr(args, "speed", None), bot_timeout=getattr(args, "bot_timeout", None)
    )
    if seats is not None:
        prefs.change(last_seats=seats)
    start = Start(seats, args.seed, resume=bool(args.resume))
    games = LocalGames(console, prefs)
    try:
        return run_until_interrupted(games.run(start))
    except KeyboardInterrupt:
        console.settle()
        console.say(games.farewell())
        return INTERRUPTED
    finally:
        console.end()


def run_online(args: argparse.Namespace) -> int:
    """``mantis host``, ``join``, ``watch`` or ``quick`` with ``--lines``; the exit status."""
    try:
        start = online_start(args)
    except ValueError as exc:  # a LaunchError too
        return usage_error(exc)
    console, prefs = _console()
    seat_kept = [False]

    async def play() -> int:
        from ..net.client.launch_options import FAILED
        from .games_in_progress import say_games_in_progress
        from .online import OnlineGames

        console.say(f"Connecting to {start.url}.")
        connection = await start.reach()
        if connection is None:
            return FAILED
        await say_games_in_progress(console, start.url, but=connection.code)
        games = OnlineGames(console, prefs, connection)
        seat_kept[0] = True
        return await games.run()

    try:
        return run_until_interrupted(play())
    except KeyboardInterrupt:
        console.settle()
        if seat_kept[0]:
            console.say("Stopped: joining again takes your place back.")
        return INTERRUPTED
    finally:
        console.end()


def run_replay(args: argparse.Namespace) -> int:
    """``mantis replay FILE --lines``: every move of the game said once, in order; all of it
    at once when nobody can answer (input or output is not a terminal)."""
    from ..home.record_file import RecordFileError, game_for_command
    from ..table.outside_records import clean_record
    from .replay import Replay

    try:
        record = clean_record(game_for_command(args.file, args.game))
    except RecordFileError as exc:
        return usage_error(exc)
    console, prefs = _console()
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    speed = getattr(args, "speed", None)
    try:
        said = Replay(console, prefs, record, interactive=interactive, speed=speed)
        return run_until_interrupted(said.run())
    except KeyboardInterrupt:
        console.settle()
        console.say("Replay stopped.")
        return INTERRUPTED
    finally:
        console.end()


def run_stats(args: argparse.Namespace) -> int:
    """``mantis stats --lines``: each person's figures in sentences."""
    from .stats import run_stats as say_stats

    return say_stats(args)


def run_review(args: argparse.Namespace) -> int:
    """``mantis review FILE --lines``: the review's summary, in sentences."""
    from ..review.command import run_review as review_command
    from .review import review_text

    return review_command(args, text=review_text, progress=False)
