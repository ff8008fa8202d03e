"""The ``mantis stats`` command: each human player's figures as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .stats import PlayerStats, StatsDB, StatsError, Tally, default_stats_path

RECENT = 20
"""Games shown in the sparkline of recent results."""
WIN_MARK, LOSS_MARK = "█", "▁"
NO_GAMES = "No games recorded yet: finish a game with `mantis play` and it will show up here."


def run_stats(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """The ``mantis stats`` command; returns the exit status (1 on a database error)."""
    out = out if out is not None else sys.stdout
    player: str | None = args.player
    try:
        stats = load_player_stats(player)
    except StatsError as exc:
        print(f"mantis: error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"players": [stats_json(s) for s in stats]}), file=out)
    elif not stats:
        message = f"No games recorded yet for {player!r}." if player is not None else NO_GAMES
        print(message, file=out)
    else:
        print(format_stats(stats, unicode=_can_encode(out, WIN_MARK + LOSS_MARK)), file=out)
    return 0


def load_player_stats(name: str | None = None, path: Path | None = None) -> list[PlayerStats]:
    """Every human player's figures (or ``name``'s); no database yet means no games.

    Reading never creates the database: ``mantis stats`` on a fresh install
    leaves nothing behind.
    """
    target = path if path is not None else default_stats_path()
    if not target.exists():
        return []
    with StatsDB(target) as db:
        return db.player_stats(name)


def stats_json(stats: PlayerStats) -> dict[str, Any]:
    """One player's figures as plain JSON values (dates in ISO 8601, UTC)."""
    return {
        "name": stats.name,
        **_tally_json(stats.overall),
        "current_streak": stats.current_streak,
        "best_streak": stats.best_streak,
        "vs_bots": {bot: _tally_json(t) for bot, t in stats.vs_bots},
        "vs_people": {person: _tally_json(t) for person, t in stats.vs_people},
        "by_players": {str(n): _tally_json(t) for n, t in stats.by_players},
        "results": [
            {"date": when.isoformat(timespec="seconds").replace("+00:00", "Z"), "won": won}
            for when, won in stats.results
        ],
    }


def _tally_json(tally: Tally) -> dict[str, Any]:
    return {"games": tally.games, "wins": tally.wins, "win_rate": round(tally.win_rate, 4)}


def format_stats(stats: Sequence[PlayerStats], *, unicode: bool = True) -> str:
    """A readable table of every player, then each player's breakdown."""
    name_width = max(len("Player"), *(len(s.name) for s in stats))
    header = (
        f"{'Player':<{name_width}}  Games  Wins  Win %  Streak  Best  Last {RECENT} (oldest first)"
    )
    lines = [header, "-" * len(header)]
    for s in stats:
        lines.append(
            f"{s.name:<{name_width}}  {s.overall.games:>5}  {s.overall.wins:>4}  "
            f"{_percent(s.overall):>5}  {s.current_streak:>6}  {s.best_streak:>4}  "
            f"{sparkline([won for _, won in s.results], unicode=unicode)}"
        )
    for s in stats:
        lines.append("")
        lines.append(f"{s.name} against each bot (a game counts for every bot at the table):")
        lines.extend(_breakdown([(bot, t) for bot, t in s.vs_bots]) or ["  no games against bots"])
        if s.vs_people:
            lines.append(f"{s.name} against each person (online or at one keyboard):")
            lines.extend(_breakdown(list(s.vs_people)))
        lines.append(f"{s.name} by table size:")
        lines.extend(_breakdown([(f"{n} players", t) for n, t in s.by_players]))
    return "\n".join(lines)


def sparkline(results: Sequence[bool], *, unicode: bool = True, width: int = RECENT) -> str:
    """The last ``width`` results, oldest first: a tall bar (or W) per win, a low one (or L)."""
    win, loss = (WIN_MARK, LOSS_MARK) if unicode else ("W", "L")
    return "".join(win if won else loss for won in results[-width:])


def _breakdown(rows: list[tuple[str, Tally]]) -> list[str]:
    width = max((len(label) for label, _ in rows), default=0)
    return [
        f"  {label:<{width}}  won {t.wins:>3} of {t.games:>3}  {_percent(t):>4}"
        for label, t in rows
    ]


def _percent(tally: Tally) -> str:
    return f"{round(100 * tally.win_rate)}%"


def _can_encode(stream: TextIO, text: str) -> bool:
    """Whether ``stream`` can show ``text`` (a terminal in an ASCII locale cannot)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
