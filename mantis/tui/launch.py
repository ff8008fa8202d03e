"""``mantis play`` in the app: open it on the seats asked for, return the exit status."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.seats import SeatInfo
    from ..follow.launch import PlayOptions


def run_play(args: PlayOptions, seats: tuple[SeatInfo, ...] | None) -> int:
    """Run the app for parsed ``play`` arguments and the seats they ask for (read by the
    command line: ``cli/play.py``); the exit status."""
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
