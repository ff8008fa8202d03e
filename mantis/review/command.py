"""``mantis review FILE [--game N] [--seat S] [--json]``: review the games of a record file,
or one of this app's past games (``--past N``, by its number in Past games, or ``--last``).

Every game named is read and checked before the first is reviewed, so a bad
file, a bad ``--game``, ``--past`` or ``--seat`` ends the command with one
line and status 2 before anything is printed.  A long file shows a progress
bar on a terminal, like ``mantis simulate``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import TextIO

from ..base.printable import echo
from ..engine import GameRecord, RecordError
from ..home.past_games import PastGameError, past_records
from ..home.record_file import RecordFileError, game_for_command, read_records
from ..home.stats import StatsError
from ..sim.progress import progress_bar
from ..table.outside_records import clean_record
from .game_review import GameReview, review_game
from .report import format_review, review_json

USAGE_ERROR = 2
FAILED = 1


class ReviewUsageError(Exception):
    """A file, ``--game`` or ``--seat`` that cannot be reviewed: one line for the user."""


def _named(args: argparse.Namespace) -> list[tuple[str, int, GameRecord]]:
    """``(heading, number, record)`` of every game the command line names, its names and
    talk cleaned (a file's, or a past game an older Mantis kept as a server sent it)."""
    return [(heading, n, clean_record(record)) for heading, n, record in _games_named(args)]


def _games_named(args: argparse.Namespace) -> list[tuple[str, int, GameRecord]]:
    past = args.past is not None or args.last
    if args.past is not None and args.last:
        raise ReviewUsageError("name one past game: --past N or --last, not both")
    if past and args.file is not None:
        raise ReviewUsageError("name a FILE or a past game (--past N, --last), not both")
    if past and args.game is not None:
        raise ReviewUsageError("--game N picks a game of a FILE: name a past game with --past N")
    if not past:
        if args.file is None:
            raise ReviewUsageError("name a FILE of game records, or a past game: --past N, --last")
        return [(f"Game {n}", n, record) for n, record in _games(args.file, args.game)]
    try:
        games = past_records([args.past] if args.past is not None else [], last=1)
    except PastGameError as exc:
        raise ReviewUsageError(str(exc)) from None
    return [(f"Past game {n}", n, record) for n, record in games]


def _games(path: str, number: int | None) -> list[tuple[int, GameRecord]]:
    """``(number, record)`` of game ``number`` of the file, or of every game."""
    if not os.path.exists(path):
        raise ReviewUsageError(f"no such file: {path}")
    if os.path.isdir(path):
        raise ReviewUsageError(f"{path} is a directory, not a file of game records")
    if number is not None:
        try:
            return [(number, game_for_command(path, number))]
        except RecordFileError as exc:  # worded as for replay: the same file, the same game
            raise ReviewUsageError(str(exc)) from None
    try:
        records = read_records(path)
    except RecordError as exc:
        raise ReviewUsageError(f"{path}: {exc}") from None
    if not records:
        raise ReviewUsageError(f"{path} holds no games")
    return list(enumerate(records, start=1))


def seat_of(record: GameRecord, spec: str) -> int:
    """The seat ``spec`` names in ``record``: its number from 1, or its name (any case).

    ``ValueError`` with a one-line reason if there is no such seat.
    """
    text = spec.strip()
    if text.isdigit():
        seat = int(text) - 1
        if not 0 <= seat < record.players:
            raise ValueError(f"there is no seat {text}: seats are 1 to {record.players}")
        return seat
    names = [s.name.casefold() for s in record.seats] if record.seats is not None else []
    if text.casefold() in names:
        return names.index(text.casefold())
    known = ", ".join(s.name for s in record.seats) if record.seats else "none"
    raise ValueError(f"no seat is named {text!r} (seats 1 to {record.players}; names: {known})")


def run_review(
    args: argparse.Namespace,
    out: TextIO | None = None,
    *,
    text: Callable[[GameReview, str, Sequence[int]], str] = format_review,
    progress: bool = True,
) -> int:
    """The ``mantis review`` command; returns the exit status.

    ``text`` writes one game's review for a person, from the review, the game's heading
    ("Game 3", "Past game 12") and the seats asked for (the line mode has its own);
    ``progress=False`` draws no progress bar (which redraws its line) on a terminal.
    """
    out = out if out is not None else sys.stdout
    try:
        plan: list[tuple[str, int, GameRecord, list[int]]] = []
        for heading, number, record in _named(args):
            if record.result is None:
                raise ReviewUsageError(f"{heading.lower()} is not finished: nothing to review yet")
            if args.seat is None:
                seats = list(range(record.players))
            else:
                try:
                    seats = [seat_of(record, args.seat)]
                except ValueError as exc:
                    raise ReviewUsageError(
                        f"--seat {args.seat}: {heading.lower()}: {exc}"
                    ) from None
            plan.append((heading, number, record, seats))
    except (ReviewUsageError, StatsError) as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR if isinstance(exc, ReviewUsageError) else FAILED
    bar = progress_bar(len(plan), "reviewing") if progress else nullcontext(_no_progress)
    with bar as advance:
        for i, (heading, number, record, seats) in enumerate(plan):
            review = review_game(record)
            if args.json:
                echo(json.dumps(review_json(review, number, seats)), file=out)
            else:
                if i:
                    echo(file=out)
                echo(text(review, heading, seats), file=out)
            advance(1)
    return 0


def _no_progress(done: int) -> None:
    """Progress nobody is shown."""


__all__ = ["run_review", "seat_of"]
