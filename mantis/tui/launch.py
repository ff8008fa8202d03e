"""``mantis play``: check the command line, open the app, return the exit status."""

from __future__ import annotations

import argparse
import sys

from .seating import SeatingError, parse_seats

USAGE_ERROR = 2


def run_play(args: argparse.Namespace) -> int:
    """Run the app for parsed ``play`` arguments; 2 with one line on stderr for bad values."""
    seats = None
    try:
        if args.seats is not None:
            seats = parse_seats(args.seats, args.names)
        elif args.names is not None:
            raise SeatingError("--names needs --seats (one name per seat)")
    except SeatingError as exc:
        print(f"mantis: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    from .app import MantisApp  # Textual loads only once the arguments are good

    app = MantisApp(seats=seats, seed=args.seed, speed=args.speed, bot_timeout=args.bot_timeout)
    app.run()
    return app.return_code or 0
