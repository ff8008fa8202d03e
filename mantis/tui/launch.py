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
        if args.resume and (args.seats is not None or args.seed is not None):
            raise SeatingError("--resume continues the saved game: it takes no --seats or --seed")
    except SeatingError as exc:
        print(f"mantis: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    from .app import RESUME_NOW, RESUME_OFFER, MantisApp  # Textual loads only now

    # Only a plain launch looks for an unfinished game: explicit seats mean a new one.
    resume = None
    if seats is None and args.seed is None:
        resume = RESUME_NOW if args.resume else RESUME_OFFER
    app = MantisApp(
        seats=seats,
        seed=args.seed,
        speed=args.speed,
        bot_timeout=args.bot_timeout,
        resume=resume,
    )
    app.run()
    return app.return_code or 0
