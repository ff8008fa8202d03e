"""``mantis play``: check the command line, open the app, return the exit status."""

from __future__ import annotations

import gc

from ..follow.launch import PlayOptions, SeatingError, play_seats, usage_error


def run_play(args: PlayOptions) -> int:
    """Run the app for parsed ``play`` arguments; 2 with one line on stderr for bad values."""
    try:
        seats = play_seats(args)
    except SeatingError as exc:
        return usage_error(exc)
    # Nothing made from here to the first frame is garbage, yet collecting cycles while
    # Textual loads and the first screen is built is a good part of the wait: the app
    # turns the collector back on once that screen is drawn (MantisApp.on_mount).
    gc.disable()
    try:
        # Textual loads only now
        from . import first_screens
        from .app import FirstScreen, MantisApp

        first: FirstScreen
        if seats is not None:
            first = first_screens.NewTable(seats, args.seed)
        else:
            # Only a plain launch looks for an unfinished game: a seed means a new one.
            resume = None
            if args.seed is None:
                resume = first_screens.Resume.NOW if args.resume else first_screens.Resume.OFFER
            first = first_screens.Setup(args.seed, resume=resume)
        app = MantisApp(first, speed=args.speed, bot_timeout=args.bot_timeout)
        app.run()
    finally:
        gc.enable()  # if the app ended before its first frame
    return app.return_code or 0
