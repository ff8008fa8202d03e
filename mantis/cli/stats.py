"""``mantis stats [--player NAME] [--json]``: each human player's figures, as a table, as
JSON, or in sentences in the line mode (the figures and charts: ``follow.stats_report``)."""

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


def run_stats(args: argparse.Namespace, out: TextIO | None = None, *, lines: bool = False) -> int:
    """The ``mantis stats`` command; returns the exit status (1 on a database error).

    JSON whatever the mode; in lines (``lines``), each person's figures in sentences."""
    if lines and not args.json:
        from ..lines.launch import run_stats as say_stats

        return say_stats(args)
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
