"""``mantis replay FILE [--game N]``: find game N in the record file, then open the replay screen.

The file is read up to game N only (``home.record_file.game_for_command``), so
a long file opens at once, and a bad line is reported only if it is game N.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..base.printable import echo
from ..home.record_file import RecordFileError, game_for_command
from ..table.outside_records import clean_record

USAGE_ERROR = 2


def run_replay(args: argparse.Namespace) -> int:
    """Replay game ``args.game`` of ``args.file``; 2 with one line on stderr if it cannot."""
    path = args.file
    try:
        record = clean_record(game_for_command(path, args.game))
    except RecordFileError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR
    # Textual loads only once the game is good
    from . import first_screens
    from .app import MantisApp

    app = MantisApp(first_screens.Replay(record, f"{os.path.basename(path)} game {args.game}"))
    app.run()
    return app.return_code or 0
