"""``mantis replay FILE [--game N]``: check the record file, then open the replay screen."""

from __future__ import annotations

import argparse
import os
import sys

from ..engine import RecordError, read_records

USAGE_ERROR = 2


def run_replay(args: argparse.Namespace) -> int:
    """Replay game ``args.game`` of ``args.file``; 2 with one line on stderr if it cannot."""
    path = args.file
    if not os.path.exists(path):
        print(f"mantis: error: no such file: {path}", file=sys.stderr)
        return USAGE_ERROR
    try:
        records = read_records(path)
    except RecordError as exc:
        print(f"mantis: error: {path}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if not records:
        print(f"mantis: error: {path} holds no games", file=sys.stderr)
        return USAGE_ERROR
    if not 1 <= args.game <= len(records):
        count = f"{len(records)} game{'' if len(records) == 1 else 's'}"
        print(
            f"mantis: error: --game {args.game} is out of range: {path} holds {count}",
            file=sys.stderr,
        )
        return USAGE_ERROR
    from .app import MantisApp  # Textual loads only once the file is good

    title = f"{os.path.basename(path)} game {args.game}/{len(records)}"
    app = MantisApp(replay=records[args.game - 1], replay_title=title)
    app.run()
    return app.return_code or 0
