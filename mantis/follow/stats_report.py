"""Each human player's figures as a table or JSON (what ``mantis stats`` prints:
``cli/stats.py``).

Also the one home of a person's charts (``results_chart``: the win rate
over their games; ``rating_chart``: their rating after each rated game),
drawn here as text and by the statistics screen with the chart widget.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from ..home.local_ratings import RatingPoint
from ..home.stats import PlayerStats, StatsDB, Tally, default_stats_path
from ..rating.scale import Rating
from .charts import Figure, Series, chart_text

RECENT = 30
"""Games shown in the results and the win-rate chart, most recent last."""
ROLLING_WINDOW = 5
"""Games averaged for each point of the win-rate chart."""
CHART_LEAST = 2
"""Games a person needs for a chart of their results: one game is no line."""
CHART_GAMES = 60
"""Rated games shown in a person's rating chart (the latest)."""
CHART_MARKS = "┌─┤└•·"
"""What a text chart is drawn with: a terminal that cannot show these gets none."""
PROVISIONAL_MARK = "?"
NO_GAMES = "No games recorded yet: finish a game with `mantis play` and it will show up here."


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
        "results": [{"date": _date(when), "won": won} for when, won in stats.results],
        "rating": None
        if stats.rating is None
        else {**stats.rating.to_json(), "games": len(stats.ratings)},
        "rating_history": [
            {
                "date": _date(point.finished_at),
                "game": point.game_id,
                "rating": point.rating.shown,
                "plus_minus": point.rating.plus_minus,
            }
            for point in stats.ratings
        ],
    }


def _date(when: datetime) -> str:
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


def _tally_json(tally: Tally) -> dict[str, Any]:
    return {"games": tally.games, "wins": tally.wins, "win_rate": round(tally.win_rate, 4)}


def format_stats(stats: Sequence[PlayerStats], *, unicode: bool = True) -> str:
    """A readable table of every player, then each player's breakdown and charts.

    Without ``unicode`` (a terminal that cannot show them) there are no charts.
    """
    name_width = max(len("Player"), *(len(s.name) for s in stats))
    pm = "±" if unicode else "+/-"
    cells = [_rating_cell(s.rating, unicode=unicode) for s in stats]
    cell_width = max(len("Rating"), *(len(cell) for cell in cells))
    header = (
        f"{'Player':<{name_width}}  {'Rating':>{cell_width}}  Games  Wins  Win %  Streak  Best  "
        f"Last {RECENT} (oldest first)"
    )
    lines = [header, "-" * len(header)]
    for s, cell in zip(stats, cells, strict=True):
        lines.append(
            f"{s.name:<{name_width}}  {cell:>{cell_width}}  {s.overall.games:>5}  "
            f"{s.overall.wins:>4}  {_percent(s.overall):>5}  {s.current_streak:>6}  "
            f"{s.best_streak:>4}  {results_letters([won for _, won in s.results])}"
        )
    if any(s.rating is not None for s in stats):
        lines.append(
            f"Ratings: 1,500 is a new player and the average bot level; the {pm} is where the "
            f"rating lies with 95% belief; {PROVISIONAL_MARK} marks a provisional one "
            "(too few games yet to trust the number)."
        )
    for s in stats:
        lines.append("")
        lines.extend(_rating_lines(s, unicode=unicode))
        lines.append(f"{s.name} against each bot (a game counts for every bot at the table):")
        lines.extend(_breakdown([(bot, t) for bot, t in s.vs_bots]) or ["  no games against bots"])
        if s.vs_people:
            lines.append(f"{s.name} against each person (online or at one keyboard):")
            lines.extend(_breakdown(list(s.vs_people)))
        lines.append(f"{s.name} by table size:")
        lines.extend(_breakdown([(f"{n} players", t) for n, t in s.by_players]))
        results = [won for _, won in s.results]
        if unicode and len(results) >= CHART_LEAST:
            lines.append(f"{s.name}: {results_heading(len(results))}:")
            lines.extend(_indented(chart_text(*results_chart(results), width=64, height=10)))
    return "\n".join(lines)


def _rating_cell(rating: Rating | None, *, unicode: bool) -> str:
    if rating is None:
        return "-"
    mark = PROVISIONAL_MARK if rating.provisional else ""
    return f"{_plus_minus(rating, unicode=unicode)}{mark}"


def _plus_minus(rating: Rating, *, unicode: bool) -> str:
    """``1,612 ± 84`` (``+/-`` where ``±`` cannot be shown)."""
    return f"{rating.shown:,} {'±' if unicode else '+/-'} {rating.plus_minus}"


