"""``mantis stats [--player NAME] [--json]``: each human player's figures, as a table or as
JSON (the figures and charts: ``follow.stats_report``; in sentences: ``lines/stats.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from ..base.printable import echo
from ..follow.stats_report import (
    CHART_MARKS,
    NO_GAMES,
    can_encode,
    format_stats,
    load_player_stats,
    stats_json,
)
from ..home.stats import StatsError


def run_stats(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """The ``mantis stats`` command, as a table or as JSON (in the line mode, JSON too; its
    sentences are the line mode's: ``lines/stats.py``); the exit status (1 on a database
    error)."""
    out = out if out is not None else sys.stdout
    player: str | None = args.player
    try:
        stats = load_player_stats(player)
    except StatsError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    if args.json:  # (JSON escapes every control character itself)
        echo(json.dumps({"players": [stats_json(s) for s in stats]}), file=out)
    elif not stats:
        message = f"No games recorded yet for {player!r}." if player is not None else NO_GAMES
        echo(message, file=out, lines=False)
    else:
        # Names come from records, some from online tables: nothing in them is obeyed.
        echo(format_stats(stats, unicode=can_encode(out, CHART_MARKS + "±")), file=out)
    return 0
