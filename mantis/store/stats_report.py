"""The ``mantis stats`` command: each human player's figures as a table or JSON.

Also the one home of a player's results chart (``results_chart``), drawn
here as text and by the statistics screen with the chart widget.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .charts import Figure, Series, chart_text
from .stats import PlayerStats, StatsDB, StatsError, Tally, default_stats_path

RECENT = 30
"""Games shown in the results and the chart, most recent last."""
ROLLING_WINDOW = 5
"""Games averaged for each point of the win-rate chart."""
CHART_MARKS = "┌─┤└•"
"""What a text chart is drawn with: a terminal that cannot show these gets none."""
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
        print(format_stats(stats, charts=_can_encode(out, CHART_MARKS)), file=out)
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


def format_stats(stats: Sequence[PlayerStats], *, charts: bool = True) -> str:
    """A readable table of every player, then each player's breakdown (and chart)."""
    name_width = max(len("Player"), *(len(s.name) for s in stats))
    header = (
        f"{'Player':<{name_width}}  Games  Wins  Win %  Streak  Best  Last {RECENT} (oldest first)"
    )
    lines = [header, "-" * len(header)]
    for s in stats:
        lines.append(
            f"{s.name:<{name_width}}  {s.overall.games:>5}  {s.overall.wins:>4}  "
            f"{_percent(s.overall):>5}  {s.current_streak:>6}  {s.best_streak:>4}  "
            f"{results_letters([won for _, won in s.results])}"
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
        results = [won for _, won in s.results]
        if charts and len(results) > 1:
            shown = min(RECENT, len(results))
            lines.append(
                f"{s.name}'s win rate over the last {shown} games "
                f"(each point: the {ROLLING_WINDOW} games up to it):"
            )
            chart = chart_text(*results_chart(results), width=64, height=10)
            lines.extend(f"  {line}" for line in chart.splitlines())
    return "\n".join(lines)


def results_letters(results: Sequence[bool], last: int = RECENT) -> str:
    """The last ``last`` results, oldest first: W for a win, L for a loss."""
    return "".join("W" if won else "L" for won in results[-last:])


def rolling_win_rate(results: Sequence[bool], window: int = ROLLING_WINDOW) -> list[float]:
    """Per game, the win rate over the last ``window`` games up to it (fewer at first)."""
    rates = []
    for i in range(len(results)):
        recent = results[max(0, i + 1 - window) : i + 1]
        rates.append(sum(recent) / len(recent))
    return rates


def results_chart(results: Sequence[bool], last: int = RECENT) -> tuple[list[Series], Figure]:
    """The chart of a player's results: the rolling win rate over their last ``last`` games.

    The horizontal axis counts the player's games (the first and the last
    shown are labelled); the vertical one is the win rate, 0 to 100%.
    """
    rates = rolling_win_rate(results)[-last:]
    first = len(results) - len(rates) + 1
    xs = tuple(float(n) for n in range(first, len(results) + 1))
    ends = sorted({xs[0], xs[-1]}) if xs else []
    figure = Figure(
        y_range=(0.0, 1.0),
        x_ticks=tuple((x, f"game {int(x)}") for x in ends) or None,
        y_ticks=((0.0, "0%"), (0.5, "50%"), (1.0, "100%")),
    )
    return [Series("win rate", tuple(rates), xs)], figure


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