def _rating_lines(stats: PlayerStats, *, unicode: bool) -> list[str]:
    """A person's rating in words, then its history as a chart."""
    rating = stats.rating
    if rating is None:
        return [
            f"{stats.name} has no rating yet: only games in this app against bots "
            "or people at this keyboard are rated."
        ]
    games = len(stats.ratings)
    # "Ann: rating …", never "Ann's rating": the name may be "You".
    lines = [
        f"{stats.name}: rating {_plus_minus(rating, unicode=unicode)}"
        f"{' (provisional)' if rating.provisional else ''} after {games} rated "
        f"game{'s' if games != 1 else ''}."
    ]
    points = stats.ratings[-CHART_GAMES:]
    if unicode and len(points) > 1:
        latest = f"the last {len(points)}" if games > len(points) else "every one"
        lines.append(
            f"{stats.name}: rating after each rated game ({latest}, oldest first; "
            "the small dots: where it lies with 95% belief):"
        )
        lines.extend(_indented(chart_text(*rating_chart(points), width=64, height=10)))
    return lines


def _indented(chart: str) -> list[str]:
    return [f"  {line}" for line in chart.splitlines()]


def results_letters(results: Sequence[bool], last: int = RECENT) -> str:
    """The last ``last`` results, oldest first: W for a win, L for a loss."""
    return "".join("W" if won else "L" for won in results[-last:])


def results_heading(games: int) -> str:
    """What the results chart of a person with ``games`` games shows, in words (the chart
    is drawn from ``CHART_LEAST`` games): "win rate over the last 30 games (…)"."""
    shown = min(RECENT, games)
    return (
        f"win rate over the last {shown} games (each point: that game and up to "
        f"{ROLLING_WINDOW - 1} before it)"
    )


def rolling_win_rate(results: Sequence[bool], window: int = ROLLING_WINDOW) -> list[float]:
    """Per game, the win rate over the last ``window`` games up to it (fewer at first)."""
    rates = []
    for i in range(len(results)):
        recent = results[max(0, i + 1 - window) : i + 1]
        rates.append(sum(recent) / len(recent))
    return rates


def results_chart(results: Sequence[bool], last: int = RECENT) -> tuple[list[Series], Figure]:
    """The chart of a person's results: the rolling win rate over their last ``last`` games.

    The horizontal axis counts the person's games (the first and the last
    shown are labelled); the vertical one is the win rate, 0 to 100%.
    """
    rates = rolling_win_rate(results)[-last:]
    first = len(results) - len(rates) + 1
    xs = tuple(float(n) for n in range(first, len(results) + 1))
    figure = Figure(
        y_range=(0.0, 1.0),
        x_ticks=_ends(xs, "game"),
        y_ticks=((0.0, "0%"), (0.5, "50%"), (1.0, "100%")),
    )
    return [Series("win rate", tuple(rates), xs)], figure


def rating_chart(points: Sequence[RatingPoint]) -> tuple[list[Series], Figure]:
    """The chart of a rating over time: the rating after each rated game, and its band.

    The band is where the rating lies with 95% belief (the ``±``).  The
    horizontal axis counts the rated games shown, oldest first, its ends
    labelled with their dates; the vertical one is marked in round numbers.
    """
    shown = tuple(float(point.rating.shown) for point in points)
    lower = tuple(float(point.rating.shown - point.rating.plus_minus) for point in points)
    upper = tuple(float(point.rating.shown + point.rating.plus_minus) for point in points)
    xs = tuple(float(n) for n in range(1, len(points) + 1))
    series = Series("rating", shown, xs, band=(lower, upper))
    ends = sorted({0, len(points) - 1}) if points else []
    x_ticks = tuple((xs[i], f"{points[i].finished_at:%Y-%m-%d}") for i in ends) or None
    y_range, y_ticks = _round_axis(min(lower, default=0.0), max(upper, default=0.0))
    return [series], Figure(y_range=y_range, x_ticks=x_ticks, y_ticks=y_ticks)


def _round_axis(
    low: float, high: float, most: int = 5
) -> tuple[tuple[float, float], tuple[tuple[float, str], ...]]:
    """A range from ``low`` to ``high`` widened to round numbers, and at most ``most`` ticks."""
    for step in (50, 100, 200, 250, 500, 1000, 2000, 5000):
        bottom = math.floor(low / step) * step
        top = max(math.ceil(high / step) * step, bottom + step)
        if (top - bottom) // step + 1 <= most:
            break
    ticks = tuple((float(y), f"{y:,}") for y in range(bottom, top + 1, step))
    return (float(bottom), float(top)), ticks


def _ends(xs: tuple[float, ...], what: str) -> tuple[tuple[float, str], ...] | None:
    """Ticks at the first and last x ("game 11", "game 40")."""
    ends = sorted({xs[0], xs[-1]}) if xs else []
    return tuple((x, f"{what} {int(x)}") for x in ends) or None


def _breakdown(rows: list[tuple[str, Tally]]) -> list[str]:
    width = max((len(label) for label, _ in rows), default=0)
    return [
        f"  {label:<{width}}  won {t.wins:>3} of {t.games:>3}  {_percent(t):>4}"
        for label, t in rows
    ]


def _percent(tally: Tally) -> str:
    return f"{round(100 * tally.win_rate)}%"


def can_encode(stream: TextIO, text: str) -> bool:
    """Whether ``stream`` can show ``text`` (a terminal in an ASCII locale cannot)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
