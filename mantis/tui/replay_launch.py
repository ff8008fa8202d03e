"""``mantis replay FILE [--game N]``: find game N in the record file, then open the replay screen.

The file is read up to game N only (``store.record_file.game_in_file``), so
a long file opens at once, and a bad line is reported only if it is game N.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..engine import RecordError
from ..store.printable import printable
from ..store.record_file import GameNotInFile, game_in_file

USAGE_ERROR = 2


def run_replay(args: argparse.Namespace) -> int:
    """Replay game ``args.game`` of ``args.file``; 2 with one line on stderr if it cannot."""
    path = args.file
    if not os.path.exists(path):
        print(f"mantis: error: no such file: {path}", file=sys.stderr)
        return USAGE_ERROR
    try:
        record = game_in_file(path, args.game)
    except RecordError as exc:
        print(f"mantis: error: {printable(path)}: {printable(exc)}", file=sys.stderr)
        return USAGE_ERROR
    except GameNotInFile as exc:
        if exc.count == 0:
            print(f"mantis: error: {path} holds no games", file=sys.stderr)
        else:
            count = f"{exc.count} game{'' if exc.count == 1 else 's'}"
            print(
                f"mantis: error: --game {args.game} is out of range: {path} holds {count}",
                file=sys.stderr,
            )
        return USAGE_ERROR
    # Textual loads only once the game is good
    from . import first_screens
    from .app import MantisApp

    app = MantisApp(first_screens.Replay(record, f"{os.path.basename(path)} game {args.game}"))
    app.run()
    return app.return_code or 0
