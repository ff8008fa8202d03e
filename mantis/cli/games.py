"""``mantis games export [N ...] [--last K] [--output FILE]``: past games written out as
a record file, or to standard output (which games: ``home.past_games``)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..base.printable import echo
from ..home.past_games import PastGameError, past_records
from ..home.record_file import records_text, write_records
from ..home.stats import StatsError

USAGE_ERROR = 2
FAILED = 1


def run_games(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``mantis games export [N ...] [--last K] [--output FILE]``; returns the exit status."""
    out = out if out is not None else sys.stdout
    if args.numbers and args.last is not None:
        echo("mantis: error: name games by their numbers or with --last, not both", file=sys.stderr)
        return USAGE_ERROR
    try:
        games = past_records(args.numbers, last=args.last)
    except (PastGameError, StatsError) as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR if isinstance(exc, PastGameError) else FAILED
    records = [record for _, record in games]
    if args.output is None:
        echo(records_text(records), file=out, end="")  # (JSON: every control escaped already)
        return 0
    try:
        write_records(args.output, records)
    except OSError as exc:
        echo(
            f"mantis: error: cannot write {args.output}: {exc.strerror or exc}",
            file=sys.stderr,
            lines=False,
        )
        return FAILED
    count = len(games)
    echo(f"{count} game{'' if count == 1 else 's'} written to {args.output}", file=out)
    return 0
